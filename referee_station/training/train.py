"""Train the locator and the classifier from scratch on rendered data, validate on the held-out design,
export both to ONNX in ``referee_station/models/`` and write ``referee_station/models/MODEL_CARD.md``.

``python -m referee_station.training.train`` (in the training environment, ``pip install -e '.[train]'``) renders the
data with ``referee_station.render.dataset`` unless ``--data`` already holds it, then trains for a fixed time budget
each. Plain torch rather than ultralytics: the feasibility probe measured ultralytics' YOLO detector and
classifier from scratch on this CPU and both learned far slower than a plain tiny CNN (VISION_PROBE.md).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from referee_station.models.card import METRICS_JSON, write_card
from referee_station.render.dataset import CLASSES, CROP_MARGIN, NONE, render_data
from referee_station.resources import MODELS_DIR
from referee_station.training.nets import Classifier, Locator
from referee_station.vision.reader import CLASSIFIER_FILES, CONTEXT_FILE, LOCATOR_FILE
from referee_station.vision.strips import CROP_H, CROP_W, GRID_H, GRID_W, LOCATOR_STRIDE

LOCATOR_ONNX = MODELS_DIR / LOCATOR_FILE
CLASSIFIER_PATHS = tuple(MODELS_DIR / name for name in CLASSIFIER_FILES)
"""The reader's classifiers, members 1, 2, …: ``--member N`` trains the N-th."""
CONTEXT_PATH = MODELS_DIR / CONTEXT_FILE
"""The context classifier (``--context``): the same net on the chunks' ``ctx_crops``."""
DEGRADE_SCALE = (0.28, 0.4)
"""``--degrade`` shrinks a batch to this share of the strip's 20 px/cm: 5.5–8 px/cm, about what a 720p
camera gives (its cloth spans 530–670 px; 1080p: 800–1,000 px, half the strip's scale)."""
STRETCH_WIDTH, STRETCH_HEIGHT = np.log(1.3), np.log(1.12)
"""``--stretch`` scales an index's width by up to 1.3× either way (condensed to wide numerals), its height
by up to 1.12×."""
STRETCH_SHEAR, STRETCH_TURN = 0.25, np.radians(4)
"""… and leans it by up to 0.25 px per px (an italic's slant) and turns it by up to 4°."""


def load(paths: list[Path]) -> dict[str, np.ndarray]:
    """The chunks' arrays concatenated; an array some chunks lack (older chunks have no ``ctx_crops``) is left out."""
    parts = [dict(np.load(p)) for p in paths]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if all(k in p for p in parts)}


def photometric(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Brightness, contrast, per-channel gain (white balance), noise; no hue swaps (red vs black matters)."""
    n = x.shape[0]
    gain = 1 + 0.35 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    wb = 1 + 0.12 * (torch.rand(n, 3, 1, 1, generator=gen) - 0.5)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = 1 + 0.5 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    x = (x - mean) * contrast + mean
    x = x * gain * wb + 0.03 * torch.randn(x.shape, generator=gen)
    return x.clamp(0, 1)


def degrade(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """The batch as a coarser camera would see it: shrunk to ``DEGRADE_SCALE`` and brought back up. Most
    misreads were in 1280 × 720 frames while four training frames in five are 1080p."""
    scale = DEGRADE_SCALE[0] + (DEGRADE_SCALE[1] - DEGRADE_SCALE[0]) * torch.rand(1, generator=gen).item()
    h, w = x.shape[2:]
    small = F.interpolate(x, size=(max(4, round(h * scale)), max(2, round(w * scale))), mode="area")
    return F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)


def stretch(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Each crop's index drawn narrower or wider, taller or shorter, leaning and slightly turned, about
    the crop's centre (the index anchor). Typefaces differ most in these: the held-out design's condensed
    "10" was read as a 9, and a sponsor deck may print italic or wide numerals."""
    n, _, h, w = x.shape
    u = torch.rand(n, 4, generator=gen)
    sx = torch.exp((u[:, 0] - 0.5) * 2 * STRETCH_WIDTH)  # glyph width × sx
    sy = torch.exp((u[:, 1] - 0.5) * 2 * STRETCH_HEIGHT)
    shear = (u[:, 2] - 0.5) * 2 * STRETCH_SHEAR  # px across per px down
    turn = (u[:, 3] - 0.5) * 2 * STRETCH_TURN
    cos, sin = torch.cos(turn), torch.sin(turn)
    one, zero = torch.ones(n), torch.zeros(n)
    unscale = torch.stack([torch.stack([1 / sx, zero], 1), torch.stack([zero, 1 / sy], 1)], 1)
    unshear = torch.stack([torch.stack([one, -shear], 1), torch.stack([zero, one], 1)], 1)
    unturn = torch.stack([torch.stack([cos, sin], 1), torch.stack([-sin, cos], 1)], 1)
    back = unscale @ unshear @ unturn  # output pixel → input pixel, about the centre
    to_unit = torch.tensor([[1.0, h / w], [w / h, 1.0]])  # grid units: x spans w/2 px, y spans h/2 px
    theta = torch.zeros(n, 2, 3)
    theta[:, :, :2] = back * to_unit
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


@dataclass(frozen=True)
class Augment:
    """What training batches go through beyond jitter, light and blur: the shares of batches degraded to
    720p detail (``degrade``) and drawn in other proportions (``stretch``)."""

    degraded: float = 0.0
    stretched: float = 0.0


@dataclass(frozen=True)
class Recipe:
    """How one classifier member trains: the command line's choices (its defaults live there), kept together."""

    minutes: float
    lr: float
    resume: bool
    width: float
    augment: Augment


def classifier_batches(
    crops: np.ndarray, labels: np.ndarray, batch: int, gen: torch.Generator, augment: Augment | None
):
    """Random 64 × 32 crops out of the stored 72 × 40 (±4 px jitter, the locator's error), shuffled and
    augmented; with ``augment`` None, the centred crops in order (validation)."""
    order = torch.randperm(len(labels), generator=gen).numpy() if augment is not None else np.arange(len(labels))
    for i in range(0, len(order), batch):
        idx = order[i : i + batch]
        if augment is not None:
            dx = torch.randint(0, 2 * CROP_MARGIN + 1, (1,), generator=gen).item()
            dy = torch.randint(0, 2 * CROP_MARGIN + 1, (1,), generator=gen).item()
        else:
            dx = dy = CROP_MARGIN
        x = torch.from_numpy(crops[idx, dy : dy + CROP_H, dx : dx + CROP_W]).permute(0, 3, 1, 2).float() / 255
        if augment is not None:
            x = photometric(x, gen)
            if torch.rand(1, generator=gen).item() < augment.stretched:
                x = stretch(x, gen)
            if torch.rand(1, generator=gen).item() < augment.degraded:
                x = degrade(x, gen)
            if torch.rand(1, generator=gen).item() < 0.3:
                x = F.avg_pool2d(F.pad(x, (1, 1, 1, 1), mode="replicate"), 3, 1)
        yield x, torch.from_numpy(labels[idx].astype(np.int64))


def evaluate_classifier(model: nn.Module, crops: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    model.eval()
    gen = torch.Generator().manual_seed(0)
    preds = []
    with torch.no_grad():
        for x, _ in classifier_batches(crops, labels, 512, gen, None):
            preds.append(model(x).argmax(1).numpy())
    pred = np.concatenate(preds)
    cards = labels != NONE
    return {
        "accuracy": float((pred == labels).mean()),
        "card_accuracy": float((pred[cards] == labels[cards]).mean()),
        "none_recall": float((pred[~cards] == NONE).mean()),
        "n": len(labels),
    }


def _cosine(opt: torch.optim.Optimizer, lr: float, start: float, deadline: float) -> None:
    """Cosine learning rate over the wall-clock budget: the machine is shared, so steps/s is not known."""
    frac = min(1.0, (time.monotonic() - start) / (deadline - start))
    for g in opt.param_groups:
        g["lr"] = lr * 0.5 * (1 + np.cos(np.pi * frac))


def _fit(model: nn.Module, steps, lr: float, minutes: float, log, describe, path: Path) -> dict:
    """The training loop both networks share: AdamW with a wall-clock cosine, a usable ONNX after every epoch.

    ``steps(gen)`` yields one epoch of losses-to-be (callables that return the loss of one batch), so the
    loop stays the same for the classifier's crops and the locator's strips; ``describe()`` validates;
    ``path`` is the ONNX file written after every epoch.
    """
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4 if isinstance(model, Classifier) else 1e-4)
    deadline = time.monotonic() + minutes * 60
    start = time.monotonic()
    epoch, step = 0, 0
    name = type(model).__name__.lower()
    while time.monotonic() < deadline:
        model.train()
        for batch_loss in steps():
            _cosine(opt, lr, start, deadline)
            loss = batch_loss()
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if time.monotonic() > deadline:
                break
        epoch += 1
        export(model, EXAMPLE_INPUT[type(model)](), path)
        log(f"{name} epoch {epoch} ({step} steps) loss {loss.item():.3f} val {describe()}")
    return describe() | {"epochs": epoch, "steps": step, "minutes": round((time.monotonic() - start) / 60, 1)}


def _start(model: nn.Module, resume: bool, log, path: Path) -> nn.Module:
    """From scratch, or (``--resume``) from the weights the last run for ``path`` left in ``out/``."""
    weights = Path("out") / f"{path.stem}.pt"
    if resume:
        model.load_state_dict(torch.load(weights))
        log(f"resuming from {weights}")
    return model


def train_classifier(train: dict, val: dict, recipe: Recipe, path: Path, log):
    """One classifier member, trained by ``recipe`` and written to ``path`` after every epoch."""
    gen = torch.Generator().manual_seed(1)
    model = _start(Classifier(len(CLASSES), recipe.width), recipe.resume, log, path)

    def batch_loss(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(model(x), y, label_smoothing=0.05)

    def steps():
        for x, y in classifier_batches(train["crops"], train["labels"], 128, gen, recipe.augment):
            yield functools.partial(batch_loss, x, y)

    def describe() -> dict:
        return evaluate_classifier(model, val["crops"], val["labels"])

    return model, _fit(model, steps, recipe.lr, recipe.minutes, log, describe, path)


def locator_targets(anchors: np.ndarray, counts: np.ndarray) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Gaussian heatmaps (σ = 1 cell), offset targets and the mask of cells that hold an anchor."""
    n = len(counts)
    heat = np.zeros((n, GRID_H, GRID_W), np.float32)
    offset = np.zeros((n, 2, GRID_H, GRID_W), np.float32)
    has = np.zeros((n, GRID_H, GRID_W), np.float32)
    yy, xx = np.mgrid[0:GRID_H, 0:GRID_W].astype(np.float32)
    for i in range(n):
        for ax, ay in anchors[i, : counts[i]] / LOCATOR_STRIDE:
            cx, cy = int(ax), int(ay)
            if not (0 <= cx < GRID_W and 0 <= cy < GRID_H):
                continue
            heat[i] = np.maximum(heat[i], np.exp(-((xx - ax + 0.5) ** 2 + (yy - ay + 0.5) ** 2) / 2))
            heat[i, cy, cx] = 1.0
            offset[i, :, cy, cx] = (ax - cx, ay - cy)
            has[i, cy, cx] = 1.0
    return torch.from_numpy(heat), torch.from_numpy(offset), torch.from_numpy(has)


def locator_loss(out: torch.Tensor, heat, offset, has, masks) -> torch.Tensor:
    """CenterNet focal loss on the heatmap, L1 on offsets at anchors, BCE on the two masks."""
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = has
    neg = (1 - has) * (1 - heat) ** 4
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + neg * p**2 * torch.log(1 - p)).sum() / pos.sum().clamp(min=1)
    off = (F.l1_loss(torch.sigmoid(out[:, 1:3]), offset, reduction="none").sum(1) * has).sum() / has.sum().clamp(min=1)
    mask = F.binary_cross_entropy_with_logits(out[:, 3:5], masks)
    return focal + off + 2 * mask


def _locator_input(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(x).permute(0, 3, 1, 2).float() / 255


def decode_peaks(heat: np.ndarray, offset: np.ndarray, threshold: float = 0.3) -> list[tuple[float, float, float]]:
    """Local maxima of one heatmap above threshold → (u, v, score) in locator-input pixels."""
    padded = np.pad(heat, 1, constant_values=0)
    neighbours = np.stack([padded[dy : dy + GRID_H, dx : dx + GRID_W] for dy in range(3) for dx in range(3)])
    peaks = (heat >= neighbours.max(0)) & (heat > threshold)
    ys, xs = np.nonzero(peaks)
    return [
        ((x + offset[0, y, x]) * LOCATOR_STRIDE, (y + offset[1, y, x]) * LOCATOR_STRIDE, float(heat[y, x]))
        for y, x in zip(ys, xs, strict=True)
    ]


def evaluate_locator(model: nn.Module, data: dict, tolerance: float = 6.0) -> dict[str, float]:
    """Anchor recall and precision (a hit is within ``tolerance`` locator px = 0.6 cm) and position error."""
    model.eval()
    tp = fp = fn = 0
    errors = []
    with torch.no_grad():
        for i in range(0, len(data["loc_n"]), 64):
            out = model(_locator_input(data["loc_x"][i : i + 64])).numpy()
            for j, o in enumerate(out):
                peaks = decode_peaks(1 / (1 + np.exp(-o[0])), 1 / (1 + np.exp(-o[1:3])))
                truth = data["loc_anchor"][i + j, : data["loc_n"][i + j]]
                used = set()
                for u, v, _ in peaks:
                    d = np.hypot(truth[:, 0] - u, truth[:, 1] - v) if len(truth) else np.array([])
                    k = int(d.argmin()) if len(d) else -1
                    if k >= 0 and d[k] < tolerance and k not in used:
                        used.add(k)
                        tp += 1
                        errors.append(d[k])
                    else:
                        fp += 1
                fn += len(truth) - len(used)
    return {
        "recall": tp / max(1, tp + fn),
        "precision": tp / max(1, tp + fp),
        "mean_error_px": float(np.mean(errors)) if errors else float("nan"),
        "anchors": tp + fn,
    }


def train_locator(train: dict, val: dict, minutes: float, log, lr: float = 3e-3, resume: bool = False):
    gen = torch.Generator().manual_seed(2)
    model = _start(Locator(), resume, log, LOCATOR_ONNX)
    n, batch = len(train["loc_n"]), 16

    def batch_loss(idx: np.ndarray) -> torch.Tensor:
        x = photometric(_locator_input(train["loc_x"][idx]), gen)
        heat, offset, has = locator_targets(train["loc_anchor"][idx], train["loc_n"][idx])
        masks = torch.from_numpy(train["loc_mask"][idx].astype(np.float32))
        return locator_loss(model(x), heat, offset, has, masks)

    def steps():
        order = torch.randperm(n, generator=gen).numpy()
        for i in range(0, n - batch + 1, batch):
            yield functools.partial(batch_loss, np.sort(order[i : i + batch]))

    return model, _fit(model, steps, lr, minutes, log, lambda: evaluate_locator(model, val), LOCATOR_ONNX)


EXAMPLE_INPUT = {
    Classifier: lambda: torch.zeros(1, 3, CROP_H, CROP_W),
    Locator: lambda: torch.zeros(1, 3, GRID_H * LOCATOR_STRIDE, GRID_W * LOCATOR_STRIDE),
}


def export(model: nn.Module, example: torch.Tensor, path: Path) -> None:
    """ONNX with a dynamic batch; the torch weights go next to the training data for fine-tuning."""
    model.eval()
    Path("out").mkdir(exist_ok=True)
    torch.save(model.state_dict(), Path("out") / f"{path.stem}.pt")
    torch.onnx.export(
        model,
        (example,),
        str(path),
        input_names=["x"],
        output_names=["y"],
        dynamic_axes={"x": {0: "n"}, "y": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )


def _save_metrics(update: Callable[[dict], None]) -> None:
    """Apply ``update`` to ``metrics.json`` read just before writing (the networks may train in separate
    processes side by side), drop the benchmark figures of the previous models (rerun
    ``python -m benchmarks.vision --record``) and refresh the model card."""
    metrics = json.loads(METRICS_JSON.read_text()) if METRICS_JSON.exists() else {}
    update(metrics)
    metrics.pop("benchmark", None)
    METRICS_JSON.write_text(json.dumps(metrics, indent=2) + "\n")
    write_card()


def main() -> None:
    parser = argparse.ArgumentParser(description="train the card reader's locator and classifier")
    parser.add_argument("--data", type=Path, default=Path("out/data"), help="chunk folder (rendered if empty)")
    parser.add_argument("--frames", type=int, default=1800, help="training frames to render")
    parser.add_argument("--small-frames", type=int, default=0, help="extra training frames to render, all 720p")
    parser.add_argument("--val-frames", type=int, default=300, help="held-out frames to render")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--classifier-minutes", type=float, default=20)
    parser.add_argument("--locator-minutes", type=float, default=15)
    parser.add_argument("--only", choices=["classifier", "locator"], help="train one network, keep the other")
    parser.add_argument("--resume", action="store_true", help="start from the weights in out/ (train further)")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the cosine schedule")
    parser.add_argument(
        "--degrade", type=float, default=0.0, help="share of classifier batches seen at a 720p camera's resolution"
    )
    parser.add_argument(
        "--stretch", type=float, default=0.0, help="share of classifier batches drawn narrower, wider or slanted"
    )
    parser.add_argument("--classifier-width", type=float, default=1.0, help="scales the classifier's channels")
    parser.add_argument(
        "--member",
        type=int,
        choices=range(1, len(CLASSIFIER_PATHS) + 1),
        default=1,
        help="which of the reader's averaged classifiers to train (2: classifier_2.onnx, …); a member other "
        "than the first trains alone and keeps its data and figures apart in metrics.json",
    )
    parser.add_argument(
        "--context",
        action="store_true",
        help=f"train the context classifier ({CONTEXT_FILE}: the index and the card's left side at 10 px/cm) "
        "alone, on the chunks' context crops",
    )
    args = parser.parse_args()
    if (args.member > 1 or args.context) and args.only == "locator":
        what = "--context" if args.context else f"--member {args.member}"
        parser.error(f"{what} trains a classifier: it cannot go with --only locator")
    torch.set_num_threads(int(os.environ.get("TRAIN_THREADS", "2")))
    torch.manual_seed(0)
    args.data.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    render_data(args.data, args.frames, args.small_frames, args.val_frames, args.jobs)
    render_minutes = round((time.monotonic() - t0) / 60, 1)
    train = load(sorted(args.data.glob("train_*.npz")))
    val = load(sorted(args.data.glob("val_*.npz")))
    synth = sorted(args.data.glob("synth_*.npz"))
    if args.context:  # the context crops in place of the index crops; the artwork crops have no context
        if "ctx_crops" not in train or "ctx_crops" not in val:
            raise SystemExit(f"{args.data}: chunks without context crops (rendered before they were cut): render anew")
        train["crops"], val["crops"], synth = train.pop("ctx_crops"), val.pop("ctx_crops"), []
    if synth:  # crops made straight from the artwork (referee_station.render.crops), for the classifier only
        extra = load(synth)
        train["frame_crops"] = len(train["labels"])
        train["crops"] = np.concatenate([train["crops"], extra["crops"]])
        train["labels"] = np.concatenate([train["labels"], extra["labels"]])

    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)

    log(
        f"data: {len(train['loc_n'])} train strips, {len(train['labels'])} train crops; "
        f"{len(val['loc_n'])} val strips, {len(val['labels'])} val crops"
    )
    new = {
        "data": {
            "train_frames": int(len(train["loc_n"]) // 4),
            "train_720_frames": sum(len(np.load(p)["loc_n"]) for p in args.data.glob("train_720_*.npz")) // 4,
            "train_strips": len(train["loc_n"]),
            "train_crops": len(train["labels"]),
            "train_frame_crops": int(train.get("frame_crops", len(train["labels"]))),
            "train_font_crops": sum(len(np.load(p)["labels"]) for p in synth if "fonts" in p.name),
            "val_frames": int(len(val["loc_n"]) // 4),
            "val_crops": len(val["labels"]),
        },
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, torch {torch.__version__}",
    }
    path = CONTEXT_PATH if args.context else CLASSIFIER_PATHS[args.member - 1]

    def fit_classifier() -> dict:
        """Train the chosen member, write its ONNX, return its figures."""
        recipe = Recipe(
            args.classifier_minutes, args.lr, args.resume, args.classifier_width, Augment(args.degrade, args.stretch)
        )
        clf, figures = train_classifier(train, val, recipe, path, log)
        export(clf, EXAMPLE_INPUT[Classifier](), path)
        return figures

    if args.member > 1 or args.context:
        figures = fit_classifier()
        member = figures | {"data": new["data"] | {"render_minutes": render_minutes}, "args": sys.argv[1:]}
        _save_metrics(lambda metrics: metrics.update({path.stem: member}))
        log(f"wrote {path.name}, {METRICS_JSON.name} and the model card: {json.dumps(figures)}")
        return
    if args.only != "locator":
        new["classifier"] = fit_classifier()
    if args.only != "classifier":
        loc, new["locator"] = train_locator(train, val, args.locator_minutes, log, args.lr, args.resume)
        export(loc, EXAMPLE_INPUT[Locator](), LOCATOR_ONNX)

    def update(metrics: dict) -> None:
        if args.resume and args.only != "locator":  # the card tells how the weights came to be, run by run
            before = metrics.get("classifier", {})
            history = [*before.get("history", []), {k: before.get(k) for k in ("minutes", "epochs")}]
            new["classifier"]["history"] = history
        minutes = render_minutes or metrics.get("data", {}).get("render_minutes", 0)
        metrics |= new
        metrics["data"]["render_minutes"] = minutes

    _save_metrics(update)
    log(f"wrote {METRICS_JSON.name} and the model card: {json.dumps(new)}")


if __name__ == "__main__":
    main()
