"""How hard a camera compresses its frames: the JPEG quality a decoded frame was compressed at.

A USB camera sends 1080p as MJPEG, and its encoder's quality is a setting the organiser rarely sees. A deck
whose index suit is a 4 mm mark reads far worse from frames compressed under quality 75 than above
(docs/deck.md): the quantisation erases the few pixels in which ♠ differs from ♣. A decoded frame still
shows its compression: JPEG divides each 8 × 8 block's cosine coefficients of the luma by a step and
rounds them, so the coefficients of the decoded frame cluster at multiples of that step. ``jpeg_quality``
finds the steps and the quality of the standard (IJG) tables nearest them. A frame compressed twice shows
the coarser steps of the two, so a still re-saved from a camera's frame tells the harsher compression.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

BLOCK = 8
IJG_LUMA = np.array(
    [
        [16, 11, 10, 16, 24, 40, 51, 61],
        [12, 12, 14, 19, 26, 58, 60, 55],
        [14, 13, 16, 24, 40, 57, 69, 56],
        [14, 17, 22, 29, 51, 87, 80, 62],
        [18, 22, 37, 56, 68, 109, 103, 77],
        [24, 35, 55, 64, 81, 104, 113, 92],
        [49, 64, 78, 87, 103, 121, 120, 101],
        [72, 92, 95, 98, 112, 100, 103, 99],
    ],
    dtype=np.int64,
)
"""The luminance quantisation table of the JPEG standard (ITU T.81, Annex K), which libjpeg scales by quality
and most camera encoders follow."""
MAX_STEP = 64
"""The largest quantisation step looked for: quality 25 gives steps up to 64 at the frequencies judged;
harsher compression reads as about 20."""
MIN_COEFFICIENTS = 200
"""Coefficients a frequency needs away from zero before its step is judged."""
MAX_BLOCKS = 32_400
"""Blocks judged, evenly spread over the frame: a 1080p frame's all, a 4K frame's every fourth (a quarter of
the time; rendered 4K frames compressed at 25–96 still read exactly)."""
LOW = 5
"""The frequencies judged: u + v up to this, those that carry an index mark of a few pixels. An encoder with
tables of its own is named by how hard it quantises them (the standard tables all keep the same shape)."""
MIN_STEPS = 8
"""Frequencies (of the 20 judged) whose step must be found before a quality is named: a frame shrunk after
decoding keeps one or two chance clusters; quality 96 or less shows 8 or more."""
PERIODIC = 0.6
"""How closely (0–1) a frequency's coefficients must sit at the multiples of a step for it to be that step:
rounded coefficients of a decoded frame give 0.8–1, an uncompressed frame's under 0.2."""


def _dct_matrix() -> np.ndarray:
    k = np.arange(BLOCK)
    d = np.cos((2 * k[None, :] + 1) * k[:, None] * math.pi / (2 * BLOCK)) * math.sqrt(2 / BLOCK)
    d[0] /= math.sqrt(2)
    return d


_DCT = _dct_matrix()


def ijg_table(quality: int) -> np.ndarray:
    """The luminance steps libjpeg uses at ``quality`` (1–100; ``jpeg_quality_scaling``, whole numbers)."""
    scale = 5000 // quality if quality < 50 else 200 - 2 * quality
    return np.clip((IJG_LUMA * scale + 50) // 100, 1, 255)


_TABLES = np.stack([ijg_table(q) for q in range(1, 101)])


def coefficients(frame: np.ndarray) -> np.ndarray:
    """The cosine coefficients of the frame's luma in JPEG's 8 × 8 blocks from its top-left pixel, (blocks, 8, 8)."""
    luma = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)[..., 0] if frame.ndim == 3 else frame
    h, w = (luma.shape[0] // BLOCK) * BLOCK, (luma.shape[1] // BLOCK) * BLOCK
    blocks = luma[:h, :w].astype(np.float64).reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK).swapaxes(1, 2)
    return (_DCT @ (blocks.reshape(-1, BLOCK, BLOCK) - 128.0) @ _DCT.T).astype(np.float32)


def step_of(values: np.ndarray) -> int | None:
    """The quantisation step of one frequency's coefficients ``values``: the step at whose multiples they sit
    most closely (those at least half a step from zero judged; the larger on a tie). The decoder's rounding
    moves a coefficient by a fraction of a unit, which a divisor of the step feels more and a step one
    larger (11 for 10) far more. None where no step above 1 fits ``PERIODIC``, or too few coefficients are
    left to judge."""
    fit = {}
    for step in range(2, MAX_STEP + 1):
        away = values[np.abs(values) >= step / 2]
        if len(away) >= MIN_COEFFICIENTS:
            fit[step] = float(np.cos(2 * np.pi * away / step).mean())
    best = max(fit, key=lambda step: (fit[step], step), default=None)
    return None if best is None or fit[best] < PERIODIC else best


def jpeg_quality(frame: np.ndarray) -> int | None:
    """The IJG quality (1–100) whose luminance steps lie nearest the steps found in the frame's low
    frequencies (in ratio; the median of equally near ones), or None where fewer than ``MIN_STEPS`` of them
    show a step: the frame was not compressed, or at quality 97 or more (nearly every step there 1 or 2), or
    it was resized or cropped off the block grid after decoding, or it comes from an MPEG-4 video (mp4v) rather than
    JPEG. An encoder with tables of its own gets the standard quality nearest them."""
    c = coefficients(frame)
    c = c[:: max(1, -(-len(c) // MAX_BLOCKS))]
    found = {(u, v): step_of(c[:, u, v]) for u in range(BLOCK) for v in range(BLOCK) if 0 < u + v <= LOW}
    steps = {uv: s for uv, s in found.items() if s is not None}
    if len(steps) < MIN_STEPS:
        return None
    rows, cols = zip(*steps, strict=True)
    measured = np.array(list(steps.values()), dtype=np.float64)
    distance = np.abs(np.log(_TABLES[:, rows, cols] / measured)).sum(axis=1)
    nearest = np.flatnonzero(distance <= distance.min() + 1e-9) + 1
    return round(float(np.median(nearest)))
