"""The fine-tuning subprocess, quickly: a few crops of the drawn design, one epoch, crop accuracy rises.

Needs a Python with torch (skipped otherwise); the slow test and ``benchmarks/deck.py`` go to full size.
"""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from vision.deck.crops import CODES, NONE, synth_crops
from vision.deck.drawn import draw_face
from vision.deck.profile import onnx_classifier
from vision.deck.register import REPO, RegistrationError, train_python
from vision.reader import MODELS_DIR


def accuracy(classify, crops: np.ndarray, labels: np.ndarray) -> float:
    return float((classify(crops).argmax(1) == labels).mean())


def test_finetuning_lifts_crop_accuracy(models, tmp_path):
    try:
        python = train_python()
    except RegistrationError as err:
        pytest.skip(str(err))
    faces = {code: draw_face(code) for code in CODES}
    crops, labels = synth_crops(faces, 25, seed=1)
    held, held_labels = synth_crops(faces, 4, seed=2)
    np.savez(tmp_path / "crops.npz", crops=crops, labels=labels)
    cmd = [python, "-m", "vision.deck.finetune", "--model", str(MODELS_DIR / "classifier.onnx")]
    cmd += ["--crops", str(tmp_path / "crops.npz"), "--out", str(tmp_path / "c.onnx"), "--epochs", "2"]
    subprocess.run(cmd, cwd=REPO, check=True, capture_output=True)
    before = accuracy(onnx_classifier(str(MODELS_DIR / "classifier.onnx")), held, held_labels)
    after = accuracy(onnx_classifier(str(tmp_path / "c.onnx")), held, held_labels)
    assert after > before + 0.3, (before, after)
    tuned = onnx_classifier(str(tmp_path / "c.onnx"))(held[held_labels == NONE])
    assert (tuned.argmax(1) == NONE).mean() > 0.9  # still rejects what is not an index
