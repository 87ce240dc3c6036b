"""A plain synthetic table frame for calibration tests: dark cloth, markers, noise (no card artwork)."""

from __future__ import annotations

import cv2
import numpy as np

from referee_station.vision.layout import Layout
from referee_station.vision.markers import paint_markers

CORNERS = np.array([[520.0, 960.0], [1410.0, 935.0], [1360.0, 110.0], [560.0, 135.0]])
"""SW, SE, NE, NW pixels of a slightly tilted 1080p camera."""


def homography(corners: np.ndarray = CORNERS) -> np.ndarray:
    layout = Layout.default()
    return cv2.getPerspectiveTransform(layout.table_corners.astype(np.float32), corners.astype(np.float32))


def table_frame(h: np.ndarray, size=(1920, 1080), hidden: frozenset[int] = frozenset(), seed: int = 0) -> np.ndarray:
    """The cloth seen through ``h`` with its markers painted, sensor noise added."""
    layout = Layout.default()
    frame = np.full((size[1], size[0], 3), (100, 110, 120), np.uint8)
    cloth = cv2.perspectiveTransform(layout.table_corners.reshape(1, -1, 2), h)[0]
    cv2.fillPoly(frame, [np.round(cloth).astype(np.int32)], (40, 70, 25))
    paint_markers(frame, h, layout, hidden)
    noise = np.random.default_rng(seed).normal(0, 3, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)
