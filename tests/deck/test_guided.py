"""The guided capture state machine, fed by a fake card finder: the whole state after every frame."""

from __future__ import annotations

import json

import numpy as np
import pytest

from referee_station.deck.guided import ORDER, GuidedRegistration, GuidedStep
from referee_station.deck.photos import PhotoError

CORNERS = np.array([[0, 100], [100, 100], [100, 0], [0, 0]], float)
QUAD = np.array([[10, 10], [136, 10], [136, 186], [10, 186]], float)


def fake_find(frame, corners):
    """Frames are 1×1×3 arrays; the value is the card's x offset, or -1 for an empty table."""
    x = float(frame[0, 0, 0])
    if x < 0:
        raise PhotoError("no card")
    return "S", QUAD + np.array([x, 0.0])


def frame(x: float) -> np.ndarray:
    return np.full((1, 1, 3), x, np.float32)


def test_order_is_spades_hearts_clubs_diamonds_then_jokers():
    assert len(ORDER) == len(set(ORDER)) == 54
    assert ORDER[:2] == ("2s", "3s") and ORDER[12] == "As" and ORDER[13] == "2h" and ORDER[-2:] == ("SJ", "BJ")


def test_capture_needs_stable_frames_then_an_empty_table():
    g = GuidedRegistration(CORNERS, read=lambda f, c: ("2s", 0.9), find=fake_find, stable_frames=3)
    steps = [g.feed(frame(x)) for x in (-1, 0, 20, 20.5, 21)]
    assert [s.state for s in steps] == ["waiting", "settling", "settling", "settling", "captured"]
    assert steps[-1] == GuidedStep("captured", "3s", "S", "2s", 0.9, captured="2s")
    # the captured card still lies there: not taken again as 3s
    assert [g.feed(frame(21)).state for _ in range(5)] == ["waiting"] * 5
    assert list(g.photos) == ["2s"]
    assert g.feed(frame(-1)) == GuidedStep("waiting", "3s")
    assert [g.feed(frame(5)).state for _ in range(3)] == ["settling", "settling", "captured"]
    assert list(g.photos) == ["2s", "3s"] and g.expected == "4s"


def test_retake_asks_for_the_last_card_again():
    g = GuidedRegistration(CORNERS, find=fake_find, stable_frames=1)
    assert g.feed(frame(0)).captured == "2s"
    g.retake()
    assert g.expected == "2s"
    assert g.feed(frame(0)).captured == "2s"


def test_done_after_54_and_saved_for_register_deck(tmp_path):
    g = GuidedRegistration(CORNERS, find=fake_find, stable_frames=1)
    for _ in ORDER:
        assert g.feed(frame(0)).state == "captured"
        g.feed(frame(-1))
    assert g.feed(frame(0)) == GuidedStep("done", None)
    g.save(tmp_path)
    assert {p.stem for p in tmp_path.glob("*.jpg")} == set(ORDER)
    assert json.loads((tmp_path / "corners.json").read_text())["corners"] == CORNERS.tolist()


@pytest.mark.parametrize("moves, state", [((0, 0, 0), "captured"), ((0, 5, 10), "settling"), ((0, 0, 4), "settling")])
def test_a_moving_card_is_not_captured(moves, state):
    g = GuidedRegistration(CORNERS, find=fake_find, stable_frames=3, max_move=3.0)
    assert [g.feed(frame(x)).state for x in moves][-1] == state
