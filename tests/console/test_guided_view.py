"""The guided deck-registration view, offscreen: frames go through the worker thread to the Qt-free
guided model and back to the labels; first with the guided tests' fake card finder (all 54 cards, fast),
then with frames rendered by the synthetic camera, the real card finder and the shipped reader."""

from __future__ import annotations

import queue

import cv2
import numpy as np
import pytest

from referee_station.cli import main
from referee_station.console.qt.guided_view import GuidedView
from referee_station.deck.guided import ORDER, GuidedRegistration, read_with
from referee_station.render.drawn import install_drawn_design
from referee_station.render.render import render
from referee_station.render.scene import Camera, Look, PlacedCard, Scene, SeatScene
from referee_station.vision.reader import MODELS_DIR, CardReader
from tests.deck.test_guided import CORNERS, fake_find, frame


def fed_by_hand(pending: queue.SimpleQueue):
    """A camera the test controls: the frames it puts, until it puts None."""
    while (item := pending.get()) is not None:
        yield item


def test_the_view_asks_for_each_card_in_turn_and_ends_done(qtbot):
    pending: queue.SimpleQueue = queue.SimpleQueue()
    guided = GuidedRegistration(CORNERS, read=lambda f, c: ("2s", 0.9), find=fake_find, stable_frames=1)
    view = GuidedView(guided, fed_by_hand(pending))
    qtbot.addWidget(view)
    view.start()
    assert (view.ask.text(), view.progress.value()) == ("2♠", 0) and view.state_label.text().startswith("等待")

    pending.put(frame(0))
    qtbot.waitUntil(lambda: view.state == "captured", timeout=15_000)
    assert (view.ask.text(), view.state_label.text(), view.progress.value()) == ("3♠", "已采集", 1)
    assert (view.read.text(), view.captured.text()) == ("识别: 2♠ (90%)", "上一张: 2♠")
    assert view.progress.text() == "1/54"

    pending.put(frame(-1))  # the card taken away
    qtbot.waitUntil(lambda: view.state == "waiting", timeout=15_000)
    view.retake_button.click()  # the operator saw a wrong card taken: 2♠ again
    pending.put(frame(0))
    qtbot.waitUntil(lambda: view.state == "captured", timeout=15_000)
    assert (view.ask.text(), view.progress.value()) == ("3♠", 1)

    with qtbot.waitSignal(view.finished, timeout=10000):
        for _ in ORDER[1:]:
            pending.put(frame(-1))
            pending.put(frame(0))
        pending.put(frame(0))
    assert (view.ask.text(), view.state_label.text(), view.progress.value()) == ("✔", "完成，54 张已采集", 54)
    assert view.captured.text() == "上一张: 大王" and list(guided.photos) == list(ORDER)
    pending.put(None)


@pytest.fixture(scope="module")
def rendered() -> dict[str | None, np.ndarray]:
    """One calibrated camera's frames of 2♠ and of 3♠ alone in S's play area, and of the empty table."""
    design = install_drawn_design()
    camera = Camera(height=120, tilt=3, tilt_dir=40, roll=2, span_px=900)
    look = Look(cloth=(40, 70, 25), blur=0.5, noise=2.0, jpeg=92, glare=0, seed=7)
    frames = {}
    for code in ("2s", "3s", None):
        seats = {"S": SeatScene(play=(PlacedCard(code, 0.0, -24.0, 3.0),))} if code else {}
        shot = render(Scene(design, seats, camera, look))
        frames[code], corners = shot.image, shot.corners
    frames["corners"] = corners
    return frames


def test_rendered_frames_are_captured_and_read(qtbot, rendered):
    if not (MODELS_DIR / "classifier.onnx").exists():
        pytest.skip("the shipped card-reader models are not in referee_station/models/")
    guided = GuidedRegistration(rendered["corners"], read=read_with(CardReader.from_onnx()), stable_frames=2)
    still = [rendered["2s"], rendered["2s"], rendered[None], rendered["3s"], rendered["3s"], rendered["3s"]]
    view = GuidedView(guided, iter(still), lang="en")
    qtbot.addWidget(view)
    with qtbot.waitSignal(view.runner.ended, timeout=15000):
        view.start()
    assert list(guided.photos) == ["2s", "3s"]
    assert (view.ask.text(), view.progress.value(), view.captured.text()) == ("4♠", 2, "last captured: 3♠")
    assert view.state_label.text() == "waiting (lay the card, or take the last one away)"  # 3♠ still lies there
    assert view.read.text().startswith("read: ") and view.read.text().endswith("%)")
    assert not view.image.pixmap().isNull() and view.image.pixmap().width() > 100


def test_register_deck_guided_writes_nothing_when_the_frames_end_early(qtbot, rendered, tmp_path, capsys):
    if not (MODELS_DIR / "classifier.onnx").exists():
        pytest.skip("the shipped card-reader models are not in referee_station/models/")
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, code in enumerate(["2s"] * 5 + [None, "3s"]):  # 2♠ lies still for 5 frames (the default), then 3♠ once
        cv2.imwrite(str(frames / f"{i:02}.png"), rendered[code])
    corners = ";".join(f"{x},{y}" for x, y in rendered["corners"])
    photos = tmp_path / "photos"
    args = [str(photos), "-o", str(tmp_path / "deck.zip"), "--guided", "--frames", str(frames), "--corners", corners]
    assert main(["register-deck", *args]) == 2
    assert "stopped after 1 of 54 cards; nothing written" in capsys.readouterr().err
    assert not photos.exists() and not (tmp_path / "deck.zip").exists()


def test_register_deck_guided_names_a_bad_resolution(tmp_path, capsys):
    args = [str(tmp_path / "photos"), "-o", str(tmp_path / "deck.zip"), "--guided", "--camera", "0"]
    args += ["--corners", "410,990;1500,990;1460,90;450,90", "--resolution", "4k"]
    assert main(["register-deck", *args]) == 2
    assert "--resolution must be WIDTHxHEIGHT, e.g. 1920x1080, got '4k'" in capsys.readouterr().err
    assert not (tmp_path / "photos").exists()


def test_register_deck_guided_asks_the_camera_for_the_resolution(tmp_path, capsys, monkeypatch):
    """A face is no sharper than its photo: ``--resolution 3840x2160`` is what the camera is asked for."""
    from referee_station.vision import capture

    asked = []

    def no_camera(*args, resolution=None, **kwargs):
        asked.append(resolution)
        raise capture.CaptureError("no camera 0 here")

    monkeypatch.setattr(capture, "open_source", no_camera)
    args = [str(tmp_path / "photos"), "-o", str(tmp_path / "deck.zip"), "--guided", "--camera", "0"]
    args += ["--corners", "820,1980;3000,1980;2920,180;900,180", "--resolution", "3840x2160"]
    assert main(["register-deck", *args]) == 2
    assert asked == [(3840, 2160)]
    assert "no camera 0 here" in capsys.readouterr().err
