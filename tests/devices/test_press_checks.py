"""Issue 25 item 10, on a real pty: presses are printed in press order, the events held before the
clock is synced are bounded, and a press timed far from the synced clock is rejected with an error."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee_station.devices.emulator import Emulator
from referee_station.devices.link import HELD_MAX, PRESS_PAST_S
from referee_station.devices.messages import SEAT_UNIT, TIMER, Ack, Hello, PassPressed, ReportEntered, UnitType
from referee_station.devices.order import PressOrder
from referee_station.devices.table_devices import Press, TableDevices
from referee_station.table.events import Pass
from tests.devices.conftest import Recorder, TableClock
from tests.devices.scripted_hub import ScriptedHub
from tests.devices.test_cli import Lines
from tests.devices.test_conversation import BOOT, QUIET_HUB, answer_syncs

HUB_US = 1_000_000_000
"""The scripted hub's clock at the handshake (µs)."""


@pytest.fixture
def hub(port_path: Path) -> Iterator[ScriptedHub]:
    hub = ScriptedHub(port_path)
    yield hub
    hub.close()


def test_press_order_sorts_what_arrives_out_of_order() -> None:
    out: list[Press] = []
    order = PressOrder(out.append, hold=0.5)
    for t, seat in [(10.2, "N"), (10.0, "E"), (10.4, "W")]:
        order.add(Pass(t, seat))
    order.release(10.75)
    assert [e.seat for e in out] == ["E", "N"]  # W is not 0.5 s old yet
    order.add(Pass(10.1, "S"))  # after N went: cannot be put back in order
    order.drain()
    assert [e.seat for e in out] == ["E", "N", "S", "W"] and order.late == 1


def test_watch_devices_prints_a_retransmitted_press_in_press_order(emulator: Emulator) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee_station.cli", "watch-devices", emulator.port, "--seconds", "6"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert emulator.station_connected.wait(15.0)
        time.sleep(0.3)
        emulator.corrupt(1)  # E's frame is broken on the wire: the hub sends it again after N's
        emulator.press_pass("E")
        time.sleep(0.03)
        emulator.press_pass("N")
        lines = Lines(proc)
        events = [json.loads(lines.next()) for _ in range(2)]
        assert proc.wait(timeout=10.0) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert emulator.stats.corrupted == 1
    assert [e["seat"] for e in events] == ["E", "N"] and events[0]["t"] < events[1]["t"]


def test_events_held_before_the_clock_sync_are_bounded(
    hub: ScriptedHub, recorder: Recorder, table_clock: TableClock
) -> None:
    with TableDevices(str(hub.link), table_clock, recorder.event, recorder.status, config=QUIET_HUB) as devices:
        hub.expect(Hello)
        hub.send(Hello(UnitType.TIMER, "", "9.9", "T-1", BOOT), TIMER)
        hub.send(Hello(UnitType.SEAT, "E", "9.9", "E-1", BOOT), SEAT_UNIT["E"])
        flood = HELD_MAX + 300
        for n in range(flood):  # a hub flooding presses before any clock sync
            hub.send(PassPressed("E", HUB_US + n), SEAT_UNIT["E"])
        for _ in range(flood):
            hub.expect(Ack)  # each acknowledged, held until the clock is synced
        recorder.wait_for(lambda: devices.stats.held_dropped == flood - HELD_MAX)
        answer_syncs(hub, devices, HUB_US)
        recorder.wait_for(lambda: len(recorder.events) == HELD_MAX)
        time.sleep(0.1)
        assert len(recorder.events) == HELD_MAX and devices.stats.bad_press_time == 0


def test_a_press_far_from_the_synced_clock_is_rejected(
    hub: ScriptedHub, recorder: Recorder, table_clock: TableClock, caplog: pytest.LogCaptureFixture
) -> None:
    with TableDevices(str(hub.link), table_clock, recorder.event, recorder.status, config=QUIET_HUB) as devices:
        hub.expect(Hello)
        hub.send(Hello(UnitType.TIMER, "", "9.9", "T-1", BOOT), TIMER)
        hub.send(Hello(UnitType.SEAT, "E", "9.9", "E-1", BOOT), SEAT_UNIT["E"])
        hub_clock = answer_syncs(hub, devices, 10 * HUB_US)  # the hub has been up for hours
        assert devices.wait_connected(15.0), devices.status_detail
        with caplog.at_level(logging.ERROR, logger="referee_station.devices.link"):
            hub.send(PassPressed("E", 18_000_000_000_000_000_000), SEAT_UNIT["E"])  # 1.8e13 s, CRC valid
            hub.send(ReportEntered("E", 5, hub_clock() - round((PRESS_PAST_S + 60) * 1e6)), SEAT_UNIT["E"])
            hub.send(PassPressed("E", hub_clock()), SEAT_UNIT["E"])  # a real press goes through
            recorder.wait_for(lambda: len(recorder.events) == 1)
        assert isinstance(recorder.events[0], Pass) and devices.stats.bad_press_time == 2
    rejected = [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()]
    assert len(rejected) == 2 and "PassPressed at hub time 18000000000000.000000 s" in rejected[0]
