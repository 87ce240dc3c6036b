"""``referee-station calibrate``: calibrate one table's camera once, and print the marker sheet.

    referee-station calibrate --camera 0 --table T1            # find the markers, check, save
    referee-station calibrate --image frame.png --table T1 --corners "520,960 1410,935 1360,110 560,135"
    referee-station calibrate --sheet markers.png              # the printable marker sheet (A4, 300 dpi)

Without markers in view the four table corners are clicked in a window (SW, SE, NE, NW), or given with
``--corners`` where OpenCV has no GUI. The result is checked by reprojecting the zones (``--overlay``
writes the picture to look at) and saved to ``calibration/<table>.json``. Exit 2 when it fails.
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np

from referee_station.vision.calibrate import CalibrationError, calibration_path, draw_zones, from_corners, from_markers
from referee_station.vision.capture import CaptureError, open_source, read_image
from referee_station.vision.layout import DEFAULT_LAYOUT, Layout
from referee_station.vision.markers import marker_sheet


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("calibrate", help="calibrate a table's camera (markers or four corners)")
    src = parser.add_mutually_exclusive_group()
    src.add_argument("--camera", type=int, help="camera index")
    src.add_argument("--video", help="a video file (its first frame is used)")
    src.add_argument("--image", help="a still frame")
    parser.add_argument("--table", default="T1", help="table id (names the calibration file)")
    parser.add_argument("--corners", help='manual: "x,y x,y x,y x,y" pixels of the SW, SE, NE, NW table corners')
    parser.add_argument("--layout", default=str(DEFAULT_LAYOUT), help="the cloth layout file")
    parser.add_argument("-o", "--output", help="where to save (default calibration/<table>.json)")
    parser.add_argument("--overlay", help="write the frame with the zones reprojected on it")
    parser.add_argument("--sheet", help="write the printable marker sheet (PNG) and stop")
    parser.set_defaults(func=run)


def _frame(args: argparse.Namespace) -> np.ndarray:
    if args.image:
        return read_image(args.image)
    for _, frame in open_source(camera=args.camera, video=args.video):
        if frame is not None:  # a live camera yields None while it reconnects
            return frame
    raise CaptureError("the source gave no frame")


def _parse_corners(text: str) -> np.ndarray:
    try:
        pts = [[float(v) for v in pair.split(",")] for pair in text.split()]
    except ValueError as err:
        raise CalibrationError(f"corners must be x,y pairs: {text!r}") from err
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise CalibrationError("give exactly four x,y corners: SW, SE, NE, NW")
    return np.array(pts)


def _click_corners(frame: np.ndarray) -> np.ndarray:
    """Ask the operator to click SW, SE, NE, NW; needs OpenCV's GUI (not the headless build)."""
    clicks: list[tuple[int, int]] = []

    def on_mouse(event: int, x: int, y: int, *_: object) -> None:
        if event == cv2.EVENT_LBUTTONDOWN and len(clicks) < 4:
            clicks.append((x, y))

    title = "click the table corners: SW, SE, NE, NW (Esc cancels)"
    try:
        cv2.namedWindow(title)
        cv2.setMouseCallback(title, on_mouse)
        while len(clicks) < 4:
            shown = frame.copy()
            for p in clicks:
                cv2.circle(shown, p, 6, (0, 0, 255), -1)
            cv2.imshow(title, shown)
            if cv2.waitKey(30) == 27:
                break
        cv2.destroyWindow(title)
    except cv2.error as err:
        raise CalibrationError("no markers found and no window to click in: pass --corners") from err
    if len(clicks) < 4:
        raise CalibrationError("calibration cancelled")
    return np.array(clicks, dtype=np.float64)


def run(args: argparse.Namespace) -> int:
    layout = Layout.load(args.layout)
    if args.sheet:
        cv2.imwrite(args.sheet, marker_sheet(layout))
        print(f"marker sheet written to {args.sheet}: print at 100 % and lay each marker as labelled")
        return 0
    try:
        if not args.output:
            calibration_path(args.table)  # refuse a table id that would write outside calibration/
        frame = _frame(args)
        size = (frame.shape[1], frame.shape[0])
        if args.corners:
            calib = from_corners(args.table, size, _parse_corners(args.corners), layout)
        else:
            try:
                calib = from_markers(args.table, frame, layout)
            except CalibrationError as err:
                print(f"markers: {err}; click the corners instead", file=sys.stderr)
                calib = from_corners(args.table, size, _click_corners(frame), layout)
    except (CalibrationError, CaptureError) as err:
        print(f"referee-station calibrate: {err}", file=sys.stderr)
        return 2
    if args.overlay:
        cv2.imwrite(args.overlay, draw_zones(frame, calib, layout))
    path = calib.save(args.output)
    how = f"{len(calib.markers)} markers, reprojection {calib.rms_cm:.3f} cm" if calib.markers else "four corners"
    print(f"table {calib.table}: calibrated from {how}, {calib.px_per_cm:.1f} px/cm; saved to {path}")
    return 0
