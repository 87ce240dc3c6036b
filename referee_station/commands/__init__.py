"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import (
    calibrate,
    check,
    demo,
    emulate_devices,
    event,
    hall,
    log,
    read_frame,
    register_deck,
    render_video,
    replay,
    run,
    simulate,
    station,
    train,
    watch_devices,
)

COMMANDS = [
    demo,
    station,
    check,
    replay,
    simulate,
    log,
    read_frame,
    register_deck,
    train,
    calibrate,
    run,
    render_video,
    emulate_devices,
    watch_devices,
    hall,
    event,
]
