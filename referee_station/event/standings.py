"""The ranking (R-MATCH-3, seed 003 八): match points, then 小分, then 得分, then fewer 失分,
then lot. The lot is drawn once per event from its seed, so the order is reproducible."""

from __future__ import annotations

from dataclasses import dataclass

from referee_station.event.model import EventState
from referee_station.event.pairs import Pair
from referee_station.event.scoring import Totals


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    place: int
    pair: Pair
    totals: Totals
    played: int
    """Rounds with a counted score (a bye counts)."""
    lot: int
    """The pair's lot (1 draws first); decides only between pairs equal on everything else."""
    by_lot: bool
    """Whether the lot decided this pair's place against a neighbour."""


def rank_key(totals: Totals, lot: int) -> tuple[int, int, int, int, int]:
    """R-MATCH-3 as a sort key: smaller sorts first."""
    return (-totals.points, -totals.small, -totals.gained, totals.conceded, lot)


def lots(state: EventState) -> dict[int, int]:
    """Each pair's lot, drawn with the event's seed (R-MATCH-3: 抽签)."""
    numbers = sorted(state.pairs)
    drawn = state.rng("lot").sample(numbers, len(numbers))
    return {pair: i for i, pair in enumerate(drawn, start=1)}


def totals(state: EventState, through: int | None = None) -> dict[int, tuple[Totals, int]]:
    """Each pair's totals and counted rounds over rounds 1…``through`` (all paired rounds by default)."""
    last = len(state.rounds) if through is None else through
    out = {number: (Totals(), 0) for number in state.pairs}
    for round_no in range(1, last + 1):
        for pair, score in state.scores(round_no).items():
            total, played = out[pair]
            out[pair] = (total + score, played + 1)
    return out


def standings(state: EventState, through: int | None = None) -> list[Standing]:
    """The standings after rounds 1…``through``; only counted results are in them."""
    sums = totals(state, through)
    lot = lots(state)
    order = sorted(sums, key=lambda p: rank_key(sums[p][0], lot[p]))
    out = []
    for place, pair in enumerate(order, start=1):
        neighbours = [order[i] for i in (place - 2, place) if 0 <= i < len(order)]
        tied = any(rank_key(sums[n][0], 0) == rank_key(sums[pair][0], 0) for n in neighbours)
        out.append(Standing(place, state.pairs[pair], sums[pair][0], sums[pair][1], lot[pair], tied))
    return out
