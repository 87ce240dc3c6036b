"""The head's time call (R-MATCH-1) at the table: the deal in progress is finished, no new one starts,
and a call between deals ends the match at once; ``sign`` is the score sheet's signature, informational."""

from __future__ import annotations

import pytest

from referee_station.sim.match import simulate
from referee_station.table.events import DealEnd, DealStart, EventError, Flag, MatchEnd, Sign, TimeCall, parse_record
from referee_station.table.referee import TableReferee


def fed_until(events, stop):
    """A fresh auto-confirming referee fed the events before the first one ``stop`` accepts."""
    referee = TableReferee(auto_confirm=True)
    outputs = []
    for i, event in enumerate(events):
        if stop(event):
            return referee, outputs, events[i:]
        outputs += referee.feed(event)
    raise AssertionError("the stop event never came")


def test_a_call_during_a_deal_finishes_that_deal_and_no_other():
    events = simulate(7, deals=4).events
    starts = [e for e in events if isinstance(e, DealStart)]
    plays_of_deal_2 = [e for e in events if starts[1].t < e.t < starts[2].t]
    call_at = plays_of_deal_2[len(plays_of_deal_2) // 2].t
    referee, _, rest = fed_until(events, lambda e: e.t >= call_at)
    assert referee.deals_played == 1 and not referee.match_over
    assert referee.feed(TimeCall(call_at, round=2)) == [], "a call mid-deal ends nothing yet (R-MATCH-1)"
    after = [out for event in rest for out in referee.feed(event)]
    ends = [o for o in after if isinstance(o, DealEnd)]
    match = [o for o in after if isinstance(o, MatchEnd)]
    assert [e.deal for e in ends] == [2], "only the deal in progress was finished"
    assert len(match) == 1 and match[0].reason == "time called" and match[0].t == ends[0].t
    assert match[0].levels == ends[0].levels
    strange = [o for o in after if isinstance(o, Flag) and o.offence == "strange_event"]
    assert strange and "deal after the end of the match" in strange[0].detail, "deal 3 is not played"
    assert referee.snapshot().time_called == call_at


def test_a_call_between_deals_ends_the_match_at_once():
    events = simulate(3, deals=3).events
    starts = [e for e in events if isinstance(e, DealStart)]
    referee, outputs, _ = fed_until(events, lambda e: e is starts[1])
    (end,) = referee.feed(TimeCall(starts[1].t - 0.5))
    assert isinstance(end, MatchEnd) and end.reason == "time called"
    assert end.levels == next(o for o in reversed(outputs) if isinstance(o, DealEnd)).levels
    assert referee.feed(TimeCall(starts[1].t)) == [], "a second call changes nothing"


def test_sign_and_time_call_lines_round_trip_and_name_bad_fields():
    for record in (TimeCall(5.0, round=3), Sign(6.0, "NS")):
        assert parse_record(record.to_json()) == record
    assert parse_record({"t": 1, "type": "time_call"}) == TimeCall(1.0, round=0)
    with pytest.raises(EventError, match="sign: field 'side' must be EW or NS, got 'E'"):
        parse_record({"t": 1, "type": "sign", "side": "E"})
    with pytest.raises(EventError, match="time_call: field 'round' must be an integer"):
        parse_record({"t": 1, "type": "time_call", "round": "two"})
    referee = TableReferee()
    assert referee.feed(Sign(1.0, "EW")) == [], "the referee takes a signature as information"
