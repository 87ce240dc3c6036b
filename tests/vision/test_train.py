"""The training command's parts that need no training run: the 720p degradation and the stretching of
classifier batches, validation batches, where ``--member N`` writes and resumes from, and the arguments it refuses.

They run in the Python with torch (skipped where there is none), as the training itself does.
"""

from __future__ import annotations

import os
import subprocess
import textwrap

import numpy as np
import pytest

from vision.deck.register import REPO


def passes(python: str, script: str, cwd=REPO) -> None:
    """Run the script with ``python`` in ``cwd``, this checkout's modules first on its path; it must end
    by printing "ok" (its asserts run in the training Python, which has torch)."""
    env = os.environ | {"PYTHONPATH": str(REPO)}
    done = subprocess.run([python, "-c", textwrap.dedent(script)], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr


@pytest.mark.parametrize("augmentation", ["degrade", "stretch"])
def test_an_augmentation_keeps_a_batch_shape_and_flat_light(python, augmentation):
    passes(
        python,
        f"""
        import torch
        from models.train import {augmentation} as augment

        flat = torch.full((4, 3, 64, 32), 0.7)
        out = augment(flat, torch.Generator().manual_seed(3))
        assert out.shape == flat.shape and torch.allclose(out, flat, atol=1e-5)
        print("ok")
        """,
    )


def test_degrade_blurs_a_batch_to_720p_detail(python):
    passes(
        python,
        """
        import torch
        from models.train import degrade

        gen = torch.Generator().manual_seed(3)
        stripes = torch.zeros(8, 3, 64, 32)
        stripes[:, :, :, ::2] = 1.0  # one-pixel stripes: detail no 720p camera resolves
        out = degrade(stripes, gen)
        assert abs(out.mean().item() - 0.5) < 0.02, out.mean().item()
        assert out[..., 1:].sub(out[..., :-1]).abs().mean().item() < 0.2  # was 1.0 between neighbours
        print("ok")
        """,
    )


def test_stretch_reshapes_each_index_about_the_crop_centre(python):
    passes(
        python,
        """
        import torch
        from models.train import STRETCH_WIDTH, stretch

        gen = torch.Generator().manual_seed(4)
        bar = torch.zeros(256, 3, 64, 32)
        bar[:, :, 16:48, 12:20] = 1.0  # an 8 px wide stroke centred in the crop
        out = stretch(bar, gen)
        ys, xs = torch.meshgrid(torch.arange(64.0) + 0.5, torch.arange(32.0) + 0.5, indexing="ij")
        ink = out[:, 0]
        cy = (ink * ys).sum((1, 2)) / ink.sum((1, 2))
        cx = (ink * xs).sum((1, 2)) / ink.sum((1, 2))
        assert (cy - 32).abs().max() < 0.5 and (cx - 16).abs().max() < 0.5, (cy, cx)  # about the anchor
        width = ink[:, 32].sum(1)  # the stroke's width across its middle row
        assert width.min() < 8 / 1.15 and width.max() > 8 * 1.15, (width.min(), width.max())
        assert width.max() < 8 * float(torch.exp(torch.tensor(STRETCH_WIDTH))) * 1.35  # leaning widens a row a little
        print("ok")
        """,
    )


def test_validation_batches_are_the_centred_crops_in_order_and_training_ones_are_augmented(python):
    passes(
        python,
        """
        import numpy as np
        import torch
        from models.train import Augment, classifier_batches

        rng = np.random.default_rng(2)
        crops = rng.integers(0, 256, (10, 72, 40, 3), dtype=np.uint8)
        labels = np.arange(10)
        gen = torch.Generator().manual_seed(0)
        (x, y), = list(classifier_batches(crops, labels, 16, gen, None))
        assert torch.equal(y, torch.arange(10))
        assert torch.allclose(x * 255, torch.from_numpy(crops[:, 4:68, 4:36]).permute(0, 3, 1, 2).float())
        (x2, y2), = list(classifier_batches(crops, labels, 16, gen, Augment(stretched=1.0)))
        assert sorted(y2.tolist()) == list(range(10)) and x2.shape == x.shape
        assert not torch.allclose(x2, x[y2], atol=0.05)
        print("ok")
        """,
    )


def test_a_further_member_resumes_from_its_own_weights(python, tmp_path):
    passes(
        python,
        """
        from pathlib import Path
        import torch
        from models.nets import Classifier
        from models.train import CLASSIFIER_PATHS, _start

        torch.manual_seed(5)
        saved = Classifier()
        Path("out").mkdir()
        torch.save(saved.state_dict(), Path("out") / "classifier_2.pt")
        resumed = _start(Classifier(), True, print, CLASSIFIER_PATHS[1])
        assert all(torch.equal(a, b) for a, b in zip(saved.state_dict().values(), resumed.state_dict().values()))
        print("ok")
        """,
        cwd=tmp_path,
    )


def test_a_further_member_refuses_to_train_only_the_locator(python, tmp_path):
    done = subprocess.run(
        [python, "-m", "models.train", "--member", "3", "--only", "locator", "--data", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "--member 3 trains a classifier" in done.stderr


def test_the_context_classifier_refuses_chunks_without_context_crops(python, tmp_path):
    """Chunks rendered before ``models.dataset`` cut context crops cannot train the context classifier:
    the command names the folder instead of training on index crops."""
    for name in ("train_1.npz", "val_1.npz"):
        np.savez(
            tmp_path / name, loc_n=np.zeros(4, np.int16), labels=np.zeros(2, np.int16), crops=np.zeros((2, 72, 40, 3))
        )
    args = ["--context", "--data", str(tmp_path), "--frames", "1", "--val-frames", "1"]
    done = subprocess.run([python, "-m", "models.train", *args], cwd=REPO, capture_output=True, text=True)
    assert done.returncode != 0
    assert f"{tmp_path}: chunks without context crops" in done.stderr
