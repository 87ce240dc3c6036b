"""The registered faces as a renderer design, and the strips and crops rendered from it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from referee_station.deck.crops import CODES
from referee_station.deck.rendered import SMALL_FRAMES, install_faces, jittered_crops, rendered_data
from referee_station.render import scene
from referee_station.render.artwork import load_design
from referee_station.render.dataset import CROP_MARGIN, MAX_CARDS, NONE
from referee_station.render.drawn import draw_face
from referee_station.vision.reader import MODELS_DIR
from referee_station.vision.strips import CROP_H, CROP_W, LOC_H, LOC_W


@pytest.fixture(scope="module")
def faces() -> dict[str, np.ndarray]:
    return {code: draw_face(code) for code in CODES}


def test_installed_faces_are_the_registered_ones(faces):
    name = install_faces(faces)
    assert install_faces(faces) == name  # the same photos: the same design
    other = dict(faces, As=faces["Ks"])
    assert install_faces(other) != name  # another deck never overwrites it
    design = load_design(name)
    assert all(np.array_equal(design.faces[code], faces[code]) for code in ("2s", "As", "SJ", "BJ"))
    assert design.back.shape == faces["2s"].shape


def test_a_deck_with_missing_faces_is_refused(faces):
    with pytest.raises(ValueError, match="faces for SJ BJ"):
        install_faces({code: face for code, face in faces.items() if code not in ("SJ", "BJ")})


@pytest.mark.parametrize("jobs", [1, 2])
def test_rendered_strips_and_crops(faces, jobs):
    data = rendered_data(faces, 2, seed=3, jobs=jobs)
    assert data["loc_x"].shape == (8, LOC_H, LOC_W, 3)  # four seats a frame
    assert data["loc_anchor"].shape == (8, MAX_CARDS, 2) and data["loc_n"].sum() > 0
    cards = data["labels"] != NONE
    assert cards.sum() > 0 and (~cards).sum() > 0  # the deck's indices and not-an-index crops
    assert data["crops"].shape[1:] == (CROP_H + 2 * CROP_MARGIN, CROP_W + 2 * CROP_MARGIN, 3)


def test_rendered_frames_must_be_positive(faces):
    with pytest.raises(ValueError, match="at least 1, got 0"):
        rendered_data(faces, 0, seed=3)


def test_jittered_crops_are_windows_of_the_margined_crops():
    margined = np.random.default_rng(0).integers(0, 255, (20, CROP_H + 2 * CROP_MARGIN, CROP_W + 2 * CROP_MARGIN, 3))
    out = jittered_crops(margined.astype(np.uint8), seed=1)
    assert out.shape == (20, CROP_H, CROP_W, 3)
    offsets = set()
    for crop, big in zip(out, margined, strict=True):
        found = [
            (dy, dx)
            for dy in range(2 * CROP_MARGIN + 1)
            for dx in range(2 * CROP_MARGIN + 1)
            if np.array_equal(big[dy : dy + CROP_H, dx : dx + CROP_W], crop)
        ]
        assert len(found) == 1
        offsets.add(found[0])
    assert len(offsets) > 5  # shifted, not all cut at one place


@pytest.mark.parametrize("member", ["classifier_2", "classifier_3", "classifier_context"])
def test_registration_renders_as_many_720p_scenes_as_the_generic_training_saw(member):
    """The fine-tuning should meet the deck's 4–5 px indices as often as the shipped members met the
    training designs' (their data: scenes at the renderer's 720p share plus scenes all 720p)."""
    data = json.loads((MODELS_DIR / "metrics.json").read_text())[member]["data"]
    scenes, small = data["train_frames"], data["train_720_frames"]
    assert small > 0
    share = ((scenes - small) * scene.SMALL_FRAMES + small) / scenes
    assert share == pytest.approx(SMALL_FRAMES, abs=0.01)
