"""Framing: CRC check value, COBS, frame encoding, and the parser's counting and resynchronisation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee_station.devices.crc import crc16
from referee_station.devices.frames import MAX_ENCODED, MAX_PAYLOAD, Frame, FrameParser, cobs_decode, cobs_encode


def test_crc16_ccitt_false_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"56789", crc16(b"1234")) == 0x29B1


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize("data", [b"", b"\x00", b"\x00\x00", b"\x11\x00\x22", bytes(range(1, 255)), b"\x01" * 508])
def test_cobs_edge_cases(data: bytes) -> None:
    assert cobs_decode(cobs_encode(data)) == data


@pytest.mark.parametrize("bad", [b"\x05\x01", b"\x02\x00\x01"])
def test_cobs_decode_rejects_bad_blocks(bad: bytes) -> None:
    with pytest.raises(ValueError):
        cobs_decode(bad)


def test_frame_round_trip_byte_by_byte() -> None:
    frame = Frame(0x20, 0x02, 513, b"\x00E\x00", from_device=True, ack_requested=True)
    parser = FrameParser()
    out = [f for byte in frame.encode() for f in parser.feed(bytes([byte]))]
    assert out == [frame]
    assert parser.stats.frames == 1 and parser.stats.garbage_bytes == 0


def test_frame_rejects_out_of_range() -> None:
    with pytest.raises(ValueError):
        Frame(1, 1, 0x10000)
    with pytest.raises(ValueError):
        Frame(1, 1, 0, b"x" * (MAX_PAYLOAD + 1))


def test_garbage_and_bad_crc_are_counted_and_skipped() -> None:
    good = Frame(2, 0xFF, 0, b"hello").encode()
    bad = bytearray(good)
    bad[3] ^= 0x01  # a payload byte: decodes, but the CRC fails
    parser = FrameParser()
    frames = parser.feed(b"\x13\x37garbage" + bytes(bad) + good)
    assert frames == [Frame(2, 0xFF, 0, b"hello")]
    assert parser.stats.bad_crc == 1
    assert parser.stats.malformed == 1  # "\x13\x37garbage" is too short once decoded
    assert parser.stats.garbage_bytes == 9 + len(bad) - 2


def test_unknown_flag_bits_are_malformed() -> None:
    body = bytearray(Frame(2, 1).body())
    body[1] = 0x80
    body[-2:] = crc16(bytes(body[:-2])).to_bytes(2, "big")
    parser = FrameParser()
    assert parser.feed(b"\x00" + cobs_encode(bytes(body)) + b"\x00") == []
    assert parser.stats.malformed == 1


def test_oversized_run_without_delimiter_is_dropped_then_resynchronised() -> None:
    parser = FrameParser()
    good = Frame(2, 1, 0, b"ok")
    assert parser.feed(b"\x55" * (MAX_ENCODED + 10)) == []
    assert parser.feed(b"\x66" * 50 + good.encode()) == [good]
    assert parser.stats.oversized == 1
    assert parser.stats.garbage_bytes == MAX_ENCODED + 60


def test_reset_counts_a_partial_frame_as_garbage() -> None:
    parser = FrameParser()
    data = Frame(2, 1, 0, b"abc").encode()
    parser.feed(data[:5])
    parser.reset()
    assert parser.feed(data[5:]) == []
    assert parser.stats.garbage_bytes == len(data) - 2  # all but the two delimiters
