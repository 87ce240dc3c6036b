"""Tribute (贡牌) and return (还牌), RULES.md section 5: who pays whom, who leads, what is correct.

Pure functions over seat letters and cards; the referee keeps the state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee_station.core import NEXT_SEAT, PARTNER, PREV_SEAT, SEATS, SIDE_OF
from referee_station.rules import Card, single_order
from referee_station.table import details as D

RETURN_MAX = 10
"""R-TRIB-1: a return must be of rank 10 or lower in single-card order (a level card never is)."""
BIG_JOKER = Card("BJ")
"""大王, whose copies decide 抗贡 (R-TRIB-3)."""


@dataclass(frozen=True)
class TributePlan:
    """Who must pay after a deal with finishing ``order`` (R-TRIB-1/2)."""

    upstream: str
    payers: tuple[str, ...]
    double: bool


def plan(order: list[str | None]) -> TributePlan:
    """Single down: the 下游 pays the 上游. Double down (上游 and partner 1st and 2nd): both pay."""
    first = order[0]
    assert first is not None
    if order[1] == PARTNER[first]:
        losers = tuple(seat for seat in SEATS if SIDE_OF[seat] != SIDE_OF[first])
        return TributePlan(first, losers, True)
    last = order[3]
    assert last is not None
    return TributePlan(first, (last,), False)


def resists(tp: TributePlan, hands: dict[str, list[Card]], each_one: bool = False) -> bool:
    """R-TRIB-3 抗贡: the payer(s) hold both 大王 between them (V-2: each holds one)."""
    counts = [hands[seat].count(BIG_JOKER) for seat in tp.payers]
    if tp.double and each_one:
        return all(count == 1 for count in counts)
    return sum(counts) >= 2


def recipients(tp: TributePlan, cards: dict[str, Card], level: str) -> dict[str, str]:
    """Map each payer to the seat they pay (R-TRIB-2): the higher tribute to the 上游, the lower
    to the partner; equal ranks go clockwise (each payer to the seat before them in play order)."""
    if not tp.double:
        return {tp.payers[0]: tp.upstream}
    a, b = tp.payers
    order_a, order_b = single_order(cards[a], level), single_order(cards[b], level)
    if order_a == order_b:
        return {a: PREV_SEAT[a], b: PREV_SEAT[b]}
    high, low = (a, b) if order_a > order_b else (b, a)
    return {high: tp.upstream, low: PARTNER[tp.upstream]}


def first_leader(tp: TributePlan, paid: dict[str, str], cards: dict[str, Card], level: str, equal_rule: str) -> str:
    """R-TRIB-1/2: the 下游 leads; in double down the one who paid the 上游 (V-1: with equal
    tributes, the 上游's 下家)."""
    if not tp.double:
        return tp.payers[0]
    a, b = tp.payers
    if equal_rule == "upstream_next" and single_order(cards[a], level) == single_order(cards[b], level):
        return NEXT_SEAT[tp.upstream]
    return next(payer for payer, to in paid.items() if to == tp.upstream)


def tribute_error(card: Card, held: Iterable[Card], level: str) -> str | None:
    """Why ``card`` is a wrong tribute given cards the payer held, or ``None`` (R-TRIB-1/4):
    it must be the payer's highest card by single order, never a ♥ level card."""
    if card.is_wild(level):
        return D.HEART_LEVEL_TRIBUTE(card=card.code)
    order = single_order(card, level)
    higher = [c for c in held if not c.is_wild(level) and single_order(c, level) > order]
    if higher:
        best = max(higher, key=lambda c: single_order(c, level))
        return D.NOT_HIGHEST(card=card.code, best=best.code)
    return None


def judged_alike(card: Card, level: str, tribute: bool) -> tuple[object, ...]:
    """What the checks below make of an exchanged card whatever the hand: two cards with the same key get
    the same verdict. A tribute is judged by its single order and whether it is the ♥ level card; a
    return of rank 10 or lower is right, one above by its order."""
    order = single_order(card, level)
    if tribute:
        return (order, card.is_wild(level))
    return (True,) if order <= RETURN_MAX else (False, order)


def return_error(card: Card, held: Iterable[Card], level: str) -> str | None:
    """Why ``card`` is a wrong return, or ``None`` (R-TRIB-1/4): rank 10 or lower, or the
    returner's lowest card when every card they hold is above 10."""
    value = single_order(card, level)
    if value <= RETURN_MAX:
        return None
    held = list(held)
    low = [c for c in held if single_order(c, level) <= RETURN_MAX]
    if low:
        return D.RETURN_NOT_LOW(card=card.code, low=min(low, key=lambda c: single_order(c, level)).code)
    lower = [c for c in held if single_order(c, level) < value]
    if lower:
        return D.RETURN_NOT_LOWEST(card=card.code, lower=min(lower, key=lambda c: single_order(c, level)).code)
    return None
