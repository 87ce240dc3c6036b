"""Who plays whom in a round, and where they sit (seed 003 三/八.1, seed 000 积分编排).

Invariants of every :class:`Pairing`: each pair plays at most one table or has the bye; the lower
pair number of a table sits East-West; tables are numbered from the best-placed pair down.

Swiss (积分编排): the pairing is the minimum-cost perfect matching (networkx's blossom algorithm)
where the costs, in strict order of importance, are: a second bye, a rematch, the squared
difference of match points (pairs meet within their score group, an odd group sends one pair
down), and the squared distance in the standings (1st v 2nd, 3rd v 4th within a group). So a
rematch happens only when no pairing avoids it, and then it is reported in ``rematches``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

BYE = 0
"""The phantom opponent of the pair that sits out (pair numbers start at 1)."""


class PairingError(ValueError):
    """A round that cannot be paired as asked (the message says why)."""


@dataclass(frozen=True)
class Table:
    """One match of a round: the lower pair number East-West (seed 003 八.1)."""

    number: int
    ew: int
    ns: int

    @classmethod
    def seated(cls, number: int, a: int, b: int) -> Table:
        return cls(number, min(a, b), max(a, b))

    @property
    def pairs(self) -> tuple[int, int]:
        return (self.ew, self.ns)


@dataclass(frozen=True)
class Pairing:
    """A round's tables, the pair with the bye (odd count) and the rematches no pairing avoided."""

    round: int
    tables: tuple[Table, ...]
    bye: int | None = None
    rematches: tuple[tuple[int, int], ...] = ()
    repeat_bye: bool = False
    """The bye went to a pair that had one already, because every pair had."""

    def table_of(self, pair: int) -> Table | None:
        return next((t for t in self.tables if pair in t.pairs), None)


def meetings(rounds: Iterable[Pairing]) -> frozenset[frozenset[int]]:
    """Every two pairs that have already met."""
    return frozenset(frozenset(t.pairs) for p in rounds for t in p.tables)


def bye_counts(rounds: Iterable[Pairing]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for p in rounds:
        if p.bye is not None:
            counts[p.bye] = counts.get(p.bye, 0) + 1
    return counts


def _numbered(round_no: int, matches: Sequence[tuple[int, int]], bye: int | None, **extra) -> Pairing:
    tables = tuple(Table.seated(i, a, b) for i, (a, b) in enumerate(matches, start=1))
    return Pairing(round_no, tables, bye, **extra)


def in_order(round_no: int, order: Sequence[int]) -> Pairing:
    """1st v 2nd, 3rd v 4th, …; with an odd count the last pair has the bye."""
    _check_distinct(order)
    bye = order[-1] if len(order) % 2 else None
    even = order[: len(order) - (len(order) % 2)]
    return _numbered(round_no, [(even[i], even[i + 1]) for i in range(0, len(even), 2)], bye)


def first_round(order: Sequence[int], drawn: bool, rng: random.Random) -> Pairing:
    """Round 1 (seed 003 三): by sign-in order, or drawn with the event's seeded ``rng``."""
    chosen = list(order)
    if drawn:
        rng.shuffle(chosen)
    return in_order(1, chosen)


def _check_distinct(order: Sequence[int]) -> None:
    if len(set(order)) != len(order) or len(order) < 2:
        raise PairingError(f"a round needs at least 2 distinct pairs, got {list(order)}")
    if BYE in order:
        raise PairingError("pair number 0 is reserved for the bye")


@dataclass(frozen=True)
class SwissCost:
    """What a pairing costs, compared in this order (lower is better)."""

    repeat_byes: int
    rematches: int
    point_spread: int
    """Sum over tables of the squared difference of match points (score groups)."""
    rank_spread: int
    """Sum over tables of the squared distance in the standings."""


class _Costs:
    """The four costs of one match, from the rank and score of each pair computed once."""

    def __init__(
        self,
        ranked: Sequence[int],
        points: Mapping[int, int],
        met: frozenset[frozenset[int]],
        byes: Mapping[int, int],
    ) -> None:
        self.rank = {pair: i for i, pair in enumerate(ranked)} | {BYE: len(ranked)}
        self.score = {p: points[p] for p in ranked} | {BYE: min(points[p] for p in ranked) - 1}
        self.met, self.byes = met, byes

    def of(self, a: int, b: int) -> SwissCost:
        repeat = self.byes.get(a or b, 0) if BYE in (a, b) else 0
        rematch = int(BYE not in (a, b) and frozenset((a, b)) in self.met)
        return SwissCost(repeat, rematch, (self.score[a] - self.score[b]) ** 2, (self.rank[a] - self.rank[b]) ** 2)


def swiss_cost(
    matches: Iterable[tuple[int, int]],
    ranked: Sequence[int],
    points: Mapping[int, int],
    met: frozenset[frozenset[int]],
    byes: Mapping[int, int],
) -> SwissCost:
    """The cost of a set of matches (``BYE`` as the partner of the pair sitting out)."""
    costs = _Costs(ranked, points, met, byes)
    each = [costs.of(a, b) for a, b in matches]
    return SwissCost(
        sum(c.repeat_byes for c in each),
        sum(c.rematches for c in each),
        sum(c.point_spread for c in each),
        sum(c.rank_spread for c in each),
    )


def swiss(
    round_no: int,
    ranked: Sequence[int],
    points: Mapping[int, int],
    met: frozenset[frozenset[int]],
    byes: Mapping[int, int],
) -> Pairing:
    """Pair ``ranked`` (best first) in score groups with no rematch where one can be avoided.

    ``points``: match points so far; ``met``: pairs that already played; ``byes``: byes so far."""
    _check_distinct(ranked)
    missing = [p for p in ranked if p not in points]
    if missing:
        raise PairingError(f"no match points for pair(s) {missing}")
    nodes = [*ranked, BYE] if len(ranked) % 2 else list(ranked)
    n = len(nodes)
    top_point = max(points[p] for p in ranked) - min(points[p] for p in ranked) + 1
    rank_weight = 1
    point_weight = rank_weight * (n * n * n + 1)
    rematch_weight = point_weight * (top_point * top_point * n + 1)
    bye_weight = rematch_weight * (n + 1)
    costs = _Costs(ranked, points, met, byes)
    graph = nx.Graph()
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            c = costs.of(a, b)
            cost = (
                bye_weight * c.repeat_byes
                + rematch_weight * c.rematches
                + point_weight * c.point_spread
                + rank_weight * c.rank_spread
            )
            graph.add_edge(a, b, weight=-cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = costs.rank
    matches = sorted((tuple(sorted(m, key=rank.__getitem__)) for m in matching), key=lambda m: rank[m[0]])
    bye = next((a for a, b in matches if b == BYE), None)
    played = [m for m in matches if BYE not in m]
    rematches = tuple(sorted((min(m), max(m)) for m in played if frozenset(m) in met))
    return _numbered(round_no, played, bye, rematches=rematches, repeat_bye=bye is not None and byes.get(bye, 0) > 0)


def knockout(round_no: int, survivors: Sequence[int], byes: Mapping[int, int]) -> Pairing:
    """淘汰赛: the survivors in their order meet 1st v 2nd, 3rd v 4th, …; with an odd count the
    bye goes to the last-placed survivor among those with the fewest byes."""
    _check_distinct(survivors)
    order = list(survivors)
    bye = None
    if len(order) % 2:
        fewest = min(byes.get(p, 0) for p in order)
        bye = next(p for p in reversed(order) if byes.get(p, 0) == fewest)
        order.remove(bye)
    return _numbered(round_no, [(order[i], order[i + 1]) for i in range(0, len(order), 2)], bye)
