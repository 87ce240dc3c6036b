"""Pausing a table from the head console (issue #29): the head referee pauses a table whose ruling is
pending and gives a seat more time; the command travels over the real broker like a ruling, the
station (the orchestrator on its SQLite log) feeds it as a ``timer`` input, and the table's timer,
emulated on a pty behind the real driver, gets ``Pause`` (referee_station/devices/PROTOCOL.md 0x14) and then the
moved ``Countdown``."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from referee_station.devices.messages import Countdown as TimerCountdown
from referee_station.devices.messages import Pause
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.hall.topics import TimerCommand, TopicError
from referee_station.station.live.devices import DeviceBridge
from referee_station.station.orchestrator import Station
from referee_station.table.events import Countdown, Tick, TimerControl
from tests.console.helpers import one_deal_with_flags
from tests.hall.conftest import HALL, Hall
from tests.hall.head import started_head
from tests.hall.helpers import LogStation, wait_for


class TimedStation:
    """T05: E to lead (clock from t=1), S's out-of-turn play flagged and pending (R-PLAY-1), then a
    tick a second; its log in SQLite, linked to the hall, its timer on the emulator."""

    def __init__(self, stack: ExitStack, hall: Hall, log_path: Path) -> None:
        self.log = LogStation(log_path, "T05")
        stack.callback(self.log.close)
        self.link = StationLink(BrokerURL.parse(hall.station_url("T05")), HALL, "T05", log_path).start()
        stack.callback(self.link.close)
        self.t = 0.0
        self.devices = DeviceBridge("T05", lambda: self.t)
        stack.callback(self.devices.close)
        records = one_deal_with_flags()[:3] + [Tick(t=float(t)) for t in range(3, 60)]
        linked = LinkedStation(self.log, self.link, clock=lambda: self.t)
        self.station = Station(self.log.referee, linked, others=records, seat_units=self.devices, hall=self.link)
        self.fed: list = []

    def run_to(self, t: float) -> None:
        while self.t < t:
            self.t += 1.0
            self.fed += self.station.idle(self.t).fed

    def step_until(self, condition, what: str) -> None:
        """One table second per 50 ms of wall time until ``condition`` (the head's command is on its way)."""
        deadline = time.monotonic() + 15
        while not condition():
            if time.monotonic() > deadline:
                pytest.fail(f"not in time: {what}")
            self.fed += self.station.idle(self.t).fed  # the same moment again: no tick is due
            time.sleep(0.05)

    @property
    def timer(self):
        return self.devices.emulator.timer

    def countdowns(self) -> list[TimerCountdown]:
        return [m for m in self.devices.emulator.commands if isinstance(m, TimerCountdown)]


def test_a_pending_ruling_pauses_the_countdown_on_the_emulated_timer_from_the_head(
    qtbot, hall: Hall, register_dsn: str, tmp_path: Path
) -> None:
    with Register(register_dsn) as register, ExitStack() as stack:
        app = started_head(qtbot, hall, register, "li")
        stack.callback(app.stop)
        window, model = app.window, app.model
        assert app.head.wait_connected(10)
        table = TimedStation(stack, hall, tmp_path / "T05.sqlite")
        assert table.link.wait_connected(10)
        table.run_to(3.0)
        wait_for(lambda: table.timer.running and len(table.countdowns()) == 1, what="E's lead on the timer")
        qtbot.waitUntil(lambda: model.alerts.get(("T05", 1)) is not None, timeout=15_000)
        window.select("T05")
        controls = window.timer_controls
        assert controls.isVisibleTo(window) and controls.pause_button.text() == "暂停 T05"

        controls.pause_button.click()  # not logged in: nothing leaves the head
        assert "登录" in window.statusBar().currentMessage()
        app.desk.login("li", "secret-li")
        qtbot.waitUntil(lambda: window.referee == "li", timeout=20_000)
        controls.pause_button.click()
        qtbot.waitUntil(lambda: "已发往 T05: 暂停计时" in window.statusBar().currentMessage(), timeout=20_000)
        table.step_until(lambda: table.timer.paused, "the pause on the emulated timer")
        assert any(isinstance(m, Pause) for m in table.devices.emulator.commands) and not table.timer.running
        paused = [f.event for f in table.fed if isinstance(f.event, TimerControl)]
        assert [(e.action, e.t) for e in paused] == [("pause", 3.0)]  # stamped by the station's clock
        qtbot.waitUntil(lambda: model.table("T05").paused_at == 3.0, timeout=15_000)  # the head sees it back
        assert controls.pause_button.text() == "继续 T05" and "已暂停" in controls.state.text()
        table.run_to(10.0)
        assert table.timer.paused and len(table.countdowns()) == 1  # seven seconds on: the clock stood still

        controls.add_button.click()  # E, the seat to act, preselected: 30 s more
        controls.pause_button.click()  # resume: the moved deadline goes to the timer
        table.step_until(lambda: len(table.countdowns()) >= 2 and table.timer.running, "the moved countdown")
        moved = table.countdowns()[-1]
        assert moved.seat == "E" and moved.action.value == "lead"
        resent = [o for f in table.fed for o in f.outputs if isinstance(o, Countdown)][-1]
        assert (resent.seat, resent.deadline) == ("E", 41.0 + 7.0 + 30.0)  # 7 s paused, 30 s added (R-TIME)
        actions = [(f.event.action, f.event.t) for f in table.fed if isinstance(f.event, TimerControl)]
        assert actions == [("pause", 3.0), ("add", 10.0), ("resume", 10.0)]


def test_a_timer_command_is_checked_whole():
    with pytest.raises(TopicError, match="'seconds' must be a number of seconds in"):
        TimerCommand("x", "add", "li", "E", 0.0)
    with pytest.raises(TopicError, match="pause takes no seat or seconds"):
        TimerCommand("x", "pause", "li", "E")
    with pytest.raises(TopicError, match="'action' must be one of pause, resume, add"):
        TimerCommand.decode(b'{"id": "x", "action": "stop", "referee": "li"}')
    command = TimerCommand("x", "add", "li", "W", 30.0, 1.5)
    assert TimerCommand.decode(command.encode()) == command
    assert command.record(12.0) == TimerControl(t=12.0, action="add", seat="W", seconds=30.0)
