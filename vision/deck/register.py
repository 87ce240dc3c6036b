"""Register a deck: 54 single-card photos → a deck profile, on the station's CPU in minutes.

Steps, each timed: cut every card's face from its photo (``photos``), synthesise index crops of those
faces under the usual camera conditions (``crops``), fine-tune the generic classifier on them in a
torch subprocess (``finetune``; the station's own environment has no torch), measure the result on
held-back crops synthesised with another seed, and calibrate the mismatch threshold against crops of
other designs. The photos are named by card code (``Th.jpg``, ``SJ.jpg``); ``corners.json`` holds the
calibration (``{"corners": [[x, y] SW, SE, NE, NW]}``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

from vision.deck.crops import CODES, NONE, synth_crops
from vision.deck.photos import cut_face
from vision.deck.profile import DeckMeta, DeckProfile, onnx_classifier
from vision.reader import MODELS_DIR
from vision.synth.artwork import load_design

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
CALIBRATION_DESIGNS = ("anglo", "tigullio")
"""Other designs whose crops tell what a mismatched table's confidence looks like."""
REPO = Path(__file__).resolve().parents[2]
DECK_PEAK = 0.15
"""The locator's peak threshold with a profile (the generic reader's is 0.35). The locator learned the
training designs' index corners and answers an unseen font more weakly: on the drawn test design a sixth
of the indices in overlapping rows peaked at 0.1–0.35 (single cards in the registration photos peak at
0.6–0.9, so the photos cannot calibrate it). The profile's classifier, trained on this deck's "none"
crops, rejects the extra false peaks: 40 frames, card recall 77 % → 88 %, no phantom play."""


class RegistrationError(ValueError):
    """The photos cannot make a profile (missing cards, no calibration, no card in a photo)."""


def train_python() -> str:
    """A Python with torch for the fine-tuning: ``$REFEREE_STATION_TRAIN_PYTHON``, the repository's
    ``.venv-train``, or this interpreter if it has torch."""
    env = os.environ.get("REFEREE_STATION_TRAIN_PYTHON")
    if env:
        return env
    local = REPO / ".venv-train" / "bin" / "python"
    if local.exists():
        return str(local)
    if subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0:
        return sys.executable
    raise RegistrationError(
        "fine-tuning needs torch: set REFEREE_STATION_TRAIN_PYTHON to a Python of the [train] extra "
        "or create .venv-train (pip install -e '.[train]')"
    )


def load_faces(photo_dir: Path) -> dict[str, np.ndarray]:
    """Every card's face, cut from ``photo_dir/<code>.jpg`` with ``photo_dir/corners.json``."""
    try:
        corners = np.asarray(json.loads((photo_dir / "corners.json").read_text())["corners"], np.float64).reshape(4, 2)
    except (OSError, KeyError, ValueError) as err:
        raise RegistrationError(f"{photo_dir}/corners.json: {err}") from err
    photos = {p.stem: p for p in photo_dir.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES}
    missing = [c for c in CODES if c not in photos]
    if missing:
        raise RegistrationError(f"{photo_dir}: no photo for {' '.join(missing)}")
    faces = {}
    for code in CODES:
        image = cv2.imread(str(photos[code]), cv2.IMREAD_COLOR)
        if image is None:
            raise RegistrationError(f"cannot read {photos[code]}")
        try:
            faces[code], _ = cut_face(image, corners)
        except ValueError as err:
            raise RegistrationError(f"{photos[code]}: {err}") from err
    return faces


def _mean_confidence(classify, crops: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """(accuracy on all crops, mean top-1 probability on card crops)."""
    probs = np.concatenate([classify(crops[i : i + 512]) for i in range(0, len(crops), 512)])
    cards = labels != NONE
    return float((probs.argmax(1) == labels).mean()), float(probs[cards].max(1).mean())


def register(
    photo_dir: Path,
    design: str,
    *,
    per_card: int = 150,
    epochs: int = 4,
    seed: int = 0,
    model_dir: Path = MODELS_DIR,
    log: Callable[[str], None] = lambda _: None,
) -> DeckProfile:
    """Build the profile of the deck photographed in ``photo_dir``."""
    start = time.monotonic()
    faces = load_faces(photo_dir)
    log(f"cut 54 faces: {time.monotonic() - start:.0f} s")
    crops, labels = synth_crops(faces, per_card, seed)
    held, held_labels = synth_crops(faces, max(10, per_card // 5), seed + 1)
    log(f"synthesised {len(labels)} training and {len(held_labels)} held-back crops: {time.monotonic() - start:.0f} s")
    python = train_python()
    with tempfile.TemporaryDirectory() as tmp:
        np.savez(Path(tmp) / "crops.npz", crops=crops, labels=labels)
        out = Path(tmp) / "classifier.onnx"
        cmd = [python, "-m", "vision.deck.finetune", "--model", str(model_dir / "classifier.onnx")]
        cmd += ["--crops", str(Path(tmp) / "crops.npz"), "--out", str(out), "--epochs", str(epochs)]
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
        if done.returncode != 0:
            raise RegistrationError(f"fine-tuning failed:\n{done.stderr[-2000:]}")
        model = out.read_bytes()
    log(f"fine-tuned {epochs} epochs: {time.monotonic() - start:.0f} s")
    classify = onnx_classifier(model)
    accuracy, confidence = _mean_confidence(classify, held, held_labels)
    others = []
    for name in CALIBRATION_DESIGNS:
        try:
            other, other_labels = synth_crops(load_design(name).faces, 4, seed + 2)
        except FileNotFoundError:  # artwork not installed: fall back to a fixed margin below
            continue
        others.append(_mean_confidence(classify, other, other_labels)[1])
    mismatch_below = (confidence + max(others)) / 2 if others else confidence - 0.12
    seconds = time.monotonic() - start
    log(f"held-back accuracy {accuracy:.2%}, confidence {confidence:.2f}, mismatch below {mismatch_below:.2f}")
    meta = DeckMeta(
        design=design,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        accuracy=round(accuracy, 5),
        held_back_crops=len(held_labels),
        confidence=round(confidence, 4),
        mismatch_below=round(mismatch_below, 4),
        peak=DECK_PEAK,
        seconds=round(seconds, 1),
    )
    return DeckProfile(meta, model)
