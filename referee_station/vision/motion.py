"""Motion gating: a tiny colour patch of every play and discard area per frame, and how much two differ.

The card reader costs tens of milliseconds a frame; comparing a 60×32 patch costs microseconds. The
tracker therefore compares patches every frame and calls the reader only when an area changed and then
held still. Patches are rectified at ``PATCH_PX_PER_CM`` from a frame shrunk by ``SHRINK`` first, so the
shrink averages sensor noise away and the warp stays cheap whatever the frame size.

Patches keep their colour and a pixel changed when any channel did: a deck's back can be as bright as
the cloth in grey and differ only in hue (the drawn test deck's blue back on the green cloth: grey 46
against 47), and grey patches then missed the cards swept to the discard areas (docs/camera.md).
"""

from __future__ import annotations

import cv2
import numpy as np

from referee_station.vision.layout import SEATS, ZONES, Layout

PATCH_PX_PER_CM = 2.0
SHRINK = 4
"""The frame is shrunk by this factor (INTER_AREA) before the patches are cut."""

Zone = tuple[str, str]
"""(seat, "play" | "discard")."""
Patches = dict[Zone, np.ndarray]


class ZoneSampler:
    """Cuts the eight zone patches out of frames of one calibrated camera."""

    def __init__(self, h_cloth_img: np.ndarray, layout: Layout) -> None:
        down = np.diag([1 / SHRINK, 1 / SHRINK, 1.0])
        self._warps: dict[Zone, tuple[np.ndarray, tuple[int, int]]] = {}
        for seat in SEATS:
            for zone in ZONES:
                poly = layout.zone(seat, zone)
                # patch pixel (u, v) → cloth: u along the zone's first edge, v along its last edge
                origin, ex, ey = poly[0], poly[1] - poly[0], poly[3] - poly[0]
                w = round(np.linalg.norm(ex) * PATCH_PX_PER_CM)
                h = round(np.linalg.norm(ey) * PATCH_PX_PER_CM)
                to_cloth = np.array(
                    [[ex[0] / w, ey[0] / h, origin[0]], [ex[1] / w, ey[1] / h, origin[1]], [0, 0, 1]], np.float64
                )
                self._warps[(seat, zone)] = (down @ h_cloth_img @ to_cloth, (w, h))

    def sample(self, frame: np.ndarray) -> Patches:
        """The zone patches of a BGR frame (or a grey one: grey patches)."""
        small = cv2.resize(frame, (frame.shape[1] // SHRINK, frame.shape[0] // SHRINK), interpolation=cv2.INTER_AREA)
        return {
            zone: cv2.warpPerspective(small, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
            for zone, (m, size) in self._warps.items()
        }


def changed(a: np.ndarray, b: np.ndarray, level: int = 18) -> np.ndarray:
    """(H, W) mask of the pixels where some channel differs by more than ``level`` (noise stays below it)."""
    diff = cv2.absdiff(a, b)
    return (diff.max(axis=2) if diff.ndim == 3 else diff) > level


def changed_fraction(a: np.ndarray, b: np.ndarray, level: int = 18) -> float:
    mask = changed(a, b, level)
    return float(np.count_nonzero(mask)) / mask.size
