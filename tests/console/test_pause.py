"""A table whose ruling is pending is paused from the console, and a seat is given more time: the
``timer`` events go to the referee, and its clocks reach the emulated play timer over a pty through
the real driver (referee_station/devices/PROTOCOL.md ``Pause``, then ``Countdown`` with the moved deadline)."""

from __future__ import annotations

import time

import pytest

from referee_station.console.models.console import ConsoleModel
from referee_station.console.qt.timer_view import TimerView
from referee_station.devices.messages import Countdown as TimerCountdown
from referee_station.devices.messages import Pause
from referee_station.station.live.runner import TableRunner
from referee_station.table.events import Countdown, Tick
from tests.console.helpers import one_deal_with_flags

DRIFT = 1e-3
"""Seconds a deadline may differ on the hub's clock (its drift over a minute, and the clock sync)."""


def _until(condition, timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("the emulated timer did not get there in time")
        time.sleep(0.01)


class PausedTable:
    """T1 with its seat units and timer on the emulator: E to lead (clock from t=1), S's out-of-turn
    play flagged and pending (R-PLAY-1), then a tick a second; console entries are fed between steps."""

    def __init__(self) -> None:
        records = one_deal_with_flags()[:3] + [Tick(t=float(t)) for t in range(3, 20)]
        self.runner = TableRunner("T1", records, devices=True)
        self.model = ConsoleModel(referee="张裁判")
        self.model.send.connect(lambda table, event, who: self.runner.submit(event, who))
        self.emulator = self.runner.devices.emulator

    def run_to(self, t: float) -> list[Countdown]:
        """Step the table's sources up to table time ``t``; the countdowns the referee sent meanwhile."""
        sent = []
        while self.runner.next_t is not None and self.runner.next_t <= t:
            for update in self.runner.step():
                self.model.apply(update)
                sent += [o for o in update.outputs if isinstance(o, Countdown)]
        return sent

    def timer_countdowns(self) -> list[TimerCountdown]:
        return [m for m in self.emulator.commands if isinstance(m, TimerCountdown)]


@pytest.fixture
def paused_table():
    table = PausedTable()
    yield table
    table.runner.close()


def test_a_pending_ruling_pauses_the_countdown_on_the_emulated_timer(paused_table, qtbot):
    table = paused_table
    view = TimerView(table.model)
    qtbot.addWidget(view)
    table.run_to(3.0)
    view.set_table("T1")
    assert table.model.table("T1").open_flags()  # S's out-of-turn play waits for a ruling
    assert view.pause_button.text() == "暂停 T1" and view.add_button.isEnabled()
    _until(lambda: len(table.timer_countdowns()) == 1 and table.emulator.timer.running)
    first = table.timer_countdowns()[0]
    assert (first.seat, first.action.value, first.limit_ms) == ("E", "lead", 40_000)

    view.pause_button.click()  # at table time 3
    table.run_to(5.0)
    _until(lambda: table.emulator.timer.paused)
    assert any(isinstance(m, Pause) for m in table.emulator.commands) and not table.emulator.timer.running
    left = table.emulator.timer.left_at_stop_ms
    assert view.pause_button.text() == "继续 T1" and view.state.text() == "<b>已暂停</b>"
    assert table.model.table("T1").clock()[2] == pytest.approx(38.0)  # the console's clock stands still too
    beeps = table.emulator.timer.beeps
    time.sleep(0.3)
    assert table.emulator.timer.left_at_stop_ms == left and table.emulator.timer.beeps == beeps

    view.seat.setCurrentIndex(0)  # 东 E, the seat to act
    view.add_button.click()  # +30 s while paused: sent with the resume
    assert table.run_to(8.0) == []
    view.pause_button.click()  # resume at table time 8, after 5 s paused
    resent = table.run_to(10.0)
    assert [(c.seat, c.action, c.deadline) for c in resent] == [("E", "lead", 41.0 + 5.0 + 30.0)]
    _until(lambda: len(table.timer_countdowns()) == 2 and table.emulator.timer.running)
    moved = table.timer_countdowns()[1]
    assert (moved.deadline_us - first.deadline_us) / 1e6 == pytest.approx(35.0, abs=DRIFT)
    assert not table.emulator.timer.paused and view.pause_button.text() == "暂停 T1"
    assert [(e.who, e.what("zh")) for e in table.model.register.audit] == [
        ("张裁判", "手动录入: 暂停"),
        ("张裁判", "手动录入: 东 加时 30 秒"),
        ("张裁判", "手动录入: 继续"),
    ]
