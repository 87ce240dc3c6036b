"""Clock synchronisation and acknowledgement bookkeeping: pure code, fed times and sequence numbers."""

from __future__ import annotations

import random

import pytest

from referee_station.devices.clock import ClockSync
from referee_station.devices.reliable import DuplicateFilter, Outbox, SequenceCounter


def simulate(sync: ClockSync, offset: float, rate: float, seconds: float, rnd: random.Random) -> None:
    """Exchanges every 0.5 s with asymmetric, jittery delays (scheduling noise up to 3 ms)."""
    t = 100.0
    while t < 100.0 + seconds:
        up, down = 0.0002 + rnd.expovariate(1 / 0.001), 0.0002 + rnd.expovariate(1 / 0.001)
        device_us = round((offset + (t + up) * rate) * 1e6)
        sync.add(t, device_us, t + up + down)
        t += 0.5


@pytest.mark.parametrize(("offset", "ppm"), [(0.0, 0.0), (12345.678, 80.0), (-50.0, -100.0)])
def test_press_time_error_after_sync_is_within_a_millisecond(offset: float, ppm: float) -> None:
    sync, rnd = ClockSync(), random.Random(1)
    rate = 1 + ppm * 1e-6
    assert not sync.synced
    simulate(sync, offset, rate, 15.0, rnd)
    assert sync.synced
    for t in (110.0, 114.9, 116.0):  # inside the window, and a second past the last exchange
        device_us = round((offset + t * rate) * 1e6)
        assert abs(sync.to_local(device_us) - t) < 0.001
        assert abs(sync.to_device(t) - device_us) < 1000
    assert sync.error_bound < 0.002
    assert sync.rate == pytest.approx(1 / rate, abs=5e-5)  # station s per hub s, to ±50 ppm over 15 s of jitter


def test_reply_before_request_is_ignored_and_reset_forgets() -> None:
    sync = ClockSync()
    sync.add(2.0, 0, 1.0)
    assert sync.error_bound == float("inf")
    for i in range(3):
        sync.add(float(i), 1_000_000 * i, i + 0.001)
    assert sync.synced
    sync.reset()
    assert not sync.synced


def test_sequence_numbers_skip_zero_when_they_wrap() -> None:
    counter = SequenceCounter()
    numbers = [counter.next() for _ in range(0x10001)]
    assert numbers[0] == 1 and numbers[0xFFFE] == 0xFFFF and numbers[0xFFFF] == 1
    assert 0 not in numbers


def test_outbox_retransmits_then_expires() -> None:
    outbox: Outbox[str] = Outbox(timeout=0.1, max_attempts=3)
    outbox.add(1, b"one", "first", now=0.0)
    outbox.add(2, b"two", "second", now=0.05)
    assert outbox.due(0.09) == ([], [])
    assert outbox.due(0.1) == ([b"one"], [])
    assert outbox.acknowledge(2, 0.08) == ("second", pytest.approx(0.03))
    assert outbox.acknowledge(2, 0.09) is None
    assert outbox.due(0.2) == ([b"one"], [])
    assert outbox.due(0.31) == ([], ["first"])
    outbox.add(3, b"three", "third", now=1.0)
    outbox.due(1.2)
    assert outbox.acknowledge(3, 1.25) == ("third", None)  # sent twice: no round trip (Karn)
    assert len(outbox) == 0


def test_outbox_capacity_pushes_out_the_oldest() -> None:
    outbox: Outbox[str] = Outbox(timeout=0.1, max_attempts=None, capacity=2)
    assert outbox.add(1, b"a", "a", 0.0) is None
    assert outbox.add(2, b"b", "b", 0.0) is None
    assert outbox.add(3, b"c", "c", 0.0) == "a"
    assert outbox.all_now(1.0) == [b"b", b"c"]
    assert outbox.due(1.05) == ([], [])
    assert outbox.clear() == ["b", "c"]


def test_duplicate_filter_window() -> None:
    seen = DuplicateFilter(window=3)
    assert [seen.seen(s) for s in (1, 2, 1, 3, 4, 1)] == [False, False, True, False, False, False]
    seen.reset()
    assert not seen.seen(4)
