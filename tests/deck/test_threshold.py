"""The mismatch threshold, calibrated on frames read by the profile's reader."""

from __future__ import annotations

import pytest

from referee_station.deck.profile import reader_for
from referee_station.deck.threshold import FALLBACK_MARGIN, Calibration, calibrate, read_frames


def test_threshold_lies_between_the_deck_and_another_design(models, drawn_design):
    """The generic reader plays the profile: a training design is "its deck", the drawn design another."""
    reader = reader_for(None)
    own = read_frames(reader, "anglo", 3, 4, "calibration")
    calibration = calibrate(reader, own, ("no_such_design", drawn_design), frames=3, seed=5)
    assert calibration.other is not None  # the missing design is left out, the drawn one measured
    assert calibration.own > calibration.other + 0.1
    assert calibration.other < calibration.mismatch_below < calibration.own


def test_without_another_design_the_threshold_falls_back_to_a_margin():
    assert Calibration(0.8, None).mismatch_below == pytest.approx(0.8 - FALLBACK_MARGIN)
    assert Calibration(0.8, 0.4).mismatch_below == pytest.approx(0.6)


def test_calibration_needs_frames(models):
    with pytest.raises(ValueError, match="at least 1, got 0"):
        read_frames(reader_for(None), "anglo", 0, 0, "calibration")


@pytest.mark.parametrize("heldout", [True, False])
def test_both_sides_of_the_threshold_are_read_in_the_same_looks(models, drawn_design, monkeypatch, heldout):
    """Registration reads its deck's frames in the held-out looks (``HELDOUT_LOOKS``, where a profile reads
    its own cut faces no better than cards); the other designs' frames must be in the same looks, or the
    threshold would sit between two lights instead of two decks."""
    from referee_station.deck import threshold

    backgrounds: list[str] = []

    def spy(*args, **kwargs):
        scene = random_scene(*args, **kwargs)
        backgrounds.append(scene.look.background)
        return scene

    random_scene = threshold.random_scene
    monkeypatch.setattr(threshold, "random_scene", spy)
    reader = reader_for(None)
    own = read_frames(reader, "anglo", 1, 4, "detail", heldout_look=heldout)
    calibrate(reader, own, (drawn_design,), frames=1, seed=5, heldout_look=heldout)
    assert backgrounds == ["planks" if heldout else "blobs"] * 2  # the renderer's held-out or training looks


def test_frames_read_two_at_a_time_are_the_frames_read_one_at_a_time(models):
    """Registration renders and reads its frames on two threads (``READ_THREADS``): the readings, the
    truth and the detail come out the same and in the same order as on one."""
    reader = reader_for(None)
    one = read_frames(reader, "anglo", 4, 9, "detail", 0.5, threads=1)
    two = read_frames(reader, "anglo", 4, 9, "detail", 0.5, threads=2)
    assert [f.reading.seats for f in one] == [f.reading.seats for f in two]
    assert [(f.px_per_cm, f.height) for f in one] == [(f.px_per_cm, f.height) for f in two]
    cards = [[(seat, t.status, t.cards) for seat, t in f.truth.items()] for f in one]
    assert cards == [[(seat, t.status, t.cards) for seat, t in f.truth.items()] for f in two]


def test_frames_are_read_by_at_least_one_thread(models):
    with pytest.raises(ValueError, match="at least 1 thread, got 0"):
        read_frames(reader_for(None), "anglo", 1, 0, "detail", threads=0)
