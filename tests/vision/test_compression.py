"""The camera's compression (#24): the JPEG quality a decoded frame was saved at, found from its 8 × 8 blocks'
quantised coefficients, and ``check-camera`` reporting it. A rendered table frame stands in for the camera's."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from referee_station.render.artwork import HELDOUT_DESIGNS
from referee_station.render.render import expose
from referee_station.render.scene import Scene, SeatScene
from referee_station.vision.camera_check import GOOD_JPEG_QUALITY, check_camera
from referee_station.vision.compression import ijg_table, jpeg_quality
from referee_station.vision.geometry import DRAW_ORDER
from tests.vision.test_camera_check import GOOD, LOOK, ROW, reader, shot, test_row


@pytest.fixture(scope="module")
def uncompressed() -> np.ndarray:
    """A 1080p table frame as the light reaches the sensor, with the sensor's noise, never compressed."""
    scene = Scene(HELDOUT_DESIGNS[0], {seat: SeatScene(play=test_row()) for seat in DRAW_ORDER}, GOOD, LOOK)
    light = expose(scene).light
    noise = np.random.default_rng(7).normal(0.0, 2.5, light.shape)
    return np.clip(light + noise, 0, 255).astype(np.uint8)


def jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@pytest.mark.parametrize("quality", [30, 55, 62, 75, 85, 93])
def test_the_quality_a_frame_was_compressed_at_is_found_within_a_point(uncompressed, quality):
    assert jpeg_quality(jpeg(uncompressed, quality)) == pytest.approx(quality, abs=1)


def test_a_frame_never_compressed_or_resized_after_decoding_shows_no_compression(uncompressed):
    assert jpeg_quality(uncompressed) is None
    resized = cv2.resize(jpeg(uncompressed, 60), None, fx=0.9, fy=0.9, interpolation=cv2.INTER_AREA)
    assert jpeg_quality(resized) is None


def test_the_standard_tables_are_libjpegs():
    """Quality 50 is the standard's table itself, 100 all ones, and lower qualities coarser steps."""
    assert ijg_table(50)[0, :3].tolist() == [16, 11, 10]
    assert (ijg_table(100) == 1).all()
    assert (ijg_table(40) >= ijg_table(80)).all() and (ijg_table(40) > ijg_table(80)).any()


def test_check_camera_reports_the_cameras_compression_and_names_it_where_a_row_reads_wrong():
    hard = dataclasses.replace(LOOK, jpeg=60)
    image, calib = shot(GOOD, hard)
    check = check_camera([image, image], calib)
    assert check.jpeg_quality == pytest.approx(60, abs=1)
    line = next(s for s in check.lines() if s.startswith("compression:"))
    assert f"about quality {check.jpeg_quality};" in line and f"from quality {GOOD_JPEG_QUALITY}" in line
    assert json.loads(json.dumps(check.to_json()))["jpeg_quality"] == check.jpeg_quality

    def misread(frame, corners):
        """A reader that reads every area's first card as the 2 of clubs."""
        got = reader()(frame, corners)
        wrong = {seat: dataclasses.replace(r, cards=["2c", *r.cards[1:]]) for seat, r in got.seats.items()}
        return dataclasses.replace(got, seats=wrong)

    wrong = check_camera([image], calib, misread, ROW)
    remedies = [p.remedy for a in wrong.areas for p in a.problems if p.reason.startswith("the test row")]
    assert len(remedies) == 4
    expected = f"JPEG quality to {GOOD_JPEG_QUALITY} or more in its settings (now about {check.jpeg_quality})"
    assert all(expected in r for r in remedies)

    fine_image, fine_calib = shot(GOOD)  # the camera at quality 90
    fine = check_camera([fine_image], fine_calib, misread, ROW)
    assert fine.jpeg_quality == pytest.approx(LOOK.jpeg, abs=1)
    assert not any("JPEG" in p.remedy for a in fine.areas for p in a.problems)
    assert next(s for s in fine.lines() if s.startswith("compression:")).endswith(f"quality {fine.jpeg_quality}")
