"""The fine-tuning subprocesses, quickly: a few crops (strips) of the drawn design, two epochs, crop
accuracy (the locator's answer at the deck's index anchors) rises.

Needs a Python with torch (skipped otherwise); the slow test and ``benchmarks/deck.py`` go to full size.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from referee_station.deck.crops import CODES, NONE, synth_crops
from referee_station.deck.register import REPO, RegistrationError, _finetune
from referee_station.deck.rendered import rendered_data
from referee_station.render.drawn import draw_face
from referee_station.vision.reader import MODELS_DIR, onnx_classifier, onnx_locator
from referee_station.vision.strips import GRID_H, GRID_W, LOCATOR_STRIDE


def accuracy(classify, crops: np.ndarray, labels: np.ndarray) -> float:
    return float((classify(crops).argmax(1) == labels).mean())


BF16_FAST = "from referee_station.training.finetune import bf16_fast; print(bf16_fast())"


def bf16_fast_in(python: str) -> bool:
    """Whether the train Python's torch fine-tunes the classifiers in bfloat16 on this CPU."""
    probe = subprocess.run([python, "-c", BF16_FAST], cwd=REPO, check=True, capture_output=True, text=True)
    return probe.stdout.strip() == "True"


def test_finetuning_lifts_crop_accuracy_in_bfloat16_as_in_float32(models, python, tmp_path):
    """Registration trains the classifiers in bfloat16 where the CPU computes it: the same seed, other
    arithmetic (the two fits differ), and both must read the deck's held-back crops."""
    faces = {code: draw_face(code) for code in CODES}
    crops, labels = synth_crops(faces, 25, seed=1)
    held, held_labels = synth_crops(faces, 4, seed=2)
    np.savez(tmp_path / "crops.npz", crops=crops, labels=labels)
    fast = bf16_fast_in(python)
    before = accuracy(onnx_classifier(str(MODELS_DIR / "classifier.onnx")), held, held_labels)
    tuned = {}
    for name, flags in (("fastest", []), ("float32", ["--float32"])):
        cmd = [python, "-m", "referee_station.training.finetune", "--model", str(MODELS_DIR / "classifier.onnx")]
        cmd += ["--crops", str(tmp_path / "crops.npz"), "--out", str(tmp_path / f"{name}.onnx"), "--epochs", "2"]
        done = subprocess.run(cmd + flags, cwd=REPO, check=True, capture_output=True, text=True)
        trained_in = "bfloat16" if name == "fastest" and fast else "float32"
        assert f"2 epochs in {trained_in}," in done.stdout, done.stdout
        tuned[name] = onnx_classifier(str(tmp_path / f"{name}.onnx"))
        after = accuracy(tuned[name], held, held_labels)
        # the drawn design at a real deck's index size: the generic classifier reads ~0.72 of its crops, the
        # fitted one nearly all (0.98 measured); the errors left must fall to a fraction
        assert after > 0.95 and (1 - after) < (1 - before) / 4, (name, before, after)
        assert (tuned[name](held[held_labels == NONE]).argmax(1) == NONE).mean() > 0.9  # still rejects non-indices
    if fast:
        assert not np.allclose(tuned["fastest"](held[:64]), tuned["float32"](held[:64]), atol=1e-4)


WRITE_BACK = """
import sys, numpy as np, onnx, torch
from onnx import numpy_helper
from referee_station.training.finetune import OnnxNet
model = onnx.load(sys.argv[1])
net = OnnxNet(model)
convs = [m for m in net.net if isinstance(m, torch.nn.Conv2d)]
assert all(c.weight.is_contiguous(memory_format=torch.channels_last) for c in convs), "not channels-last"
before = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
after = {t.name: numpy_helper.to_array(t) for t in net.to_onnx(model).graph.initializer}
assert before.keys() == after.keys() and all(np.array_equal(before[k], after[k]) for k in before), "changed"
"""


@pytest.mark.parametrize("network", ["classifier.onnx", "locator.onnx"])
def test_the_channels_last_network_writes_back_the_weights_it_was_given(models, python, network):
    """Trained channels-last, the rebuilt network must still write each tensor in ONNX's own layout: a
    weight written in its memory order would read as scrambled filters."""
    done = subprocess.run(
        [python, "-c", WRITE_BACK, str(MODELS_DIR / network)], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]


def anchor_heat(locate, data: dict[str, np.ndarray]) -> float:
    """Mean heatmap score at the true index anchors (their cell or a neighbour): how strongly the locator
    answers the deck's indices (on a few frames nearly all already pass the peak threshold; the
    benchmark measures the anchors found)."""
    heat = np.pad(1 / (1 + np.exp(-locate(data["loc_x"])[:, 0])), ((0, 0), (1, 1), (1, 1)))
    scores = [
        heat[i, y : y + 3, x : x + 3].max()
        for i, n in enumerate(data["loc_n"])
        for x, y in (data["loc_anchor"][i, :n] / LOCATOR_STRIDE).astype(int)
        if 0 <= y < GRID_H and 0 <= x < GRID_W
    ]
    return float(np.mean(scores))


def test_locator_finetuning_answers_the_decks_indices_more_strongly(models, python, tmp_path):
    faces = {code: draw_face(code) for code in CODES}
    strips = {k: v for k, v in rendered_data(faces, 10, seed=1).items() if k.startswith("loc_")}
    held = rendered_data(faces, 3, seed=2)
    np.savez(tmp_path / "strips.npz", **strips)
    cmd = [
        python,
        "-m",
        "referee_station.training.finetune",
        "--model",
        str(MODELS_DIR / "locator.onnx"),
        "--threads",
        "1",
    ]
    cmd += ["--strips", str(tmp_path / "strips.npz"), "--out", str(tmp_path / "l.onnx"), "--epochs", "2"]
    subprocess.run(cmd, cwd=REPO, check=True, capture_output=True)
    before = anchor_heat(onnx_locator(str(MODELS_DIR / "locator.onnx")), held)
    after = anchor_heat(onnx_locator(str(tmp_path / "l.onnx")), held)
    assert after > before + 0.03, (before, after)


def test_registration_fine_tunes_each_network_in_turn_and_names_one_that_fails(models, python, tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_STATION_TRAIN_PYTHON", python)
    crops, labels = synth_crops({code: draw_face(code) for code in CODES}, 3, seed=1)
    cards = {"crops": crops, "labels": labels}
    logged: list[str] = []
    jobs = {"classifier.onnx": (cards, 1), "classifier_2.onnx": (cards, 2)}
    fitted = _finetune(jobs, MODELS_DIR, threads=1, log=logged.append)
    assert sorted(fitted) == ["classifier.onnx", "classifier_2.onnx"]
    assert [line.split(" in ")[0] for line in logged] == ["fine-tuned classifier.onnx", "fine-tuned classifier_2.onnx"]
    arithmetic = "bfloat16" if bf16_fast_in(python) else "float32"  # named as the subprocess trained
    expected = [f"1 epoch, {arithmetic})", f"2 epochs, {arithmetic})"]
    assert [line.split(" s (")[1] for line in logged] == expected  # one at a time, timed as it ends
    outputs = [onnx_classifier(model)(crops[:8]) for model in fitted.values()]
    assert outputs[0].shape == (8, NONE + 1) and not np.allclose(outputs[0], outputs[1])  # each its own
    shutil.copy(MODELS_DIR / "classifier.onnx", tmp_path / "classifier.onnx")
    (tmp_path / "classifier_2.onnx").write_bytes(b"not a network")
    with pytest.raises(RegistrationError, match=r"fine-tuning classifier_2\.onnx failed"):
        _finetune({"classifier.onnx": (cards, 1), "classifier_2.onnx": (cards, 1)}, tmp_path, threads=2)
