"""The real driver against the emulator over a real pseudo-terminal: every event and command,
clock sync, reconnection after the port vanishes, resynchronisation after noise, no lost or
doubled events."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from referee_station.core import Clock, Seat
from referee_station.devices.emulator import Emulator
from referee_station.devices.errors import DeviceTimeoutError, PortUnavailableError, ProtocolError
from referee_station.devices.link import Link, LinkConfig, LinkStatus
from referee_station.devices.messages import SEAT_UNIT, Beep, Countdown, Show, Stop, UnitType
from referee_station.devices.table_devices import TableDevices
from referee_station.table.events import Countdown as CountdownOutput
from referee_station.table.events import Pass, Report
from tests.devices.conftest import FAST, Recorder, TableClock

CLOCK_TOLERANCE = 0.005  # s: press time after clock sync, with margin for a busy 2-core machine


def test_hello_names_every_unit(devices: TableDevices, emulator: Emulator, recorder: Recorder) -> None:
    units = devices.units
    assert sorted(h.seat for h in units.values() if h.unit_type is UnitType.SEAT) == ["E", "N", "S", "W"]
    assert [h.serial for h in units.values() if h.unit_type is UnitType.TIMER] == [emulator.timer_serial]
    assert {h.firmware for h in units.values()} == {"1.4.2"}
    assert [status for status, _ in recorder.statuses] == [LinkStatus.CONNECTING, LinkStatus.CONNECTED]
    assert "waiting for the table hub's hello" in recorder.statuses[0][1]
    assert emulator.timer_serial in recorder.statuses[1][1]
    assert devices.clock_error < 0.005


@pytest.mark.parametrize("seat", ["E", "S", "W", "N"])
def test_pass_is_a_table_event_timed_to_the_press(
    devices: TableDevices, emulator: Emulator, recorder: Recorder, table_clock: TableClock, seat: str
) -> None:
    pressed = emulator.press_pass(seat) - table_clock.origin
    recorder.wait_for(lambda: len(recorder.events) == 1)
    event = recorder.events[0]
    assert event == Pass(event.t, seat) and event.seat is Seat(seat)  # the contract's record, its seat an enum
    assert abs(event.t - pressed) < CLOCK_TOLERANCE


def test_report_is_a_table_event(
    devices: TableDevices, emulator: Emulator, recorder: Recorder, table_clock: TableClock
) -> None:
    pressed = emulator.enter_report("S", 8) - table_clock.origin
    recorder.wait_for(lambda: len(recorder.events) == 1)
    event = recorder.events[0]
    assert event == Report(event.t, Seat.S, 8)
    assert abs(event.t - pressed) < CLOCK_TOLERANCE
    assert emulator.seats["S"].shown_report == 8


def test_bounces_are_debounced_on_the_unit(devices: TableDevices, emulator: Emulator, recorder: Recorder) -> None:
    emulator.press_pass("E", bounces=4)
    emulator.press_pass("W")
    recorder.wait_for(lambda: len(recorder.events) == 2)
    time.sleep(0.05)
    assert [e.seat for e in recorder.events] == ["E", "W"]
    assert emulator.stats.bounces_ignored == 4


def test_a_late_press_keeps_its_press_time(
    devices: TableDevices, emulator: Emulator, recorder: Recorder, table_clock: TableClock
) -> None:
    """R-TIME-2: a press buffered while the station was away is timed when it was pressed."""
    emulator.unplug(0.3)
    time.sleep(0.05)
    pressed = emulator.press_pass("N") - table_clock.origin
    recorder.wait_for(lambda: len(recorder.events) == 1)
    assert table_clock() - pressed > 0.2
    assert abs(recorder.events[0].t - pressed) < CLOCK_TOLERANCE


def test_countdown_reaches_the_timer_with_its_deadline_on_the_hub_clock(
    devices: TableDevices, emulator: Emulator, table_clock: TableClock
) -> None:
    deadline = table_clock() + 20.0
    devices.send_countdown(CountdownOutput(0.0, Seat.E, "follow", 20.0, deadline))
    shown = emulator.timer.countdown
    assert shown is not None and emulator.timer.running
    assert (shown.seat, shown.action, shown.limit_ms, shown.grace_ms) == ("E", Clock.FOLLOW, 20_000, 10_000)
    expected = emulator.device_us(table_clock.origin + deadline)
    assert abs(shown.deadline_us - expected) < CLOCK_TOLERANCE * 1e6


def test_grace_countdown_and_expiry_beeps(devices: TableDevices, emulator: Emulator, table_clock: TableClock) -> None:
    """R-TIME-3: the grace countdown; the timer beeps when the limit and when the grace run out."""
    devices.send_countdown(CountdownOutput(0.0, Seat.W, "lead", 40.0, table_clock() + 0.05), grace=0.05)
    deadline = time.monotonic() + 2.0
    while emulator.timer.beeps < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert emulator.timer.expired_limit and emulator.timer.expired_grace and emulator.timer.beeps == 2
    devices.send_countdown(CountdownOutput(0.0, Seat.W, "grace", 10.0, 30.0))
    assert emulator.timer.countdown is not None and emulator.timer.countdown.action is Clock.GRACE
    assert emulator.timer.countdown.grace_ms == 0


def test_stop_show_beep(devices: TableDevices, emulator: Emulator, table_clock: TableClock) -> None:
    devices.send_countdown(CountdownOutput(0.0, Seat.S, "tribute", 20.0, 25.0))
    devices.stop()
    devices.show(8)
    devices.beep(2, 0.1)
    assert emulator.commands[1:] == [Stop(), Show("8"), Beep(2, 100)]
    assert not emulator.timer.running and emulator.timer.text == "8" and emulator.timer.beeps == 2
    assert isinstance(emulator.commands[0], Countdown)
    assert 15_000 < (emulator.timer.left_at_stop_ms or 0) <= 25_000
    assert devices.stats.acked == 4
    assert len(devices.round_trips()) == 4 and all(0 < t < 1 for t in devices.round_trips())


def test_a_command_to_a_seat_unit_is_rejected(devices: TableDevices) -> None:
    future = devices._link.send(Show("x"), SEAT_UNIT["E"])
    with pytest.raises(ProtocolError, match="rejected"):
        future.result(1.0)
    assert devices.stats.rejected == 1


def test_noise_and_corrupt_frames_are_counted_and_skipped(
    devices: TableDevices, emulator: Emulator, recorder: Recorder
) -> None:
    emulator.noise(500)
    emulator.corrupt(2)
    emulator.press_pass("E")
    emulator.noise(100)
    emulator.enter_report("N", 1)
    recorder.wait_for(lambda: len(recorder.events) == 2)
    assert [type(e) for e in recorder.events] == [Pass, Report]
    stats = devices.stats
    assert stats.bad_crc >= 2 and stats.garbage_bytes >= 500
    assert emulator.stats.retransmits >= 1  # the corrupted press was sent again
    devices.show("ok")  # and the link still works both ways


def test_a_retransmitted_event_is_one_table_event(
    devices: TableDevices, emulator: Emulator, recorder: Recorder
) -> None:
    emulator.lose_acks(2)
    emulator.press_pass("S")
    recorder.wait_for(lambda: devices.stats.duplicates >= 2)
    time.sleep(0.15)
    assert [e.seat for e in recorder.events] == ["S"]
    assert emulator.stats.events_acked == 1


def test_unplug_and_replug_is_survived_with_a_clear_status(
    devices: TableDevices, emulator: Emulator, recorder: Recorder
) -> None:
    emulator.unplug(0.4)
    recorder.wait_for(lambda: devices.status is LinkStatus.RECONNECTING)
    with pytest.raises(PortUnavailableError, match="reconnecting"):
        devices.beep()
    emulator.press_pass("W")
    recorder.wait_for(lambda: devices.status is LinkStatus.CONNECTED and len(recorder.events) == 1)
    statuses = [status for status, _ in recorder.statuses]
    assert statuses[1] is LinkStatus.CONNECTED and statuses[-1] is LinkStatus.CONNECTED
    assert LinkStatus.RECONNECTING in statuses
    assert any("No such file" in detail or "cannot open" in detail for _, detail in recorder.statuses)
    assert devices.stats.disconnects == 1 and devices.stats.connects == 2
    devices.beep()


def test_a_silent_hub_is_noticed_and_the_link_rebuilt(
    devices: TableDevices, emulator: Emulator, recorder: Recorder
) -> None:
    emulator.mute(0.8)
    recorder.wait_for(lambda: devices.status is LinkStatus.RECONNECTING)
    assert "silent" in devices.status_detail
    recorder.wait_for(lambda: devices.status is LinkStatus.CONNECTED)
    assert devices.stats.silent_hub == 1


def test_emulator_restart_behind_the_same_path(port_path: Path, recorder: Recorder, table_clock: TableClock) -> None:
    """A new emulator (new pty, new boot id, new clock) behind the same symlink: the driver reconnects,
    resyncs its clock, and does not take the new hub's sequence numbers for duplicates."""
    first = Emulator(link=port_path, heartbeat=0.1, clock_offset=100.0, seed=1)
    first.start()
    with TableDevices(str(port_path), table_clock, recorder.event, recorder.status, config=FAST) as devices:
        assert devices.wait_connected(3.0)
        first.press_pass("E")
        recorder.wait_for(lambda: len(recorder.events) == 1)
        first.close()
        assert not port_path.exists()
        recorder.wait_for(lambda: devices.status is LinkStatus.RECONNECTING)
        with Emulator(link=port_path, heartbeat=0.1, clock_offset=7000.0, drift_ppm=-60, seed=2) as second:
            recorder.wait_for(lambda: devices.status is LinkStatus.CONNECTED)
            pressed = second.press_pass("E") - table_clock.origin
            recorder.wait_for(lambda: len(recorder.events) == 2)
            assert abs(recorder.events[1].t - pressed) < CLOCK_TOLERANCE
            assert second.timer_serial in devices.status_detail


def test_missing_port_goes_offline_and_close_is_safe_twice(tmp_path: Path, recorder: Recorder) -> None:
    config = LinkConfig(backoff_min=0.01, backoff_max=0.05, offline_after=0.2)
    devices = TableDevices(str(tmp_path / "nothing"), time.monotonic, recorder.event, recorder.status, config=config)
    recorder.wait_for(lambda: devices.status is LinkStatus.OFFLINE)
    assert recorder.statuses[0][0] is LinkStatus.CONNECTING
    assert "cannot open" in devices.status_detail
    with pytest.raises(PortUnavailableError):
        devices.stop()
    devices.close()
    devices.close()
    assert devices.status is LinkStatus.CLOSED


def test_loop_url_echo_is_counted_not_trusted(recorder: Recorder) -> None:
    """``loop://`` (TX wired to RX): our own frames come back and are counted as echoes."""
    with Link("loop://", lambda item: recorder.event({"item": item}), recorder.status, FAST) as link:
        deadline = time.monotonic() + 2.0
        while link.stats.echoed < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.stats.echoed >= 3 and link.status is LinkStatus.CONNECTING
    assert recorder.events == []


def test_a_failing_consumer_is_counted_and_the_link_goes_on(
    emulator: Emulator, recorder: Recorder, table_clock: TableClock, caplog: pytest.LogCaptureFixture
) -> None:
    def explode(event: dict) -> None:
        recorder.event(event)
        raise RuntimeError("console crashed")

    with TableDevices(emulator.port, table_clock, explode, config=FAST) as devices:
        assert devices.wait_connected(3.0)
        emulator.press_pass("E")
        emulator.press_pass("S")
        recorder.wait_for(lambda: len(recorder.events) == 2)
        assert devices.stats.callback_errors == 2
        assert "console crashed" in caplog.text


def test_an_unacknowledged_command_times_out(emulator: Emulator, recorder: Recorder, table_clock: TableClock) -> None:
    config = LinkConfig(heartbeat=0.1, silent_after=3.0)
    with TableDevices(emulator.port, table_clock, recorder.event, config=config) as devices:
        assert devices.wait_connected(3.0)
        emulator.mute(1.0)
        time.sleep(0.05)
        with pytest.raises(DeviceTimeoutError, match="no acknowledgement after 6 sends"):
            devices.beep()
        assert devices.stats.retransmits >= 5 and devices.stats.send_failures == 1
        assert devices.status is LinkStatus.CONNECTED


def test_a_value_out_of_range_is_refused_in_the_callers_thread(devices: TableDevices) -> None:
    with pytest.raises(ProtocolError, match="at most 32"):
        devices.show("x" * 40)
    with pytest.raises(ProtocolError, match="cannot be encoded"):
        devices.send_countdown(CountdownOutput(0.0, Seat.E, "follow", -1.0, 1.0))
    with pytest.raises(ValueError, match="field 'action' must be one of tribute return lead follow grace, got 'wait'"):
        devices.send_countdown(CountdownOutput(0.0, Seat.E, "wait", 20.0, 21.0))  # the record refuses it
    devices.show("still fine")


def test_a_second_station_cannot_share_the_port(devices: TableDevices, emulator: Emulator, recorder: Recorder) -> None:
    other = Recorder()
    with TableDevices(emulator.port, time.monotonic, other.event, other.status, config=FAST) as intruder:
        other.wait_for(lambda: "lock" in intruder.status_detail)
        assert intruder.status is LinkStatus.CONNECTING
        emulator.press_pass("E")
        recorder.wait_for(lambda: len(recorder.events) == 1)
    assert other.events == []


def test_a_port_that_appears_later_is_picked_up(port_path: Path, recorder: Recorder, table_clock: TableClock) -> None:
    config = LinkConfig(heartbeat=0.1, silent_after=0.5, backoff_min=0.01, backoff_max=0.05, offline_after=0.1)
    with TableDevices(str(port_path), table_clock, recorder.event, recorder.status, config=config) as devices:
        recorder.wait_for(lambda: devices.status is LinkStatus.OFFLINE)
        with Emulator(link=port_path, heartbeat=0.1) as emulator:
            recorder.wait_for(lambda: devices.status is LinkStatus.CONNECTED)
            emulator.enter_report("W", 3)
            recorder.wait_for(lambda: len(recorder.events) == 1)
            devices.close()  # before the emulator goes: its port vanishing would be a RECONNECTING
    statuses = [status for status, _ in recorder.statuses]
    assert statuses[0] is LinkStatus.CONNECTING and LinkStatus.OFFLINE in statuses
    assert statuses[-2:] == [LinkStatus.CONNECTED, LinkStatus.CLOSED]


def test_events_the_hub_had_to_drop_are_reported(port_path: Path, recorder: Recorder, table_clock: TableClock) -> None:
    """The hub buffers 2 events here; of 4 presses made while unplugged, 2 arrive and 2 are counted as dropped."""
    with (
        Emulator(link=port_path, heartbeat=0.1, buffer_size=2) as emulator,
        TableDevices(str(port_path), table_clock, recorder.event, recorder.status, config=FAST) as devices,
    ):
        assert devices.wait_connected(3.0)
        emulator.unplug(0.3)
        time.sleep(0.05)
        for seat in "ESWN":
            emulator.press_pass(seat)
        recorder.wait_for(lambda: len(recorder.events) == 2 and devices.stats.device_dropped == 2)
        assert [e.seat for e in recorder.events] == ["W", "N"]
        assert emulator.stats.dropped_events == 2


def test_a_restarted_station_gets_the_presses_made_while_it_was_away(
    emulator: Emulator, recorder: Recorder, table_clock: TableClock
) -> None:
    with TableDevices(emulator.port, table_clock, recorder.event, config=FAST) as first:
        assert first.wait_connected(3.0)
    pressed = emulator.press_pass("S") - table_clock.origin
    later = Recorder()
    with TableDevices(emulator.port, table_clock, later.event, config=FAST) as second:
        later.wait_for(lambda: len(later.events) == 1)
        assert abs(later.events[0].t - pressed) < CLOCK_TOLERANCE
        assert second.stats.duplicates == 0
    assert recorder.events == []
