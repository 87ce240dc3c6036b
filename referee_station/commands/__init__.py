"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import calibrate, check, emulate_devices, replay, simulate

COMMANDS = [check, replay, simulate, calibrate, emulate_devices]
