"""The renderer: deterministic, corners where the cloth is, truth consistent with the scene."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from referee_station.render.artwork import HELDOUT_DESIGNS, TRAIN_DESIGNS
from referee_station.render.drawn import install_drawn_design
from referee_station.render.drawn_sans import FONT, install_sans_design
from referee_station.render.render import render
from referee_station.render.scene import (
    LARGE_SIZE,
    MIN_STEP,
    Camera,
    Look,
    PlacedCard,
    Scene,
    SeatScene,
    random_scene,
    row_step,
)
from referee_station.vision.geometry import DRAW_ORDER
from tests.vision.scenes import PLAYS, scene


def test_render_is_deterministic_and_truthful() -> None:
    a, b = render(scene(0)), render(scene(0))
    assert np.array_equal(a.image, b.image)
    assert a.image.shape == (1080, 1920, 3)
    assert np.all((a.corners >= 0) & (a.corners <= [1920, 1080]))
    for seat in DRAW_ORDER:
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


@pytest.mark.skipif(not FONT.exists(), reason="fonts-wqy-microhei (scripts/setup.sh)")
def test_a_deck_whose_suit_stands_beside_its_rank_is_laid_with_its_whole_index_showing() -> None:
    """CLOTH.md lays a row so that every card's left index shows: the sans deck's suit mark ends 2.0–2.06 cm
    from the card's edge, so its rows step past its index; a rank over its suit keeps the 2 cm step."""
    sans, drawn = install_sans_design(), install_drawn_design()
    for design in (*TRAIN_DESIGNS, *HELDOUT_DESIGNS, drawn):  # the stored training chunks' scenes stay as drawn
        assert row_step(design) == MIN_STEP, design
    assert row_step(sans) >= 2.1

    def gaps(design: str) -> np.ndarray:
        rng = random.Random(7)
        rows = [seat.play for _ in range(30) for seat in random_scene(rng, design).seats.values()]
        return np.array([b.x - a.x for row in rows for a, b in itertools.pairwise(row)])

    assert np.quantile(gaps(sans), 0.02) > 2.0  # the laid step is jittered by 0.1 cm a card
    assert np.quantile(gaps("anglo"), 0.02) < 2.0


def test_small_frames_sets_the_share_of_720p_cameras_and_leaves_the_default_draws_alone() -> None:
    """Training renders extra chunks of 720p frames only (``referee_station.training.train``); the default share must
    keep drawing the very scenes it drew before, or the stored chunks and benchmarks would change under us."""
    sizes = [random_scene(random.Random(i), "anglo").camera.size[1] for i in range(200)]
    assert 0.1 < sizes.count(720) / len(sizes) < 0.3
    # the draws of commit a1e9a61, before the share was a parameter
    assert sizes[:12] == [720, 1080, 1080, 720, 1080, 720, 1080, 1080, 1080, 720, 1080, 720]
    assert {random_scene(random.Random(i), "anglo", small_frames=1.0).camera.size for i in range(20)} == {(1280, 720)}
    assert {random_scene(random.Random(i), "anglo", small_frames=0.0).camera.size for i in range(20)} == {(1920, 1080)}
    same = random_scene(random.Random(3), "anglo", small_frames=1.0)
    assert same.seats == random_scene(random.Random(3), "anglo").seats


def test_large_frames_take_4k_cameras_from_the_1080p_share_and_change_nothing_else() -> None:
    """Registration renders a share of 4K scenes (``referee_station.deck.rendered.LARGE_FRAMES``): taken
    from the same draw, so every scene not turned 4K is the very scene the seed drew before."""
    default = [random_scene(random.Random(i), "anglo") for i in range(200)]
    large = [random_scene(random.Random(i), "anglo", large_frames=0.3) for i in range(200)]
    turned = [b for a, b in zip(default, large, strict=True) if a != b]
    assert 0.2 < len(turned) / len(large) < 0.4
    assert {b.camera.size for b in turned} == {LARGE_SIZE}
    for a, b in zip(default, large, strict=True):
        if b.camera.size == LARGE_SIZE:
            assert a.camera.size == (1920, 1080) and a.seats == b.seats
            assert b.camera.span_px == a.camera.span_px * 2  # the cloth spans twice the pixels
    shot = render(large[large.index(turned[0])])
    assert shot.image.shape == (2160, 3840, 3)
    assert np.all((shot.corners >= 0) & (shot.corners <= [3840, 2160]))


def test_cards_behind_the_screen_are_occluded_in_the_truth() -> None:
    """The 60 cm screen stands on the SW–NE diagonal, next to the corner of South's play area (CLOTH.md).
    A camera 90 cm up and a little to the North-West sees its top far out over South's side: the index of
    South's leftmost card is behind it, so the truth must not ask the reader for that play (the benchmark
    counted such plays as readable). From 150 cm above the centre the same play is in view."""
    play = tuple(PlacedCard(c, -11.5 + 2.5 * i, -20.5) for i, c in enumerate(["5s", "5h", "5d"]))
    low = render(Scene("anglo", {"S": SeatScene(play)}, Camera(height=90, offset=(-4, 4)), Look()))
    high = render(Scene("anglo", {"S": SeatScene(play)}, Camera(height=150), Look()))
    assert low.truth["S"].status == "occluded"
    assert low.truth["S"].occluders == ()  # the locator is not taught to call the fixed screen an arm
    assert high.truth["S"].status == "cards"
