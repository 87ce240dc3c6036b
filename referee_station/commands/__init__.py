"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import check, read_frame, register_deck, train

COMMANDS = [check, read_frame, register_deck, train]
