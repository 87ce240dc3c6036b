"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import calibrate, check, emulate_devices, read_frame, replay, simulate, train

COMMANDS = [check, replay, simulate, read_frame, train, calibrate, emulate_devices]
