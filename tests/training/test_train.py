"""The training command's refusals, run as ``python -m referee_station.training.train`` by the Python with
torch (skipped where there is none), as the training itself is. Its parts are tested in this process in
``test_train_parts.py``.
"""

from __future__ import annotations

import subprocess

import numpy as np

from referee_station.deck.register import REPO


def test_a_further_member_refuses_to_train_only_the_locator(python, tmp_path):
    done = subprocess.run(
        [python, "-m", "referee_station.training.train", "--member", "3", "--only", "locator", "--data", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "--member 3 trains a classifier" in done.stderr


def test_the_context_classifier_refuses_chunks_without_context_crops(python, tmp_path):
    """Chunks rendered before ``referee_station.render.dataset`` cut context crops cannot train the context classifier:
    the command names the folder instead of training on index crops."""
    for name in ("train_1.npz", "val_1.npz"):
        np.savez(
            tmp_path / name, loc_n=np.zeros(4, np.int16), labels=np.zeros(2, np.int16), crops=np.zeros((2, 72, 40, 3))
        )
    args = ["--context", "--data", str(tmp_path), "--frames", "1", "--val-frames", "1"]
    done = subprocess.run(
        [python, "-m", "referee_station.training.train", *args], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert f"{tmp_path}: chunks without context crops" in done.stderr
