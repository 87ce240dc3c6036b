"""The cloth's zones for drawing on the table view, in cloth centimetres, from
``referee_station/calibration/cloth.json``.

South's play and discard areas are the layout's; the other seats' are South's rotated about the centre
(East 90° counterclockwise, North 180°, West 270°). The screen runs along the SW–NE diagonal. A table's
calibration maps these points into its camera image.
"""

from __future__ import annotations

import numpy as np

from referee_station.core import SEATS
from referee_station.vision.layout import ZONES as AREAS
from referee_station.vision.layout import Layout

Point = tuple[float, float]

_CLOTH = Layout.default()
HALF = _CLOTH.table_half
"""Half the table top."""


def _points(cloth_cm: np.ndarray) -> list[Point]:
    """Plain (x, y) tuples, rounded so that a quarter turn's 1e-15 and -0.0 draw as the exact corner."""
    return [(round(float(x), 9) + 0.0, round(float(y), 9) + 0.0) for x, y in cloth_cm]


def zone(seat: str, area: str) -> list[Point]:
    """The four corners of ``seat``'s ``area`` (``play`` or ``discard``) in cloth cm."""
    return _points(_CLOTH.zone(seat, area))


def label(seat: str) -> Point:
    """Where the seat's name is drawn (cm)."""
    return _points(_CLOTH.rotate(seat, np.array([_CLOTH.label])))[0]


ZONES: dict[str, dict[str, list[Point]]] = {seat: {a: zone(seat, a) for a in AREAS} for seat in SEATS}
