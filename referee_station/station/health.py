"""Health a referee can act on: the camera lost, frozen (the same image again and again), too dark, or
moved off its calibration; the seat units offline. Each change of state is a ``Notice`` once (and a
``health`` line in the table's log), not a message per frame.

Pure: it sees frames and their table times, never a clock, so a recording replays to the same notices.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

LOST_AFTER_S = 2.0
"""No frame for this long: the camera is lost (a live camera gives 10–30 frames a second)."""
FROZEN_AFTER_S = 3.0
"""Identical frames for this long: the driver repeats a stale buffer (sensor noise makes real frames differ)."""
DARK_BELOW = 25.0
"""Mean brightness (0–255) under which cards cannot be read: the light went out or the lens is covered."""
DARK_AFTER_S = 1.0
THUMB = (64, 36)


class CameraState(Enum):
    """What the station can say of its camera."""

    OK = "ok"
    LOST = "lost"
    """No frame arrives."""
    FROZEN = "frozen"
    """Frames arrive but never change."""
    DARK = "dark"
    """Too dark to read a card."""
    MOVED = "moved"
    """The calibration markers are off their place: the zones no longer lie on the play areas."""


REMEDY = {
    CameraState.OK: "camera back: reading the cards again",
    CameraState.LOST: "camera lost: no frame for {s:.0f} s; refereeing goes on from the buttons and entries",
    CameraState.FROZEN: "camera frozen: the same image for {s:.0f} s; check the cable or restart the camera",
    CameraState.DARK: "camera too dark: check the light and that nothing covers the lens",
    CameraState.MOVED: "camera moved: the markers are off their place; put it back or recalibrate",
}

SEATS_BACK = "seat units back"
SEATS_OFFLINE = "seat units offline: passes and reports are not heard; enter them by hand"
"""The seat units' notices as logged (``health`` lines, made by the orchestrator)."""


@dataclass(frozen=True)
class Notice:
    """A unit of the table changed state at table time ``t``."""

    t: float
    unit: str
    state: str
    text: str


class CameraWatch:
    """Turns frames (and their absence) into camera-state changes."""

    def __init__(self) -> None:
        self.state = CameraState.OK
        self._last_t: float | None = None
        self._thumb: np.ndarray | None = None
        self._same_since: float | None = None
        self._dark_since: float | None = None
        self._moved = False

    def frame(self, t: float, image: np.ndarray, moved: bool | None = None) -> list[Notice]:
        """A frame arrived at ``t``; ``moved`` is the pipeline's marker check when it made one."""
        self._last_t = t
        if moved is not None:
            self._moved = moved
        thumb = cv2.resize(image, THUMB, interpolation=cv2.INTER_NEAREST)
        if self._thumb is not None and np.array_equal(thumb, self._thumb):
            self._same_since = t if self._same_since is None else self._same_since
        else:
            self._same_since = None
        self._thumb = thumb
        if float(thumb.mean()) < DARK_BELOW:
            self._dark_since = t if self._dark_since is None else self._dark_since
        else:
            self._dark_since = None
        if self._same_since is not None and t - self._same_since >= FROZEN_AFTER_S:
            return self._become(t, CameraState.FROZEN, t - self._same_since)
        if self._dark_since is not None and t - self._dark_since >= DARK_AFTER_S:
            return self._become(t, CameraState.DARK, 0.0)
        if self._moved:
            return self._become(t, CameraState.MOVED, 0.0)
        return self._become(t, CameraState.OK, 0.0)

    def idle(self, t: float) -> list[Notice]:
        """No frame has come by ``t``: lost once ``LOST_AFTER_S`` passed since the last one."""
        if self._last_t is not None and t - self._last_t >= LOST_AFTER_S:
            self._thumb, self._same_since = None, None
            return self._become(t, CameraState.LOST, t - self._last_t)
        return []

    @property
    def reading(self) -> bool:
        """Whether frames are worth reading now (a frozen or dark image reads nothing new)."""
        return self.state in (CameraState.OK, CameraState.MOVED)

    def _become(self, t: float, state: CameraState, seconds: float) -> list[Notice]:
        if state is self.state:
            return []
        self.state = state
        return [Notice(t, "camera", state.value, REMEDY[state].format(s=seconds))]
