"""Building events for the tests: pairs, and rounds played from given or simulated results."""

from __future__ import annotations

from referee_station.event.actions import Created, PairsImported, ResultConfirmed, ResultReported, RoundPaired
from referee_station.event.model import EventState
from referee_station.event.pairing import Pairing
from referee_station.event.pairs import Pair
from referee_station.event.planner import next_pairing
from referee_station.event.rules import EventRules


def pairs(n: int) -> tuple[Pair, ...]:
    return tuple(Pair(i, (f"East{i}", f"West{i}"), f"unit{(i - 1) % 3 + 1}") for i in range(1, n + 1))


def new_event(n: int, seed: int = 1, rules: EventRules | None = None) -> EventState:
    state = EventState()
    state.apply(Created(at=0.0, by="head", name="test event", seed=seed, rules=rules or EventRules()))
    state.apply(PairsImported(at=1.0, by="head", pairs=pairs(n)))
    return state


def pair_round(state: EventState, at: float = 10.0) -> Pairing:
    pairing = next_pairing(state)
    state.apply(RoundPaired(at=at, by="head", pairing=pairing))
    return pairing


def play(state: EventState, round_no: int, table: int, winner: str, gained: dict[str, int], at: float = 20.0) -> None:
    """Report a result and have both sides sign it."""
    state.apply(ResultReported(at=at, round=round_no, table=table, winner=winner, gained=gained, source="test"))
    state.apply(ResultConfirmed(at=at + 1, round=round_no, table=table, side="EW"))
    state.apply(ResultConfirmed(at=at + 2, round=round_no, table=table, side="NS"))
