"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import check, hall

COMMANDS = [check, hall]
