"""The subcommands of ``referee-station``, in the order ``--help`` lists them."""

from referee_station.commands import check, demo, emulate_devices, hall, log, replay, simulate, watch_devices

COMMANDS = [demo, check, replay, simulate, log, emulate_devices, watch_devices, hall]
