"""The station console's setup step checks the camera (#24): the referee types the test row, presses the
button, and reads the verdict per area; the check runs over the station's own source options."""

from __future__ import annotations

import argparse

import cv2
from PySide6.QtCore import Qt

from referee_station.console.qt.setup_dialog import SetupDialog
from referee_station.station.camera_step import check_from_args
from tests.vision.test_camera_check import FAR, GOOD, ROW, shot


def station_args(tmp_path, camera) -> argparse.Namespace:
    """``station``'s options over a folder holding one rendered frame of the test row, and its calibration."""
    image, calib = shot(camera)
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), image)
    calib.save(tmp_path / "T1.json")
    return argparse.Namespace(
        camera=None, video=None, frames=str(folder), fps=5.0, resolution=None, table="T1",
        calibration=str(tmp_path / "T1.json"), models=None, deck=None, shots=1,
    )  # fmt: skip


def test_the_setup_dialog_checks_the_camera_with_the_test_row(qtbot, tmp_path):
    args = station_args(tmp_path, GOOD)
    dialog = SetupDialog("en", check_camera=lambda row: check_from_args(args, row).lines())
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.test_row, " ".join(ROW))
    qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
    report = dialog.check_report.toPlainText().splitlines()
    assert report[-1] == "verdict: ready for play"
    assert all(line.endswith("test row read 1/1: ok") for line in report[:4])
    dialog.test_row.setText("3s 4h 1x")
    dialog.run_camera_check()
    assert "1x" in dialog.check_report.toPlainText()  # a typo in the row is said, not a crash


def test_a_far_camera_says_so_in_the_setup_step(qtbot, tmp_path):
    args = station_args(tmp_path, FAR)
    dialog = SetupDialog("en", check_camera=lambda row: check_from_args(args, row).lines())
    qtbot.addWidget(dialog)
    dialog.run_camera_check()  # no test row: the measures alone
    text = dialog.check_report.toPlainText()
    assert "this deck needs 8: lower the camera or use 1080p" in text and "NOT ready" in text
