"""Index crops of one registered deck, synthesised from its 54 card faces.

The same recipe as the generic training crops (``referee_station/render/crops.py``): the card slightly turned and
shifted at the strip's scale, often over the previous card of the row, then taken down to a camera's
resolution, blurred, lit, noised, JPEG-coded and brought back up, which is what the frame → strip path
does to a real index. Differences, and why: faces come from the registration photos instead of artwork
files, the crop is cut at the classifier's input size with the locator's anchor error (a few px)
applied directly, a share of "none" crops are plain cloth or face interiors so the fitted head keeps
rejecting locator false alarms, and the resolution reaches down to ``MIN_PX_PER_CM``.
"""

from __future__ import annotations

import random

import cv2
import numpy as np

from referee_station.render.artwork import CARD_PX
from referee_station.render.compose import over, place
from referee_station.rules import DECK
from referee_station.vision.geometry import CARD_H, CARD_W, INDEX_ANCHOR, INDEX_CROP, STRIP_PX_PER_CM
from referee_station.vision.reader import CLASSES
from referee_station.vision.strips import CROP_H, CROP_W, index_span

NONE = len(CLASSES) - 1
CODES = tuple(c.code for c in DECK)
_ANCHOR = (INDEX_ANCHOR[0] / CARD_W * CARD_PX[0], INDEX_ANCHOR[1] / CARD_H * CARD_PX[1])
MIN_PX_PER_CM, MAX_PX_PER_CM = 5.5, 11.5
"""The camera resolutions a crop is synthesised at. CLOTH.md's 1280 × 720 camera spans the 90 cm cloth in
533–667 px (5.9–7.4 px/cm at the centre, less on the far side of a tilted camera), below the generic
crops' 6.5, and most misreads of a registered deck are in 720p frames (docs/vision-history.md, seventh
session)."""
SHARP_SHARE, SHARP_PX_PER_CM = 0.15, 21.0
"""A share of the crops is synthesised at a 4K camera's detail instead (``MAX_PX_PER_CM`` up to this): a
deck whose suit mark a 1080p camera blurs is read at 4K, and the fitted classifiers must know it sharp."""


def _place(face: np.ndarray, angle: float, at: tuple[float, float], canvas_w: int) -> np.ndarray:
    """The face turned by ``angle`` with its index anchor at crop pixel ``at`` of a canvas ``canvas_w`` wide."""
    return place(face, _ANCHOR, angle, at, (canvas_w, CROP_H))


def _camera(rng: random.Random, canvas: np.ndarray) -> np.ndarray:
    """Resolution, light, blur, noise and JPEG of a camera, then to the classifier's input (the strip's
    scale, squeezed across where the crop is wider than the generic one)."""
    sharp = rng.random() < SHARP_SHARE
    cam = rng.uniform(*((MAX_PX_PER_CM, SHARP_PX_PER_CM) if sharp else (MIN_PX_PER_CM, MAX_PX_PER_CM)))
    cam = min(cam, STRIP_PX_PER_CM) / STRIP_PX_PER_CM
    size = (round(canvas.shape[1] * cam), round(CROP_H * cam))
    small = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
    ramp = np.linspace(rng.uniform(-25, 25), rng.uniform(-25, 25), small.shape[0], dtype=np.float32)[:, None, None]
    small = small * rng.uniform(0.65, 1.25) + ramp * (rng.random() < 0.3)
    sigma = rng.uniform(0.0, 1.0)
    if sigma > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    noise = np.random.default_rng(rng.randrange(2**32)).standard_normal(small.shape, dtype=np.float32)
    small = np.clip(small + np.float32(rng.uniform(1, 7)) * noise, 0, 255).astype(np.uint8)
    _, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(55, 95)])
    return cv2.resize(cv2.imdecode(buf, cv2.IMREAD_COLOR), (CROP_W, CROP_H), interpolation=cv2.INTER_LINEAR)


def synth_crop(
    rng: random.Random, faces: dict[str, np.ndarray], label: int, jitter: float = 3.0, width: float = INDEX_CROP[0]
) -> np.ndarray:
    """One classifier-size crop (CROP_H × CROP_W × 3 uint8) of ``CLASSES[label]`` (or "none"), ``width``
    cm of the card wide (``referee_station.vision.strips.crop_index``)."""
    canvas_w, right = index_span(width)
    canvas = np.empty((CROP_H, canvas_w, 3), np.float32)
    canvas[:] = np.array([rng.randint(10, 80) for _ in range(3)], np.float32)
    anchor_x = canvas_w / 2 - right
    centre = (anchor_x + rng.uniform(-jitter, jitter), CROP_H / 2 + rng.uniform(-jitter, jitter))
    if rng.random() < 0.7:  # the previous card of the row, under this one, to its left
        step = rng.uniform(2.0, 3.4) * STRIP_PX_PER_CM
        at = (centre[0] - step, centre[1] + rng.gauss(0, 3))
        canvas = over(canvas, _place(faces[rng.choice(CODES)], rng.gauss(0, 1.5), at, canvas_w), 0)
    shadow = rng.uniform(0.1, 0.5)
    if label == NONE:
        kind = rng.random()
        if kind < 0.6:  # somewhere inside a face, or just beside its index
            off = (rng.uniform(14, 120), rng.uniform(20, 150)) if kind < 0.4 else (rng.uniform(-40, 40), 45)
            at = (centre[0] - off[0], centre[1] - off[1])
            canvas = over(canvas, _place(faces[rng.choice(CODES)], rng.gauss(0, 2), at, canvas_w), shadow)
        elif kind < 0.8:  # a face's edge or far corner, turned round
            face = faces[rng.choice(CODES)][::-1, ::-1] if rng.random() < 0.5 else faces[rng.choice(CODES)]
            angle, at = rng.uniform(-90, 90), (rng.uniform(-20, 50), rng.uniform(-20, 80))
            canvas = over(canvas, _place(face, angle, at, canvas_w), shadow)
        # else: bare cloth (and the card under it, if any)
    else:
        canvas = over(canvas, _place(faces[CLASSES[label]], rng.gauss(0, 2), centre, canvas_w), shadow)
    return _camera(rng, canvas)


def synth_crops(
    faces: dict[str, np.ndarray], per_card: int, seed: int, none_share: float = 0.2, width: float = INDEX_CROP[0]
) -> tuple[np.ndarray, np.ndarray]:
    """``per_card`` crops of each of the 54 cards plus "none" crops (``none_share`` of all), shuffled,
    ``width`` cm of each card wide."""
    rng = random.Random(seed)
    n_none = round(per_card * len(CODES) * none_share / (1 - none_share))
    labels = [i for i in range(len(CODES)) for _ in range(per_card)] + [NONE] * n_none
    rng.shuffle(labels)
    crops = np.stack([synth_crop(rng, faces, lab, width=width) for lab in labels])
    return crops, np.array(labels, np.int16)
