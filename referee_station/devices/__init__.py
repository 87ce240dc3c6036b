"""Table hardware over one serial line: the play timer and four seat units (issue 4).

Layers, each in its own module (PROTOCOL.md says what goes on the wire):

- ``crc``, ``frames``: CRC-16 and COBS framing; ``FrameParser`` is fed bytes, returns frames, no I/O.
- ``messages``: one frozen dataclass per message; ``encode`` / ``decode`` to and from frames.
- ``clock``, ``reliable``: clock synchronisation, sequence numbers, acknowledgements, duplicates.
- ``link``: the thread that owns the port, retransmits, heartbeats and reconnects.
- ``table_devices``: ``TableDevices``, EVENTS.md ``pass`` / ``report`` in, ``countdown`` out.
- ``emulator``: the hardware on a pseudo-terminal, for the demo and the tests.
"""

from referee_station.devices.errors import DeviceError, DeviceTimeoutError, PortUnavailableError, ProtocolError
from referee_station.devices.link import LinkConfig, LinkStats, LinkStatus
from referee_station.devices.table_devices import TableDevices

__all__ = [
    "DeviceError",
    "DeviceTimeoutError",
    "LinkConfig",
    "LinkStats",
    "LinkStatus",
    "PortUnavailableError",
    "ProtocolError",
    "TableDevices",
]
