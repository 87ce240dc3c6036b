"""The standard cloth's zones (CLOTH.md), in cloth centimetres, for drawing on the table view.

South's play and discard areas are given; the other seats' are South's rotated about the centre
(East 90° counterclockwise, North 180°, West 270°). The screen runs along the SW–NE diagonal.
When vision lands, a table's calibration maps these points into its camera image.
"""

from __future__ import annotations

from referee_station.table.events import SEATS

HALF = 45.0
"""Half the 90 cm table top."""
SOUTH_AREAS: dict[str, tuple[float, float, float, float]] = {
    "play": (-15.0, -32.0, 15.0, -16.0),
    "discard": (-30.0, -44.0, -16.0, -33.0),
}
"""South's areas as (x0, y0, x1, y1)."""
SOUTH_LABEL = (0.0, -12.0)
TURNS = {"S": 0, "E": 1, "N": 2, "W": 3}
"""Quarter turns counterclockwise from South's areas to each seat's."""

Point = tuple[float, float]


def rotate(point: Point, turns: int) -> Point:
    x, y = point
    for _ in range(turns % 4):
        x, y = -y, x
    return x, y


def zone(seat: str, area: str) -> list[Point]:
    """The four corners of ``seat``'s ``area`` (``play`` or ``discard``) in cloth cm."""
    x0, y0, x1, y1 = SOUTH_AREAS[area]
    return [rotate(p, TURNS[seat]) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]


def label(seat: str) -> Point:
    return rotate(SOUTH_LABEL, TURNS[seat])


ZONES: dict[str, dict[str, list[Point]]] = {seat: {a: zone(seat, a) for a in SOUTH_AREAS} for seat in SEATS}
