"""The cloth layout as configuration: ``referee_station/calibration/cloth.json`` (CLOTH.md's numbers, and the markers).

An organiser describes another cloth by editing the file, not the code. Zones are returned as cloth
polygons (cm); a calibration's homography turns them into frame pixels. Seats other than South get
South's areas rotated about the centre (East = 90° counterclockwise, CLOTH.md).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from referee_station.core import SEATS
from referee_station.resources import CALIBRATION_DIR

DEFAULT_LAYOUT = CALIBRATION_DIR / "cloth.json"
ZONES = ("play", "discard")


@dataclass(frozen=True)
class MarkerPlace:
    """Where a printed ArUco marker lies on the cloth: its id and centre (cm); its top edge faces North."""

    id: int
    centre: tuple[float, float]
    where: str


@dataclass(frozen=True)
class Layout:
    """One cloth: table size, South's areas and seat label, seat angles and the calibration markers."""

    table_half: float
    south: dict[str, tuple[float, float, float, float]]
    """South's play and discard areas as (x0, x1, y0, y1) cm."""
    label: tuple[float, float]
    """The centre of South's seat label (cm)."""
    seat_angle: dict[str, float]
    card: tuple[float, float]
    marker_dictionary: str
    marker_size: float
    markers: tuple[MarkerPlace, ...]

    @classmethod
    def load(cls, path: Path | str = DEFAULT_LAYOUT) -> Layout:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if set(data["seat_angle"]) != set(SEATS):
            raise ValueError(f"{path}: seat_angle names {sorted(data['seat_angle'])}, not the seats {' '.join(SEATS)}")
        south = {zone: tuple(float(v) for v in data["south"][zone]) for zone in ZONES}
        markers = tuple(
            MarkerPlace(int(m["id"]), (float(m["centre"][0]), float(m["centre"][1])), m.get("where", ""))
            for m in data["markers"]["placed"]
        )
        return cls(
            table_half=float(data["table_half"]),
            south=south,  # type: ignore[arg-type]
            label=(float(data["south"]["label"][0]), float(data["south"]["label"][1])),
            seat_angle={seat: float(a) for seat, a in data["seat_angle"].items()},
            card=(float(data["card"][0]), float(data["card"][1])),
            marker_dictionary=data["markers"]["dictionary"],
            marker_size=float(data["markers"]["size"]),
            markers=markers,
        )

    @staticmethod
    @functools.cache
    def default() -> Layout:
        """The standard cloth, read once."""
        return Layout.load()

    @property
    def table_corners(self) -> np.ndarray:
        """SW, SE, NE, NW in cm: the order of a manual calibration (CLOTH.md)."""
        h = self.table_half
        return np.array([[-h, -h], [h, -h], [h, h], [-h, h]], dtype=np.float64)

    def rotate(self, seat: str, points: np.ndarray) -> np.ndarray:
        """South's (seat-local) cm → cloth cm for ``seat``."""
        a = math.radians(self.seat_angle[seat])
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return np.asarray(points, dtype=np.float64) @ rot.T

    def zone(self, seat: str, zone: str) -> np.ndarray:
        """The seat's play or discard area as a 4×2 cloth polygon (cm)."""
        x0, x1, y0, y1 = self.south[zone]
        return self.rotate(seat, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))

    def marker_corners(self, marker: MarkerPlace) -> np.ndarray:
        """The marker's corners in ArUco's order (top-left, top-right, bottom-right, bottom-left), cm."""
        (cx, cy), s = marker.centre, self.marker_size / 2
        return np.array([[cx - s, cy + s], [cx + s, cy + s], [cx + s, cy - s], [cx - s, cy - s]])
