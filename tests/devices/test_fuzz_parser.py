"""Fuzzing the frame parser and the message decoder with hypothesis (random and mutated bytes).

Properties: no exception escapes; every valid frame embedded in noise is recovered, in order; a
frame whose own bytes were not touched by a mutation is recovered; every byte is accounted for.
"""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_station.devices.errors import ProtocolError
from referee_station.devices.frames import MAX_ENCODED, MAX_PAYLOAD, Frame, FrameParser
from referee_station.devices.messages import decode

frames_st = st.builds(
    Frame,
    kind=st.integers(0, 255),
    unit=st.integers(0, 255),
    seq=st.integers(0, 0xFFFF),
    payload=st.binary(max_size=MAX_PAYLOAD),
    from_device=st.booleans(),
    ack_requested=st.booleans(),
)
chunk_sizes = st.lists(st.integers(1, 64), min_size=1, max_size=20)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def feed_in_chunks(parser: FrameParser, data: bytes, sizes: list[int]) -> list[Frame]:
    out: list[Frame] = []
    pos, i = 0, 0
    while pos < len(data):
        step = sizes[i % len(sizes)]
        out += parser.feed(data[pos : pos + step])
        pos, i = pos + step, i + 1
    return out


def is_subsequence(wanted: list[Frame], got: list[Frame]) -> bool:
    it = iter(got)
    return all(any(frame == g for g in it) for frame in wanted)


@FUZZ
@given(st.binary(max_size=4000), chunk_sizes)
def test_random_bytes_never_raise_and_are_accounted_for(data: bytes, sizes: list[int]) -> None:
    parser = FrameParser()
    frames = feed_in_chunks(parser, data, sizes)
    framed = sum(len(frame.encode()) - 2 for frame in frames)
    buffered = len(parser._buffer)
    assert buffered <= MAX_ENCODED
    assert framed + parser.stats.garbage_bytes + buffered == len(data) - data.count(0)
    for frame in frames:  # noise that happens to pass the CRC must still decode or raise ProtocolError
        with contextlib.suppress(ProtocolError):
            decode(frame)


@FUZZ
@given(st.lists(st.tuples(st.binary(max_size=300), frames_st), max_size=12), st.binary(max_size=300), chunk_sizes)
def test_every_frame_embedded_in_noise_is_recovered(
    pieces: list[tuple[bytes, Frame]], tail: bytes, sizes: list[int]
) -> None:
    stream = b"".join(noise + frame.encode() for noise, frame in pieces) + tail
    parser = FrameParser()
    got = feed_in_chunks(parser, stream, sizes)
    assert is_subsequence([frame for _, frame in pieces], got)


@FUZZ
@given(st.lists(frames_st, min_size=1, max_size=10), st.data())
def test_untouched_frames_survive_mutations_of_their_neighbours(frames: list[Frame], data: st.DataObject) -> None:
    encoded = [bytearray(frame.encode()) for frame in frames]
    touched = data.draw(st.sets(st.integers(0, len(frames) - 1)))
    for index in sorted(touched):
        blob = encoded[index]
        for _ in range(data.draw(st.integers(1, 4))):
            kind = data.draw(st.sampled_from(["flip", "insert", "delete"]))
            pos = data.draw(st.integers(0, len(blob) - 1))
            if kind == "flip":
                blob[pos] ^= data.draw(st.integers(1, 255))
            elif kind == "insert":
                blob.insert(pos, data.draw(st.integers(0, 255)))
            elif len(blob) > 1:
                del blob[pos]
    parser = FrameParser()
    got = parser.feed(b"".join(bytes(blob) for blob in encoded))
    intact = [frame for i, frame in enumerate(frames) if i not in touched]
    assert is_subsequence(intact, got)


@FUZZ
@given(frames_st)
def test_decode_raises_only_protocol_error(frame: Frame) -> None:
    with contextlib.suppress(ProtocolError):
        decode(frame)
