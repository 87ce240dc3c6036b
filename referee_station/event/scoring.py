"""What one match gives each pair: match points, 小分, 得分 and 失分 (R-MATCH-2, R-MATCH-2a)."""

from __future__ import annotations

import csv
import enum
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee_station.table.events import OTHER_SIDE, SIDES

LEVELS = 13
"""The 13 levels 2…A; the 26-point scale spreads a difference of up to 13 over 0…26 (seed 000)."""

WIN, DRAW, LOSS = 2, 1, 0
"""R-MATCH-2: match points."""


class Outcome(enum.StrEnum):
    """A pair's result in one round."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    BYE = "bye"
    """No opponent this round (odd count): scored as a win by forfeit (seed 003 十一.3)."""
    FORFEIT_WON = "forfeit_won"
    """The opponent forfeited (late, R-MATCH / seed 003 十一.3)."""
    FORFEITED = "forfeited"


def _default_rows() -> tuple[tuple[int, int], ...]:
    return tuple((13 + d, 13 - d) for d in range(LEVELS + 1))


@dataclass(frozen=True)
class DiffTable:
    """R-MATCH-2a: level difference 0…13 → (winner's, loser's) 小分.

    The default is the digest's 13 + d : 13 − d; an event loads the official table from a CSV of
    ``difference,winner,loser`` rows (every difference 0…13 once)."""

    rows: tuple[tuple[int, int], ...] = field(default_factory=_default_rows)

    def __post_init__(self) -> None:
        if len(self.rows) != LEVELS + 1:
            raise ValueError(f"26-point table: needs rows for differences 0…{LEVELS}, got {len(self.rows)}")
        if self.rows[0][0] != self.rows[0][1]:
            raise ValueError(f"26-point table: difference 0 (a draw) must give both sides the same, got {self.rows[0]}")

    def points(self, difference: int) -> tuple[int, int]:
        """(winner, loser) for a level difference; past 13 counts as 13."""
        if difference < 0:
            raise ValueError(f"level difference must not be negative, got {difference}")
        return self.rows[min(difference, LEVELS)]

    def to_json(self) -> list[list[int]]:
        return [list(row) for row in self.rows]

    @classmethod
    def from_json(cls, rows: Sequence[Sequence[Any]]) -> DiffTable:
        return cls(tuple((int(w), int(lo)) for w, lo in rows))

    @classmethod
    def from_csv(cls, text: str, name: str = "26-point table") -> DiffTable:
        """Read ``difference,winner,loser`` rows (a header line is allowed); errors name the line."""
        found: dict[int, tuple[int, int]] = {}
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1):
            if not row or not "".join(row).strip() or (number == 1 and not row[0].strip().isdigit()):
                continue
            if len(row) != 3:
                raise ValueError(f"{name}:{number}: expected difference,winner,loser; got {row!r}")
            try:
                d, w, lo = (int(cell) for cell in row)
            except ValueError as err:
                raise ValueError(f"{name}:{number}: not a number in {row!r}") from err
            if not 0 <= d <= LEVELS or d in found:
                raise ValueError(f"{name}:{number}: difference {d} out of 0…{LEVELS} or given twice")
            found[d] = (w, lo)
        missing = [d for d in range(LEVELS + 1) if d not in found]
        if missing:
            raise ValueError(f"{name}: no row for difference(s) {', '.join(map(str, missing))}")
        return cls(tuple(found[d] for d in range(LEVELS + 1)))


@dataclass(frozen=True)
class RoundScore:
    """One pair's figures for one round (seed 003 七)."""

    outcome: Outcome
    points: int
    """积分: 2 / 1 / 0."""
    small: int
    """小分: from the level difference on the 26-point table."""
    gained: int
    """得分: levels this pair went up."""
    conceded: int
    """失分: levels the opponent went up."""

    def __add__(self, other: RoundScore) -> Totals:
        return Totals() + self + other


@dataclass(frozen=True)
class Totals:
    """A pair's sums over the counted rounds."""

    points: int = 0
    small: int = 0
    gained: int = 0
    conceded: int = 0

    def __add__(self, score: RoundScore | Totals) -> Totals:
        return Totals(
            self.points + score.points,
            self.small + score.small,
            self.gained + score.gained,
            self.conceded + score.conceded,
        )


def match_scores(winner: str, gained: Mapping[str, int], table: DiffTable) -> dict[str, RoundScore]:
    """Both sides' scores of a played match, by side (``EW``/``NS``), with the event's 26-point table.

    ``winner`` is ``EW``, ``NS`` or ``draw`` as the table's referee decided it (R-MATCH-1: passing A,
    a match loss or more levels); the level difference is that of the levels gained."""
    if winner not in (*SIDES, "draw"):
        raise ValueError(f"winner must be EW, NS or draw, got {winner!r}")
    difference = abs(gained["EW"] - gained["NS"])
    if winner == "draw":
        small = table.points(0)[0]
        return {
            side: RoundScore(Outcome.DRAW, DRAW, small, gained[side], gained[other])
            for side, other in OTHER_SIDE.items()
        }
    loser = OTHER_SIDE[winner]
    won, lost = table.points(difference)
    return {
        winner: RoundScore(Outcome.WIN, WIN, won, gained[winner], gained[loser]),
        loser: RoundScore(Outcome.LOSS, LOSS, lost, gained[loser], gained[winner]),
    }
