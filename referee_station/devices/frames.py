"""Frames on the wire: COBS byte stuffing between 0x00 delimiters, a 5-byte header and a CRC-16.

On the wire a frame is ``00 | COBS(header + payload + crc) | 00``. COBS removes every 0x00 from the
body, so a 0x00 always means "frame boundary" and the parser resynchronises on the very next delimiter
after any garbage, whatever the garbage was. The frame is sent with a delimiter on *both* sides, so
noise in front of a frame ends at the frame's leading 0x00 and cannot swallow it.

Header (big-endian): ``kind u8 | flags u8 | unit u8 | seq u16``; ``flags`` bit 0 is set on frames sent
by the table hardware, bit 1 asks for an acknowledgement. ``seq`` is 0 on frames that are not
acknowledged (heartbeats, acknowledgements, clock sync). The CRC covers header and payload.

:class:`FrameParser` does no I/O (like h11's receive buffer or pyserial's ``Packetizer``): it is fed
bytes and returns frames, and counts everything it throws away, so nothing is skipped silently.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from referee_station.devices.crc import CRC_SIZE, crc16

DELIMITER = 0x00
HEADER = struct.Struct(">BBBH")
FLAG_FROM_DEVICE = 0x01
FLAG_ACK_REQUESTED = 0x02
MAX_PAYLOAD = 240
MAX_BODY = HEADER.size + MAX_PAYLOAD + CRC_SIZE
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 1


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` without any 0x00, one byte longer per 254 bytes."""
    out = bytearray(b"\x01")
    code_at = 0
    for byte in data:
        if byte:
            out.append(byte)
            out[code_at] += 1
            if out[code_at] == 0xFF:
                code_at = len(out)
                out.append(1)
        else:
            code_at = len(out)
            out.append(1)
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; raises ``ValueError`` on a 0x00 or a block that runs past the end."""
    if 0 in data:
        raise ValueError("0x00 inside a COBS frame")
    out = bytearray()
    pos, end = 0, len(data)
    while pos < end:
        code = data[pos]
        stop = pos + code
        if stop > end:
            raise ValueError("COBS block runs past the end of the frame")
        out += data[pos + 1 : stop]
        pos = stop
        if code != 0xFF and pos < end:
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: its message ``kind``, the ``unit`` it comes from or goes to, ``seq`` and raw ``payload``."""

    kind: int
    unit: int
    seq: int = 0
    payload: bytes = b""
    from_device: bool = False
    ack_requested: bool = False

    def __post_init__(self) -> None:
        if not (0 <= self.kind <= 0xFF and 0 <= self.unit <= 0xFF and 0 <= self.seq <= 0xFFFF):
            raise ValueError(f"frame header out of range: kind={self.kind} unit={self.unit} seq={self.seq}")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes, at most {MAX_PAYLOAD}")

    @property
    def flags(self) -> int:
        return (FLAG_FROM_DEVICE if self.from_device else 0) | (FLAG_ACK_REQUESTED if self.ack_requested else 0)

    def body(self) -> bytes:
        """Header, payload and CRC, before byte stuffing."""
        body = HEADER.pack(self.kind, self.flags, self.unit, self.seq) + self.payload
        return body + crc16(body).to_bytes(CRC_SIZE, "big")

    def encode(self) -> bytes:
        """The bytes to write: delimiter, COBS-encoded body, delimiter."""
        return b"\x00" + cobs_encode(self.body()) + b"\x00"

    @classmethod
    def from_body(cls, body: bytes) -> Frame:
        """Parse a de-stuffed body whose CRC has been checked; unknown flag bits are a ``ValueError``."""
        kind, flags, unit, seq = HEADER.unpack_from(body)
        if flags & ~(FLAG_FROM_DEVICE | FLAG_ACK_REQUESTED):
            raise ValueError(f"unknown flag bits {flags:#04x}")
        return cls(
            kind,
            unit,
            seq,
            bytes(body[HEADER.size : -CRC_SIZE]),
            from_device=bool(flags & FLAG_FROM_DEVICE),
            ack_requested=bool(flags & FLAG_ACK_REQUESTED),
        )


@dataclass(slots=True)
class ParserStats:
    """What the parser saw: good frames, and every byte and frame it had to throw away."""

    frames: int = 0
    garbage_bytes: int = 0
    bad_crc: int = 0
    malformed: int = 0
    oversized: int = 0


@dataclass
class FrameParser:
    """Incremental, I/O-free frame parser: ``feed(bytes) -> list[Frame]``.

    Invariants: every byte fed other than a 0x00 delimiter ends up in a returned frame, in
    ``stats.garbage_bytes``, or still buffered (at most :data:`MAX_ENCODED` bytes); a chunk between
    two delimiters that is not a good frame is counted once, in ``bad_crc`` (the body decodes but
    the checksum fails), ``malformed`` (bad COBS, too short, unknown flags) or ``oversized`` (no
    delimiter within ``MAX_ENCODED`` bytes).
    """

    stats: ParserStats = field(default_factory=ParserStats)
    _buffer: bytearray = field(default_factory=bytearray, repr=False)
    _discarding: bool = field(default=False, repr=False)

    def reset(self) -> None:
        """Forget a partial frame (the port was reopened); its bytes are counted as garbage."""
        self.stats.garbage_bytes += len(self._buffer)
        self._buffer.clear()
        self._discarding = False

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        start = 0
        while True:
            end = data.find(DELIMITER, start)
            if end < 0:
                self._append(data[start:])
                return frames
            chunk = data[start:end]
            start = end + 1
            if self._discarding:
                self.stats.garbage_bytes += len(chunk)
                self._discarding = False
                continue
            if self._buffer:
                self._buffer += chunk
                chunk = bytes(self._buffer)
                self._buffer.clear()
            if chunk:
                frame = self._decode(chunk)
                if frame is not None:
                    frames.append(frame)

    def _append(self, data: bytes) -> None:
        if self._discarding:
            self.stats.garbage_bytes += len(data)
            return
        self._buffer += data
        if len(self._buffer) > MAX_ENCODED:
            self.stats.oversized += 1
            self.stats.garbage_bytes += len(self._buffer)
            self._buffer.clear()
            self._discarding = True

    def _decode(self, chunk: bytes) -> Frame | None:
        if len(chunk) > MAX_ENCODED:
            self.stats.oversized += 1
            self.stats.garbage_bytes += len(chunk)
            return None
        try:
            body = cobs_decode(chunk)
        except ValueError:
            body = b""
        if len(body) < HEADER.size + CRC_SIZE:
            self.stats.malformed += 1
            self.stats.garbage_bytes += len(chunk)
            return None
        if crc16(body[:-CRC_SIZE]) != int.from_bytes(body[-CRC_SIZE:], "big"):
            self.stats.bad_crc += 1
            self.stats.garbage_bytes += len(chunk)
            return None
        try:
            frame = Frame.from_body(body)
        except ValueError:
            self.stats.malformed += 1
            self.stats.garbage_bytes += len(chunk)
            return None
        self.stats.frames += 1
        return frame
