"""Messages: each packs and unpacks to itself; a bad payload or a wrong sender is a ProtocolError."""

from __future__ import annotations

import pytest

from referee_station.core import Clock
from referee_station.devices.errors import ProtocolError
from referee_station.devices.frames import Frame
from referee_station.devices.messages import (
    Ack,
    AckStatus,
    Beep,
    Countdown,
    Heartbeat,
    Hello,
    Kind,
    Message,
    PassPressed,
    ReportEntered,
    Show,
    Stop,
    SyncReply,
    SyncRequest,
    UnitType,
    decode,
    encode,
)

FROM_STATION = [
    Hello(UnitType.STATION, "", "station-0.1", "station", 7),
    Heartbeat(),
    Ack(17),
    SyncRequest(3),
    Countdown("E", Clock.FOLLOW, 20_000, 10_000, 123_456_789),
    Countdown("N", Clock.GRACE, 10_000, 0, 1),
    Stop(),
    Show("报 8"),
    Beep(3, 150),
]
FROM_DEVICE = [
    Hello(UnitType.SEAT, "W", "1.4.2", "GD-T1-W-0001", 0xDEADBEEF),
    Hello(UnitType.TIMER, "", "1.4.2", "GD-T1-T-0001", 1),
    Heartbeat(2**40, 3),
    Ack(65535, AckStatus.REJECTED),
    SyncReply(3, 2**50),
    PassPressed("S", 99),
    ReportEntered("E", 8, 100),
]


@pytest.mark.parametrize(
    ("message", "from_device"), [(m, False) for m in FROM_STATION] + [(m, True) for m in FROM_DEVICE], ids=repr
)
def test_round_trip(message: Message, from_device: bool) -> None:
    frame = encode(message, 1, 9, from_device=from_device)
    assert frame.ack_requested == message.RELIABLE
    assert decode(frame) == message


@pytest.mark.parametrize(
    "frame",
    [
        Frame(0x7F, 1),  # unknown kind
        Frame(Kind.PASS_PRESSED, 2, 1, PassPressed("E", 1).pack(), from_device=False, ack_requested=True),  # sender
        Frame(Kind.PASS_PRESSED, 2, 0, PassPressed("E", 1).pack(), from_device=True, ack_requested=True),  # seq 0
        Frame(Kind.PASS_PRESSED, 2, 1, PassPressed("E", 1).pack(), from_device=True),  # not acknowledged
        Frame(Kind.PASS_PRESSED, 2, 1, b"X" + bytes(8), from_device=True, ack_requested=True),  # seat X
        Frame(Kind.REPORT_ENTERED, 2, 1, b"E\x1c" + bytes(8), from_device=True, ack_requested=True),  # 28 cards
        Frame(Kind.COUNTDOWN, 1, 1, b"E\x09" + bytes(16), ack_requested=True),  # unknown action
        Frame(Kind.HEARTBEAT, 1, 0, b"\x00"),  # short payload
        Frame(Kind.ACK, 1, 0, b"\x00\x01\x07"),  # unknown ack status
        Frame(Kind.SHOW, 1, 1, b"\xff\xfe", ack_requested=True),  # not UTF-8
        Frame(Kind.HELLO, 1, 0, b"\x01\x02E"),  # truncated hello
        Frame(Kind.HELLO, 1, 0, Hello(UnitType.TIMER, "", "f", "s", 1).pack() + b"!", from_device=True),  # trailing
        Frame(Kind.HELLO, 1, 0, b"\x01\x02-" + bytes(4) + b"\x00\x00", from_device=True),  # seat unit without seat
    ],
)
def test_bad_frames_are_protocol_errors(frame: Frame) -> None:
    with pytest.raises(ProtocolError):
        decode(frame)


def test_reliable_messages_need_a_sequence_number() -> None:
    with pytest.raises(ValueError):
        encode(Stop(), 1, from_device=False)


@pytest.mark.parametrize(
    "message",
    [Show("x" * 33), ReportEntered("E", 28, 0), PassPressed("Q", 0), Hello(UnitType.TIMER, "", "f" * 33, "", 0)],
)
def test_values_out_of_range_are_not_sent(message: Message) -> None:
    with pytest.raises(ProtocolError):
        message.pack()
