"""The standard cloth's layout (``referee_station/calibration/cloth.json``) and the homographies between cloth, frame
and strips.

Cloth coordinates are centimetres, origin at the cloth's centre, +x East, +y North. Every seat's areas
are South's rotated about the centre (East = South turned 90° counterclockwise), so the code works in
*seat-local* coordinates (South's frame) and turns them by the seat's angle.

A *strip* is a seat's play area rectified into an upright image at a fixed scale: the cards of that
seat then always stand upright at one size, which turns reading them into a small learning problem.
"""

from __future__ import annotations

import math

import numpy as np

from referee_station.core import SEATS, Seat
from referee_station.vision.layout import Layout

_CLOTH = Layout.default()
SEAT_ANGLE = _CLOTH.seat_angle
"""Degrees counterclockwise that turn South's areas into the seat's."""
DRAW_ORDER: tuple[Seat, ...] = tuple(sorted(SEATS, key=SEAT_ANGLE.__getitem__))
"""The core's seats (``referee_station.core.SEATS``) in the order the cloth turns South's areas into
theirs (S, E, N, W): the order the renderer draws and the reader reads them in."""

TABLE_HALF = _CLOTH.table_half
TABLE_CORNERS = _CLOTH.table_corners
"""SW, SE, NE, NW in cloth cm: the order in which an operator clicks the calibration corners."""

PLAY_AREA = _CLOTH.south["play"]
"""South's play area (x0, x1, y0, y1) in cm."""
DISCARD_AREA = _CLOTH.south["discard"]
LABEL_CENTRE = _CLOTH.label
CARD_W, CARD_H = _CLOTH.card

STRIP_MARGIN = 1.0
"""The strip reaches this far (cm) beyond the play area, for cards laid a little outside its lines."""
STRIP_X0, STRIP_X1 = PLAY_AREA[0] - STRIP_MARGIN, PLAY_AREA[1] + STRIP_MARGIN
STRIP_Y_TOP, STRIP_Y_BOTTOM = PLAY_AREA[3] + STRIP_MARGIN, PLAY_AREA[2] - STRIP_MARGIN
STRIP_PX_PER_CM = 20.0
STRIP_W = round((STRIP_X1 - STRIP_X0) * STRIP_PX_PER_CM)
STRIP_H = round((STRIP_Y_TOP - STRIP_Y_BOTTOM) * STRIP_PX_PER_CM)

INDEX_ANCHOR = (0.8, 1.6)
"""The point (cm from the card's top-left corner, right and down) that the locator finds."""
INDEX_CROP = (1.6, 3.2)
"""Width and height (cm) of the index crop centred on the anchor: the rank over the suit."""
CONTEXT_OFFSET = (0.6, 1.4)
"""cm from the index anchor to the centre of the card's context crop
(``referee_station.vision.strips.crop_context``)."""


def rotation(deg: float) -> np.ndarray:
    """2×2 counterclockwise rotation."""
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def seat_to_cloth(seat: str, points: np.ndarray) -> np.ndarray:
    """Seat-local cm (South's frame) → cloth cm."""
    return np.asarray(points, dtype=np.float64) @ rotation(SEAT_ANGLE[seat]).T


def cloth_to_seat(seat: str, points: np.ndarray) -> np.ndarray:
    """Cloth cm → seat-local cm."""
    return np.asarray(points, dtype=np.float64) @ rotation(-SEAT_ANGLE[seat]).T


def apply_h(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3×3 homography to N×2 points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    q = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return q[:, :2] / q[:, 2:3]


def cloth_to_image(corners_px: np.ndarray) -> np.ndarray:
    """Homography cloth cm → frame pixels from the four table-corner pixels (SW, SE, NE, NW)."""
    corners = np.asarray(corners_px, dtype=np.float64).reshape(4, 2)
    if not np.all(np.isfinite(corners)):
        raise ValueError("calibration corners must be finite numbers")
    edges = np.roll(corners, -1, axis=0) - corners
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    scale = max(1.0, float(np.abs(edges).max())) ** 2
    if not (np.all(turns > 1e-6 * scale) or np.all(turns < -1e-6 * scale)):
        raise ValueError("calibration corners are degenerate: not a convex quadrilateral in SW, SE, NE, NW order")
    h, _ = _find_h(TABLE_CORNERS, corners)
    return h


def _find_h(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, None]:
    """Direct linear transform for exactly four correspondences (no OpenCV needed for geometry)."""
    rows = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, s, vt = np.linalg.svd(np.asarray(rows, dtype=np.float64))
    if s[-2] < 1e-9 * s[0]:
        raise ValueError("calibration corners are degenerate (three in a line or repeated)")
    h = vt[-1].reshape(3, 3)
    return h / h[2, 2], None


def strip_to_seat(scale: float = STRIP_PX_PER_CM) -> np.ndarray:
    """Affine (3×3) strip pixels → seat-local cm: u grows to the seat's right, v towards the seat."""
    return np.array([[1 / scale, 0, STRIP_X0], [0, -1 / scale, STRIP_Y_TOP], [0, 0, 1]], dtype=np.float64)


def strip_to_image(h_cloth_img: np.ndarray, seat: str, scale: float = STRIP_PX_PER_CM) -> np.ndarray:
    """Homography strip pixels → frame pixels for one seat's play area."""
    rot = np.eye(3)
    rot[:2, :2] = rotation(SEAT_ANGLE[seat])
    return h_cloth_img @ rot @ strip_to_seat(scale)


def seat_to_strip(points: np.ndarray, scale: float = STRIP_PX_PER_CM) -> np.ndarray:
    """Seat-local cm → strip pixels."""
    return apply_h(np.linalg.inv(strip_to_seat(scale)), points)
