"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import check, emulate_devices, replay, simulate

COMMANDS = [check, replay, simulate, emulate_devices]
