"""The station's side of PROTOCOL.md, frame by frame, against a scripted hub on a real pty."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee_station.devices.frames import Frame
from referee_station.devices.link import LinkConfig, LinkStatus
from referee_station.devices.messages import (
    BROADCAST,
    SEAT_UNIT,
    TIMER,
    Ack,
    Beep,
    Hello,
    Kind,
    PassPressed,
    SyncReply,
    SyncRequest,
    UnitType,
)
from referee_station.devices.table_devices import TableDevices
from referee_station.table.events import Pass
from tests.devices.conftest import Recorder, TableClock
from tests.devices.scripted_hub import ScriptedHub

BOOT = 0x1234
QUIET_HUB = LinkConfig(heartbeat=0.1, silent_after=30.0)
"""The scripted hub sends no heartbeats: the station must not give up on it while a test thinks."""


@pytest.fixture
def hub(port_path: Path) -> Iterator[ScriptedHub]:
    hub = ScriptedHub(port_path)
    yield hub
    hub.close()


def handshake(hub: ScriptedHub, devices: TableDevices) -> None:
    _, hello = hub.expect(Hello)
    assert isinstance(hello, Hello) and hello.unit_type is UnitType.STATION
    hub.send(Hello(UnitType.TIMER, "", "9.9", "T-1", BOOT), TIMER)
    hub.send(Hello(UnitType.SEAT, "E", "9.9", "E-1", BOOT), SEAT_UNIT["E"])
    answer_syncs(hub, devices, 1_000_000_000)


def answer_syncs(hub: ScriptedHub, devices: TableDevices, device_us: int) -> Callable[[], int]:
    """Answer clock-sync requests as a hub whose clock reads ``device_us`` now, until the station is
    synced (requests of an earlier burst may still be queued: their replies do not count). Returns
    the hub's clock."""
    start = time.monotonic()

    def clock() -> int:
        return device_us + round((time.monotonic() - start) * 1e6)

    for _ in range(20):
        _, request = hub.expect(SyncRequest)
        assert isinstance(request, SyncRequest)
        hub.send(SyncReply(request.token, clock()), BROADCAST)
        deadline = time.monotonic() + 0.005
        while not devices.clock_synced and time.monotonic() < deadline:
            time.sleep(0.002)
        if devices.clock_synced:
            return clock
    raise AssertionError("the station did not sync its clock")


@pytest.fixture
def station(hub: ScriptedHub, recorder: Recorder, table_clock: TableClock) -> Iterator[TableDevices]:
    with TableDevices(str(hub.link), table_clock, recorder.event, recorder.status, config=QUIET_HUB) as devices:
        handshake(hub, devices)
        assert devices.wait_connected(15.0), devices.status_detail
        yield devices


def test_station_speaks_first_and_connects_after_hellos_and_three_syncs(
    station: TableDevices, hub: ScriptedHub, recorder: Recorder
) -> None:
    assert station.status is LinkStatus.CONNECTED
    assert {h.serial for h in station.units.values()} == {"T-1", "E-1"}
    assert "seat E unit E-1 fw 9.9" in station.status_detail
    assert "only 2 of 5 units answered" in station.status_detail
    _, again = hub.expect(Hello, timeout=2.0)  # the station asks again for the missing units
    assert isinstance(again, Hello) and again.unit_type is UnitType.STATION
    hub.send(Hello(UnitType.SEAT, "W", "9.9", "W-1", BOOT), SEAT_UNIT["W"])
    recorder.wait_for(lambda: "seat W unit W-1" in station.status_detail)


def test_a_command_is_retransmitted_with_its_sequence_number_until_acknowledged(
    station: TableDevices, hub: ScriptedHub
) -> None:
    future = station.beep(2, wait=False)
    first, beep = hub.expect(Beep)
    assert beep == Beep(2, 200) and first.unit == TIMER and first.ack_requested and first.seq
    again, _ = hub.expect(Beep)  # no ack yet: the same frame again
    assert again == first
    hub.send(Ack(first.seq), TIMER)
    hub.send(Ack(first.seq), TIMER)  # a late second ack is harmless
    assert future.result(1.0) is None
    assert station.stats.retransmits >= 1 and station.stats.acked == 1


def test_an_event_is_acknowledged_every_time_but_reported_once(
    station: TableDevices, hub: ScriptedHub, recorder: Recorder
) -> None:
    seq = hub.send(PassPressed("E", 1_000_500_000), SEAT_UNIT["E"])
    hub.send(PassPressed("E", 1_000_500_000), SEAT_UNIT["E"], seq)
    for _ in range(2):
        frame, ack = hub.expect(Ack)
        assert ack == Ack(seq) and frame.unit == SEAT_UNIT["E"]
    recorder.wait_for(lambda: station.stats.duplicates == 1)
    assert [type(e) for e in recorder.events] == [Pass]
    hub.assert_done()


def test_a_rebooted_hub_restarts_its_sequence_numbers_without_losing_events(
    station: TableDevices, hub: ScriptedHub, recorder: Recorder
) -> None:
    seq = hub.send(PassPressed("E", 1_000_500_000), SEAT_UNIT["E"])
    hub.expect(Ack)
    hub.send(Hello(UnitType.SEAT, "E", "9.9", "E-1", BOOT + 1), SEAT_UNIT["E"])  # new boot id
    recorder.wait_for(lambda: not station.clock_synced)  # the station saw the reboot
    answer_syncs(hub, station, 1_000_000_000)
    hub.send(PassPressed("E", 1_000_900_000), SEAT_UNIT["E"], seq)  # same seq, new press
    hub.expect(Ack)
    recorder.wait_for(lambda: len(recorder.events) == 2)
    assert station.stats.duplicates == 0


def test_echoes_and_unknown_kinds_are_counted_not_obeyed(
    station: TableDevices, hub: ScriptedHub, recorder: Recorder
) -> None:
    hub.send(Beep(), TIMER, 99, from_device=False)  # our own command coming back
    hub.write(Frame(0x7E, TIMER, 0, b"?", from_device=True).encode())  # good CRC, unknown kind
    hub.write(Frame(Kind.PASS_PRESSED, 2, 7, b"E", from_device=True, ack_requested=True).encode())  # short
    recorder.wait_for(lambda: station.stats.echoed == 1 and station.stats.unexpected == 2)
    assert recorder.events == []
    hub.assert_done()


def test_a_hub_that_never_answers_is_reported_offline(hub: ScriptedHub, recorder: Recorder) -> None:
    config = LinkConfig(offline_after=0.2)
    with TableDevices(str(hub.link), time.monotonic, recorder.event, recorder.status, config=config) as devices:
        hub.expect(Hello)
        recorder.wait_for(lambda: devices.status is LinkStatus.OFFLINE)
        assert "does not answer" in devices.status_detail
        hub.expect(Hello)  # still asking


def test_a_hub_that_reboots_is_synced_again_before_its_presses_are_timed(
    station: TableDevices, hub: ScriptedHub, recorder: Recorder, table_clock: TableClock
) -> None:
    hub.send(Hello(UnitType.TIMER, "", "9.9", "T-1", BOOT + 7), TIMER)  # rebooted: its clock restarted near 0
    recorder.wait_for(lambda: not station.clock_synced)  # the station saw the reboot
    hub_clock = answer_syncs(hub, station, 2_000_000)
    pressed = table_clock()
    hub.send(PassPressed("E", hub_clock()), SEAT_UNIT["E"], 1)  # sequence numbers restarted as well
    recorder.wait_for(lambda: len(recorder.events) == 1)
    # within the error the station itself states (half the best round trip; this hub answers late)
    assert abs(recorder.events[0].t - pressed) <= station.clock_error + 0.002
    assert station.status is LinkStatus.CONNECTED
