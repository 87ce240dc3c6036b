"""Guided registration: the console asks for each card in turn and captures it once it lies still.

A model with no Qt (a console view subscribes later): feed it camera frames, it answers with a
``GuidedStep`` saying which card it wants, whether a card lies in a play area, whether it has settled,
what the reader makes of it, and which card was just captured. Order: 2♠ … A♠, 2♥ … A♥, 2♣ … A♣,
2♦ … A♦, small joker, big joker. Invariants: a capture needs the card found in ``stable_frames``
consecutive frames within ``max_move`` strip pixels of where it first settled; after a capture the
play areas must be seen empty before the next card can be captured, so one card is never taken twice.
The captured frames and the calibration are written in the layout ``register-deck`` reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee_station.deck.photos import PhotoError, find_card
from referee_station.vision.reader import CardReader

ORDER = (*(r + "s" for r in "23456789TJQKA"), *(r + "h" for r in "23456789TJQKA"),
         *(r + "c" for r in "23456789TJQKA"), *(r + "d" for r in "23456789TJQKA"), "SJ", "BJ")  # fmt: skip
"""The order the console asks for the cards."""
STATES = ("waiting", "settling", "captured", "done")

Find = Callable[[np.ndarray, np.ndarray], tuple[str, np.ndarray]]
"""(frame, corners) → (seat, card corners in strip px); raises ValueError when no single card lies there."""
Read = Callable[[np.ndarray, np.ndarray], tuple[str, float]]
"""(frame, corners) → (card code, confidence): what the current reader makes of the card."""


@dataclass(frozen=True)
class GuidedStep:
    state: str
    """"waiting" (no card yet, or the last one not yet taken away), "settling" (a card, still moving),
    "captured" (this frame was kept for ``captured``), "done" (all 54 kept)."""
    expected: str | None
    """The card asked for now (None when done)."""
    seat: str | None = None
    read: str | None = None
    confidence: float = 0.0
    captured: str | None = None


class GuidedRegistration:
    """Feed frames with ``feed``; ``save`` writes what was captured for ``register-deck``."""

    def __init__(
        self,
        corners: np.ndarray,
        read: Read | None = None,
        find: Find = find_card,
        stable_frames: int = 5,
        max_move: float = 3.0,
    ) -> None:
        self.corners = np.asarray(corners, np.float64).reshape(4, 2)
        self.read = read
        self.find = find
        self.stable_frames = stable_frames
        self.max_move = max_move
        self.photos: dict[str, np.ndarray] = {}
        self._settled: np.ndarray | None = None
        self._count = 0
        self._need_clear = False

    @property
    def expected(self) -> str | None:
        return ORDER[len(self.photos)] if len(self.photos) < len(ORDER) else None

    def feed(self, frame: np.ndarray) -> GuidedStep:
        """Look at one frame; capture it when the expected card has lain still long enough."""
        expected = self.expected
        if expected is None:
            return GuidedStep("done", None)
        try:
            seat, quad = self.find(frame, self.corners)
        except (PhotoError, ValueError):
            self._settled, self._count, self._need_clear = None, 0, False
            return GuidedStep("waiting", expected)
        read, confidence = self.read(frame, self.corners) if self.read else (None, 0.0)
        if self._need_clear:
            return GuidedStep("waiting", expected, seat, read, confidence)
        if self._settled is None or np.abs(quad - self._settled).max() > self.max_move:
            self._settled, self._count = quad, 1
        else:
            self._count += 1
        if self._count < self.stable_frames:
            return GuidedStep("settling", expected, seat, read, confidence)
        self.photos[expected] = frame.copy()
        self._settled, self._count, self._need_clear = None, 0, True
        return GuidedStep("captured", self.expected, seat, read, confidence, captured=expected)

    def retake(self) -> None:
        """Drop the last capture (the operator saw a wrong card taken) and ask for it again."""
        if self.photos:
            self.photos.pop(ORDER[len(self.photos) - 1])
        self._need_clear = False

    def save(self, photo_dir: Path) -> None:
        """Write ``<code>.jpg`` per captured card and ``corners.json``."""
        photo_dir.mkdir(parents=True, exist_ok=True)
        for code, frame in self.photos.items():
            cv2.imwrite(str(photo_dir / f"{code}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
        (photo_dir / "corners.json").write_text(json.dumps({"corners": self.corners.tolist()}))


def read_with(reader: CardReader) -> Read:
    """What ``reader`` reads of the one card lying in a play area (its most confident card)."""

    def read(frame: np.ndarray, corners: np.ndarray) -> tuple[str, float]:
        found = [
            (c, code)
            for s in reader.read(frame, corners).seats.values()
            for code, c in zip(s.cards, s.confidences, strict=True)
        ]
        if not found:
            return "?", 0.0
        confidence, code = max(found)
        return code, confidence

    return read
