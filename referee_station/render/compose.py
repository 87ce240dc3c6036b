"""Compositing card artwork into index crops: shared by the classifier's training crops
(``referee_station.render.crops``) and a registered deck's crops (``referee_station.deck.crops``), so both see the same
geometry."""

from __future__ import annotations

import cv2
import numpy as np

from referee_station.render.artwork import CARD_PX
from referee_station.vision.geometry import CARD_W, STRIP_PX_PER_CM

ARTWORK_TO_STRIP = STRIP_PX_PER_CM * CARD_W / CARD_PX[0]
"""Artwork pixels → strip pixels (a card is 6.3 cm wide)."""


def place(
    face: np.ndarray, anchor_xy: tuple[float, float], angle: float, at: tuple[float, float], size: tuple[int, int]
) -> np.ndarray:
    """The face turned by ``angle`` with its artwork point ``anchor_xy`` at canvas pixel ``at``, on a
    transparent canvas of ``size`` (width, height) at the strip's scale."""
    m = cv2.getRotationMatrix2D(anchor_xy, angle, ARTWORK_TO_STRIP)
    m[:, 2] += np.array(at) - np.array(anchor_xy)
    return cv2.warpAffine(face, m, size, flags=cv2.INTER_AREA, borderValue=(0, 0, 0, 0))


def over(canvas: np.ndarray, layer: np.ndarray, shadow: float) -> np.ndarray:
    """Alpha-blend a BGRA ``layer`` over a float BGR ``canvas``, with a soft drop shadow of strength
    ``shadow`` (0 for none) one pixel down-right, as a card lying on another casts."""
    a = layer[..., 3:4].astype(np.float32) / 255
    if shadow:
        s = cv2.GaussianBlur(np.roll(a, (1, 1), axis=(0, 1)), (0, 0), 1.2)[..., None]
        canvas = canvas * (1 - shadow * s)
    return canvas * (1 - a) + layer[..., :3].astype(np.float32) * a
