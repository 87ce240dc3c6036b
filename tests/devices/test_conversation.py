"""The station's side of PROTOCOL.md, frame by frame, against a scripted hub on a real pty."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devices.frames import Frame
from devices.link import LinkStatus
from devices.messages import (
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
from devices.table_devices import TableDevices
from tests.devices.conftest import FAST, Recorder, TableClock
from tests.devices.scripted_hub import ScriptedHub

BOOT = 0x1234


@pytest.fixture
def hub(port_path: Path) -> Iterator[ScriptedHub]:
    hub = ScriptedHub(port_path)
    yield hub
    hub.close()


def handshake(hub: ScriptedHub, boot: int = BOOT) -> None:
    _, hello = hub.expect(Hello)
    assert isinstance(hello, Hello) and hello.unit_type is UnitType.STATION
    hub.send(Hello(UnitType.TIMER, "", "9.9", "T-1", boot), TIMER)
    hub.send(Hello(UnitType.SEAT, "E", "9.9", "E-1", boot), SEAT_UNIT["E"])
    for i in range(3):
        _, request = hub.expect(SyncRequest)
        assert isinstance(request, SyncRequest)
        hub.send(SyncReply(request.token, 1_000_000_000 + i), BROADCAST)


@pytest.fixture
def station(hub: ScriptedHub, recorder: Recorder, table_clock: TableClock) -> Iterator[TableDevices]:
    with TableDevices(str(hub.link), table_clock, recorder.event, recorder.status, config=FAST) as devices:
        handshake(hub)
        assert devices.wait_connected(2.0), devices.status_detail
        yield devices


def test_station_speaks_first_and_connects_after_hellos_and_three_syncs(
    station: TableDevices, hub: ScriptedHub
) -> None:
    assert station.status is LinkStatus.CONNECTED
    assert {h.serial for h in station.units.values()} == {"T-1", "E-1"}
    assert "seat E unit E-1 fw 9.9" in station.status_detail


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
    assert [e["type"] for e in recorder.events] == ["pass"]
    hub.assert_done()


def test_a_rebooted_hub_restarts_its_sequence_numbers_without_losing_events(
    station: TableDevices, hub: ScriptedHub, recorder: Recorder
) -> None:
    seq = hub.send(PassPressed("E", 1_000_500_000), SEAT_UNIT["E"])
    hub.expect(Ack)
    hub.send(Hello(UnitType.SEAT, "E", "9.9", "E-1", BOOT + 1), SEAT_UNIT["E"])  # new boot id
    hub.send(PassPressed("E", 1_000_900_000), SEAT_UNIT["E"], seq)  # same seq, new press
    hub.expect(Ack)
    recorder.wait_for(lambda: len(recorder.events) == 2)
    assert recorder.events[1]["t"] - recorder.events[0]["t"] == pytest.approx(0.4, abs=0.002)


def test_echoes_and_unknown_kinds_are_counted_not_obeyed(
    station: TableDevices, hub: ScriptedHub, recorder: Recorder
) -> None:
    hub.send(Beep(), TIMER, 99, from_device=False)  # our own command coming back
    hub.write(Frame(0x7E, TIMER, 0, b"?", from_device=True).encode())  # good CRC, unknown kind
    hub.write(Frame(Kind.PASS_PRESSED, 2, 7, b"E", from_device=True, ack_requested=True).encode())  # short
    recorder.wait_for(lambda: station.stats.echoed == 1 and station.stats.unexpected == 2)
    assert recorder.events == []
    hub.assert_done()
