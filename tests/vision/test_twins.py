"""The twin bound of ``benchmarks.twins``: the most any reader can get right of a deck at a camera."""

from __future__ import annotations

import random

import numpy as np

from benchmarks.twins import card_mask, miss_chance, nearer, twin, twins, with_twin
from referee_station.deck.rendered import install_faces
from referee_station.render.artwork import load_design
from referee_station.render.drawn_sans import install_sans_design
from referee_station.render.render import expose, render, sensor
from referee_station.render.scene import LARGE_SIZE, Camera, Look, Scene, SeatScene, random_row, row_step
from referee_station.rules.cards import DECK


def test_every_card_has_one_twin_of_its_rank_and_colour():
    for card in DECK:
        other = twin(card.code)
        assert other != card.code and twin(other) == card.code
        if card.code not in ("SJ", "BJ"):
            assert other[0] == card.code[0] and (other[1] in "hd") == (card.code[1] in "hd")


def test_the_miss_chance_is_the_normal_tail_at_half_the_distance_over_the_noise():
    light = np.zeros((4, 4, 3), np.float32)
    other = light.copy()
    other[0, 0, 0] = 12.0  # d = 12: four noise deviations of 3 apart, the observer errs past two
    where = np.ones((4, 4), bool)
    assert abs(miss_chance(light, other, where, 3.0) - 0.02275) < 1e-4
    assert miss_chance(light, light, where, 3.0) == 0.5  # nothing to tell them by: a coin
    assert miss_chance(light, other, ~where, 3.0) == 0.5  # the difference lies outside the card


def test_the_frame_observer_takes_the_nearer_of_the_two_where_they_differ():
    expected = np.zeros((4, 4, 3), np.float32)
    other = expected.copy()
    other[1:3, 1:3] = 30.0
    where = np.ones((4, 4), bool)
    assert nearer(expected + 12.0, expected, other, where)
    assert not nearer(expected + 18.0, expected, other, where)
    assert not nearer(expected, expected, expected, where)  # nothing tells them apart


def court_row(size: tuple[int, int], noise: float = 4.0) -> Scene:
    """South plays three kings of the `sans` deck: the first two lie under the next king, the suit of
    the last shows in its whole face."""
    design = install_sans_design()
    play = random_row(random.Random(3), ["Kh", "Ks", "Kc"], row_step(design))
    camera = Camera(size=size, span_px=900 * size[1] / 1080)
    return Scene(design, {"S": SeatScene(play=play)}, camera, Look(blur=0.8, noise=noise, jpeg=90, glare=0, seed=5))


def test_the_nearer_light_errs_as_often_as_the_miss_chance_says():
    scene = court_row((1280, 720), noise=40.0)
    seen, swapped = expose(scene), expose(with_twin(scene, "S", 1)).light
    where = card_mask(seen.light.shape, seen.corners, seen.truth["S"].card_quads[1])
    a, b = seen.light[where], swapped[where]
    rng = np.random.default_rng(0)
    draws = a + rng.normal(0.0, 40.0, (4000, *a.shape)).astype(np.float32)
    wrong = ((draws - b) ** 2).sum((1, 2)) < ((draws - a) ** 2).sum((1, 2))
    expected = miss_chance(seen.light, swapped, where, 40.0)
    assert 0.02 < expected < 0.4
    assert abs(wrong.mean() - expected) < 0.02


def test_the_camera_frame_is_the_light_on_its_sensor_after_noise_and_jpeg():
    scene = court_row((1280, 720))
    assert np.array_equal(sensor(expose(scene).light, scene.look), render(scene).image)


def test_a_4k_camera_leaves_a_king_under_the_next_card_far_less_doubt_than_a_720p_one():
    height, sharp = twins(court_row(LARGE_SIZE))
    _, small = twins(court_row((1280, 720)))
    assert height == LARGE_SIZE[1] and [t.code for t in sharp["S"]] == ["Kh", "Ks", "Kc"]
    assert max(t.chance for t in sharp["S"]) < 1e-6 and all(t.told for t in sharp["S"])
    assert all(s.chance <= t.chance for s, t in zip(sharp["S"], small["S"], strict=True))
    assert small["S"][1].chance > 100 * sharp["S"][1].chance


def test_the_frame_observer_tells_the_twins_by_the_faces_it_expects():
    """Expecting the printed faces, the observer of a 1080p frame tells each king from its twin; expecting
    faces installed under their twins' codes, it takes each king for its twin. The bound stays the
    printed faces' either way: it is what the frame holds, not what a reader expects."""
    scene = court_row((1920, 1080))
    printed = load_design(scene.design).faces
    crossed = install_faces({twin(code): face for code, face in printed.items()})
    _, right = twins(scene)
    _, wrong = twins(scene, expect=crossed)
    assert [t.code for t in wrong["S"]] == ["Kh", "Ks", "Kc"]
    assert all(t.told for t in right["S"]) and not any(t.told for t in wrong["S"])
    assert [t.chance for t in wrong["S"]] == [t.chance for t in right["S"]]
