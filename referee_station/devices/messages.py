"""Typed messages carried in frames: one frozen dataclass per message kind (PROTOCOL.md, "Messages").

Each class knows its ``KIND`` byte, who may send it (``SENT_BY``), whether it is acknowledged and
retransmitted (``RELIABLE``), and how to pack and unpack its payload. :func:`decode` turns a
:class:`~referee_station.devices.frames.Frame` into a message and raises
:class:`~referee_station.devices.errors.ProtocolError` on anything that does not fit, so a frame with a good CRC but a
bad payload is still counted, not trusted. Device times are microseconds on the table hub's own clock (``device_us``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from referee_station.core import Clock
from referee_station.devices.errors import ProtocolError
from referee_station.devices.frames import Frame
from referee_station.table.events import SEATS

PROTOCOL_VERSION = 1
TIMER = 0x01
SEAT_UNIT = {"E": 0x02, "S": 0x03, "W": 0x04, "N": 0x05}
BROADCAST = 0xFF
MAX_TEXT = 32
MAX_REPORT = 27


class Kind(IntEnum):
    """The message kind byte of the frame header."""

    HELLO = 0x01
    HEARTBEAT = 0x02
    ACK = 0x03
    SYNC_REQUEST = 0x04
    SYNC_REPLY = 0x05
    COUNTDOWN = 0x10
    STOP = 0x11
    SHOW = 0x12
    BEEP = 0x13
    PAUSE = 0x14
    PASS_PRESSED = 0x20
    REPORT_ENTERED = 0x21


class UnitType(IntEnum):
    """What a unit is, as its hello says."""

    STATION = 0
    """The referee station at the other end of the serial line."""
    TIMER = 1
    """The table's play timer: countdown display and beeper."""
    SEAT = 2
    """A seat unit: the pass button 过 and the 报牌 keypad with its small display."""


_ACTION_CODES = list(Clock)
"""A countdown's action (the core's ``Clock``) on the wire: its place in this list."""


class AckStatus(IntEnum):
    """Whether the receiver carried out an acknowledged message."""

    OK = 0
    REJECTED = 1
    """Received intact but not carried out: wrong unit for the command, or a value out of range."""


def _seat_byte(seat: str) -> bytes:
    if seat not in SEATS:
        raise ProtocolError(f"seat {seat!r} is not one of {' '.join(SEATS)}")
    return seat.encode()


def _seat_from(byte: int) -> str:
    seat = chr(byte)
    if seat not in SEATS:
        raise ProtocolError(f"seat byte {byte:#04x} is not one of {' '.join(SEATS)}")
    return seat


def _text(data: bytes, what: str) -> str:
    try:
        return data.decode()
    except UnicodeDecodeError as err:
        raise ProtocolError(f"{what} is not UTF-8") from err


@dataclass(frozen=True, slots=True)
class Message:
    """Base of all messages; subclasses set the class variables and (un)pack their payload."""

    KIND: ClassVar[Kind]
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"station", "device"})
    RELIABLE: ClassVar[bool] = False
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">")

    def pack(self) -> bytes:
        return self.FORMAT.pack(*(getattr(self, name) for name in self.__slots__))

    @classmethod
    def unpack(cls, payload: bytes) -> Message:
        if len(payload) != cls.FORMAT.size:
            raise ProtocolError(f"{cls.__name__} payload of {len(payload)} bytes, expected {cls.FORMAT.size}")
        return cls(*cls.FORMAT.unpack(payload))


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """A unit names itself (sent by the hub for each unit when the station says hello, and after a reboot).

    ``boot_id`` changes on every power-up; a new one tells the receiver that the sender's sequence
    numbers restarted, so its duplicate filter must be cleared (no event may be dropped as a "duplicate").
    The station sends its own hello (``unit_type`` STATION) to ask the hub for the units' hellos.
    """

    KIND: ClassVar[Kind] = Kind.HELLO
    HEAD: ClassVar[struct.Struct] = struct.Struct(">BBcI")
    unit_type: UnitType
    seat: str
    firmware: str
    serial: str
    boot_id: int
    protocol: int = PROTOCOL_VERSION

    def pack(self) -> bytes:
        seat = self.seat.encode() if self.seat else b"-"
        firmware, serial = self.firmware.encode(), self.serial.encode()
        if len(firmware) > MAX_TEXT or len(serial) > MAX_TEXT:
            raise ProtocolError("firmware or serial number longer than 32 bytes")
        head = self.HEAD.pack(self.protocol, self.unit_type, seat, self.boot_id)
        return head + bytes([len(firmware)]) + firmware + bytes([len(serial)]) + serial

    @classmethod
    def unpack(cls, payload: bytes) -> Hello:
        try:
            protocol, unit_type, seat, boot_id = cls.HEAD.unpack_from(payload)
            pos = cls.HEAD.size
            firmware = payload[pos + 1 : pos + 1 + payload[pos]]
            pos += 1 + payload[pos]
            serial = payload[pos + 1 : pos + 1 + payload[pos]]
            pos += 1 + payload[pos]
            kind = UnitType(unit_type)
        except (struct.error, IndexError, ValueError) as err:
            raise ProtocolError(f"bad hello payload {payload.hex()}") from err
        if pos != len(payload):
            raise ProtocolError("hello payload has trailing bytes")
        seat_text = "" if seat == b"-" else _seat_from(seat[0])
        if (kind == UnitType.SEAT) != bool(seat_text):
            raise ProtocolError("a seat unit names its seat, and only a seat unit does")
        return cls(kind, seat_text, _text(firmware, "firmware"), _text(serial, "serial"), boot_id, protocol)


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    """I am alive. From the hub it carries its clock and how many events it had to drop (buffer full)."""

    KIND: ClassVar[Kind] = Kind.HEARTBEAT
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">QI")
    device_us: int = 0
    dropped: int = 0


@dataclass(frozen=True, slots=True)
class Ack(Message):
    """Acknowledges the reliable frame with sequence number ``seq`` (sent again for a duplicate)."""

    KIND: ClassVar[Kind] = Kind.ACK
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">HB")
    seq: int
    status: AckStatus = AckStatus.OK

    @classmethod
    def unpack(cls, payload: bytes) -> Ack:
        if len(payload) != cls.FORMAT.size:
            raise ProtocolError(f"Ack payload of {len(payload)} bytes")
        seq, status = cls.FORMAT.unpack(payload)
        try:
            return cls(seq, AckStatus(status))
        except ValueError as err:
            raise ProtocolError(f"unknown ack status {status}") from err


@dataclass(frozen=True, slots=True)
class SyncRequest(Message):
    """Station to hub: "what time is it on your clock?" (token matches the reply to its send time)."""

    KIND: ClassVar[Kind] = Kind.SYNC_REQUEST
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"station"})
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">H")
    token: int


@dataclass(frozen=True, slots=True)
class SyncReply(Message):
    """Hub to station: its clock (µs) when it answered the request ``token``."""

    KIND: ClassVar[Kind] = Kind.SYNC_REPLY
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"device"})
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">HQ")
    token: int
    device_us: int


@dataclass(frozen=True, slots=True)
class Countdown(Message):
    """Start the timer's countdown for ``seat`` (R-TIME-1/2) running into a grace countdown (R-TIME-3).

    ``deadline_us`` is the end of the limit on the hub's clock, so the display is right however late
    the frame arrives; the timer beeps at the deadline and again when the grace has run out.
    """

    KIND: ClassVar[Kind] = Kind.COUNTDOWN
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"station"})
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">cBIIQ")
    seat: str
    action: Clock
    limit_ms: int
    grace_ms: int
    deadline_us: int

    def pack(self) -> bytes:
        code = _ACTION_CODES.index(self.action)
        return self.FORMAT.pack(_seat_byte(self.seat), code, self.limit_ms, self.grace_ms, self.deadline_us)

    @classmethod
    def unpack(cls, payload: bytes) -> Countdown:
        if len(payload) != cls.FORMAT.size:
            raise ProtocolError(f"Countdown payload of {len(payload)} bytes")
        seat, action, limit_ms, grace_ms, deadline_us = cls.FORMAT.unpack(payload)
        if action >= len(_ACTION_CODES):
            raise ProtocolError(f"unknown countdown action {action}")
        return cls(_seat_from(seat[0]), _ACTION_CODES[action], limit_ms, grace_ms, deadline_us)


@dataclass(frozen=True, slots=True)
class Stop(Message):
    """Stop the countdown (the action was taken); the display keeps the time left."""

    KIND: ClassVar[Kind] = Kind.STOP
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"station"})
    RELIABLE: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Pause(Message):
    """Freeze the countdown (the referee paused the table, e.g. while a ruling is pending): the display
    keeps the time left and nothing beeps. The next ``Countdown`` starts it again: resuming and added
    time are countdowns with the deadline the referee moved, so the deadline has one owner."""

    KIND: ClassVar[Kind] = Kind.PAUSE
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"station"})
    RELIABLE: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Show(Message):
    """Show a short text or number on the timer (at most 32 UTF-8 bytes)."""

    KIND: ClassVar[Kind] = Kind.SHOW
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"station"})
    RELIABLE: ClassVar[bool] = True
    text: str

    def pack(self) -> bytes:
        data = self.text.encode()
        if len(data) > MAX_TEXT:
            raise ProtocolError(f"text of {len(data)} bytes, the timer shows at most {MAX_TEXT}")
        return data

    @classmethod
    def unpack(cls, payload: bytes) -> Show:
        if len(payload) > MAX_TEXT:
            raise ProtocolError(f"text of {len(payload)} bytes")
        return cls(_text(payload, "text"))


@dataclass(frozen=True, slots=True)
class Beep(Message):
    """Beep ``count`` times for ``duration_ms`` each."""

    KIND: ClassVar[Kind] = Kind.BEEP
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"station"})
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">BH")
    count: int = 1
    duration_ms: int = 200


@dataclass(frozen=True, slots=True)
class PassPressed(Message):
    """The seat's pass button 过 was pressed (debounced on the unit) at ``device_us``."""

    KIND: ClassVar[Kind] = Kind.PASS_PRESSED
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"device"})
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">cQ")
    seat: str
    device_us: int

    def pack(self) -> bytes:
        return self.FORMAT.pack(_seat_byte(self.seat), self.device_us)

    @classmethod
    def unpack(cls, payload: bytes) -> PassPressed:
        if len(payload) != cls.FORMAT.size:
            raise ProtocolError(f"PassPressed payload of {len(payload)} bytes")
        seat, device_us = cls.FORMAT.unpack(payload)
        return cls(_seat_from(seat[0]), device_us)


@dataclass(frozen=True, slots=True)
class ReportEntered(Message):
    """The seat entered its 报牌 report ``count`` (cards left, R-REPORT-1) on the keypad at ``device_us``."""

    KIND: ClassVar[Kind] = Kind.REPORT_ENTERED
    SENT_BY: ClassVar[frozenset[str]] = frozenset({"device"})
    RELIABLE: ClassVar[bool] = True
    FORMAT: ClassVar[struct.Struct] = struct.Struct(">cBQ")
    seat: str
    count: int
    device_us: int

    def pack(self) -> bytes:
        if not 0 <= self.count <= MAX_REPORT:
            raise ProtocolError(f"report of {self.count} cards, a hand has at most {MAX_REPORT}")
        return self.FORMAT.pack(_seat_byte(self.seat), self.count, self.device_us)

    @classmethod
    def unpack(cls, payload: bytes) -> ReportEntered:
        if len(payload) != cls.FORMAT.size:
            raise ProtocolError(f"ReportEntered payload of {len(payload)} bytes")
        seat, count, device_us = cls.FORMAT.unpack(payload)
        if count > MAX_REPORT:
            raise ProtocolError(f"report of {count} cards")
        return cls(_seat_from(seat[0]), count, device_us)


MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.KIND: cls
    for cls in (
        Hello,
        Heartbeat,
        Ack,
        SyncRequest,
        SyncReply,
        Countdown,
        Stop,
        Show,
        Beep,
        Pause,
        PassPressed,
        ReportEntered,
    )
}


def encode(message: Message, unit: int, seq: int = 0, *, from_device: bool) -> Frame:
    """The frame carrying ``message`` to or from ``unit``; reliable messages need a non-zero ``seq``."""
    if message.RELIABLE and not seq:
        raise ValueError(f"{type(message).__name__} is acknowledged and needs a sequence number")
    return Frame(
        message.KIND, unit, seq if message.RELIABLE else 0, message.pack(), from_device, ack_requested=message.RELIABLE
    )


def decode(frame: Frame) -> Message:
    """The message in ``frame``; ``ProtocolError`` for an unknown kind, a bad payload, or a wrong sender."""
    cls = MESSAGE_TYPES.get(frame.kind)
    if cls is None:
        raise ProtocolError(f"unknown message kind {frame.kind:#04x}")
    sender = "device" if frame.from_device else "station"
    if sender not in cls.SENT_BY:
        raise ProtocolError(f"{cls.__name__} is never sent by the {sender}")
    if frame.ack_requested != cls.RELIABLE or (cls.RELIABLE and not frame.seq):
        raise ProtocolError(f"{cls.__name__} with wrong acknowledgement flag or sequence number 0")
    return cls.unpack(frame.payload)
