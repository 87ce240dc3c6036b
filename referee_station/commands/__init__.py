"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import check, emulate_devices, hall, log, replay, simulate, watch_devices

COMMANDS = [check, replay, simulate, log, emulate_devices, watch_devices, hall]
