"""The training command's parts that need no training run: the 720p degradation and the stretching of
classifier batches, validation batches, and where ``--member N`` resumes from.

They import torch in this process, so they run where the tests run with the ``[train]`` extra
(``.venv-train/bin/python -m pytest tests/training``) and are skipped elsewhere, as the training is.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the training's parts need torch (the [train] extra)")

from referee_station.training.nets import Classifier  # noqa: E402  (after the skip: it imports torch)
from referee_station.training.train import (  # noqa: E402
    CLASSIFIER_PATHS,
    STRETCH_WIDTH,
    Augment,
    _start,
    classifier_batches,
    degrade,
    stretch,
)


@pytest.mark.parametrize("augment", [degrade, stretch])
def test_an_augmentation_keeps_a_batch_shape_and_flat_light(augment) -> None:
    out = augment(torch.full((4, 3, 64, 32), 0.7), torch.Generator().manual_seed(3))
    assert list(out.shape) == [4, 3, 64, 32]
    assert out.min().item() == pytest.approx(0.7, abs=1.7e-5)
    assert out.max().item() == pytest.approx(0.7, abs=1.7e-5)


def test_degrade_blurs_a_batch_to_720p_detail() -> None:
    stripes = torch.zeros(8, 3, 64, 32)
    stripes[:, :, :, ::2] = 1.0  # one-pixel stripes: detail no 720p camera resolves
    out = degrade(stripes, torch.Generator().manual_seed(3))
    assert out.mean().item() == pytest.approx(0.5, abs=0.02)
    assert out[..., 1:].sub(out[..., :-1]).abs().mean().item() < 0.2  # was 1.0 between neighbours


def test_stretch_reshapes_each_index_about_the_crop_centre() -> None:
    bar = torch.zeros(256, 3, 64, 32)
    bar[:, :, 16:48, 12:20] = 1.0  # an 8 px wide stroke centred in the crop
    ink = stretch(bar, torch.Generator().manual_seed(4))[:, 0]
    ys, xs = torch.meshgrid(torch.arange(64.0) + 0.5, torch.arange(32.0) + 0.5, indexing="ij")
    cy = (ink * ys).sum((1, 2)) / ink.sum((1, 2))
    cx = (ink * xs).sum((1, 2)) / ink.sum((1, 2))
    assert (cy - 32).abs().max().item() < 0.5 and (cx - 16).abs().max().item() < 0.5  # about the anchor
    width = ink[:, 32].sum(1)  # the stroke's width across its middle row
    assert width.min().item() < 8 / 1.15 and width.max().item() > 8 * 1.15
    widest_stretch = 8 * float(torch.exp(torch.tensor(STRETCH_WIDTH)))
    assert width.max().item() < widest_stretch * 1.35  # leaning widens a row a little


def test_validation_batches_are_the_centred_crops_in_order_and_training_ones_are_augmented() -> None:
    crops = np.random.default_rng(2).integers(0, 256, (10, 72, 40, 3), dtype=np.uint8)
    gen = torch.Generator().manual_seed(0)
    ((x, y),) = list(classifier_batches(crops, np.arange(10), 16, gen, None))
    centred = torch.from_numpy(crops[:, 4:68, 4:36]).permute(0, 3, 1, 2).float()
    ((x2, y2),) = list(classifier_batches(crops, np.arange(10), 16, gen, Augment(stretched=1.0)))
    assert y.tolist() == list(range(10))
    assert (x * 255 - centred).abs().max().item() < 1e-3  # the centred 64 × 32 crop, scaled to 0..1
    assert sorted(y2.tolist()) == list(range(10))
    assert x.shape == x2.shape
    assert (x2 - x[y2]).abs().max().item() > 0.05


def test_a_further_member_resumes_from_its_own_weights(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the members' weights lie in ./out, where the training runs
    torch.manual_seed(5)
    saved = Classifier()
    Path("out").mkdir()
    torch.save(saved.state_dict(), Path("out") / "classifier_2.pt")
    resumed = _start(Classifier(), True, print, CLASSIFIER_PATHS[1])
    pairs = list(zip(saved.state_dict().values(), resumed.state_dict().values(), strict=True))
    assert pairs
    assert max((a.float() - b.float()).abs().max().item() for a, b in pairs) == 0.0  # the saved weights, exactly
    fresh = Classifier().state_dict().values()
    differ = max(
        (a.float() - b.float()).abs().max().item()
        for (a, _), b in zip(pairs, fresh, strict=True)
        if a.is_floating_point()
    )
    assert differ > 0.0  # which a new network would not have
