"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import check, emulate_devices, watch_devices

COMMANDS = [check, emulate_devices, watch_devices]
