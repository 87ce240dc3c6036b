"""The card picker of manual entry: the cards the referee clicked, in the order clicked.

Clicking is quicker and safer than typing codes when the camera is unsure, but a game uses two
decks, so a face can be picked at most twice (R-CARD-1); a third click of the same face is refused
here rather than left for the referee core to flag as an impossible play. The picked cards become the
argument of a play, tribute or return entry (``ConsoleModel.enter``).
"""

from __future__ import annotations

from referee_station.console.models.cards import face
from referee_station.console.models.signal import Signal
from referee_station.rules.cards import BIG_JOKER, COPIES, RANKS, SMALL_JOKER, Card

GRID: tuple[tuple[str, ...], ...] = (
    *(tuple(rank + suit for rank in RANKS) for suit in "shcd"),
    (SMALL_JOKER, BIG_JOKER),
)
"""Rows of the picker: ♠ ♥ ♣ ♦ (the order referees sort a hand in), ranks 2..A, then the jokers."""


class CardPicker:
    """Picked card codes in click order. Signal: ``changed()`` after every change."""

    def __init__(self) -> None:
        self.cards: list[str] = []
        self.changed = Signal()

    def count(self, code: str) -> int:
        return self.cards.count(code)

    def add(self, code: str) -> bool:
        """Pick one more of ``code``; False (and nothing changes) when both copies are picked."""
        code = Card.parse(code).code
        if self.count(code) >= COPIES:
            return False
        self.cards.append(code)
        self.changed.emit()
        return True

    def undo(self) -> str | None:
        """Take back the last pick (None when nothing is picked)."""
        if not self.cards:
            return None
        code = self.cards.pop()
        self.changed.emit()
        return code

    def clear(self) -> None:
        if self.cards:
            self.cards.clear()
            self.changed.emit()

    @property
    def argument(self) -> str:
        """The picks as a manual entry's cards: ``"3s 3h"``."""
        return " ".join(self.cards)

    def shown(self, lang: str = "zh") -> str:
        """The picks for people, in order: ``3♠ 3♥ 大王``."""
        return " ".join(face(code, lang) for code in self.cards)
