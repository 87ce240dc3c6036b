"""A simulated table seen through its overhead camera: the demo's plays and clears come from the card
reader, not from the simulator.

The simulated match is turned into video (``vision.video``: the cloth's story rendered frame by frame
with the calibration markers), the station calibrates from the markers of the first frame, and every
frame goes through the camera pipeline the station runs live (``vision.pipeline``: zone sampling, the
card reader when an area changed and settled, the tracker). The simulator's own plays and clears are
dropped; its other inputs (deal, hands, passes, reports, tribute) are merged with what the camera saw
in time order (``InputMerge``), so the referee judges what the camera read, misreads included.
"""

from __future__ import annotations

import bisect
import itertools
from collections import deque
from collections.abc import Callable, Iterator, Sequence

import cv2
import numpy as np

from referee_station.console.models.cloth import HALF
from referee_station.table.events import Record
from vision.calibrate import from_markers
from vision.layout import Layout
from vision.pipeline import CameraPipeline, InputMerge, ReadFrame, seen_by_camera
from vision.video import VideoRenderer, choreograph

TOP_VIEW_PX = 540
"""Side of the rectified table image the console shows (6 px per cloth cm)."""
KEEP_SECONDS = 3.0
"""Frames kept for the console (the frame at a flag); the pipeline runs less than a second ahead."""


class CameraTable:
    """One table's input feed (iterate it) and its camera (``frame``), from a simulated match."""

    def __init__(
        self,
        name: str,
        events: Sequence[Record],
        read: ReadFrame,
        *,
        design: str,
        fps: float = 10.0,
        seed: int = 0,
        watch: Callable[[], str | None] | None = None,
    ) -> None:
        self.name = name
        self.fps = fps
        self.renderer = VideoRenderer(choreograph(events, seed), design=design)
        self._frames = self.renderer.frames(fps)
        self._first = next(self._frames)
        self.calibration = from_markers(name, self._first[1], Layout.default())
        self.pipeline = CameraPipeline(self.calibration, read)
        self._merge = InputMerge(e for e in events if not seen_by_camera(e))
        self._recent: deque[tuple[float, np.ndarray]] = deque(maxlen=max(1, round(KEEP_SECONDS * fps)))
        self.camera_events: list[Record] = []
        """What the camera reported, for checking the reader against the simulation."""
        self.watch = watch
        """The deck check of a registered profile (``WatchedReader.news``): a mismatch becomes a warning."""
        self._warnings: list[tuple[float, str]] = []

    def __iter__(self) -> Iterator[Record]:
        """The table's inputs in time order; frames are rendered and read as the referee asks for events."""
        for t, frame in itertools.chain([self._first], self._frames):
            self._recent.append((t, frame))
            seen = self.pipeline.process(t, frame)  # first: it moves the horizon
            self._warnings += self.pipeline.warnings
            self.pipeline.warnings.clear()
            if self.watch is not None and (news := self.watch()):
                self._warnings.append((t, news))
            yield from self._released(self.pipeline.horizon(t), seen)
        yield from self._released(float("inf"), self.pipeline.finish())

    def _released(self, limit: float, camera: list[Record]) -> Iterator[Record]:
        self.camera_events += camera
        for event, _ in self._merge.release(limit, camera):
            yield event

    def take_warnings(self) -> list[tuple[float, str]]:
        """Warnings since the last call, (table time, text): the camera moved, the deck does not match."""
        out, self._warnings = self._warnings, []
        return out

    def frame(self, t: float) -> np.ndarray | None:
        """The table from above at ``t``: the last frame taken at or before ``t`` (the first kept one
        when ``t`` is older), rectified with the calibration into the console's cloth square, RGB."""
        if not self._recent:
            return None
        i = bisect.bisect_right([when for when, _ in self._recent], t)
        return top_view(self._recent[max(0, i - 1)][1], self.calibration.homography)


def top_view(frame: np.ndarray, homography: np.ndarray, size: int = TOP_VIEW_PX) -> np.ndarray:
    """The 90 × 90 cm table top seen straight from above (+y North up), as the console draws its zones
    in cloth cm over it: the referee sees the cards inside the zones the station reads."""
    scale = size / (2 * HALF)
    cloth_to_view = np.array([[scale, 0, HALF * scale], [0, -scale, HALF * scale], [0, 0, 1]])
    view = cv2.warpPerspective(frame, cloth_to_view @ np.linalg.inv(homography), (size, size))
    return cv2.cvtColor(view, cv2.COLOR_BGR2RGB)
