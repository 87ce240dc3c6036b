"""Compare the visible part of each card in a row with the deck's 54 registered faces.

A card in a play's row (R-PLAY-4) shows its left part, from its left edge to the next card's edge: the
index, a column of big pips or the court's picture, their colour. A 4–5 px index alone (720p) leaves
ranks and same-colour suits in doubt; the pips' shape and layout do not. With the strip at a known scale
and the index anchor found, the same part of every registered face is compared with the strip by
normalised cross-correlation (each colour channel's mean removed, so the light's level and tint drop out
but red against black stays), each pixel weighted by how much the 54 faces differ there, at a few small
turns and shifts, and the best match per card gives its score. Matching runs at the locator's scale (10
px/cm): a 720p camera gives 6–7 px/cm, so finer detail is not there to compare.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee_station.vision.geometry import CARD_H, CARD_W, INDEX_ANCHOR, STRIP_PX_PER_CM
from referee_station.vision.strips import LOCATOR_SCALE, cut

FACE_PX_PER_CM = STRIP_PX_PER_CM
"""The scale registration keeps the faces at (the strip's)."""
MATCH_PX_PER_CM = STRIP_PX_PER_CM / LOCATOR_SCALE
"""The scale faces are compared at: the locator input's."""
FACE_SIZE = (round(CARD_W * FACE_PX_PER_CM), round(CARD_H * FACE_PX_PER_CM))
"""(width, height) px of a kept face."""
ANGLES = (-3.0, 0.0, 3.0)
"""Degrees a face is turned about its index anchor before comparing: cards in a row lie turned by a few
degrees (the row's tilt and each card's own), and 3° moves a pip 4.4 cm below the anchor by 2 px. Five
turns (±4°, ±2°, 0) and two px of shift read 2.7 points more cards alone but 0.6 more mixed with the
classifiers, at four times the cost (docs/deck.md)."""
SHIFT = 1
"""Match px the window is moved each way about the anchor: the locator's anchor error (median 1.5 strip
px, 0.75 match px)."""
BLUR = 0.8
"""Gaussian sigma (match px) applied to faces and strips alike: what a camera's optics and resampling do."""
_PAD = 0.6
"""cm of canvas round a face, so a turned face keeps its corners."""
_TOP, _BOTTOM = 0.15, 0.15
"""cm left out inside the card's top and bottom edges (its rounded corners, the cloth beside them)."""
_LEFT = 0.15
"""cm left out inside the card's left edge."""
_RIGHT = 0.3
"""cm left out before the next card's left edge: two cards of a row turn a little against each other."""
_MIN_WIDTH = 1.0
"""cm: the narrowest part compared, where the next anchor lies closer than any row lays two cards."""


def _canvas_anchor() -> tuple[int, int]:
    return round((INDEX_ANCHOR[0] + _PAD) * MATCH_PX_PER_CM), round((INDEX_ANCHOR[1] + _PAD) * MATCH_PX_PER_CM)


def _span() -> tuple[int, int, int]:
    """(x0, y0, y1): the compared part's left column and its rows on the canvas (every card shows them;
    only its right end, the next card's edge, differs)."""
    s = MATCH_PX_PER_CM
    ax, ay = _canvas_anchor()
    return (
        ax - round((INDEX_ANCHOR[0] - _LEFT) * s),
        ay - round((INDEX_ANCHOR[1] - _TOP) * s),
        ay + round((CARD_H - INDEX_ANCHOR[1] - _BOTTOM) * s),
    )


@dataclass(frozen=True)
class FaceBank:
    """The 54 faces ready for comparing: each turned by every one of ``ANGLES`` about its index anchor on
    a canvas where the anchor lies at a fixed pixel, blurred like a strip, weighted (``weights``), and
    summed column by column, so that a comparison of any width costs one matrix product."""

    codes: tuple[str, ...]
    weights: np.ndarray
    """(angles, rows, canvas width): the square root of how much the faces differ at each pixel (their
    standard deviation over the 54), so the comparison looks where cards differ (the index, the pips)
    rather than where all are alike (the white, the edges, the card under it)."""
    weighted: np.ndarray
    """(angles, canvas width, rows · 3, codes): each face × its turn's weights, column-major."""
    sums: dict[str, np.ndarray]
    """Column prefix sums from the compared part's left column: "t" (angles, codes, 3) of the faces,
    "tw2" of face × weight², "t2w2" (angles, codes) of face² × weight², "w2" (angles,) of weight², "n"
    pixels."""

    @classmethod
    def from_faces(cls, codes: tuple[str, ...], faces: np.ndarray) -> FaceBank:
        """``faces``: (len(codes), h, w, 3) uint8 BGR at ``FACE_PX_PER_CM`` (upright, as registration keeps
        them)."""
        if faces.ndim != 4 or faces.shape[0] != len(codes) or faces.shape[3] != 3:
            raise ValueError(f"faces must be ({len(codes)}, h, w, 3), got {faces.shape}")
        s = MATCH_PX_PER_CM
        w, h = round((CARD_W + 2 * _PAD) * s), round((CARD_H + 2 * _PAD) * s)
        ax, ay = _canvas_anchor()
        card = (round(CARD_W * s), round(CARD_H * s))
        x0, y0, y1 = _span()
        t = np.empty((len(ANGLES), len(codes), y1 - y0, w, 3), np.float32)
        for i, face in enumerate(faces):
            small = cv2.resize(face, card, interpolation=cv2.INTER_AREA).astype(np.float32)
            canvas = cv2.copyMakeBorder(small, *(round(_PAD * s),) * 4, cv2.BORDER_REPLICATE)
            for j, angle in enumerate(ANGLES):
                m = cv2.getRotationMatrix2D((ax, ay), angle, 1.0)
                turned = cv2.warpAffine(canvas, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                t[j, i] = cv2.GaussianBlur(turned, (0, 0), BLUR)[y0:y1]
        spread = t.std(1).mean(3)
        weight = np.sqrt(spread / spread.max())  # (angles, rows, width)
        w2 = (weight * weight)[:, None, :, :, None]
        weighted = (t * weight[:, None, :, :, None]).transpose(0, 3, 2, 4, 1).reshape(len(ANGLES), w, -1, len(codes))

        sums = {
            "t": _prefix(t[..., x0:, :], channels=True),
            "tw2": _prefix((t * w2)[..., x0:, :], channels=True),
            "t2w2": _prefix((t * t * w2).sum(4)[..., x0:], channels=False),
            "w2": _prefix((weight * weight)[..., x0:], channels=False),
            "n": np.arange(w - x0 + 1) * (y1 - y0),
        }
        return cls(tuple(codes), weight, np.ascontiguousarray(weighted), sums)

    def scores(self, loc: np.ndarray, u: float, v: float, width_cm: float) -> np.ndarray:
        """NCC (−1..1) of each face with the card whose index anchor lies at strip px (u, v) in ``loc``
        (the strip at the locator's scale), over the part ``width_cm`` wide from the card's left edge
        (the distance to the next card's left edge; the card's width for the row's last card): each
        colour channel's mean taken from face and window, both weighted, at every turn and shift, the
        best per face."""
        s = MATCH_PX_PER_CM
        ax, ay = _canvas_anchor()
        x0, y0, y1 = _span()
        width_cm = min(max(width_cm, _MIN_WIDTH + _LEFT + _RIGHT), CARD_W)
        right = _RIGHT if width_cm < CARD_W else _LEFT
        x1 = ax + round((width_cm - INDEX_ANCHOR[0] - right) * s)
        k = x1 - x0
        cu, cv_ = round(u / LOCATOR_SCALE), round(v / LOCATOR_SCALE)
        region = cut(loc, cu - (ax - x0) - SHIFT, cv_ - (ay - y0) - SHIFT, k + 2 * SHIFT, y1 - y0 + 2 * SHIFT)
        region = cv2.GaussianBlur(region.astype(np.float32), (0, 0), BLUR)
        side = 2 * SHIFT + 1
        windows = np.lib.stride_tricks.sliding_window_view(region, (y1 - y0, k), axis=(0, 1))[:side, :side]
        windows = windows.transpose(0, 1, 4, 3, 2).reshape(side * side, k, y1 - y0, 3)  # column-major
        windows = windows - windows.mean((1, 2), keepdims=True)
        weight = self.weights[:, :, x0:x1].transpose(0, 2, 1)[:, None, :, :, None]  # (angles, 1, k, rows, 1)
        xw = windows[None] * weight
        xw = xw / np.maximum(np.sqrt((xw * xw).sum((2, 3, 4), keepdims=True)), 1e-6)
        xw_sum = (xw * weight).sum((2, 3))  # (angles, offsets, 3): Σ w·x̂ per channel
        tw = self.weighted[:, x0:x1].reshape(len(ANGLES), -1, len(self.codes))
        # einsum, not matmul: OpenBLAS's threads on a busy 2-core station took 40× longer (docs/deck.md)
        dot = np.einsum("aon,anc->aoc", xw.reshape(len(ANGLES), side * side, -1), tw)  # (angles, offsets, codes)
        n, t = self.sums["n"][k], self.sums["t"][..., k, :]  # t: (angles, codes, 3)
        mean = t / n
        dot -= np.einsum("aoh,ach->aoc", xw_sum, mean)
        norm2 = (
            self.sums["t2w2"][..., k]
            - 2 * (mean * self.sums["tw2"][..., k, :]).sum(2)
            + (mean * mean).sum(2) * self.sums["w2"][:, None, k]
        )
        ncc = dot / np.sqrt(np.maximum(norm2, 1e-6))[:, None, :]
        return ncc.max((0, 1))


def _prefix(x: np.ndarray, channels: bool) -> np.ndarray:
    """(..., rows, columns[, 3]) → summed over the rows, then cumulated along the columns from zero: entry
    k is the sum over the first k columns."""
    cols = x.sum(-3 if channels else -2)
    axis = -2 if channels else -1
    zero = np.zeros_like(np.take(cols, [0], axis=axis))
    return np.concatenate([zero, cols], axis=axis).cumsum(axis, dtype=np.float64)


def face_probabilities(scores: np.ndarray, sharpness: float) -> np.ndarray:
    """Scores (N, 54) → probabilities over the 54 cards (softmax of ``sharpness`` × NCC)."""
    z = sharpness * (scores - scores.max(1, keepdims=True))
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def strip_faces(faces: dict[str, np.ndarray], codes: tuple[str, ...]) -> np.ndarray:
    """Cut faces (BGRA or BGR at any size, upright) → (len(codes), h, w, 3) uint8 at ``FACE_PX_PER_CM``:
    what a deck profile keeps. Transparent corners become the card's white."""
    out = np.empty((len(codes), FACE_SIZE[1], FACE_SIZE[0], 3), np.uint8)
    for i, code in enumerate(codes):
        face = faces[code]
        bgr = face[..., :3].astype(np.float32)
        if face.shape[2] == 4:
            a = face[..., 3:4].astype(np.float32) / 255
            white = np.percentile(bgr[face[..., 3] > 0], 95, axis=0)
            bgr = bgr * a + white * (1 - a)
        out[i] = cv2.resize(bgr, FACE_SIZE, interpolation=cv2.INTER_AREA).clip(0, 255).astype(np.uint8)
    return out
