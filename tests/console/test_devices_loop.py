"""The seat units in the loop: a table's passes and reports are pressed on the hardware emulator
(pseudo-terminal), heard by the real driver, and only then fed to the referee; countdowns go to
the emulated timer. The referee's findings are the same as with the events fed straight."""

from __future__ import annotations

import time

from referee_station.core import Health
from referee_station.devices.messages import Countdown as TimerCountdown
from referee_station.station.live.hall import LiveHall
from referee_station.station.live.runner import TableRunner
from referee_station.table.events import Flag, Pass, Report
from tests.console.helpers import one_deal_with_flags


def play(records, *, devices):
    runner = TableRunner("T1", records, devices=devices)
    hall = LiveHall([runner], speed=0 if not devices else 20)
    updates = []
    try:
        while not hall.done:
            updates += hall.due()
            time.sleep(min(0.01, hall.wait()))
    finally:
        hall.close()
    return runner, updates


def test_passes_and_reports_are_heard_through_the_seat_units():
    records = one_deal_with_flags()
    runner, updates = play(records, devices=True)
    _, straight = play(records, devices=False)
    presses = [r for r in records if type(r) in (Pass, Report)]
    heard = [u.event for u in updates if u.who == "seats"]
    assert [(e.TYPE, e.seat) for e in heard] == [(r.TYPE, r.seat) for r in presses] and len(heard) >= 6
    assert all(abs(e.t - r.t) < 0.5 for e, r in zip(heard, presses, strict=True))  # the press, on the table clock

    def findings(ups):
        return [(o.seat, o.offence) for u in ups for o in u.outputs if isinstance(o, Flag)]

    assert findings(updates) == findings(straight) == [("S", "out_of_turn_play"), ("N", "out_of_turn_pass")]
    assert updates[-1].snapshot.levels == straight[-1].snapshot.levels == {"EW": "5", "NS": "2"}
    assert updates[-1].health == Health()
    assert any(isinstance(m, TimerCountdown) for m in runner.devices.emulator.commands)
