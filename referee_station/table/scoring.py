"""Results of a deal and of a match (RULES.md section 8 and the match-loss rule of section 9).

Levels are indexes 0..12 for 2..A; 13 means the side has passed A (won the game, 一局).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee_station.rules import RANKS
from referee_station.table.events import OTHER_SIDE, PARTNER, SIDE_OF, SIDES

ACE = RANKS.index("A")
PASSED_ACE = ACE + 1


def level_index(rank: str) -> int:
    return RANKS.index(rank)


def level_rank(index: int) -> str:
    return RANKS[min(index, ACE)]


@dataclass(frozen=True)
class DealScore:
    """What a finished deal does to the levels (R-UP-1, R-UP-2)."""

    side_up: str
    levels_up: int
    """Nominal gain: partner 2nd +3, 3rd +2, 4th +1 (R-UP-1)."""
    gained: int
    """Actual gain after R-UP-2 (no jump past A; A passed only with partner 2nd or 3rd)."""
    passed_ace: bool


def nominal_gain(first: str, order: list[str | None]) -> int:
    """R-UP-1: the 上游's partner 2nd -> 3, 3rd -> 2, otherwise (4th) -> 1."""
    partner = PARTNER[first]
    if partner in order[1:2]:
        return 3
    if partner in order[2:3]:
        return 2
    return 1


def score_deal(order: list[str | None], levels: dict[str, int], deal_level: str) -> DealScore:
    """Apply R-UP-1/2 to a deal's finishing order. ``order[0]`` is the 上游."""
    first = order[0]
    assert first is not None
    side = SIDE_OF[first]
    nominal = nominal_gain(first, order)
    current = levels[side]
    if current >= ACE:
        # R-UP-2: at A, the side passes A only by taking 上游 with partner 2nd or 3rd in a deal at A
        passed = nominal >= 2 and deal_level == "A"
        return DealScore(side, nominal, 1 if passed else 0, passed)
    gained = min(current + nominal, ACE) - current
    return DealScore(side, nominal, gained, False)


@dataclass(frozen=True)
class MatchScore:
    """R-MATCH-1/2: winner, match points and level-difference points."""

    winner: str
    points: dict[str, int]
    level_diff_points: dict[str, int]


def score_match(levels: dict[str, int], winner: str | None, base: int) -> MatchScore:
    """The winner is given (passed A, or by a penalty) or decided by the higher level; equal is a draw.

    R-MATCH-2a default conversion: a level difference d gives 13 + d and 13 - d, clipped to 0..26."""
    if winner is None:
        winner = "draw" if levels["EW"] == levels["NS"] else "EW" if levels["EW"] > levels["NS"] else "NS"
    if winner == "draw":
        return MatchScore("draw", {s: 1 for s in SIDES}, {s: base for s in SIDES})
    loser = OTHER_SIDE[winner]
    diff = abs(levels[winner] - levels[loser])
    points = {winner: 2, loser: 0}
    diff_points = {winner: max(0, min(2 * base, base + diff)), loser: max(0, min(2 * base, base - diff))}
    return MatchScore(winner, points, diff_points)


def match_loss_levels(levels: dict[str, int], violator: str) -> dict[str, int]:
    """判负: the non-violating side is recorded at the violator's level + 4 (the violator may be
    lowered to J so that this stays on the scale), unless it already leads by more than 4."""
    winner = OTHER_SIDE[violator]
    if levels[winner] - levels[violator] > 4:
        return dict(levels)
    lowered = min(levels[violator], PASSED_ACE - 4)
    return {violator: lowered, winner: lowered + 4}
