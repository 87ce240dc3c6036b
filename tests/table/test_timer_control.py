"""Pausing the clocks and adding time (``timer`` events, R-TIME): a paused clock never runs out,
resuming moves every deadline by the pause, added time moves one seat's; each moved clock is sent
again as a ``countdown`` for the timer."""

from __future__ import annotations

import pytest

from referee_station.table.events import EventError, TimerControl, parse_record
from tests.table.helpers import Table


def _dealt() -> Table:
    table = Table(auto_confirm=False)
    table.deal("E")  # t=1: E's first lead, limit 40 s (R-TIME-2), deadline 41
    return table


def test_a_paused_clock_does_not_run_out_and_resumes_moved_by_the_pause():
    table = _dealt()
    assert table.of_type("countdown")[-1] == {
        "t": 1.0,
        "type": "countdown",
        "seat": "E",
        "action": "lead",
        "limit": 40.0,
        "deadline": 41.0,
    }
    table.feed({"type": "timer", "action": "pause"}, advance=9.0)  # t=10
    assert table.state().paused_at == 10.0
    assert table.feed({"type": "tick"}, advance=60.0) == []  # t=70: past limit and grace, but paused
    out = table.feed({"type": "timer", "action": "resume"}, advance=5.0)  # t=75: paused 65 s
    assert out == [{"t": 75.0, "type": "countdown", "seat": "E", "action": "lead", "limit": 31.0, "deadline": 106.0}]
    assert table.state().paused_at is None
    assert table.flags(table.feed({"type": "tick"}, advance=30.0)) == []  # t=105: still within the limit
    late = table.feed({"type": "tick"}, advance=12.0)  # t=117: limit (106) and grace (10 s) are over
    assert [o["action"] for o in late if o["type"] == "countdown"] == ["grace"]
    assert table.flags(late) == [("E", "overtime", "warning")]


def test_added_time_moves_one_seat_and_restarts_its_grace():
    table = _dealt()
    table.feed({"type": "tick"}, advance=42.0)  # t=43: in E's grace
    assert table.of_type("countdown")[-1]["action"] == "grace"
    out = table.feed({"type": "timer", "action": "add", "seat": "E", "seconds": 30}, advance=1.0)  # t=44
    assert out == [{"t": 44.0, "type": "countdown", "seat": "E", "action": "lead", "limit": 27.0, "deadline": 71.0}]
    assert table.flags(table.feed({"type": "tick"}, advance=26.0)) == []  # t=70
    assert [o["action"] for o in table.feed({"type": "tick"}, advance=2.0)] == ["grace"]  # t=72, a new grace


def test_added_time_while_paused_is_sent_on_resume():
    table = _dealt()
    table.feed({"type": "timer", "action": "pause"}, advance=1.0)  # t=2
    assert table.feed({"type": "timer", "action": "add", "seat": "E", "seconds": 20}, advance=1.0) == []
    out = table.feed({"type": "timer", "action": "resume"}, advance=1.0)  # t=4, paused 2 s
    assert [(o["seat"], o["deadline"]) for o in out] == [("E", 63.0)]


def test_wrong_timer_events_are_flagged_not_obeyed():
    table = _dealt()
    assert table.flags(table.feed({"type": "timer", "action": "resume"})) == [(None, "strange_event", "anomaly")]
    out = table.feed({"type": "timer", "action": "add", "seat": "N", "seconds": 10})
    assert table.flags(out) == [("N", "strange_event", "anomaly")] and "not running" in out[0]["detail"]
    table.feed({"type": "timer", "action": "pause"})
    assert table.flags(table.feed({"type": "timer", "action": "pause"})) == [(None, "strange_event", "anomaly")]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ({"action": "stop"}, "'action' must be one of pause, resume, add"),
        ({"action": "add", "seat": "E"}, "missing field 'seconds'"),
        ({"action": "add", "seat": "E", "seconds": 0}, "'seconds' must be a number of seconds in (0, 3600]"),
        ({"action": "add", "seat": "X", "seconds": 5}, "'seat' must be one of E S W N"),
        ({"action": "pause", "seat": "E"}, "pause takes no seat or seconds"),
    ],
)
def test_bad_timer_lines_are_refused_by_name(line, says):
    with pytest.raises(EventError, match=None) as err:
        parse_record({"t": 1.0, "type": "timer", **line})
    assert says in str(err.value)


def test_a_timer_line_round_trips():
    event = TimerControl(t=3.0, action="add", seat="S", seconds=15.0)
    assert event.to_json() == {"t": 3.0, "type": "timer", "action": "add", "seat": "S", "seconds": 15.0}
    assert parse_record(event.to_json()) == event
    assert TimerControl(t=1.0).to_json() == {"t": 1.0, "type": "timer", "action": "pause"}
