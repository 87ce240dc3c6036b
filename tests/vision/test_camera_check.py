"""``check-camera`` (#24): rendered frames of a test row laid in every play area, read back with the
shipped models. A camera too far away (720p, the cloth small in the frame) fails on its px per cm with
the remedy; a good 1080p camera passes; a blurred, a dark or a glaring one fails on that."""

from __future__ import annotations

import functools
import json

import cv2
import pytest

from referee_station.cli import main
from referee_station.deck.profile import reader_for
from referee_station.render.artwork import HELDOUT_DESIGNS
from referee_station.render.render import render
from referee_station.render.scene import Camera, Look, PlacedCard, Scene, SeatScene
from referee_station.vision.calibrate import Calibration, from_corners
from referee_station.vision.camera_check import MAX_BLUR, check_camera
from referee_station.vision.geometry import DRAW_ORDER, PLAY_AREA
from referee_station.vision.layout import Layout
from referee_station.vision.strips import NEEDS_PX_PER_CM, Need

ROW = ("3s", "4h", "5d", "6c", "7s", "8h", "9d", "Tc", "Js", "Qh")
GOOD = Camera(height=120, tilt=5, tilt_dir=30, span_px=950)
FAR = Camera(height=120, size=(1280, 720), span_px=480)
LOOK = Look(glare=0, blur=0.5, noise=2.5, jpeg=90, seed=3, light_gain=0.9)


def test_row(codes=ROW) -> tuple[PlacedCard, ...]:
    """The organiser's test row: ten cards 2.6 cm apart in the middle of the play area."""
    x0, x1, y0, y1 = PLAY_AREA
    left = (x0 + x1) / 2 - 2.6 * (len(codes) - 1) / 2
    return tuple(PlacedCard(code, left + 2.6 * i, (y0 + y1) / 2) for i, code in enumerate(codes))


test_row.__test__ = False  # a helper, not a test


def row_scene(camera: Camera, look: Look = LOOK) -> Scene:
    """The test row in every play area, seen by ``camera`` in ``look``."""
    return Scene(HELDOUT_DESIGNS[0], {seat: SeatScene(play=test_row()) for seat in DRAW_ORDER}, camera, look)


@functools.cache
def shot(camera: Camera, look: Look = LOOK) -> tuple:
    """A rendered frame of the test row in every area, and its calibration from the rendered corners."""
    frame = render(row_scene(camera, look))
    size = (frame.image.shape[1], frame.image.shape[0])
    return frame.image, from_corners("T1", size, frame.corners, Layout.default())


@functools.cache
def reader():
    return reader_for(None).read


def test_a_good_1080p_camera_is_ready_for_play():
    image, calib = shot(GOOD)
    check = check_camera([image], calib, reader(), ROW)
    assert check.ok, check.lines()
    for area in check.areas:
        assert NEEDS_PX_PER_CM < area.px_per_cm < 12  # 950 px for the 90 cm cloth, a little tilted
        assert area.reads == (ROW,)
        assert area.blur < MAX_BLUR
    assert check.lines()[-1] == "verdict: ready for play"


def test_a_camera_too_far_away_fails_with_its_px_per_cm_and_the_remedy():
    image, calib = shot(FAR)
    check = check_camera([image], calib, reader(), ROW)
    assert not check.ok
    for area in check.areas:
        assert area.px_per_cm == pytest.approx(480 / 90, rel=0.05)
        reasons = [p.reason for p in area.problems]
        assert reasons[0] == f"{area.px_per_cm:.1f} px/cm, this deck needs 8"
        assert area.problems[0].remedy == "lower the camera or use 1080p"
    assert "N: 5.3 px/cm, this deck needs 8: lower the camera or use 1080p" in [s.strip() for s in check.lines()]
    assert check.lines()[-1].startswith("verdict: NOT ready")


def test_a_4k_camera_is_read_at_its_detail_and_told_only_to_come_closer():
    """A 4K camera gives a play area twice a 1080p one's px/cm; one that still gives less than the deck
    needs is told to come closer, not to become a 4K camera."""
    image, calib = shot(Camera(height=120, size=(3840, 2160), span_px=1900))
    check = check_camera([image], calib, reader(), ROW, Need(24.0))
    assert not check.ok
    for area in check.areas:
        assert area.px_per_cm == pytest.approx(1900 / 90, rel=0.05)
        assert area.problems[0].reason == f"{area.px_per_cm:.1f} px/cm, this deck needs 24"
        assert area.problems[0].remedy == "lower the camera"
    assert check_camera([image], calib, reader(), ROW, Need(16.0)).ok


@pytest.mark.parametrize(
    ("look", "reason"),
    [
        (Look(glare=0, blur=2.5, noise=2.5, jpeg=90, seed=3, light_gain=0.9), "out of focus"),
        (Look(glare=0, blur=0.5, noise=2.5, jpeg=90, seed=3, light_gain=0.4), "too dark"),
        (Look(glare=2, blur=0.5, noise=2.5, jpeg=90, seed=5, light_gain=1.2), "glare"),
    ],
)
def test_blur_darkness_and_glare_are_found_without_reading(look, reason):
    image, calib = shot(GOOD, look)
    check = check_camera([image], calib)
    assert not check.ok
    assert all(any(p.reason.startswith(reason) for p in area.problems) for area in check.areas)


def test_a_frame_of_another_camera_size_is_bad_input():
    image, calib = shot(GOOD)
    with pytest.raises(ValueError, match="1280x720 frame, but the calibration is of a 1920x1080 camera"):
        check_camera([cv2.resize(image, (1280, 720))], calib)


def test_the_command_reports_and_exits_by_the_verdict(tmp_path, capsys):
    for name, camera in (("good", GOOD), ("far", FAR)):
        image, calib = shot(camera)
        cv2.imwrite(str(tmp_path / f"{name}.png"), image)
        Calibration.save(calib, tmp_path / f"{name}.json")
    row = " ".join(ROW)
    good = ["check-camera", str(tmp_path / "good.png"), "--calibration", str(tmp_path / "good.json"), "--row", row]
    assert main([*good, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and [a["reads"] for a in report["areas"]] == [[list(ROW)]] * 4
    far = ["check-camera", str(tmp_path / "far.png"), "--calibration", str(tmp_path / "far.json"), "--row", row]
    assert main(far) == 1
    assert "this deck needs 8: lower the camera or use 1080p" in capsys.readouterr().out
    assert main([*far[:4], "--row", "3s 4h 1x"]) == 2
    assert "1x" in capsys.readouterr().err
    folder = tmp_path / "shots"
    folder.mkdir()
    (tmp_path / "good.png").rename(folder / "0001.png")
    from_folder = ["check-camera", "--frames", str(folder), "--shots", "1", *good[2:]]
    assert main(from_folder) == 0  # the station's own source options: the first frames of a folder
    assert capsys.readouterr().out.strip().endswith("verdict: ready for play")
    assert main([*from_folder[:3], "--shots", "2", *good[2:]]) == 2  # the folder holds one frame
    assert "gave 1 of 2 frames" in capsys.readouterr().err
