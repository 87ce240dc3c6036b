"""One table's camera side: frame → zone patches → (reader when needed) → tracker → table events.

``CameraPipeline.process(t, frame)`` is what the station orchestrator (``referee_station.station``) calls
per frame. It times each stage (the STYLE.md pattern: sample, read, track, recheck), counts reads, and
every ``recheck`` seconds re-detects the calibration markers to tell whether the camera moved (zones off
the areas would read cards into the wrong seat; the station's camera watch turns that into a notice).
It returns what it noticed with the events (``FrameResult``) rather than keeping lists for callers to
clear. The reader is any callable ``(frame, corners) -> FrameReading``, so a simulation can measure the
tracker with a perfect reader.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from referee_station.table.events import Clear, DealStart, Exchange, PlayCards, Record
from referee_station.vision.calibrate import Calibration, camera_moved
from referee_station.vision.layout import Layout
from referee_station.vision.motion import ZoneSampler
from referee_station.vision.tracker import FrameReadingLike, PlayTracker, Reread, TrackerConfig

ReadFrame = Callable[[np.ndarray, np.ndarray], FrameReadingLike]
"""(frame, table-corner pixels SW, SE, NE, NW) → the reading of every seat."""


@dataclass
class Stats:
    frames: int = 0
    reads: int = 0
    ms: dict[str, float] = field(default_factory=lambda: dict.fromkeys(("sample", "read", "track", "recheck"), 0.0))

    @property
    def total_ms(self) -> float:
        return sum(self.ms.values())


@dataclass(frozen=True)
class FrameResult:
    """What one frame gave: the table events that became certain (time order), the warnings raised at
    this frame (table time, text), and whether the markers are off their calibrated place now
    (``None`` when they were not looked at in this frame)."""

    events: list[Record]
    warnings: list[tuple[float, str]]
    moved: bool | None = None
    rereads: list[Reread] = field(default_factory=list)
    """Doubtful plays that this frame's looks read for sure (``PlayTracker.rereads``)."""


class CameraPipeline:
    def __init__(
        self,
        calib: Calibration,
        read_frame: ReadFrame,
        layout: Layout | None = None,
        config: TrackerConfig | None = None,
        recheck: float = 10.0,
    ) -> None:
        self.calib = calib
        self.layout = layout or Layout.default()
        self.read_frame = read_frame
        self.sampler = ZoneSampler(calib.homography, self.layout)
        self.tracker = PlayTracker(config)
        self.recheck = recheck
        self.stats = Stats()
        self._next_check = 0.0

    def process(self, t: float, frame: np.ndarray) -> FrameResult:
        """Feed one frame; returns the table events that became certain and what was noticed."""
        ms = self.stats.ms
        self.stats.frames += 1
        start = time.perf_counter()
        patches = self.sampler.sample(frame)
        ms["sample"] += (time.perf_counter() - start) * 1000

        def read() -> FrameReadingLike:
            t0 = time.perf_counter()
            reading = self.read_frame(frame, self.calib.corners)
            ms["read"] += (time.perf_counter() - t0) * 1000
            self.stats.reads += 1
            return reading

        start, reading_ms = time.perf_counter(), ms["read"]
        events = self.tracker.feed(t, patches, read)
        ms["track"] += (time.perf_counter() - start) * 1000 - (ms["read"] - reading_ms)
        warnings = list(self.tracker.notices)
        self.tracker.notices.clear()
        rereads, self.tracker.rereads = self.tracker.rereads, []
        moved = None
        if t >= self._next_check and self.calib.markers:
            self._next_check = t + self.recheck
            start = time.perf_counter()
            result = camera_moved(frame, self.calib, self.layout)
            ms["recheck"] += (time.perf_counter() - start) * 1000
            moved = result.moved
        return FrameResult(events, warnings, moved, rereads)

    def horizon(self, now: float) -> float:
        """Other sources' events before this may go to the referee now (``PlayTracker.horizon``)."""
        return self.tracker.horizon(now)

    def finish(self) -> list[Record]:
        return self.tracker.finish()


def seen_by_camera(record: Record) -> bool:
    """Plays, clears, and the tribute and return cards shown in the giver's play area, are the camera's
    to report (``referee_station.vision.tracker``, turned into tributes by the station's director); a log's own are
    replaced by them."""
    return isinstance(record, (PlayCards, Clear, Exchange))


def besides_the_camera(events: Sequence[Record]) -> list[Record]:
    """A simulated match's inputs that reach a camera station from elsewhere, as a real table has them:
    not the camera's own (:func:`seen_by_camera`), and each deal without the dealt hands, which nobody
    enters at a table (a referee fed them would settle a misread suit by the hand it could not be in)."""
    return [replace(e, hands=None) if isinstance(e, DealStart) else e for e in events if not seen_by_camera(e)]


class InputMerge:
    """The camera's events and the table's other inputs (seat units, console, a recorded log) in one
    time order: the referee flags time going backwards, so an input may go only once no camera event
    can come before it (``CameraPipeline.horizon``). At equal times the other source goes first: a
    pass pressed at the moment a play lands was pressed before the play was seen."""

    def __init__(self, others: Iterable[Record] = ()) -> None:
        self._others = sorted(others, key=lambda e: e.t)
        self._next = 0

    def add(self, event: Record) -> None:
        """An input that arrived live (seat units); it waits for the horizon like the rest."""
        keys = [e.t for e in self._others]
        self._others.insert(bisect.bisect_right(keys, event.t, lo=self._next), event)

    def release(self, limit: float, camera: Iterable[Record]) -> list[tuple[Record, bool]]:
        """The camera's new events and the other inputs up to ``limit``, in time order, each with
        whether it came from the camera."""
        batch = [(e.t, 1, e) for e in camera]
        while self._next < len(self._others) and self._others[self._next].t <= limit:
            batch.append((self._others[self._next].t, 0, self._others[self._next]))
            self._next += 1
        return [(event, bool(is_camera)) for _, is_camera, event in sorted(batch, key=lambda b: (b[0], b[1]))]
