"""The hall's round call at a station (R-MATCH-1): the orchestrator feeds one ``time_call`` at the
table's time when the head calls (or the round's limit passes), the deal in progress is finished,
the next deal is held back with a notice, and a stale call of another round ends nothing."""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee_station.hall.rounds import RoundCall, RoundTable
from referee_station.sim.match import simulate
from referee_station.station.orchestrator import Station
from referee_station.station.round_gate import RoundGate
from referee_station.table.events import DealEnd, DealStart, MatchEnd, Sign, TimeCall
from referee_station.table.referee import TableReferee

ROUND = RoundCall("cup", 2, 500.0, 3600.0, None, 9, (RoundTable("T01", 1, "1 A / B", "2 C / D"),))


@dataclass
class Announced:
    round_call: RoundCall | None


def station_for(seed: int, source: Announced, wall: list[float]) -> tuple[Station, list, list[float]]:
    events = simulate(seed, deals=3).events
    referee = TableReferee(auto_confirm=True)
    gate = RoundGate(source, "T01", wall=lambda: wall[0])
    starts = [e.t for e in events if isinstance(e, DealStart)]
    return Station(referee, others=events, round_gate=gate), events, starts


def test_the_call_ends_the_match_after_the_deal_in_progress() -> None:
    source, wall = Announced(ROUND), [600.0]
    station, events, starts = station_for(11, source, wall)
    steps = [station.idle((starts[1] + starts[2]) / 2)]
    assert station.round_gate.seats.sides == {"EW": "1 A / B", "NS": "2 C / D"}
    source.round_call = replace(ROUND, called=700.0)
    wall[0] = 701.0
    steps.append(station.idle(station.now))
    steps.append(station.finish(events[-1].t))
    fed = [f for s in steps for f in s.fed]
    calls = [f for f in fed if isinstance(f.event, TimeCall)]
    assert len(calls) == 1 and calls[0].event.round == 2 and calls[0].source.value == "hall"
    assert calls[0].event.t == max(f.event.t for f in fed[: fed.index(calls[0])]), "stamped at the table's time"
    outputs = [o for f in fed for o in f.outputs]
    assert [o.deal for o in outputs if isinstance(o, DealEnd)] == [1, 2]
    (end,) = [o for o in outputs if isinstance(o, MatchEnd)]
    assert end.reason == "time called"
    assert not any(isinstance(f.event, DealStart) and f.event.t >= starts[2] for f in fed), "deal 3 never started"
    assert isinstance(station.round_gate.held[0], DealStart) and station.round_gate.held[0].t == starts[2]
    assert [n.text for s in steps for n in s.notices] == ["R-MATCH-1: time was called; no new deal starts"]
    assert not any(o.TYPE == "flag" for o in outputs), "nothing after the call was refereed as a strange event"
    for side in ("NS", "EW", "NS"):  # entered after the held deal's later events, at the table's time
        station.enter(Sign(station.now, side), f"{side} captain")
    signs = [f.event for f in station.idle(0.0).fed]
    assert [s.side for s in signs] == ["NS", "EW", "NS"], "entries keep the order they were made in"
    assert all(s.t >= end.t for s in signs)


def test_the_limit_calls_time_and_a_stale_call_does_not() -> None:
    stale, wall = Announced(replace(ROUND, round=1, called=400.0)), [600.0]
    station, events, starts = station_for(12, stale, wall)
    station.idle(starts[1] + 1)
    assert station.round_gate.call is None and station.referee.time_called is None, "round 1's call is not ours"
    stale.round_call = ROUND  # round 2 announced: the gate binds to it
    station.idle(starts[1] + 2)
    wall[0] = ROUND.start + ROUND.limit_s  # 60 minutes (R-MATCH-1), no call needed
    station.idle(starts[1] + 3)
    assert starts[1] < station.referee.time_called <= station.now
    station.finish(events[-1].t)
    assert station.referee.match_over and station.referee.deals_played == 2


def test_the_rounds_last_deal_ends_the_match_without_a_call() -> None:
    """R-MATCH-1: at most ``max_deals`` deals a round; after the last one no new deal starts."""
    source, wall = Announced(replace(ROUND, max_deals=2)), [600.0]
    station, events, starts = station_for(11, source, wall)
    fed = [f for s in (station.idle(starts[2] + 1.0), station.finish(events[-1].t)) for f in s.fed]
    outputs = [o for f in fed for o in f.outputs]
    assert [o.deal for o in outputs if isinstance(o, DealEnd)] == [1, 2]
    (end,) = [o for o in outputs if isinstance(o, MatchEnd)]
    assert end.reason == "time called"
    assert not any(isinstance(f.event, DealStart) and f.event.t >= starts[2] for f in fed), "deal 3 never started"
