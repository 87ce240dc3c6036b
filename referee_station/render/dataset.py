"""Render frames and cut them into the two training sets: locator strips and index crops.

Run as ``python -m referee_station.render.dataset --out DIR --frames N --seed S [--heldout]``: one ``.npz`` chunk per
call, so several processes can render in parallel. Training crops come from real rendered frames
rectified with slightly wrong corners, exactly as the station will cut them.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from referee_station.render.artwork import HELDOUT_DESIGNS, TRAIN_DESIGNS
from referee_station.render.render import render
from referee_station.render.scene import SMALL_FRAMES, random_scene
from referee_station.rules import DECK
from referee_station.vision.geometry import DRAW_ORDER, INDEX_CROP
from referee_station.vision.strips import (
    GRID_H,
    GRID_W,
    LOCATOR_SCALE,
    cloth_to_strip,
    crop_context,
    crop_index,
    locator_input,
    rectify,
    strip_masks,
)

CLASSES = [c.code for c in DECK] + ["none"]
"""Classifier labels: the 54 card codes, then "none" (not a card's index)."""
NONE = len(CLASSES) - 1
CROP_MARGIN = 4
"""Crops are stored this many pixels larger on each side, for the jitter augmentation."""
MAX_CARDS = 12


def _negatives(rng: random.Random, strip: np.ndarray, anchors: np.ndarray, k: int) -> list[tuple[float, float]]:
    """Strip points whose crops are not a card's index: anywhere at least 0.7 cm from every anchor."""
    out = []
    tries = 0
    while len(out) < k and tries < 50:
        tries += 1
        if len(anchors) and rng.random() < 0.6:  # near misses: just beside a real index
            a = anchors[rng.randrange(len(anchors))]
            u, v = a[0] + rng.uniform(-40, 40), a[1] + rng.uniform(-40, 60)
        else:
            u, v = rng.uniform(0, strip.shape[1]), rng.uniform(0, strip.shape[0])
        if len(anchors) and np.min(np.hypot(anchors[:, 0] - u, anchors[:, 1] - v)) < 14:
            continue
        out.append((u, v))
    return out


def generate(
    frames: int,
    seed: int,
    heldout: bool,
    designs: tuple[str, ...] = (),
    small_frames: float = SMALL_FRAMES,
    index_width: float = INDEX_CROP[0],
    large_frames: float = 0.0,
) -> dict[str, np.ndarray]:
    """``frames`` random scenes → locator strips with their anchors and masks, and index crops with their
    labels and the same points' context crops (``ctx_crops``, for the context classifier). ``designs``:
    the card artwork to draw (default: the training or held-out designs); deck registration passes the
    registered deck's faces, installed as a design. ``small_frames``: the share of 720p cameras.
    ``index_width``: the cm of each card its index crops take (a registered deck's own width).
    ``large_frames``: the share of 4K cameras."""
    rng = random.Random(seed)
    designs = designs or (HELDOUT_DESIGNS if heldout else TRAIN_DESIGNS)
    loc_x, loc_anchor, loc_n, loc_mask, crops, context, labels = [], [], [], [], [], [], []
    for _ in range(frames):
        sizes = {"small_frames": small_frames, "large_frames": large_frames}
        scene = random_scene(rng, rng.choice(designs), heldout_look=heldout, arms=0.15, **sizes)
        frame = render(scene)
        corners = frame.corners + np.array([[rng.gauss(0, 1.5), rng.gauss(0, 1.5)] for _ in range(4)])
        strips = rectify(frame.image, corners)
        for seat in DRAW_ORDER:
            truth, strip = frame.truth[seat], strips[seat]
            faces = [c for c in scene.seats[seat].play if c.face_up]
            anchors = cloth_to_strip(seat, truth.anchors) if len(truth.anchors) else np.zeros((0, 2))
            anchors = anchors[: len(faces)] if faces else np.zeros((0, 2))
            masks = strip_masks(seat, truth.card_quads, truth.occluders)
            # where the screen hides the cloth: no label to learn from either (not an occluder to the locator)
            hidden = strip_masks(seat, (), (truth.screen,))[1] | masks[1]
            loc = locator_input(strip)
            loc_x.append(loc)
            padded = np.full((MAX_CARDS, 2), -1.0, np.float32)
            padded[: len(anchors)] = anchors / LOCATOR_SCALE
            loc_anchor.append(padded)
            loc_n.append(len(anchors))
            loc_mask.append(masks)
            for card, a in zip(faces, anchors, strict=True):
                cell = (a / (LOCATOR_SCALE * 4)).astype(int)
                if 0 <= cell[1] < GRID_H and 0 <= cell[0] < GRID_W and hidden[cell[1], cell[0]]:
                    continue  # its index is under an arm or behind the screen: no label to learn from
                crops.append(crop_index(strip, a[0], a[1], CROP_MARGIN, index_width))
                context.append(crop_context(loc, a[0], a[1], CROP_MARGIN))
                labels.append(CLASSES.index(card.code))
            for u, v in _negatives(rng, strip, anchors, 2 if len(anchors) else 3):
                crops.append(crop_index(strip, u, v, CROP_MARGIN, index_width))
                context.append(crop_context(loc, u, v, CROP_MARGIN))
                labels.append(NONE)
    return {
        "loc_x": np.stack(loc_x),
        "loc_anchor": np.stack(loc_anchor),
        "loc_n": np.array(loc_n, np.int16),
        "loc_mask": np.stack(loc_mask),
        "crops": np.stack(crops),
        "ctx_crops": np.stack(context),
        "labels": np.array(labels, np.int16),
    }


@dataclass(frozen=True)
class Chunk:
    """One ``python -m referee_station.render.dataset`` call: its output file, frames, seed and extra arguments."""

    name: str
    frames: int
    seed: int
    extra: tuple[str, ...] = ()

    def command(self, data_dir: Path) -> list[str]:
        out, frames, seed = str(data_dir / self.name), str(self.frames), str(self.seed)
        return [
            sys.executable,
            "-m",
            "referee_station.render.dataset",
            "--out",
            out,
            "--frames",
            frames,
            "--seed",
            seed,
            *self.extra,
        ]


CHUNK_FRAMES = 900
"""Frames per rendered training chunk: chunk k has seed k, so a bigger ``--frames`` keeps the old chunks."""


def _chunks(prefix: str, total: int, size: int, first_seed: int, extra: tuple[str, ...] = ()) -> list[Chunk]:
    """The chunks of at most ``size`` frames that make up ``total`` frames, seeds counting up."""
    return [
        Chunk(f"{prefix}_{k + 1}.npz", min(size, total - k * size), first_seed + k, extra)
        for k in range(-(-total // size))
    ]


def plan_chunks(frames: int, small_frames: int, val_frames: int) -> list[Chunk]:
    """The training chunks, the extra 720p chunks (1280 × 720 cameras only: an index there is 4-5 px
    tall, and most misreads happen there) and the one held-out validation chunk."""
    chunks = _chunks("train", frames, CHUNK_FRAMES, 1)
    chunks += _chunks("train_720", small_frames, CHUNK_FRAMES // 2, 21, ("--small-frames", "1.0"))
    return [*chunks, Chunk("val_1.npz", val_frames, 1000, ("--heldout",))]


def render_data(data_dir: Path, frames: int, small_frames: int, val_frames: int, jobs: int) -> None:
    """Render ``plan_chunks`` into ``data_dir``, one process per chunk, ``jobs`` at a time; chunks
    already there are kept."""
    chunks = plan_chunks(frames, small_frames, val_frames)
    commands = [c.command(data_dir) for c in chunks if not (data_dir / c.name).exists()]
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        codes = list(pool.map(lambda cmd: subprocess.run(cmd).returncode, commands))
    if any(codes):
        raise SystemExit("rendering the training data failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--frames", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--heldout", action="store_true", help="the held-out design and looks (validation)")
    parser.add_argument("--small-frames", type=float, default=SMALL_FRAMES, help="share of 1280 × 720 cameras")
    args = parser.parse_args()
    start = time.monotonic()
    data = generate(args.frames, args.seed, args.heldout, small_frames=args.small_frames)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **data)
    print(f"{args.out}: {args.frames} frames, {len(data['labels'])} crops, {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
