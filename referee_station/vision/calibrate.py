"""Per-table calibration: find the cloth's markers (or take four clicked corners), fit the homography
cloth cm → frame pixels, check it by reprojection, save it, and notice later when the camera moved.

A calibration is trusted only if the markers' own corners reproject within ``MAX_RMS_CM`` and every
seat's play and discard areas land inside the frame. While running, ``MoveCheck`` re-detects the
markers now and then: a shift of more than ``MOVED_CM`` means the zones no longer sit on the areas,
so the station warns instead of silently misreading (a moved camera reads cards into the wrong seat).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from referee_station.vision.layout import SEATS, ZONES, Layout
from referee_station.vision.markers import dictionary

MAX_RMS_CM = 0.5
"""Largest acceptable reprojection error of the marker corners (cm on the cloth)."""
MOVED_CM = 1.0
"""A median marker shift beyond this (cm) means the camera moved."""
TABLES_DIR = Path("calibration")
"""Where a table's calibration is kept by default: ``calibration/<table>.json`` in the station's working
folder (in a checkout, beside ``cloth.json``), never inside the installed package."""


TABLE_FILE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""A table id that can name its calibration file: one plain file name, no folder, no dots."""
RESERVED = frozenset({"cloth", "markers"})
"""Names of the calibration folder's own files (the layout, the marker sheet)."""
MIN_IN_IMAGE = 0.5
"""Share of the table quadrilateral that must lie inside the image for its corners to be this camera's."""


class CalibrationError(ValueError):
    """The frame or the clicked corners do not give a usable calibration (too few markers, degenerate
    corners, zones outside the frame)."""


@dataclass(frozen=True)
class Calibration:
    """One table's camera geometry: homography cloth cm → pixels, the table corners it implies (SW, SE,
    NE, NW: what the card reader takes), the markers as seen, and how well they fit."""

    table: str
    image_size: tuple[int, int]
    homography: np.ndarray
    markers: dict[int, np.ndarray] = field(default_factory=dict)
    rms_cm: float = 0.0
    method: str = "markers"

    @property
    def corners(self) -> np.ndarray:
        return to_image(self.homography, Layout.default().table_corners)

    @property
    def px_per_cm(self) -> float:
        """Mean frame pixels per cloth cm along the table's edges."""
        c = self.corners
        edges = np.linalg.norm(np.roll(c, -1, axis=0) - c, axis=1)
        return float(edges.mean() / 90.0)

    def to_json(self) -> dict:
        return {
            "table": self.table,
            "image_size": list(self.image_size),
            "homography": self.homography.tolist(),
            "corners": np.round(self.corners, 2).tolist(),
            "markers": {str(k): np.round(v, 2).tolist() for k, v in sorted(self.markers.items())},
            "rms_cm": round(self.rms_cm, 4),
            "method": self.method,
        }

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        return cls(
            table=data["table"],
            image_size=(int(data["image_size"][0]), int(data["image_size"][1])),
            homography=np.array(data["homography"], dtype=np.float64),
            markers={int(k): np.array(v, dtype=np.float64) for k, v in data.get("markers", {}).items()},
            rms_cm=float(data.get("rms_cm", 0.0)),
            method=data.get("method", "markers"),
        )

    def save(self, path: Path | str | None = None) -> Path:
        path = Path(path) if path else calibration_path(self.table)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: Path | str) -> Calibration:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def calibration_path(table: str) -> Path:
    """``calibration/<table>.json``, for a table id that cannot leave the folder or overwrite its files."""
    if not TABLE_FILE.match(table) or table in RESERVED:
        reserved = ", ".join(sorted(RESERVED))
        rule = f"1-64 of A-Z a-z 0-9 _ -, not {reserved}"
        raise CalibrationError(f"table id {table!r} cannot name a calibration file: {rule}")
    return TABLES_DIR / f"{table}.json"


def check_corners_in_image(corners: np.ndarray, image_size: tuple[int, int]) -> None:
    """CalibrationError unless most of the table quadrilateral (SW, SE, NE, NW pixels) is inside a
    ``width x height`` image: corners of another camera or typed wrong would read nothing, silently."""
    quad = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    if not np.all(np.isfinite(quad)):
        raise CalibrationError("corners must be finite numbers")
    width, height = image_size
    area = abs(float(cv2.contourArea(quad.astype(np.float32))))
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    inside, _ = cv2.intersectConvexConvex(quad.astype(np.float32), frame) if area > 0 else (0.0, None)
    if area <= 0 or inside < MIN_IN_IMAGE * area:
        share = 0.0 if area <= 0 else inside / area
        raise CalibrationError(
            f"the table corners {np.round(quad, 1).tolist()} lie {100 * (1 - share):.0f} % outside the"
            f" {width}x{height} image"
        )


def to_image(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Cloth cm → pixels (N×2)."""
    pts = np.asarray(points, dtype=np.float64).reshape(1, -1, 2)
    return cv2.perspectiveTransform(pts, h)[0]


def detect_markers(frame: np.ndarray, layout: Layout) -> dict[int, np.ndarray]:
    """Markers of the layout found in the frame: id → 4×2 corner pixels (ArUco order)."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary(layout), params).detectMarkers(grey)
    known = {m.id for m in layout.markers}
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64) for c, i in zip(corners, ids.ravel(), strict=True) if i in known}


def from_markers(table: str, frame: np.ndarray, layout: Layout) -> Calibration:
    """Fit the homography to every corner of every marker seen (two markers are enough)."""
    seen = detect_markers(frame, layout)
    if len(seen) < 2:
        raise CalibrationError(f"found {len(seen)} of {len(layout.markers)} markers; need at least 2")
    places = {m.id: m for m in layout.markers}
    cloth = np.vstack([layout.marker_corners(places[i]) for i in sorted(seen)])
    image = np.vstack([seen[i] for i in sorted(seen)])
    h, _ = cv2.findHomography(cloth, image, 0)
    if h is None:
        raise CalibrationError("the markers seen give no homography")
    back = cv2.perspectiveTransform(image.reshape(1, -1, 2), np.linalg.inv(h))[0]
    rms = float(np.sqrt(np.mean(np.sum((back - cloth) ** 2, axis=1))))
    calib = Calibration(table, (frame.shape[1], frame.shape[0]), h / h[2, 2], seen, rms, "markers")
    check(calib, layout)
    return calib


def from_corners(table: str, image_size: tuple[int, int], corners: np.ndarray, layout: Layout) -> Calibration:
    """The manual calibration: the four table-corner pixels SW, SE, NE, NW (CLOTH.md)."""
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    if not np.all(np.isfinite(corners)):
        raise CalibrationError("corners must be finite numbers")
    edges = np.roll(corners, -1, axis=0) - corners
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    if not (np.all(turns > 0) or np.all(turns < 0)):
        raise CalibrationError("corners are not a convex quadrilateral in SW, SE, NE, NW order")
    check_corners_in_image(corners, image_size)
    h = cv2.getPerspectiveTransform(layout.table_corners.astype(np.float32), corners.astype(np.float32))
    calib = Calibration(table, image_size, h / h[2, 2], {}, 0.0, "corners")
    check(calib, layout)
    return calib


def check(calib: Calibration, layout: Layout) -> None:
    """Reprojection check: marker corners fit within ``MAX_RMS_CM`` and every zone lies in the frame."""
    if calib.rms_cm > MAX_RMS_CM:
        raise CalibrationError(f"markers reproject {calib.rms_cm:.2f} cm off (more than {MAX_RMS_CM} cm)")
    w, h = calib.image_size
    for seat in SEATS:
        for zone in ZONES:
            px = to_image(calib.homography, layout.zone(seat, zone))
            if not (np.all(px >= 0) and np.all(px[:, 0] < w) and np.all(px[:, 1] < h)):
                raise CalibrationError(f"{seat}'s {zone} area falls outside the {w}×{h} frame")


def draw_zones(frame: np.ndarray, calib: Calibration, layout: Layout) -> np.ndarray:
    """The frame with every zone and marker reprojected on it: what the operator checks by eye."""
    out = frame.copy()
    for seat in SEATS:
        for zone, colour in zip(ZONES, ((0, 255, 255), (255, 128, 0)), strict=True):
            px = np.round(to_image(calib.homography, layout.zone(seat, zone))).astype(np.int32)
            cv2.polylines(out, [px], True, colour, 2, cv2.LINE_AA)
        x0, x1, y0, y1 = layout.south["play"]
        label = to_image(calib.homography, layout.rotate(seat, np.array([[(x0 + x1) / 2, (y0 + y1) / 2]])))[0]
        cv2.putText(out, seat, tuple(np.round(label).astype(int)), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 255, 255), 2)
    for marker in layout.markers:
        px = np.round(to_image(calib.homography, layout.marker_corners(marker))).astype(np.int32)
        cv2.polylines(out, [px], True, (0, 0, 255), 2, cv2.LINE_AA)
    return out


@dataclass(frozen=True)
class MoveResult:
    """What a re-check found: markers seen, their median shift (cm) and whether that means moved."""

    seen: int
    shift_cm: float
    moved: bool


def camera_moved(frame: np.ndarray, calib: Calibration, layout: Layout) -> MoveResult:
    """Re-detect the markers and compare with where the calibration expects them. A marker hidden by an
    arm is simply not counted; with none seen the answer is "not moved" (``seen`` says why)."""
    seen = detect_markers(frame, layout)
    places = {m.id: m for m in layout.markers}
    shifts = []
    inv = np.linalg.inv(calib.homography)
    for marker_id, px in seen.items():
        cloth = cv2.perspectiveTransform(px.reshape(1, -1, 2), inv)[0]
        shifts.append(float(np.linalg.norm(cloth - layout.marker_corners(places[marker_id]), axis=1).mean()))
    shift = float(np.median(shifts)) if shifts else 0.0
    return MoveResult(len(seen), shift, shift > MOVED_CM)
