"""Index crops synthesised straight from the artwork: many more crops per CPU second than full frames.

A crop is built at the strip's scale (20 px/cm) around a card's index anchor (the card slightly turned
and shifted, the previous card or the cloth to its left), then taken down to a camera's resolution
(6.5–11.5 px/cm), blurred, lit, noised, JPEG-coded and brought back up, which is what the frame →
strip path does to a real index. Mixed with the crops cut from rendered frames, it widens what the
classifier sees of each design without the cost of rendering whole frames.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from referee_station.render.artwork import CARD_PX, TRAIN_DESIGNS, Design, load_design
from referee_station.render.compose import over, place
from referee_station.render.dataset import CLASSES, CROP_MARGIN, NONE
from referee_station.vision.geometry import CARD_H, CARD_W, INDEX_ANCHOR, STRIP_PX_PER_CM
from referee_station.vision.strips import CROP_H, CROP_W

W, H = CROP_W + 2 * CROP_MARGIN, CROP_H + 2 * CROP_MARGIN


def synth_crop(rng: random.Random, art: Design, label: int) -> np.ndarray:
    """One stored-size crop (H × W × 3 uint8) of ``CLASSES[label]`` (or a "none" crop) in design ``art``."""
    codes = list(art.faces)
    cloth = np.array([rng.randint(10, 80) for _ in range(3)], np.float32)
    canvas = np.empty((H, W, 3), np.float32)
    canvas[:] = cloth
    centre = (W / 2 + rng.gauss(0, 1.5), H / 2 + rng.gauss(0, 1.5))
    anchor = (INDEX_ANCHOR[0] / CARD_W * CARD_PX[0], INDEX_ANCHOR[1] / CARD_H * CARD_PX[1])
    shadow = rng.uniform(0.1, 0.5)
    if rng.random() < 0.7:  # the previous card, under this one, to its left
        step = rng.uniform(2.0, 3.4) * STRIP_PX_PER_CM
        under = art.faces[rng.choice(codes)]
        at = (centre[0] - step, centre[1] + rng.gauss(0, 3))
        canvas = over(canvas, place(under, anchor, rng.gauss(0, 1.5), at, (W, H)), 0)
    if label == NONE:
        kind = rng.random()
        face = art.back if kind < 0.2 else art.faces[rng.choice(codes)]
        dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)])
        off = (dx * rng.uniform(14, 60), dy * rng.uniform(14, 70))
        if kind < 0.35 or rng.random() < 0.5:
            off = (rng.uniform(14, 120), rng.uniform(20, 150))  # somewhere inside the face
        canvas = over(
            canvas, place(face, anchor, rng.gauss(0, 2), (centre[0] - off[0], centre[1] - off[1]), (W, H)), shadow
        )
    else:
        face = art.faces[CLASSES[label]]
        canvas = over(canvas, place(face, anchor, rng.gauss(0, 2), centre, (W, H)), shadow)
    # the camera: its resolution, light, blur, noise, JPEG, then back up to the strip's scale
    cam = rng.uniform(6.5, 11.5) / STRIP_PX_PER_CM
    small = cv2.resize(canvas, (max(4, round(W * cam)), max(4, round(H * cam))), interpolation=cv2.INTER_AREA)
    gain = rng.uniform(0.65, 1.25)
    ramp = np.linspace(rng.uniform(-25, 25), rng.uniform(-25, 25), small.shape[0], dtype=np.float32)[:, None, None]
    small = small * gain + ramp * (rng.random() < 0.3)
    sigma = rng.uniform(0.0, 0.9)
    if sigma > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    small += np.float32(rng.uniform(1, 7)) * np.random.default_rng(rng.randrange(2**32)).standard_normal(
        small.shape, dtype=np.float32
    )
    small = np.clip(small, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(55, 95)])
    small = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR)


def synth_crops(
    n: int, seed: int, designs: Sequence[Design], none_share: float = 0.25
) -> tuple[np.ndarray, np.ndarray]:
    """n crops and their labels, classes balanced, ``none_share`` of them "none"."""
    rng = random.Random(seed)
    labels = np.array([NONE if rng.random() < none_share else rng.randrange(NONE) for _ in range(n)], np.int16)
    crops = np.stack([synth_crop(rng, rng.choice(designs), int(lab)) for lab in labels])
    return crops, labels


def main() -> None:
    parser = argparse.ArgumentParser(description="synthesise index crops from the training designs")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--n", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--font-designs",
        type=int,
        default=0,
        help="draw crops from this many font designs (referee_station.render.fonts) instead of the aisleriot ones",
    )
    args = parser.parse_args()
    start = time.monotonic()
    if args.font_designs:
        from referee_station.render.fonts import FontDesign

        designs = [FontDesign(args.seed * 1000 + i).design() for i in range(args.font_designs)]
    else:
        designs = [load_design(name) for name in TRAIN_DESIGNS]
    crops, labels = synth_crops(args.n, args.seed, designs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, crops=crops, labels=labels)
    print(f"{args.out}: {len(labels)} crops, {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
