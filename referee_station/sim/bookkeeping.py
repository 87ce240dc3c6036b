"""What the simulator must know between deals: tribute (R-TRIB-1..3) and levels (R-UP-1/2, R-LVL-2).

Written from RULES.md on purpose, without importing the referee: the simulator is the independent
second opinion the referee is tested against, so sharing its code would hide a shared mistake.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_station.rules import RANKS, Card, single_order
from referee_station.table.events import OTHER_SIDE, PARTNER, PREV_SEAT, SEATS, SIDE_OF

ACE = len(RANKS) - 1
"""Levels are indexes into RANKS: 0 is level 2, 12 is A (R-LVL-1)."""
RETURN_MAX = 10
"""R-TRIB-1: a return is a card of rank 10 or lower in single-card order (a level card never is)."""


@dataclass(frozen=True)
class TributeDue:
    """Who pays whom before the first lead of a deal (R-TRIB-1/2)."""

    upstream: str
    payers: tuple[str, ...]
    double: bool


def tribute_due(order: list[str]) -> TributeDue:
    """From the previous deal's finishing order: single down the 下游 pays; double down
    (上游 and partner 1st and 2nd) both losers pay (R-TRIB-1/2)."""
    first = order[0]
    if order[1] == PARTNER[first]:
        losers = tuple(seat for seat in SEATS if SIDE_OF[seat] != SIDE_OF[first])
        return TributeDue(first, losers, True)
    return TributeDue(first, (order[3],), False)


def resisted(due: TributeDue, hands: dict[str, list[Card]]) -> bool:
    """抗贡 (R-TRIB-3): the payer(s) hold both 大王 between them."""
    return sum(1 for seat in due.payers for card in hands[seat] if card.code == "BJ") >= 2


def tribute_card(hand: list[Card], level: str) -> Card:
    """The correct tribute: the highest card by single order, never a ♥ level card (R-TRIB-1)."""
    return max((c for c in hand if not c.is_wild(level)), key=lambda c: single_order(c, level))


def returnable(hand: list[Card], level: str) -> list[Card]:
    """Cards a correct return may be (R-TRIB-1): rank 10 or lower, or the lowest card when none is."""
    low = [c for c in hand if single_order(c, level) <= RETURN_MAX]
    if low:
        return low
    lowest = min(single_order(c, level) for c in hand)
    return [c for c in hand if single_order(c, level) == lowest]


def tribute_recipients(due: TributeDue, paid: dict[str, Card], level: str) -> dict[str, str]:
    """Payer -> recipient (R-TRIB-2): the higher tribute to the 上游, the lower to the partner;
    equal ranks go clockwise (R-TRIB-2a), i.e. each payer to the seat before them in play order."""
    if not due.double:
        return {due.payers[0]: due.upstream}
    a, b = due.payers
    order_a, order_b = single_order(paid[a], level), single_order(paid[b], level)
    if order_a == order_b:
        return {a: PREV_SEAT[a], b: PREV_SEAT[b]}
    high, low = (a, b) if order_a > order_b else (b, a)
    return {high: due.upstream, low: PARTNER[due.upstream]}


def first_leader_after_tribute(due: TributeDue, recipients: dict[str, str]) -> str:
    """R-TRIB-1/2: the 下游 leads; in double down the one who paid the 上游."""
    return next(payer for payer, to in recipients.items() if to == due.upstream)


@dataclass(frozen=True)
class DealResult:
    """R-UP-1/2 applied to one deal."""

    side_up: str
    nominal: int
    levels: dict[str, int]
    passed_ace: bool


def score(order: list[str], levels: dict[str, int], deal_level: str) -> DealResult:
    """R-UP-1: the 上游's side gains 3/2/1 for partner 2nd/3rd/4th. R-UP-2: no jump past A; a side
    at A passes it (wins) only with partner 2nd or 3rd in a deal played at A, else stays at A."""
    first = order[0]
    side = SIDE_OF[first]
    place = order.index(PARTNER[first]) if PARTNER[first] in order else 3
    nominal = {1: 3, 2: 2}.get(place, 1)
    new = dict(levels)
    passed = False
    if levels[side] >= ACE:
        passed = nominal >= 2 and deal_level == "A"
    else:
        new[side] = min(levels[side] + nominal, ACE)
    return DealResult(side, nominal, new, passed)


def score_foul(levels: dict[str, int], foul_side: str) -> DealResult:
    """犯规 (R-PEN foul): the violating side is scored double down, so the other side goes up 3
    levels (never past A, and never passing it: it did not take 上游 in a deal at A, R-UP-2)."""
    side = OTHER_SIDE[foul_side]
    new = dict(levels)
    new[side] = min(levels[side] + 3, ACE)
    return DealResult(side, 3, new, False)
