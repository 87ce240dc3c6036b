import numpy as np
import pytest

from referee_station.vision.calibrate import (
    Calibration,
    CalibrationError,
    camera_moved,
    detect_markers,
    draw_zones,
    from_corners,
    from_markers,
)
from referee_station.vision.layout import Layout
from referee_station.vision.markers import marker_sheet
from tests.vision.helpers import CORNERS, homography, table_frame

LAYOUT = Layout.default()


def test_layout_matches_cloth_md():
    assert LAYOUT.south["play"] == (-15.0, 15.0, -32.0, -16.0)
    east_play = LAYOUT.zone("E", "play")  # South's rotated 90° ccw: x 16..32, y -15..15
    assert np.allclose(east_play.min(0), [16, -15]) and np.allclose(east_play.max(0), [32, 15])


def test_markers_stay_off_the_areas_and_the_screen():
    for marker in LAYOUT.markers:
        c = LAYOUT.marker_corners(marker)
        assert np.all(np.abs(c) <= LAYOUT.table_half)
        assert np.all(np.abs(c[:, 1] - c[:, 0]) / np.sqrt(2) > 2.0)  # clear of the diagonal screen
        for seat in "ESWN":
            for zone in ("play", "discard"):
                z = LAYOUT.zone(seat, zone)
                lo, hi = z.min(0), z.max(0)
                assert np.any(c.max(0) < lo) or np.any(c.min(0) > hi), (marker.id, seat, zone)


@pytest.mark.parametrize(
    ("hidden", "ok"),
    [(frozenset(), True), (frozenset({0}), True), (frozenset({0, 3, 5}), True), (frozenset({0, 1, 2, 3, 4}), False)],
)
def test_calibrate_from_markers(hidden, ok):
    frame = table_frame(homography(), hidden=hidden)
    if not ok:
        with pytest.raises(CalibrationError):
            from_markers("T1", frame, LAYOUT)
        return
    calib = from_markers("T1", frame, LAYOUT)
    assert set(calib.markers) == {m.id for m in LAYOUT.markers} - hidden
    assert calib.rms_cm < 0.1
    assert np.abs(calib.corners - CORNERS).max() < 2.0  # px


def test_manual_corners_and_round_trip(tmp_path):
    calib = from_corners("T2", (1920, 1080), CORNERS, LAYOUT)
    assert np.allclose(calib.corners, CORNERS, atol=1e-6)
    again = Calibration.load(calib.save(tmp_path / "T2.json"))
    assert np.allclose(again.homography, calib.homography) and again.method == "corners"
    with pytest.raises(CalibrationError):
        from_corners("T2", (1920, 1080), CORNERS[[0, 2, 1, 3]], LAYOUT)
    with pytest.raises(CalibrationError, match="outside"):
        from_corners("T2", (1280, 720), CORNERS, LAYOUT)


def test_camera_moved():
    calib = from_markers("T1", table_frame(homography()), LAYOUT)
    same = camera_moved(table_frame(homography(), hidden=frozenset({4}), seed=1), calib, LAYOUT)
    assert same.seen == 5 and not same.moved and same.shift_cm < 0.3
    moved = camera_moved(table_frame(homography(CORNERS + np.array([25.0, -10.0]))), calib, LAYOUT)
    assert moved.moved and moved.shift_cm > 2.0


def test_sheet_and_overlay_draw():
    page = marker_sheet(LAYOUT, dpi=100)
    assert page.shape == (1169, 827)
    detected = detect_markers(np.pad(page, 40, constant_values=255), LAYOUT)
    assert set(detected) == {m.id for m in LAYOUT.markers}
    calib = from_corners("T2", (1920, 1080), CORNERS, LAYOUT)
    frame = table_frame(homography())
    assert (draw_zones(frame, calib, LAYOUT) != frame).any()


def test_calibrate_command(tmp_path, capsys):
    import cv2

    from referee_station.cli import main

    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), table_frame(homography()))
    out = tmp_path / "T1.json"
    assert main(["calibrate", "--image", str(image), "--table", "T1", "-o", str(out)]) == 0
    assert "6 markers" in capsys.readouterr().out
    assert np.abs(Calibration.load(out).corners - CORNERS).max() < 2.0
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.zeros((1080, 1920, 3), np.uint8))
    assert main(["calibrate", "--image", str(blank), "-o", str(out)]) == 2
    assert main(["calibrate", "--sheet", str(tmp_path / "sheet.png")]) == 0


def test_committed_sheet_is_the_layouts():
    import cv2

    from referee_station.vision.layout import CALIBRATION_DIR

    sheet = cv2.imread(str(CALIBRATION_DIR / "markers.png"), cv2.IMREAD_GRAYSCALE)
    assert np.array_equal(sheet, marker_sheet(LAYOUT))
