"""A scripted table for tracker tests: what lies in each area over time, as plain data, turned into
zone patches and the readings a perfect reader would give (the reader's types are plain data too)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import numpy as np

from referee_station.vision.layout import SEATS

PLAY_SHAPE, DISCARD_SHAPE = (32, 60), (22, 28)


@dataclass(frozen=True)
class Reading:
    """Same fields as ``referee_station.vision.reader.SeatReading``."""

    cards: list[str]
    confidences: list[float]
    status: str
    anchors: list[tuple[float, float]] = field(default_factory=list)
    alternatives: list[tuple[tuple[str, float], ...]] = field(default_factory=list)


@dataclass(frozen=True)
class FrameReading:
    seats: dict[str, Reading]


@dataclass
class Script:
    """Per seat: (t, cards) changes of the play area, (t0, t1, cover) arm intervals, discard changes."""

    plays: dict[str, list[tuple[float, tuple[str, ...]]]] = field(default_factory=dict)
    arms: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)
    discards: dict[str, list[float]] = field(default_factory=dict)
    confidence: float = 0.99
    flicker: frozenset[str] = frozenset()
    face_down: frozenset[str] = frozenset()
    reads: int = 0

    def cards(self, seat: str, t: float) -> tuple[str, ...]:
        now: tuple[str, ...] = ()
        for when, cards in self.plays.get(seat, []):
            if when <= t:
                now = cards
        return now

    def cover(self, seat: str, t: float) -> float:
        return max((c for t0, t1, c in self.arms.get(seat, []) if t0 <= t < t1), default=0.0)

    def patches(self, t: float) -> dict[tuple[str, str], np.ndarray]:
        out = {}
        for seat in SEATS:
            play = np.full(PLAY_SHAPE, 40, np.uint8)
            cards = self.cards(seat, t)
            if cards:
                rng = np.random.default_rng(zlib.crc32(" ".join(cards).encode()))
                width = 8 + 5 * len(cards)
                play[6:26, 10 : 10 + width] = rng.integers(150, 255, (20, width))
            cover = self.cover(seat, t)
            if cover:
                rows = round(PLAY_SHAPE[0] * cover)
                play[PLAY_SHAPE[0] - rows :] = np.random.default_rng(round(t * 1000)).integers(90, 140, (rows, 60))
            discard = np.full(DISCARD_SHAPE, 40, np.uint8)
            piles = sum(1 for when in self.discards.get(seat, []) if when <= t)
            discard[4 : 4 + 3 * piles, 4:20] = 200
            out[(seat, "play")], out[(seat, "discard")] = play, discard
        return out

    def reading(self, t: float) -> FrameReading:
        self.reads += 1
        seats = {}
        for seat in SEATS:
            cards = list(self.cards(seat, t))
            if self.cover(seat, t) > 0.5:
                seats[seat] = Reading([], [], "occluded")
            elif not cards:
                seats[seat] = Reading([], [], "empty")
            elif seat in self.face_down:
                seats[seat] = Reading([], [], "unreadable")
            else:
                if seat in self.flicker and self.reads % 2:
                    cards = [*cards[:-1], "SJ"]
                anchors = [(30.0 + 40.0 * i, 60.0) for i in range(len(cards))]
                seats[seat] = Reading(cards, [self.confidence] * len(cards), "cards", anchors)
        return FrameReading(seats)


def run(script: Script, until: float, fps: float = 10.0, tracker=None):
    """Feed the tracker every frame; returns (events, tracker)."""
    from referee_station.vision.tracker import PlayTracker

    tracker = tracker or PlayTracker()
    events = []
    for i in range(round(until * fps)):
        t = i / fps
        events += tracker.feed(t, script.patches(t), lambda t=t: script.reading(t))
    return events + tracker.finish(), tracker
