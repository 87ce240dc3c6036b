"""The camera's compression (#24): the JPEG quality a decoded frame was saved at, found from its 8 × 8 blocks'
quantised coefficients, and ``check-camera`` reporting it. A rendered table frame stands in for the camera's."""

from __future__ import annotations

import dataclasses
import io
import json

import cv2
import numpy as np
import pytest
from PIL import Image

from referee_station.render.render import expose
from referee_station.vision.camera_check import GOOD_JPEG_QUALITY, check_camera
from referee_station.vision.compression import ijg_table, jpeg_quality
from tests.vision.test_camera_check import GOOD, LOOK, ROW, reader, row_scene, shot


@pytest.fixture(scope="module")
def uncompressed() -> np.ndarray:
    """A 1080p table frame as the light reaches the sensor, with the sensor's noise, never compressed."""
    light = expose(row_scene(GOOD)).light
    noise = np.random.default_rng(7).normal(0.0, 2.5, light.shape)
    return np.clip(light + noise, 0, 255).astype(np.uint8)


def jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@pytest.mark.parametrize("quality", [25, 55, 62, 74, 75, 85, 96])
def test_the_quality_a_frame_was_compressed_at_is_found(uncompressed, quality):
    assert jpeg_quality(jpeg(uncompressed, quality)) == quality


def test_a_frame_never_compressed_nearly_lossless_or_resized_after_decoding_shows_none(uncompressed):
    assert jpeg_quality(uncompressed) is None
    assert jpeg_quality(jpeg(uncompressed, 98)) is None
    for factor in (0.5, 0.9, 2.0):
        resized = cv2.resize(jpeg(uncompressed, 60), None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        assert jpeg_quality(resized) is None, factor


def test_a_frame_compressed_twice_shows_the_harsher_compression(uncompressed):
    """A still saved from a camera's frame tells the camera's compression where the camera's was harsher."""
    assert jpeg_quality(jpeg(jpeg(uncompressed, 60), 92)) == 60
    assert jpeg_quality(jpeg(jpeg(uncompressed, 92), 60)) == 60


def test_an_encoder_with_tables_of_its_own_is_named_by_the_standard_quality_nearest_them(uncompressed):
    """Step 6 at every frequency: the standard tables have 6 at their lowest frequencies at quality 73–75 and
    finer steps only from about 80; the estimate lies between, not at the gentle end."""
    data = io.BytesIO()
    Image.fromarray(uncompressed[..., ::-1]).save(data, "JPEG", qtables=[[6] * 64, [6] * 64])
    own = cv2.imdecode(np.frombuffer(data.getvalue(), np.uint8), cv2.IMREAD_COLOR)
    assert 73 <= jpeg_quality(own) <= 90


def test_the_standard_tables_are_libjpegs():
    """Every quality's luminance table as libjpeg writes it into the file (read back by Pillow)."""
    for quality in range(1, 101):
        data = cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
        written = Image.open(io.BytesIO(data.tobytes())).quantization[0]
        assert ijg_table(quality).ravel().tolist() == list(written), quality


def test_check_camera_reports_the_cameras_compression_and_names_it_where_a_row_reads_wrong():
    hard = dataclasses.replace(LOOK, jpeg=GOOD_JPEG_QUALITY - 15)
    image, calib = shot(GOOD, hard)
    check = check_camera([image, image], calib)
    assert check.jpeg_quality == hard.jpeg
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
    assert fine.jpeg_quality == LOOK.jpeg > GOOD_JPEG_QUALITY
    assert not any("JPEG" in p.remedy for a in fine.areas for p in a.problems)
    assert next(s for s in fine.lines() if s.startswith("compression:")).endswith(f"quality {fine.jpeg_quality}")
