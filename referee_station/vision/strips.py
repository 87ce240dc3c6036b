"""Rectify each seat's play area into an upright strip, and the strip-space truth used for training.

The strip is ``STRIP_W × STRIP_H`` px at ``STRIP_PX_PER_CM``: every seat's cards stand upright in it at
one size whatever the camera's height, tilt or rotation. The locator sees it at half that scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee_station.vision.geometry import (
    CONTEXT_OFFSET,
    DRAW_ORDER,
    INDEX_ANCHOR,
    INDEX_CROP,
    STRIP_H,
    STRIP_PX_PER_CM,
    STRIP_W,
    apply_h,
    cloth_to_image,
    cloth_to_seat,
    seat_to_strip,
    strip_to_image,
)

LOCATOR_SCALE = 2
"""The locator's input is the strip shrunk by this factor (10 px/cm)."""
LOCATOR_STRIDE = 4
"""One locator output cell covers this many locator-input pixels (0.4 cm)."""
LOC_W, LOC_H = STRIP_W // LOCATOR_SCALE, STRIP_H // LOCATOR_SCALE
GRID_W, GRID_H = LOC_W // LOCATOR_STRIDE, LOC_H // LOCATOR_STRIDE
CROP_W = round(INDEX_CROP[0] * STRIP_PX_PER_CM)
CROP_H = round(INDEX_CROP[1] * STRIP_PX_PER_CM)


def rectify(frame: np.ndarray, corners: np.ndarray) -> dict[str, np.ndarray]:
    """Each seat's play-area strip (BGR uint8), cut from the frame with the calibration homography."""
    h = cloth_to_image(corners)
    return {
        seat: cv2.warpPerspective(
            frame,
            strip_to_image(h, seat),
            (STRIP_W, STRIP_H),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
        )
        for seat in DRAW_ORDER
    }


NEEDS_PX_PER_CM = 8.0
"""Frame pixels per cm a play area needs for the reader to read a deck's index (1.6 × 3.2 cm): about
1080p at the standard height (CLOTH.md). A registered deck says what it needs itself (its profile's
``needs_px_per_cm``, measured at registration); ``--needs`` overrides both."""


@dataclass(frozen=True)
class Need:
    """The frame detail a deck needs of every play area: ``px_per_cm``, or more than that where its
    registration read it right at no detail up to it (``more``: a remedy that re-registers the deck).
    ``check-camera`` fails an area short of it, and the reader trusts no card read there."""

    px_per_cm: float = NEEDS_PX_PER_CM
    more: bool = False

    def short(self, px_per_cm: float) -> bool:
        """Whether an area the camera gives ``px_per_cm`` falls short of the need."""
        return px_per_cm <= self.px_per_cm if self.more else px_per_cm < self.px_per_cm


def detail(corners: np.ndarray) -> dict[str, float]:
    """Frame pixels per cm the camera gives at the centre of each seat's play area (the smaller singular
    value of the strip → frame homography's derivative there, per cm): what the strip really holds of
    its 20 px/cm, the rest being resampling (1080p cameras give 8–11, 720p ones 6–7, a 4K one 16–22)."""
    h = cloth_to_image(corners)
    out = {}
    for seat in DRAW_ORDER:
        to_frame = strip_to_image(h, seat)
        cu, cv_ = STRIP_W / 2, STRIP_H / 2
        around = apply_h(to_frame, np.array([(cu, cv_), (cu + 1, cv_), (cu, cv_ + 1)]))
        jacobian = np.column_stack([around[1] - around[0], around[2] - around[0]])
        out[seat] = float(np.linalg.svd(jacobian, compute_uv=False)[-1]) * STRIP_PX_PER_CM
    return out


def locator_input(strip: np.ndarray) -> np.ndarray:
    """The strip at the locator's scale."""
    return cv2.resize(strip, (LOC_W, LOC_H), interpolation=cv2.INTER_AREA)


def crop_index(strip: np.ndarray, u: float, v: float, margin: int = 0, width: float = INDEX_CROP[0]) -> np.ndarray:
    """The index crop (plus ``margin`` px of the crop) of the card whose anchor lies at strip pixel (u, v):
    ``INDEX_CROP[1]`` cm tall about the anchor and ``width`` cm from the card's left edge, taken to the
    classifiers' ``CROP_W × CROP_H`` input. The generic width is a rank over its suit; a deck whose suit
    stands beside its rank is read wider (``referee_station.vision.index_width``), squeezed across."""
    if width == INDEX_CROP[0]:
        return _about(strip, u, v, margin)
    (w, right), h = index_span(width, margin), CROP_H + 2 * margin
    wide = cut(strip, round(u + right - w / 2), round(v - h / 2), w, h)
    return cv2.resize(wide, (CROP_W + 2 * margin, h), interpolation=cv2.INTER_AREA)


def index_span(width: float, margin: int = 0) -> tuple[int, float]:
    """Strip px across that an index crop ``width`` cm wide (plus ``margin`` crop px) takes before it is
    squeezed, and how far right of the anchor its centre lies: the one geometry of the reader's crops
    (``crop_index``) and the registration's synthesised ones (``referee_station.deck.crops``)."""
    return round((CROP_W + 2 * margin) * width / INDEX_CROP[0]), (width / 2 - INDEX_ANCHOR[0]) * STRIP_PX_PER_CM


def _about(image: np.ndarray, u: float, v: float, margin: int) -> np.ndarray:
    """The ``CROP_H × CROP_W`` px (plus margin) about (u, v) of any image, padded with black at the edges."""
    w, h = CROP_W + 2 * margin, CROP_H + 2 * margin
    return cut(image, round(u - w / 2), round(v - h / 2), w, h)


def cut(image: np.ndarray, x0: int, y0: int, w: int, h: int) -> np.ndarray:
    """``image[y0:y0+h, x0:x0+w]``, padded with black where it leaves the image."""
    out = np.zeros((h, w, 3), image.dtype)
    sx0, sy0 = max(x0, 0), max(y0, 0)
    sx1, sy1 = min(x0 + w, image.shape[1]), min(y0 + h, image.shape[0])
    if sx1 > sx0 and sy1 > sy0:
        out[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0] = image[sy0:sy1, sx0:sx1]
    return out


def crop_context(loc: np.ndarray, u: float, v: float, margin: int = 0) -> np.ndarray:
    """The context crop of the card whose index anchor lies at strip pixel (u, v), cut from the strip at
    the locator's scale (``locator_input``, 10 px/cm): ``CROP_H × CROP_W`` px there cover 6.4 × 3.2 cm
    from just above and left of the card's corner, the index and the card's left side with its pips or
    court picture, which stay legible where a 720p camera blurs the 4–5 px index."""
    scale = STRIP_PX_PER_CM / LOCATOR_SCALE
    du, dv = CONTEXT_OFFSET
    return _about(loc, u / LOCATOR_SCALE + du * scale, v / LOCATOR_SCALE + dv * scale, margin)


def cloth_to_strip(seat: str, points: np.ndarray) -> np.ndarray:
    """Cloth cm → strip pixels of that seat."""
    return seat_to_strip(cloth_to_seat(seat, points))


def strip_masks(seat: str, card_quads, occluders) -> np.ndarray:
    """(2, GRID_H, GRID_W) uint8: which locator cells a card covers, which an occluder covers."""
    scale = 1 / (LOCATOR_SCALE * LOCATOR_STRIDE)
    masks = np.zeros((2, GRID_H * 4, GRID_W * 4), np.uint8)
    for k, polys in enumerate((card_quads, occluders)):
        for poly in polys:
            pts = cloth_to_strip(seat, poly) * scale * 4
            cv2.fillPoly(masks[k], [np.round(pts).astype(np.int32)], 255)
    small = masks.reshape(2, GRID_H, 4, GRID_W, 4).mean(axis=(2, 4))
    return (small > 127).astype(np.uint8)


def frame_homography_points(corners: np.ndarray, seat: str, points: np.ndarray) -> np.ndarray:
    """Strip pixels → frame pixels (for drawing the reader's findings on the frame)."""
    return apply_h(strip_to_image(cloth_to_image(corners), seat), points)
