"""Rendered frames of the registered deck: training data for adapting the locator (and the classifier).

The synthetic crops (``crops``) teach the classifier the deck's indices, but the locator, which finds the
index anchors in a play-area strip, only ever saw the training designs: on an unseen font it answers
weakly and misses about one anchor in twenty. Here the 54 faces cut from the registration photos are
installed as a renderer design (like ``referee_station.render.drawn`` does for the test design) and drawn into
random table scenes with the generic training looks, and ``referee_station.render.dataset.generate`` cuts those frames
into locator strips (anchors, card and occluder masks), index crops and context crops exactly as it does
for the generic training. The backs come from a training design: registration photographs faces only, and a
back carries no index for either network to learn.
"""

from __future__ import annotations

import hashlib
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from referee_station.deck.crops import CODES
from referee_station.render.artwork import CACHE_DIR, CARD_PX, install_design, load_design
from referee_station.render.dataset import CROP_MARGIN, generate
from referee_station.vision.geometry import INDEX_CROP
from referee_station.vision.strips import CROP_H, CROP_W

SMALL_FRAMES = 0.36
"""The share of 720p cameras among the rendered scenes: the generic classifiers' own share (3,600 scenes
at ``referee_station.render.scene.SMALL_FRAMES`` 0.2 and 900 more all 720p: 1,620 of 4,500,
``referee_station/models/MODEL_CARD.md``), so the fine-tuning sees the deck's 4–5 px indices as often as the generic
training saw the others'."""

LARGE_FRAMES = 0.14
"""The share of 4K cameras among the rendered scenes, taken from the 1080p ones: a deck whose suit mark is
too small for 1080p is read at 4K (``check-camera`` says so), and networks that never saw its detail
read a 4K frame little better than a 1080p one (docs/deck.md)."""

BACK_DESIGN = "anglo"
"""The training design whose back the registered deck's face-down cards get."""


def _back() -> np.ndarray:
    """A card back (BGRA at ``CARD_PX``): the training design's, or plain blue when its artwork is absent."""
    try:
        return load_design(BACK_DESIGN).back
    except OSError:  # FileNotFoundError: the artwork or rsvg-convert is not installed
        back = np.zeros((CARD_PX[1], CARD_PX[0], 4), np.uint8)
        back[:] = (150, 60, 30, 255)
        return back


def install_faces(faces: dict[str, np.ndarray], cache_dir: Path = CACHE_DIR) -> str:
    """Write the deck's faces where ``load_design`` finds designs, under a name taken from their pixels
    (the same photos give the same design, another deck never overwrites it); return that name."""
    missing = [code for code in CODES if code not in faces]
    if missing:
        raise ValueError(f"cannot install a deck without faces for {' '.join(missing)}")
    digest = hashlib.sha256(b"".join(np.ascontiguousarray(faces[code]).tobytes() for code in CODES))
    name = f"registered_{digest.hexdigest()[:12]}"
    if (cache_dir / name).exists():
        return name
    return install_design(name, {code: faces[code] for code in CODES}, _back(), cache_dir)


def rendered_data(
    faces: dict[str, np.ndarray], frames: int, seed: int, jobs: int = 1, index_width: float = INDEX_CROP[0]
) -> dict[str, np.ndarray]:
    """Locator strips, index crops ``index_width`` cm wide and context crops (``referee_station.render.dataset``
    format) of ``frames`` scenes of this deck, rendered by ``jobs`` processes (rendering is most of
    registration's time after the fine-tuning)."""
    if frames < 1:
        raise ValueError(f"rendered frames must be at least 1, got {frames}")
    design = install_faces(faces)
    jobs = max(1, min(jobs, frames))
    sizes = [frames // jobs + (i < frames % jobs) for i in range(jobs)]
    if jobs == 1:
        return generate(frames, seed, False, (design,), SMALL_FRAMES, index_width, LARGE_FRAMES)
    with ProcessPoolExecutor(jobs) as pool:
        seeds = [seed * 1000 + i for i in range(jobs)]
        same = [[value] * jobs for value in (False, (design,), SMALL_FRAMES, index_width, LARGE_FRAMES)]
        parts = list(pool.map(generate, sizes, seeds, *same))
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def jittered_crops(crops: np.ndarray, seed: int) -> np.ndarray:
    """Classifier-size crops cut from ``referee_station.render.dataset``'s margined crops, shifted by up to the margin:
    the locator's anchor error, as the generic training applies it."""
    rng = random.Random(seed)
    out = np.empty((len(crops), CROP_H, CROP_W, 3), np.uint8)
    for i, crop in enumerate(crops):
        dy, dx = rng.randint(0, 2 * CROP_MARGIN), rng.randint(0, 2 * CROP_MARGIN)
        out[i] = crop[dy : dy + CROP_H, dx : dx + CROP_W]
    return out
