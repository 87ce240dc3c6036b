"""The training command's parts that need no training run: the 720p degradation and the stretching of
classifier batches, validation batches, where ``--member N`` writes and resumes from, and the arguments it refuses.

They run in the Python with torch (skipped where there is none), as the training itself does.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap

import numpy as np
import pytest

from referee_station.deck.register import REPO


def measure(python: str, script: str, cwd=REPO) -> dict:
    """Run the script with ``python`` in ``cwd``, this checkout's modules first on its path, and return
    the JSON object its last line prints: what it measured in the training Python (which has torch), for
    the test's own asserts to check."""
    env = os.environ | {"PYTHONPATH": str(REPO)}
    done = subprocess.run([python, "-c", textwrap.dedent(script)], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("augmentation", ["degrade", "stretch"])
def test_an_augmentation_keeps_a_batch_shape_and_flat_light(python, augmentation):
    got = measure(
        python,
        f"""
        import json
        import torch
        from referee_station.training.train import {augmentation} as augment

        out = augment(torch.full((4, 3, 64, 32), 0.7), torch.Generator().manual_seed(3))
        print(json.dumps({{"shape": list(out.shape), "min": out.min().item(), "max": out.max().item()}}))
        """,
    )
    assert got["shape"] == [4, 3, 64, 32]
    assert got["min"] == pytest.approx(0.7, abs=1.7e-5) and got["max"] == pytest.approx(0.7, abs=1.7e-5)


def test_degrade_blurs_a_batch_to_720p_detail(python):
    got = measure(
        python,
        """
        import json
        import torch
        from referee_station.training.train import degrade

        stripes = torch.zeros(8, 3, 64, 32)
        stripes[:, :, :, ::2] = 1.0  # one-pixel stripes: detail no 720p camera resolves
        out = degrade(stripes, torch.Generator().manual_seed(3))
        step = out[..., 1:].sub(out[..., :-1]).abs().mean().item()
        print(json.dumps({"mean": out.mean().item(), "step": step}))
        """,
    )
    assert got["mean"] == pytest.approx(0.5, abs=0.02)
    assert got["step"] < 0.2  # was 1.0 between neighbours


def test_stretch_reshapes_each_index_about_the_crop_centre(python):
    got = measure(
        python,
        """
        import json
        import torch
        from referee_station.training.train import STRETCH_WIDTH, stretch

        bar = torch.zeros(256, 3, 64, 32)
        bar[:, :, 16:48, 12:20] = 1.0  # an 8 px wide stroke centred in the crop
        ink = stretch(bar, torch.Generator().manual_seed(4))[:, 0]
        ys, xs = torch.meshgrid(torch.arange(64.0) + 0.5, torch.arange(32.0) + 0.5, indexing="ij")
        cy = (ink * ys).sum((1, 2)) / ink.sum((1, 2))
        cx = (ink * xs).sum((1, 2)) / ink.sum((1, 2))
        width = ink[:, 32].sum(1)  # the stroke's width across its middle row
        print(json.dumps({
            "cy_off": (cy - 32).abs().max().item(),
            "cx_off": (cx - 16).abs().max().item(),
            "narrowest": width.min().item(),
            "widest": width.max().item(),
            "widest_stretch": 8 * float(torch.exp(torch.tensor(STRETCH_WIDTH))),
        }))
        """,
    )
    assert got["cy_off"] < 0.5 and got["cx_off"] < 0.5  # about the anchor
    assert got["narrowest"] < 8 / 1.15 and got["widest"] > 8 * 1.15
    assert got["widest"] < got["widest_stretch"] * 1.35  # leaning widens a row a little


def test_validation_batches_are_the_centred_crops_in_order_and_training_ones_are_augmented(python):
    got = measure(
        python,
        """
        import json
        import numpy as np
        import torch
        from referee_station.training.train import Augment, classifier_batches

        crops = np.random.default_rng(2).integers(0, 256, (10, 72, 40, 3), dtype=np.uint8)
        gen = torch.Generator().manual_seed(0)
        (x, y), = list(classifier_batches(crops, np.arange(10), 16, gen, None))
        centred = torch.from_numpy(crops[:, 4:68, 4:36]).permute(0, 3, 1, 2).float()
        (x2, y2), = list(classifier_batches(crops, np.arange(10), 16, gen, Augment(stretched=1.0)))
        print(json.dumps({
            "labels": y.tolist(),
            "off_centre": (x * 255 - centred).abs().max().item(),
            "augmented_labels": y2.tolist(),
            "shapes": [list(x.shape), list(x2.shape)],
            "augmented_change": (x2 - x[y2]).abs().max().item(),
        }))
        """,
    )
    assert got["labels"] == list(range(10))
    assert got["off_centre"] < 1e-3  # the centred 64 × 32 crop, scaled to 0..1
    assert sorted(got["augmented_labels"]) == list(range(10))
    assert got["shapes"][0] == got["shapes"][1]
    assert got["augmented_change"] > 0.05


def test_a_further_member_resumes_from_its_own_weights(python, tmp_path):
    got = measure(
        python,
        """
        import json
        from pathlib import Path
        import torch
        from referee_station.training.nets import Classifier
        from referee_station.training.train import CLASSIFIER_PATHS, _start

        torch.manual_seed(5)
        saved = Classifier()
        Path("out").mkdir()
        torch.save(saved.state_dict(), Path("out") / "classifier_2.pt")
        resumed = _start(Classifier(), True, print, CLASSIFIER_PATHS[1])
        pairs = list(zip(saved.state_dict().values(), resumed.state_dict().values()))
        fresh = Classifier().state_dict().values()
        print(json.dumps({
            "tensors": len(pairs),
            "differ": max((a.float() - b.float()).abs().max().item() for a, b in pairs),
            "fresh_differ": max(
                (a.float() - b.float()).abs().max().item() for (a, _), b in zip(pairs, fresh) if a.is_floating_point()
            ),
        }))
        """,
        cwd=tmp_path,
    )
    assert got["tensors"] > 0
    assert got["differ"] == 0.0  # the member's saved weights, exactly
    assert got["fresh_differ"] > 0.0  # which a new network would not have


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
    done = subprocess.run([python, "-m", "referee_station.training.train", *args], cwd=REPO, capture_output=True, text=True)
    assert done.returncode != 0
    assert f"{tmp_path}: chunks without context crops" in done.stderr
