"""Notice a deck profile that does not match the cards on the table.

A classifier fitted to one design reads another design with visibly less confidence (measured on
rendered frames, ``benchmarks/deck.py``, 20 frames each: mean card confidence 0.81 on its own deck,
0.39 on another). A profile that keeps the deck's faces is judged on how well each card matches its
best registered face instead (``SeatReading.matches``): the readers with faces are about as sure on
other designs as on their own (the index comparison sharpens any design's readings: 0.85 against 0.81),
while the face match does not pretend (mean 0.95 on the deck's own frames, 0.57–0.67 on three others,
docs/deck.md). The check keeps the last cards' evidence (``MismatchMeasure``) and reports a mismatch
once enough cards have been seen and their mean falls below the profile's ``mismatch_below``,
calibrated at registration on rendered frames read by the same reader (``referee_station.deck.threshold``),
so a wrong profile is reported instead of silently misreading a whole session.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from referee_station.vision.reader import CardReader, FrameReading, SeatReading
from referee_station.vision.strips import detail


class MismatchMeasure(StrEnum):
    """What a profile's mismatch threshold is measured on (``DeckMeta.mismatch_on``)."""

    CONFIDENCE = "confidence"
    """Each card's reported confidence: profiles without faces, and those registered before the face match."""
    FACE_MATCH = "face_match"
    """Each card's NCC with its best registered face (``SeatReading.matches``)."""


def card_evidence(seat: SeatReading, measure: MismatchMeasure) -> list[float]:
    """One seat's per-card values of ``measure``. ValueError where the reading carries no face match for
    its cards (a reader without faces cannot be judged on them)."""
    if measure is MismatchMeasure.CONFIDENCE:
        return seat.confidences
    if len(seat.matches) != len(seat.cards):
        raise ValueError("the mismatch check measures the face match, but this reader compared no faces")
    return seat.matches


MISMATCH = (
    "deck profile {design} does not match the cards on the table: mean read score {score} over the last "
    "{cards} cards; register this deck or drop --deck"
)
"""The warning's stable English (the console writes it in its own language: ``console/models/messages.py``)."""
COARSE = (
    "deck profile {design} needs {needs} px/cm and this camera gives {areas}: plays read there go to the "
    "referee as doubtful; lower the camera or use a finer one (check-camera --deck)"
)
"""The warning that play areas are read under the deck's measured need (``CardReader.needs``)."""


class NewsUnit(StrEnum):
    """What a ``DeckNews`` is about (the station's notice unit)."""

    DECK = "deck"
    """The profile does not match the cards on the table."""
    CAMERA = "camera"
    """The camera gives play areas less detail than the deck needs."""


@dataclass(frozen=True)
class DeckNews:
    """A warning of the watched reader, for the station's notices (``unit``) and the console (``text``)."""

    unit: NewsUnit
    text: str


@dataclass(frozen=True)
class DeckVerdict:
    cards: int
    """Cards the verdict rests on (at most the window)."""
    mean_confidence: float
    mismatch: bool

    def message(self, design: str) -> str:
        if not self.mismatch:
            return f"deck {design!r}: cards read with mean read score {self.mean_confidence:.2f}"
        return MISMATCH.format(design=repr(design), score=f"{self.mean_confidence:.2f}", cards=self.cards)


class DeckCheck:
    """Feed every frame's reading; ask for a ``verdict`` whenever needed."""

    def __init__(
        self,
        mismatch_below: float,
        measure: MismatchMeasure = MismatchMeasure.CONFIDENCE,
        min_cards: int = 12,
        window: int = 100,
    ) -> None:
        self.mismatch_below = mismatch_below
        self.measure = MismatchMeasure(measure)
        self.min_cards = min_cards
        self.recent: deque[float] = deque(maxlen=window)

    def add(self, reading: FrameReading, coarse: Collection[str] = ()) -> None:
        """Keep the reading's per-card evidence. ``coarse``: the seats read under the deck's need of
        detail, whose confidences the reader capped (``COARSE_CONFIDENCE``): on confidence they would
        look like another deck, so that measure leaves them out; the face match is not capped."""
        for name, seat in reading.seats.items():
            if not (self.measure is MismatchMeasure.CONFIDENCE and name in coarse):
                self.recent.extend(card_evidence(seat, self.measure))

    def verdict(self) -> DeckVerdict:
        n = len(self.recent)
        mean = sum(self.recent) / n if n else 1.0
        return DeckVerdict(n, mean, n >= self.min_cards and mean < self.mismatch_below)


class WatchedReader:
    """A deck profile's reader that feeds each reading to a ``DeckCheck``: ``run`` reads on demand
    inside the camera pipeline, so this is where every reading passes, and a wrong ``--deck`` is reported
    while the table plays instead of silently misreading the session."""

    def __init__(
        self,
        reader: CardReader,
        design: str,
        mismatch_below: float,
        measure: MismatchMeasure = MismatchMeasure.CONFIDENCE,
    ) -> None:
        self.reader = reader
        self.design = design
        self.check = DeckCheck(mismatch_below, measure)
        self._warned = False
        self._cameras: set[bytes] = set()
        """The cameras (their corners) already measured against the deck's need."""
        self._told: deque[str] = deque()
        """The detail warnings not yet given out by ``news``."""

    def __call__(self, frame: np.ndarray, corners: np.ndarray) -> FrameReading:
        reading = self.reader.read(frame, corners)
        camera = np.asarray(corners, dtype=np.float64)
        short = self.reader.short_of_detail(detail(camera))
        self.check.add(reading, coarse=short)
        if (key := camera.round(1).tobytes()) not in self._cameras:  # each camera measured once
            self._cameras.add(key)
            if short:
                need = self.reader.needs
                assert need is not None  # short of nothing without a need
                areas = ", ".join(f"{seat} {px:.1f}" for seat, px in short.items())
                needs = f"{'more than ' if need.more else ''}{need.px_per_cm:g}"
                self._told.append(COARSE.format(design=repr(self.design), needs=needs, areas=areas))
        return reading

    def news(self) -> DeckNews | None:
        """The next warning to give: once per camera, that play areas are read under the deck's need;
        when the verdict has just turned to a mismatch (once per turn, not per read)."""
        if self._told:
            return DeckNews(NewsUnit.CAMERA, self._told.popleft())
        verdict = self.check.verdict()
        turned = verdict.mismatch and not self._warned
        self._warned = verdict.mismatch
        return DeckNews(NewsUnit.DECK, verdict.message(self.design)) if turned else None
