"""The training data's chunks: which ``referee_station.render.dataset`` runs make up a training set, and that they
run."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from referee_station.render.dataset import CHUNK_FRAMES, CROP_MARGIN, NONE, generate, plan_chunks, render_data
from referee_station.vision.strips import CROP_H, CROP_W


def test_chunks_keep_their_seeds_when_the_training_set_grows() -> None:
    """Chunk k is seeded k whatever the total, so rendering more frames adds chunks and keeps the ones
    on disk (the 1,800-frame set of the first models is the first two chunks of the 3,600-frame one)."""
    small = plan_chunks(2 * CHUNK_FRAMES, 0, 150)
    big = plan_chunks(4 * CHUNK_FRAMES + 100, CHUNK_FRAMES, 150)
    assert [(c.name, c.frames, c.seed) for c in small[:2]] == [("train_1.npz", 900, 1), ("train_2.npz", 900, 2)]
    assert big[:2] == small[:2]
    assert [(c.name, c.frames) for c in big[2:5]] == [("train_3.npz", 900), ("train_4.npz", 900), ("train_5.npz", 100)]
    small_frames = [c for c in big if c.name.startswith("train_720")]
    assert [(c.frames, c.seed) for c in small_frames] == [(450, 21), (450, 22)]
    assert all(c.extra == ("--small-frames", "1.0") for c in small_frames)
    assert big[-1].name == "val_1.npz" and "--heldout" in big[-1].extra
    assert {c.seed for c in big} == {1, 2, 3, 4, 5, 21, 22, 1000}


def test_render_data_renders_each_missing_chunk_once(tmp_path: Path) -> None:
    render_data(tmp_path, frames=2, small_frames=1, val_frames=1, jobs=2)
    names = sorted(p.name for p in tmp_path.glob("*.npz"))
    assert names == ["train_1.npz", "train_720_1.npz", "val_1.npz"]
    assert len(np.load(tmp_path / "train_1.npz")["loc_n"]) == 2 * 4  # four seats' strips per frame
    before = (tmp_path / "val_1.npz").stat().st_mtime_ns
    render_data(tmp_path, frames=2, small_frames=1, val_frames=1, jobs=2)
    assert (tmp_path / "val_1.npz").stat().st_mtime_ns == before


def test_context_crops_hold_the_same_index_at_half_scale() -> None:
    """``ctx_crops`` pairs each index crop with its context crop: the card's index, seen at the locator's
    10 px/cm, sits 2 mm from the context crop's left and top edges
    (``referee_station.vision.geometry.CONTEXT_OFFSET``)."""
    data = generate(3, seed=5, heldout=False)
    assert data["ctx_crops"].shape == data["crops"].shape
    m = CROP_MARGIN
    cards = np.flatnonzero(data["labels"] != NONE)
    assert len(cards) > 5
    diffs = []
    for k in cards:
        index = cv2.resize(data["crops"][k, m:-m, m:-m], (CROP_W // 2, CROP_H // 2), interpolation=cv2.INTER_AREA)
        inside = data["ctx_crops"][k, m + 2 : m + 2 + CROP_H // 2, m + 2 : m + 2 + CROP_W // 2]
        diffs.append(np.abs(index.astype(np.float32) - inside).mean())
    assert np.median(diffs) < 12, diffs
