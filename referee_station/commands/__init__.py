"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import (
    calibrate,
    check,
    emulate_devices,
    log,
    read_frame,
    replay,
    simulate,
    train,
    watch_devices,
)

COMMANDS = [check, replay, simulate, log, read_frame, train, calibrate, emulate_devices, watch_devices]
