"""Issue 25 item 9: what ``read-frame`` and ``calibrate`` are given stays inside its folder, and an
image or corners they cannot use are exit 2 with the reason, not an empty reading with exit 0."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee_station.cli import main
from referee_station.vision.calibrate import TABLES_DIR, CalibrationError, calibration_path
from referee_station.vision.capture import CaptureError, read_image

CORNERS = "410,690;1000,690;960,90;450,90"


@pytest.fixture
def frame_jpeg(tmp_path: Path) -> Path:
    rng = np.random.default_rng(25)
    path = tmp_path / "frames" / "f.jpg"
    path.parent.mkdir()
    cv2.imwrite(str(path), rng.integers(0, 255, (720, 1280, 3), dtype=np.uint8))
    return path


def manifest(folder: Path, image: str) -> Path:
    path = folder / "manifest.jsonl"
    corners = [[float(v) for v in p.split(",")] for p in CORNERS.split(";")]
    path.write_text(json.dumps({"image": image, "corners": corners}) + "\n")
    return path


@pytest.mark.parametrize(
    "image, error",
    [
        ("../outside.jpg", "must be a path inside"),
        ("/etc/hostname", "must be a path inside"),
        ("link.jpg", "leads outside"),
    ],
)
def test_a_manifest_cannot_read_images_outside_its_folder(
    tmp_path: Path, frame_jpeg: Path, capsys: pytest.CaptureFixture[str], image: str, error: str
) -> None:
    (tmp_path / "outside.jpg").write_bytes(frame_jpeg.read_bytes())
    (frame_jpeg.parent / "link.jpg").symlink_to(tmp_path / "outside.jpg")
    assert main(["read-frame", "--manifest", str(manifest(frame_jpeg.parent, image))]) == 2
    out, err = capsys.readouterr()
    assert out == "" and error in err and "manifest.jsonl:1" in err


def test_a_truncated_jpeg_is_an_error(tmp_path: Path, frame_jpeg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = frame_jpeg.read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(CaptureError, match="truncated JPEG"):
        read_image(cut)
    assert read_image(frame_jpeg).shape == (720, 1280, 3)
    assert main(["read-frame", str(cut), "--corners", CORNERS]) == 2
    assert "truncated JPEG" in capsys.readouterr().err


def test_corners_outside_the_image_are_an_error(frame_jpeg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    far = "5000,5690;5600,5690;5560,5090;5050,5090"
    assert main(["read-frame", str(frame_jpeg), "--corners", far]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "100 % outside the 1280x720 image" in err


@pytest.mark.parametrize("table", ["../../../tmp/x", "/tmp/x", "a/b", "..", "cloth", "markers", "", "T" * 65])
def test_calibrate_writes_only_inside_the_calibration_folder(
    tmp_path: Path, frame_jpeg: Path, capsys: pytest.CaptureFixture[str], table: str, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the station's working folder, where calibration/ holds its tables
    TABLES_DIR.mkdir()
    (TABLES_DIR / "T1.json").write_text("{}")
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(CalibrationError, match="cannot name a calibration file"):
        calibration_path(table)
    corners = CORNERS.replace(";", " ")
    assert main(["calibrate", "--image", str(frame_jpeg), "--table", table, "--corners", corners]) == 2
    assert "cannot name a calibration file" in capsys.readouterr().err
    assert sorted(tmp_path.rglob("*")) == before


def test_calibrate_refuses_corners_outside_the_image(frame_jpeg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    far = "5000,5690 5600,5690 5560,5090 5050,5090"
    out = frame_jpeg.parent / "calib.json"
    assert main(["calibrate", "--image", str(frame_jpeg), "--corners", far, "-o", str(out)]) == 2
    assert "outside the 1280x720 image" in capsys.readouterr().err and not out.exists()
