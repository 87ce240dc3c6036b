"""The calibration markers: ArUco images, the printable sheet, and painting them into simulated frames.

Six markers lie in the cloth's corners (``referee_station/calibration/cloth.json``), outside every play and discard
area. The SW and NE corners, which the diagonal screen crosses, get one marker on each side of it, so
the screen hides at most one of a pair; players' arms reach over their own areas, not the corners. Any
two markers (eight corners) are enough for a homography.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee_station.vision.layout import Layout

MM_PER_INCH = 25.4
A4_MM = (210.0, 297.0)


def dictionary(layout: Layout) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.marker_dictionary))


def marker_image(layout: Layout, marker_id: int, px: int) -> np.ndarray:
    """The marker (black border included) as a ``px``×``px`` grey image."""
    return cv2.aruco.generateImageMarker(dictionary(layout), marker_id, px)


def marker_sheet(layout: Layout, dpi: int = 300) -> np.ndarray:
    """An A4 page (grey, ``dpi``) with every marker at its true size, a white quiet zone round each,
    and where it goes on the cloth written under it. Print at 100 % scale."""
    px_per_mm = dpi / MM_PER_INCH
    page = np.full((round(A4_MM[1] * px_per_mm), round(A4_MM[0] * px_per_mm)), 255, np.uint8)
    side = round(layout.marker_size * 10 * px_per_mm)
    cell_w, cell_h = page.shape[1] // 2, page.shape[0] // 3
    for k, marker in enumerate(layout.markers):
        col, row = k % 2, k // 2
        x0 = col * cell_w + (cell_w - side) // 2
        y0 = row * cell_h + (cell_h - side) // 2 - round(8 * px_per_mm)
        page[y0 : y0 + side, x0 : x0 + side] = marker_image(layout, marker.id, side)
        scale = dpi / 300
        lines = [f"id {marker.id}  centre ({marker.centre[0]:g}, {marker.centre[1]:g}) cm", marker.where, "top = North"]
        for i, text in enumerate(lines):
            origin = (col * cell_w + round(40 * scale), y0 + side + round((70 + 55 * i) * scale))
            cv2.putText(page, text, origin, cv2.FONT_HERSHEY_SIMPLEX, 1.3 * scale, 0, max(1, round(3 * scale)))
    cv2.putText(
        page,
        f"Guandan referee station: calibration markers ({layout.marker_size:g} cm). Print at 100 %.",
        (round(40 * dpi / 300), round(60 * dpi / 300)),
        cv2.FONT_HERSHEY_SIMPLEX,
        1.2 * dpi / 300,
        0,
        max(1, round(2 * dpi / 300)),
    )
    return page


def paint_markers(
    frame: np.ndarray, h_cloth_img: np.ndarray, layout: Layout, hidden: frozenset[int] = frozenset()
) -> None:
    """Draw the markers (with a white quiet zone) into a frame in place, as a camera with homography
    ``h_cloth_img`` (cloth cm → pixels) would see them: used by the video simulation and the tests."""
    res = 64
    quiet = 1.25
    for marker in layout.markers:
        if marker.id in hidden:
            continue
        tile = np.full((round(res * quiet), round(res * quiet)), 255, np.uint8)
        m = (tile.shape[0] - res) // 2
        tile[m : m + res, m : m + res] = marker_image(layout, marker.id, res)
        (cx, cy), s = marker.centre, layout.marker_size * quiet / 2
        cloth = np.array([[cx - s, cy + s], [cx + s, cy + s], [cx + s, cy - s], [cx - s, cy - s]], np.float32)
        dst = cv2.perspectiveTransform(cloth[None], h_cloth_img.astype(np.float64))[0].astype(np.float32)
        n = tile.shape[0]
        src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
        warp = cv2.getPerspectiveTransform(src, dst)
        x0, y0 = np.floor(dst.min(0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, frame.shape[1]), min(y1, frame.shape[0])
        if x1 <= x0 or y1 <= y0:
            continue
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        size = (x1 - x0, y1 - y0)
        img = cv2.warpPerspective(tile, shift @ warp, size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full_like(tile, 255), shift @ warp, size, flags=cv2.INTER_LINEAR)
        a = (mask.astype(np.float32) / 255)[..., None]
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        tone = img.astype(np.float32)[..., None] * 0.85 + 15
        frame[y0:y1, x0:x1] = (roi * (1 - a) + tone * a).astype(np.uint8)
