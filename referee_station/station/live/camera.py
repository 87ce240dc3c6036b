"""A simulated table seen through its overhead camera: the demo's plays and clears come from the card
reader, not from the simulator.

The simulated match is turned into video (``referee_station.render.video``: the cloth's story rendered frame by frame
with the calibration markers), the station calibrates from the markers of the first frame, and the
table's runner puts every frame through the station orchestrator (``referee_station.station``: zone
sampling, the card reader when an area changed and settled, the tracker, the tribute cards read as
tributes). The simulator's own plays, clears, tributes and returns are dropped; its other inputs (deals,
without the dealt hands as at a real table, passes, reports) are merged with what the camera saw in time
order, so the referee judges what the camera read, misreads included.
"""

from __future__ import annotations

import bisect
import itertools
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import numpy as np

from referee_station.render.scene import row_step
from referee_station.render.video import VideoRenderer, choreograph
from referee_station.table.events import Record
from referee_station.vision.calibrate import from_markers
from referee_station.vision.layout import Layout
from referee_station.vision.pipeline import CameraPipeline, ReadFrame, besides_the_camera
from referee_station.vision.topview import top_view

if TYPE_CHECKING:
    from referee_station.deck.mismatch import DeckNews

KEEP_SECONDS = 3.0
"""Frames kept for the console (the frame at a flag); the pipeline runs less than a second ahead."""


class CameraTable:
    """One simulated table's camera: its frames (``frames``), the pipeline that reads them, the
    simulator's inputs the camera does not see (``others``), and the image at a moment (``frame``)."""

    def __init__(
        self,
        name: str,
        events: Sequence[Record],
        read: ReadFrame,
        *,
        design: str,
        fps: float = 10.0,
        seed: int = 0,
        watch: Callable[[], DeckNews | None] | None = None,
    ) -> None:
        self.name = name
        self.fps = fps
        self.renderer = VideoRenderer(choreograph(events, seed, row_step(design)), design=design)
        self._frames = self.renderer.frames(fps)
        self._first = next(self._frames)
        self.calibration = from_markers(name, self._first[1], Layout.default())
        self.pipeline = CameraPipeline(self.calibration, read)
        self.others = besides_the_camera(events)
        self._recent: deque[tuple[float, np.ndarray]] = deque(maxlen=max(1, round(KEEP_SECONDS * fps)))
        self.camera_events: list[Record] = []
        """What the camera reported (after the director), for checking the reader against the simulation."""
        self.watch = watch
        """The deck check of a registered profile (``WatchedReader.news``): its news become warnings."""

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        """The rendered frames in time order, each kept a while for ``frame``."""
        for t, image in itertools.chain([self._first], self._frames):
            self._recent.append((t, image))
            yield t, image

    def frame(self, t: float) -> np.ndarray | None:
        """The table from above at ``t``: the last frame taken at or before ``t`` (the first kept one
        when ``t`` is older), rectified with the calibration into the console's cloth square, RGB."""
        if not self._recent:
            return None
        i = bisect.bisect_right([when for when, _ in self._recent], t)
        return top_view(self._recent[max(0, i - 1)][1], self.calibration.homography)
