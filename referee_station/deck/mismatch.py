"""Notice a deck profile that does not match the cards on the table.

A classifier fitted to one design reads another design with visibly less confidence (measured on
rendered frames, ``benchmarks/deck.py``, 20 frames each: mean card confidence 0.81 on its own deck,
0.39 on another; the profile's threshold, calibrated at registration on rendered frames read by the
same reader (``referee_station.deck.threshold``), was 0.67). The check keeps the confidences of the last cards
read and reports a mismatch once enough cards have been seen and their mean falls below the profile's
calibrated ``mismatch_below``, so a wrong profile is reported instead of silently misreading a whole
session.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from referee_station.vision.reader import CardReader, FrameReading


@dataclass(frozen=True)
class DeckVerdict:
    cards: int
    """Cards the verdict rests on (at most the window)."""
    mean_confidence: float
    mismatch: bool

    def message(self, design: str) -> str:
        if not self.mismatch:
            return f"deck {design!r}: cards read with mean confidence {self.mean_confidence:.2f}"
        return (
            f"deck profile {design!r} does not match the cards on the table: mean confidence "
            f"{self.mean_confidence:.2f} over the last {self.cards} cards; register this deck or drop --deck"
        )


class DeckCheck:
    """Feed every frame's reading; ask for a ``verdict`` whenever needed."""

    def __init__(self, mismatch_below: float, min_cards: int = 12, window: int = 100) -> None:
        self.mismatch_below = mismatch_below
        self.min_cards = min_cards
        self.recent: deque[float] = deque(maxlen=window)

    def add(self, reading: FrameReading) -> None:
        for seat in reading.seats.values():
            self.recent.extend(seat.confidences)

    def verdict(self) -> DeckVerdict:
        n = len(self.recent)
        mean = sum(self.recent) / n if n else 1.0
        return DeckVerdict(n, mean, n >= self.min_cards and mean < self.mismatch_below)


class WatchedReader:
    """A deck profile's reader that feeds each reading to a ``DeckCheck``: ``run`` reads on demand
    inside the camera pipeline, so this is where every reading passes, and a wrong ``--deck`` is reported
    while the table plays instead of silently misreading the session."""

    def __init__(self, reader: CardReader, design: str, mismatch_below: float) -> None:
        self.reader = reader
        self.design = design
        self.check = DeckCheck(mismatch_below)
        self._warned = False

    def __call__(self, frame: np.ndarray, corners: np.ndarray) -> FrameReading:
        reading = self.reader.read(frame, corners)
        self.check.add(reading)
        return reading

    def news(self) -> str | None:
        """The warning to print when the verdict has just turned to a mismatch (once per turn, not per read)."""
        verdict = self.check.verdict()
        turned = verdict.mismatch and not self._warned
        self._warned = verdict.mismatch
        return verdict.message(self.design) if turned else None
