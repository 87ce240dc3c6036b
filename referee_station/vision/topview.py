"""The table top seen straight from above: the camera frame rectified with its calibration into a square
of the cloth (+y North up), the image the consoles draw the zones over and the evidence a flag carries,
so the referee sees the cards inside the zones the station reads."""

from __future__ import annotations

import cv2
import numpy as np

from referee_station.vision.layout import Layout

TOP_VIEW_PX = 540
"""Side of the rectified table image (6 px per cloth cm on the 90 cm cloth)."""


def top_view(frame: np.ndarray, homography: np.ndarray, size: int = TOP_VIEW_PX) -> np.ndarray:
    """The cloth square of ``frame`` (BGR) seen from above, RGB; ``homography`` maps cloth cm to pixels."""
    half = Layout.default().table_half
    scale = size / (2 * half)
    cloth_to_view = np.array([[scale, 0, half * scale], [0, -scale, half * scale], [0, 0, 1]])
    view = cv2.warpPerspective(frame, cloth_to_view @ np.linalg.inv(homography), (size, size))
    return cv2.cvtColor(view, cv2.COLOR_BGR2RGB)
