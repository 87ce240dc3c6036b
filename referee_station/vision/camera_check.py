"""Check a calibrated camera before play: per play area the detail, focus, glare and exposure, the
camera's compression, then a test row the organiser lays in every area read back, and a verdict with its
reason and remedy.

The measures come from the frame itself at the camera's own detail (each area rectified at the px/cm
the camera gives it, not at the reader's strip scale), so a camera too far away, out of focus or facing
a lamp is found before the first deal rather than by misreads during it. ``check_camera`` is what the
``check-camera`` command and the station console's setup step call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from referee_station.vision.calibrate import Calibration, to_image
from referee_station.vision.compression import jpeg_quality
from referee_station.vision.geometry import (
    DRAW_ORDER,
    PLAY_AREA,
    STRIP_MARGIN,
    STRIP_PX_PER_CM,
    STRIP_X0,
    STRIP_X1,
    STRIP_Y_BOTTOM,
    STRIP_Y_TOP,
    cloth_to_image,
    strip_to_image,
)
from referee_station.vision.layout import Layout
from referee_station.vision.strips import Need
from referee_station.vision.tracker import FrameReadingLike

FOCUS_PX_PER_CM = 8.0
"""The scale focus is measured at (never above the camera's own): the detail the reader needs, so that a
finer camera is not called blurred for edges that span more of its pixels."""
MAX_BLUR = 0.5
"""Largest blur measure (``blur``) of a play area: rendered areas measure 0.2–0.3 in focus, 0.43 blurred
by 1.5 px (still read right) and 0.57 blurred by 2.5 px (a ten-card test row misread)."""
MAX_GLARE = 0.01
"""Largest share of a play area's pixels clipped white (every channel at ``CLIPPED`` or more): a
reflection of a lamp, or a picture so bright that the cards' ink fades."""
CLIPPED = 250
DARKEST_WHITE = 110
"""A card's white must reach this grey level (the area's 98th percentile) to be read."""
BRIGHTEST_CLOTH = 200
"""The cloth (the area's median) above this grey level is a washed-out picture."""
GOOD_JPEG_QUALITY = 75
"""The JPEG quality from which a camera's compression costs little: the benchmark's deck with a 4 mm suit
mark read 83 % of its 1080p plays from frames under 75 and 93 % from 75 up (docs/deck.md, "What the frames'
JPEG costs"). Under it the report says so, and a test row read wrong names the compression in its remedy;
it fails nothing alone, since a deck with large marks reads the same at quality 55."""

ReadFrame = Callable[[np.ndarray, np.ndarray], FrameReadingLike]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a play area: what was measured, and what the organiser should do."""

    reason: str
    remedy: str


@dataclass(frozen=True)
class AreaCheck:
    """One seat's play area: its measures, the test row as read in each frame, and what is wrong."""

    seat: str
    px_per_cm: float
    """Frame pixels per cm across the area, the smallest anywhere in it in any direction."""
    blur: float
    """0 sharp … 1 flat: how little a further blur changes the area (Crété-Roffet's no-reference measure)."""
    glare: float
    """Share of the area's pixels clipped white."""
    white: float
    """The area's 98th-percentile grey level (the cards' white)."""
    cloth: float
    """The area's median grey level."""
    reads: tuple[tuple[str, ...], ...]
    """The cards read in the area, one entry per frame (empty without a test row)."""
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class CameraCheck:
    """Every area's check, the test row asked for and the px/cm needed: the verdict and its report."""

    areas: tuple[AreaCheck, ...]
    row: tuple[str, ...]
    needs: Need
    frame_size: tuple[int, int]
    jpeg_quality: int | None = None
    """The JPEG quality the camera's frames were compressed at (the median over the frames checked); None:
    no JPEG seen (uncompressed frames, JPEG at 97 or more, or an MPEG-4 video's frames)."""

    @property
    def ok(self) -> bool:
        return all(area.ok for area in self.areas)

    def compression_line(self) -> str:
        """The report's line on the camera's compression."""
        if self.jpeg_quality is None:
            return "compression: no JPEG seen (uncompressed frames, JPEG at quality 97 or more, or an MPEG-4 video's)"
        line = f"compression: the camera's frames are JPEG at about quality {self.jpeg_quality}"
        if self.jpeg_quality < GOOD_JPEG_QUALITY:
            line += f"; small index marks read better from quality {GOOD_JPEG_QUALITY}"
        return line

    def lines(self) -> list[str]:
        """The report, one line per area and per problem, then the verdict."""
        w, h = self.frame_size
        out = []
        for a in self.areas:
            read = ""
            if self.row:
                exact = sum(1 for cards in a.reads if cards == self.row)
                read = f", test row read {exact}/{len(a.reads)}"
            out.append(
                f"{a.seat}: {a.px_per_cm:.1f} px/cm, blur {a.blur:.2f}, glare {100 * a.glare:.1f} %,"
                f" white {a.white:.0f}, cloth {a.cloth:.0f}{read}: {'ok' if a.ok else 'FAILS'}"
            )
            out += [f"  {a.seat}: {p.reason}: {p.remedy}" for p in a.problems]
        finest = max(a.px_per_cm for a in self.areas)
        if finest > STRIP_PX_PER_CM:
            out.append(
                f"detail: this {w}x{h} camera gives up to {finest:.1f} px/cm; the reader reads every area at"
                f" {STRIP_PX_PER_CM:g} px/cm, so {100 * (1 - STRIP_PX_PER_CM / finest):.0f} % of its detail is"
                " resampled away"
            )
        else:
            out.append(
                f"detail: the reader's strip ({STRIP_PX_PER_CM:g} px/cm) holds all the detail this {w}x{h} camera"
                f" gives (up to {finest:.1f} px/cm)"
            )
        out.append(self.compression_line())
        out.append(
            "verdict: ready for play" if self.ok else "verdict: NOT ready: fix the problems above and check again"
        )
        return out

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "needs_px_per_cm": self.needs.px_per_cm,
            "needs_more": self.needs.more,
            "row": list(self.row),
            "frame_size": list(self.frame_size),
            "jpeg_quality": self.jpeg_quality,
            "areas": [
                {
                    "seat": a.seat,
                    "ok": a.ok,
                    "px_per_cm": round(a.px_per_cm, 2),
                    "blur": round(a.blur, 3),
                    "glare": round(a.glare, 4),
                    "white": round(a.white, 1),
                    "cloth": round(a.cloth, 1),
                    "reads": [list(cards) for cards in a.reads],
                    "problems": [{"reason": p.reason, "remedy": p.remedy} for p in a.problems],
                }
                for a in self.areas
            ],
        }


def check_camera(
    frames: Sequence[np.ndarray],
    calib: Calibration,
    read_frame: ReadFrame | None = None,
    row: Sequence[str] = (),
    needs: Need | None = None,
    layout: Layout | None = None,
) -> CameraCheck:
    """Check every play area in ``frames`` (stills of the same camera, the test row laid in every area
    when ``row`` is given, read back with ``read_frame``) against the detail the deck ``needs`` (by
    default ``NEEDS_PX_PER_CM``). ValueError when a frame is not this calibration's size or a row is
    given without a reader."""
    if not frames:
        raise ValueError("check-camera needs at least one frame")
    if row and read_frame is None:
        raise ValueError("a test row needs a card reader to read it back")
    layout, needs = layout or Layout.default(), needs or Need()
    for frame in frames:
        if (frame.shape[1], frame.shape[0]) != tuple(calib.image_size):
            w, h = calib.image_size
            raise ValueError(f"a {frame.shape[1]}x{frame.shape[0]} frame, but the calibration is of a {w}x{h} camera")
    readings = [read_frame(frame, calib.corners) for frame in frames] if row else []
    quality = camera_jpeg_quality(frames)
    areas = []
    for seat in DRAW_ORDER:
        scale = area_px_per_cm(calib, layout, seat)
        measures = [_measure(frame, calib, seat, scale) for frame in frames]
        blur = max(m[0] for m in measures)
        glare = max(m[1] for m in measures)
        white = min(m[2] for m in measures)
        cloth = max(m[3] for m in measures)
        reads = tuple(tuple(r.seats[seat].cards) for r in readings)
        problems = _problems(calib, scale, blur, glare, white, cloth, tuple(row), reads, needs, quality)
        areas.append(AreaCheck(seat, scale, blur, glare, white, cloth, reads, problems))
    return CameraCheck(tuple(areas), tuple(row), needs, tuple(calib.image_size), quality)


def camera_jpeg_quality(frames: Sequence[np.ndarray]) -> int | None:
    """The median of the frames' JPEG qualities (``jpeg_quality``); None where most frames show none."""
    found = [q for q in (jpeg_quality(frame) for frame in frames) if q is not None]
    if 2 * len(found) <= len(frames):
        return None
    return round(float(np.median(found)))


def area_px_per_cm(calib: Calibration, layout: Layout, seat: str) -> float:
    """The fewest frame pixels per cm anywhere in the seat's play area, in any direction: the smaller
    singular value of the homography's derivative at the area's corners and centre (a tilted camera
    sees the far side of an area smaller, and across more than along)."""
    zone = layout.zone(seat, "play")
    points = np.vstack([zone, zone.mean(0)])
    least = np.inf
    for p in points:
        around = to_image(calib.homography, p + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        jacobian = np.column_stack([around[1] - around[0], around[2] - around[0]])
        least = min(least, float(np.linalg.svd(jacobian, compute_uv=False)[-1]))
    return least


def _measure(frame: np.ndarray, calib: Calibration, seat: str, scale: float) -> tuple[float, float, float, float]:
    """Blur, glare share, white and cloth grey levels of the seat's play area, rectified at ``scale``
    px/cm (the camera's own detail there, so that nothing is added), the blur at ``FOCUS_PX_PER_CM``."""
    area = _area(frame, calib, seat, scale)
    grey = cv2.cvtColor(area, cv2.COLOR_BGR2GRAY)
    glare = float(np.mean(area.min(axis=2) >= CLIPPED))
    focus = (
        grey
        if scale <= FOCUS_PX_PER_CM
        else cv2.cvtColor(_area(frame, calib, seat, FOCUS_PX_PER_CM), cv2.COLOR_BGR2GRAY)
    )
    return blur(focus), glare, float(np.percentile(grey, 98)), float(np.median(grey))


def _area(frame: np.ndarray, calib: Calibration, seat: str, scale: float) -> np.ndarray:
    """The seat's play area (without the strip's margin) rectified at ``scale`` px/cm."""
    w = round((STRIP_X1 - STRIP_X0) * scale)
    h = round((STRIP_Y_TOP - STRIP_Y_BOTTOM) * scale)
    to_frame = strip_to_image(cloth_to_image(calib.corners), seat, scale)
    flags = (cv2.INTER_AREA if scale < FOCUS_PX_PER_CM else cv2.INTER_LINEAR) | cv2.WARP_INVERSE_MAP
    strip = cv2.warpPerspective(frame, to_frame, (w, h), flags=flags)
    m = round(STRIP_MARGIN * scale)
    return strip[
        m : m + round((PLAY_AREA[3] - PLAY_AREA[2]) * scale), m : m + round((PLAY_AREA[1] - PLAY_AREA[0]) * scale)
    ]


def blur(grey: np.ndarray) -> float:
    """Crété-Roffet's blur measure: how much of the image's neighbour-to-neighbour variation survives a
    9-pixel box blur, along rows and columns (0: sharp; 1: the blur changes nothing)."""
    image = grey.astype(np.float32)
    worst = 0.0
    for axis, kernel in ((1, (9, 1)), (0, (1, 9))):
        blurred = cv2.blur(image, kernel)
        d_image = np.abs(np.diff(image, axis=axis))
        d_blurred = np.abs(np.diff(blurred, axis=axis))
        total = float(d_image.sum())
        if total == 0:
            return 1.0
        kept = float(np.maximum(0.0, d_image - d_blurred).sum())
        worst = max(worst, (total - kept) / total)
    return worst


def _problems(
    calib: Calibration,
    scale: float,
    blur_measure: float,
    glare: float,
    white: float,
    cloth: float,
    row: tuple[str, ...],
    reads: tuple[tuple[str, ...], ...],
    needs: Need,
    quality: int | None,
) -> tuple[Problem, ...]:
    out = []
    least, more = needs.px_per_cm, needs.more
    height = calib.image_size[1]
    closer = "lower the camera" + (" or use 1080p" if height < 1080 else " or use a 4K camera" if height < 2160 else "")
    if more and needs.short(scale):
        out.append(
            Problem(
                f"{scale:.1f} px/cm, this deck needs more than {least:g} (its registration read it right at no"
                " detail up to that)",
                f"{closer}, and register the deck again from photos taken as close",
            )
        )
    elif needs.short(scale):
        out.append(Problem(f"{scale:.1f} px/cm, this deck needs {least:g}", closer))
    if blur_measure > MAX_BLUR:
        out.append(
            Problem(f"out of focus (blur {blur_measure:.2f}, at most {MAX_BLUR})", "focus the lens on the play areas")
        )
    if glare > MAX_GLARE:
        out.append(
            Problem(
                f"glare: {100 * glare:.1f} % of the area clipped white",
                "move the lamp or turn the camera out of its reflection",
            )
        )
    if white < DARKEST_WHITE:
        out.append(Problem(f"too dark (the cards' white at {white:.0f} of 255)", "more light, or a longer exposure"))
    if cloth > BRIGHTEST_CLOTH:
        out.append(
            Problem(f"washed out (the cloth at {cloth:.0f} of 255)", "less exposure, or less light on the table")
        )
    if row:
        wrong = [cards for cards in reads if cards != row]
        if wrong:
            shown = " ".join(wrong[0]) or "nothing"
            compression = (
                f"; raise the camera's JPEG quality to {GOOD_JPEG_QUALITY} or more in its settings (now about"
                f" {quality}), or lower the camera"
                if quality is not None and quality < GOOD_JPEG_QUALITY
                else ""
            )
            out.append(
                Problem(
                    f"the test row read wrong in {len(wrong)} of {len(reads)} frames (read {shown})",
                    f"fix the problems above{compression}; if nothing is left to fix, register this deck"
                    " (register-deck)",
                )
            )
    return tuple(out)
