"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import (
    check,
    demo,
    emulate_devices,
    hall,
    log,
    read_frame,
    replay,
    simulate,
    train,
    watch_devices,
)

COMMANDS = [demo, check, replay, simulate, log, read_frame, train, emulate_devices, watch_devices, hall]
