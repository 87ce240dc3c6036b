"""Register a deck: 54 single-card photos → a deck profile, on the station's CPU in minutes.

Steps, each timed: cut every card's face from its photo (``photos``), synthesise index crops of those
faces under the usual camera conditions (``crops``), render table scenes of the deck and cut them into
locator strips and more index and context crops (``rendered``), fine-tune each generic classifier the
models folder has, its context classifier and the generic locator on them in torch subprocesses, one per
core at a time (``finetune``; the station's own environment has no torch), measure the averaged
classifiers on held-back crops synthesised with another seed, and calibrate the mismatch threshold on
frames of the deck and of other designs read by the fitted reader (``threshold``). The profile keeps
the 54 cut faces at the strip's scale (``referee_station.vision.faces``), and with ``finetune=False`` it is the faces
alone: no torch, no rendering of training scenes, seconds instead of minutes; the generic networks read
with the faces' evidence. The photos are named
by card code (``Th.jpg``, ``SJ.jpg``); ``corners.json`` holds the calibration (``{"corners": [[x, y] SW,
SE, NE, NW]}``).
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np

from referee_station.deck.crops import CODES, NONE, synth_crops
from referee_station.deck.detail import DETAIL_FRAMES, DETAIL_LARGE_FRAMES, card_reads, need_from
from referee_station.deck.photos import CutFaces, cut_face
from referee_station.deck.profile import DeckMeta, DeckProfile, fitted_reader
from referee_station.deck.rendered import install_faces, jittered_crops, rendered_data
from referee_station.deck.threshold import calibrate, read_frames
from referee_station.vision.faces import Faces, strip_faces
from referee_station.vision.geometry import INDEX_CROP
from referee_station.vision.index_width import index_width
from referee_station.vision.reader import (
    CONTEXT_FILE,
    LOCATOR_FILE,
    MODELS_DIR,
    CardReader,
    classifier_paths,
)
from referee_station.vision.strips import detail

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")
CALIBRATION_DESIGNS = ("anglo", "tigullio")
"""Other designs whose frames tell what a mismatched table's confidence looks like."""
HELDOUT_LOOKS = True
"""Registration measures its reader on frames in the renderer's held-out looks, which no network was
fitted on: in the training looks a profile reads renders of its own cut faces better than a table's
cards (``referee_station.deck.detail``)."""
REPO = Path(__file__).resolve().parents[2]
TRAIN_MALLOC = {"MALLOC_MMAP_THRESHOLD_": str(32 << 20), "MALLOC_TRIM_THRESHOLD_": str(1 << 30)}
"""glibc settings for the fine-tuning subprocesses (where the environment sets none of its own): a training
step's tensors (up to 16 MB) then stay in the heap between steps instead of going back to the kernel and
faulting in again, which took a classifier's fine-tuning from 227 s to 201 s (docs/deck.md, registration's
time). Other C libraries ignore them."""
DECK_PEAK = 0.15
"""The locator's peak threshold with a profile (the generic reader's is 0.35). The locator learned the
training designs' index corners and answers an unseen font more weakly: on the drawn test design a sixth
of the indices in overlapping rows peaked at 0.1–0.35 (single cards in the registration photos peak at
0.6–0.9, so the photos cannot calibrate it). The profile's classifier, trained on this deck's "none"
crops, rejects the extra false peaks: 40 frames, card recall 77 % → 88 %, no phantom play."""

ADAPTED_PEAK = 0.25
"""The peak threshold with the locator fitted to the deck. The fitted locator answers most of the deck's
indices as strongly as the generic one answers its training designs' (the generic reader's 0.35), but a
tall index less: the drawn test deck's stacked JOKER peaked at 0.25–0.34 and its row read a card short.
A lower threshold finds it, and the fitted classifier calls the extra peaks "none" (docs/deck.md)."""


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


def load_faces(photo_dir: Path) -> CutFaces:
    """Every card's face, cut from ``photo_dir/<code>.jpg`` with ``photo_dir/corners.json``, and the
    detail its photo gave it."""
    try:
        corners = np.asarray(json.loads((photo_dir / "corners.json").read_text())["corners"], np.float64).reshape(4, 2)
    except (OSError, KeyError, ValueError) as err:
        raise RegistrationError(f"{photo_dir}/corners.json: {err}") from err
    photos = {p.stem: p for p in photo_dir.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES}
    missing = [c for c in CODES if c not in photos]
    if missing:
        raise RegistrationError(f"{photo_dir}: no photo for {' '.join(missing)}")
    faces, px_per_cm, seat_detail = {}, {}, detail(corners)
    for code in CODES:
        image = cv2.imread(str(photos[code]), cv2.IMREAD_COLOR)
        if image is None:
            raise RegistrationError(f"cannot read {photos[code]}")
        try:
            faces[code], seat = cut_face(image, corners)
        except ValueError as err:
            raise RegistrationError(f"{photos[code]}: {err}") from err
        px_per_cm[code] = seat_detail[seat]
    return CutFaces(faces, px_per_cm)


def _mean_confidence(classify, crops: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """(accuracy on all crops, mean top-1 probability on card crops)."""
    probs = np.concatenate([classify(crops[i : i + 512]) for i in range(0, len(crops), 512)])
    cards = labels != NONE
    return float((probs.argmax(1) == labels).mean()), float(probs[cards].max(1).mean())


ARITHMETIC = re.compile(r" epochs? in (bfloat16|float32), ")
"""How a fine-tuning subprocess says which arithmetic it trained in (``training.finetune``'s last line), so
that the registration log names it: bfloat16 takes about 0.6 of float32's time where the CPU has it."""


def _finetune(
    jobs: dict[str, tuple[dict[str, np.ndarray], int]],
    model_dir: Path,
    threads: int,
    log: Callable[[str], None] = lambda _: None,
) -> dict[str, bytes]:
    """Fine-tune each generic network ``jobs`` names by its file (``classifier.onnx``, … : crops and
    labels; ``locator.onnx``: strips; with its epochs), each in its own torch subprocess, ``threads`` of
    them at a time (the next starts as soon as one ends), logging each one's time as it ends. The fitted
    ONNX models, serialised, by file."""
    python = train_python()
    each = str(max(1, threads // len(jobs)))
    env = TRAIN_MALLOC | os.environ
    with tempfile.TemporaryDirectory() as tmp:
        saved: dict[int, Path] = {}  # the classifiers share one crop set: written once
        waiting, running, started = list(jobs.items()), {}, {}
        try:
            while waiting or running:
                while waiting and len(running) < max(1, threads):
                    name, (arrays, epochs) = waiting.pop(0)
                    if id(arrays) not in saved:
                        saved[id(arrays)] = Path(tmp) / f"data_{len(saved)}.npz"
                        np.savez(saved[id(arrays)], **arrays)
                    cmd = [python, "-m", "referee_station.training.finetune", "--model", str(model_dir / name)]
                    cmd += ["--strips" if name == LOCATOR_FILE else "--crops", str(saved[id(arrays)])]
                    cmd += ["--out", str(Path(tmp) / name), "--epochs", str(epochs), "--threads", each]
                    # files, not pipes: a full pipe would stall it
                    with open(Path(tmp) / f"{name}.out", "w") as out, open(Path(tmp) / f"{name}.err", "w") as err:
                        running[name] = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=err)
                    started[name] = time.monotonic()
                done = [name for name, proc in running.items() if proc.poll() is not None]
                for name in done:
                    if running.pop(name).returncode != 0:
                        err = (Path(tmp) / f"{name}.err").read_text()[-2000:]
                        raise RegistrationError(f"fine-tuning {name} failed:\n{err}")
                    took, ran = time.monotonic() - started[name], jobs[name][1]  # not the launch loop's epochs
                    said = ARITHMETIC.search((Path(tmp) / f"{name}.out").read_text())
                    how = f", {said[1]}" if said else ""
                    log(f"fine-tuned {name} in {took:.0f} s ({ran} epoch{'s' * (ran != 1)}{how})")
                if not done:
                    time.sleep(0.2)
        finally:
            for proc in running.values():
                proc.kill()
                proc.wait()
        return {name: (Path(tmp) / name).read_bytes() for name in jobs}


def register(
    photo_dir: Path,
    design: str,
    *,
    per_card: int = 150,
    epochs: int = 6,
    frames: int = 300,
    locator_epochs: int = 2,
    seed: int = 0,
    threads: int = 2,
    model_dir: Path = MODELS_DIR,
    finetune: bool = True,
    calibration_frames: int = 10,
    detail_frames: int = DETAIL_FRAMES,
    log: Callable[[str], None] = lambda _: None,
) -> DeckProfile:
    """Build the profile of the deck photographed in ``photo_dir`` (``finetune=False``: its faces alone)."""
    start = time.monotonic()
    cut = load_faces(photo_dir)
    faces = cut.faces
    kept = strip_faces(faces, CODES)
    bank = Faces.from_faces(CODES, kept)
    if finetune:
        train_python()  # no torch: say so now (after checking the photos), not after minutes of rendering
    log(f"cut 54 faces: {time.monotonic() - start:.0f} s; {cut.line()}")
    if warning := cut.warning():
        log(warning)
    # the generic networks read the generic crop; networks fitted to the deck read all of its index
    width = index_width(faces) if finetune else INDEX_CROP[0]
    held, held_labels = synth_crops(faces, max(10, per_card // 5), seed + 1, width=width)
    profile = functools.partial(
        _profile,
        design,
        held=held,
        held_labels=held_labels,
        faces=faces,
        photos_px_per_cm=cut.least_px_per_cm,
        seed=seed,
        start=start,
        log=log,
        kept=kept,
        calibration_frames=calibration_frames,
        detail_frames=detail_frames,
    )
    if not finetune:
        return profile(fitted_reader([], None, None, DECK_PEAK, model_dir, bank))
    crops, labels = synth_crops(faces, per_card, seed, width=width)
    log(f"index crops {width:.2f} cm wide (the generic {INDEX_CROP[0]:.2f})")
    log(f"synthesised {len(labels)} training and {len(held_labels)} held-back crops: {time.monotonic() - start:.0f} s")
    cards = {"crops": crops, "labels": labels}
    strips = context = None
    if frames:
        scenes = rendered_data(faces, frames, seed, jobs=threads, index_width=width)
        cards = {
            "crops": np.concatenate([crops, jittered_crops(scenes["crops"], seed)]),
            "labels": np.concatenate([labels, scenes["labels"]]),
        }
        strips = {key: value for key, value in scenes.items() if key.startswith("loc_")}
        context = {"crops": jittered_crops(scenes["ctx_crops"], seed), "labels": scenes["labels"]}
        counts = f"{len(scenes['loc_n'])} strips, {len(scenes['labels'])} crops"
        log(f"rendered {frames} frames ({counts}): {time.monotonic() - start:.0f} s")
    members = [path.name for path in classifier_paths(model_dir)]
    jobs = {name: (cards, epochs) for name in members}
    if strips is not None:
        jobs = {LOCATOR_FILE: (strips, locator_epochs)} | jobs
    if context is not None and (model_dir / CONTEXT_FILE).exists():
        jobs[CONTEXT_FILE] = (context, epochs)
    models = _finetune(jobs, model_dir, threads, log)
    fitted, locator = [models[name] for name in members], models.get(LOCATOR_FILE)
    fitted_context = models.get(CONTEXT_FILE)
    log(f"fine-tuned {', '.join(models)}: {time.monotonic() - start:.0f} s")
    peak = DECK_PEAK if locator is None else ADAPTED_PEAK
    reader = fitted_reader(fitted, locator, fitted_context, peak, model_dir, bank, index_width=width)
    return profile(reader, networks=(fitted, locator, fitted_context))


def _profile(
    design: str,
    reader: CardReader,
    held: np.ndarray,
    held_labels: np.ndarray,
    faces: dict[str, np.ndarray],
    seed: int,
    start: float,
    log: Callable[[str], None],
    kept: np.ndarray,
    networks: tuple[list[bytes], bytes | None, bytes | None] = ([], None, None),
    *,
    photos_px_per_cm: float,
    calibration_frames: int,
    detail_frames: int,
) -> DeckProfile:
    """The profile of ``reader`` (fitted ``networks`` or none, and the ``kept`` faces): the held-back
    crops' accuracy of its classifiers; the detail the deck needs, from ``detail_frames`` rendered frames
    of the deck, and the mismatch threshold between those frames and ``calibration_frames`` of each
    other design, all read by ``reader`` and rendered in ``HELDOUT_LOOKS``."""
    accuracy, confidence = _mean_confidence(reader.classify, held, held_labels)
    own_design = install_faces(faces)
    own = read_frames(
        reader, own_design, detail_frames, seed + 3, "detail", DETAIL_LARGE_FRAMES, heldout_look=HELDOUT_LOOKS
    )
    need = need_from(card_reads(own))
    log(need.line())
    usual = [read for read in own if read.height <= 1080]  # the other designs are read without 4K frames
    calibration = calibrate(
        reader, usual or own, CALIBRATION_DESIGNS, calibration_frames, seed + 2, heldout_look=HELDOUT_LOOKS
    )
    mismatch_below = calibration.mismatch_below
    seconds = time.monotonic() - start
    log(f"held-back accuracy {accuracy:.2%}, crop confidence {confidence:.2f}")
    other = "no other design installed" if calibration.other is None else f"other designs {calibration.other:.2f}"
    log(f"frame {calibration.measure}: this deck {calibration.own:.2f}, {other}; mismatch below {mismatch_below:.2f}")
    if calibration.other is not None and calibration.own <= calibration.other:
        log("warning: the profile reads other designs as confidently as this deck: check the photos' cut faces")
    meta = DeckMeta(
        design=design,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        accuracy=round(accuracy, 5),
        held_back_crops=len(held_labels),
        confidence=round(confidence, 4),
        mismatch_below=round(mismatch_below, 4),
        peak=reader.thresholds.peak,
        seconds=round(seconds, 1),
        mismatch_on=calibration.measure,
        needs_px_per_cm=round(need.px_per_cm, 2),
        needs_reached=need.reached,
        index_width=reader.index_width,
        photos_px_per_cm=round(photos_px_per_cm, 2),
    )
    fitted, locator, context = networks
    return DeckProfile(meta, fitted[0] if fitted else None, locator, tuple(fitted[1:]), context, kept)
