"""Evidence about one seat's row of cards, gathered over the frames it lies still ("look more than once").

Each read of the seat adds, per card, the reader's top classes with their probabilities. A card is
tracked by its place in the row and its index anchor: a read whose row has the same number of cards,
each anchor within ``SAME_CARD_CM`` of the last look's, is another look at the same cards; any other row
(a card added, taken away, the row pushed) starts the evidence afresh. A card's reading is the mean of
its looks' probabilities, each look weighted by how clearly it tells its best reading from the next
(``weight``): a look torn by a hand's shadow or a glare spot counts little beside the clear looks after
it, which settle the card, while looks of the same torn picture stay as torn as each of them (the
looks of a still row are not independent evidence, so their probabilities are never multiplied).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from referee_station.vision.geometry import STRIP_PX_PER_CM

SAME_CARD_CM = 0.6
"""Largest anchor shift (cm) between two looks at the same card: the locator's anchor wanders 1–2 px
(0.1 cm) between frames, and two cards of a row lie at least 1.6 cm apart (an index's width)."""
KEPT = 3
"""Readings of each card handed on, best first (``PlayCards.alternatives``)."""
LEAST_WEIGHT = 0.01
"""The weight of a look torn evenly between two readings: it still counts, a little."""

Alternatives = tuple[tuple[str, float], ...]
"""One card's readings (code, probability), best first."""


class CardsLike(Protocol):
    """What the evidence needs of ``referee_station.vision.reader.SeatReading``."""

    cards: list[str]
    confidences: list[float]
    anchors: list[tuple[float, float]]
    alternatives: list[Alternatives]


def weight(alternatives: Alternatives) -> float:
    """How much one look at a card counts: its best probability's lead over the second best."""
    second = alternatives[1][1] if len(alternatives) > 1 else 0.0
    return max(LEAST_WEIGHT, alternatives[0][1] - second)


@dataclass
class _Card:
    """One card's looks, weighted (``weight``): summed probabilities per code (first seen first), summed
    presence (the share of a look's confidence that is not about the card's face: the locator's score,
    a row that may lack a card) and the summed weights."""

    anchor: tuple[float, float]
    sums: dict[str, float] = field(default_factory=dict)
    presence: float = 0.0
    weights: float = 0.0

    def add(self, anchor: tuple[float, float], alternatives: Alternatives, confidence: float) -> None:
        self.anchor = anchor
        w = weight(alternatives)
        for code, p in alternatives:
            self.sums[code] = self.sums.get(code, 0.0) + w * p
        top = alternatives[0][1]
        self.presence += w * (min(1.0, confidence / top) if top > 0 else 0.0)
        self.weights += w

    def ranked(self) -> Alternatives:
        """Every code seen, by weighted mean probability, best first (ties: the first seen)."""
        order = sorted(self.sums.items(), key=lambda item: -item[1])
        return tuple((code, total / self.weights) for code, total in order)

    @property
    def confidence(self) -> float:
        return self.ranked()[0][1] * self.presence / self.weights


@dataclass
class RowEvidence:
    """The looks at one seat's row since it last changed; ``add`` each read, then ask what it shows."""

    looks: int = 0
    _cards: list[_Card] = field(default_factory=list)

    def add(self, reading: CardsLike) -> bool:
        """Add one read; True when it looked at the same row as before (the evidence grew), False when
        the row differs and the evidence started again from this read."""
        anchors = [(float(u), float(v)) for u, v in reading.anchors]
        alternatives = _alternatives(reading)
        same = self.looks > 0 and same_row(self.anchors, anchors)
        if not same:
            self.looks, self._cards = 0, [_Card(anchor) for anchor in anchors]
        for card, anchor, alts, confidence in zip(self._cards, anchors, alternatives, reading.confidences, strict=True):
            card.add(anchor, alts, confidence)
        self.looks += 1
        return same

    def clear(self) -> None:
        self.looks, self._cards = 0, []

    @property
    def anchors(self) -> tuple[tuple[float, float], ...]:
        """Each card's index anchor at the last look (strip px), left to right."""
        return tuple(c.anchor for c in self._cards)

    @property
    def cards(self) -> tuple[str, ...]:
        """Each card's best reading, left to right."""
        return tuple(c.ranked()[0][0] for c in self._cards)

    @property
    def confidences(self) -> list[float]:
        """Each card's confidence: the mean probability of its best reading times its mean presence."""
        return [c.confidence for c in self._cards]

    @property
    def alternatives(self) -> tuple[Alternatives, ...]:
        """Each card's top ``KEPT`` readings with their mean probabilities, best first."""
        return tuple(c.ranked()[:KEPT] for c in self._cards)

    def sure(self, threshold: float) -> bool:
        """Whether every card's confidence reaches ``threshold`` (nothing left to look at again)."""
        return self.looks > 0 and all(c >= threshold for c in self.confidences)


def _alternatives(reading: CardsLike) -> list[Alternatives]:
    """The read's alternatives, or each card alone at its confidence where the reader gave none."""
    if reading.alternatives:
        return [tuple(a) for a in reading.alternatives]
    return [((card, conf),) for card, conf in zip(reading.cards, reading.confidences, strict=True)]


def same_row(before: Sequence[tuple[float, float]], now: Sequence[tuple[float, float]]) -> bool:
    """Whether two rows' anchors are the same cards in the same places (each within ``SAME_CARD_CM``)."""
    limit = SAME_CARD_CM * STRIP_PX_PER_CM
    return len(before) == len(now) and all(
        math.hypot(u0 - u1, v0 - v1) <= limit for (u0, v0), (u1, v1) in zip(before, now, strict=True)
    )
