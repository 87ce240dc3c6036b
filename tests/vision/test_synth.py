"""The renderer: deterministic, corners where the cloth is, truth consistent with the scene."""

from __future__ import annotations

import itertools
import random

import numpy as np

from tests.vision.scenes import PLAYS, scene
from vision.geometry import SEATS
from vision.synth.render import render
from vision.synth.scene import random_scene


def test_render_is_deterministic_and_truthful() -> None:
    a, b = render(scene(0)), render(scene(0))
    assert np.array_equal(a.image, b.image)
    assert a.image.shape == (1080, 1920, 3)
    assert np.all((a.corners >= 0) & (a.corners <= [1920, 1080]))
    for seat in SEATS:
        assert list(a.truth[seat].cards) == PLAYS[0][seat]
        assert a.truth[seat].status == ("cards" if PLAYS[0][seat] else "empty")


def test_random_scenes_are_plausible() -> None:
    rng = random.Random(5)
    for _ in range(20):
        s = random_scene(rng, "anglo")
        for seat in s.seats.values():
            assert len(seat.play) <= 10
            xs = [c.x for c in seat.play]
            assert xs == sorted(xs)
            assert all(b - a >= 1.6 for a, b in itertools.pairwise(xs))
