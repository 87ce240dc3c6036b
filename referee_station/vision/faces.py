"""Compare the visible part of each card in a row with the deck's 54 registered faces.

A card in a play's row (R-PLAY-4) shows its left part, from its left edge to the next card's edge: the
index, a column of big pips or the court's picture, their colour. A 4–5 px index alone (720p) leaves
ranks and same-colour suits in doubt; the pips' shape and layout do not. With the strip at a known scale
and the index anchor found, the same part of every registered face is compared with the strip by
normalised cross-correlation (each colour channel's mean removed, so the light's level and tint drop out
but red against black stays), each pixel weighted by how much the 54 faces differ there, at a few small
turns and shifts, and the best match per card gives its score. The whole visible part is compared at
the locator's scale (10 px/cm: a 720p camera gives 6–7 px/cm, a 1080p one 8–11), against all 54; the best
few readings are then compared again on the index and the first pips alone at the strip's scale with a
wider search about the anchor (``Faces``), where a court's or a number card's suit within its colour is
told apart by a few pixels that the whole part's score, dominated by what the readings share, drowns.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

from referee_station.vision.geometry import CARD_H, CARD_W, INDEX_ANCHOR, STRIP_PX_PER_CM
from referee_station.vision.strips import LOCATOR_SCALE, cut

FACE_PX_PER_CM = STRIP_PX_PER_CM
"""The scale registration keeps the faces at (the strip's)."""
MATCH_PX_PER_CM = STRIP_PX_PER_CM / LOCATOR_SCALE
"""The scale the whole visible part is compared at: the locator input's."""
FACE_SIZE = (round(CARD_W * FACE_PX_PER_CM), round(CARD_H * FACE_PX_PER_CM))
"""(width, height) px of a kept face."""
BLUR_CM = 0.08
"""Gaussian sigma (cm) applied to faces and strips alike: what a camera's optics and resampling do."""
_PAD = 0.6
"""cm of canvas round a face, so a turned face keeps its corners."""
_TOP = 0.15
"""cm left out inside the card's top edge (its rounded corners, the cloth beside them)."""
_LEFT = 0.15
"""cm left out inside the card's left edge."""
_MIN_WIDTH = 1.0
"""cm: the narrowest part compared, where the next anchor lies closer than any row lays two cards."""


@dataclass(frozen=True)
class View:
    """What part of a card a ``FaceBank`` compares, at what scale, over which turns and shifts."""

    px_per_cm: float
    bottom: float
    """cm from the card's top edge to the compared part's last row."""
    right: float
    """cm left out before the next card's left edge: two cards of a row turn a little against each other,
    which moves the next card's edge most far below the anchors (their pivots)."""
    angles: tuple[float, ...]
    """Degrees a face is turned about its index anchor before comparing: cards in a row lie turned by a
    few degrees (the row's tilt and each card's own)."""
    shift: int
    """Pixels (at ``px_per_cm``) the window is moved each way about the anchor."""


WHOLE = View(MATCH_PX_PER_CM, CARD_H - 0.15, 0.3, (-3.0, 0.0, 3.0), 1)
"""The whole visible part, at the locator's scale (10 px/cm: a 1080p camera gives 8–11, a 720p one 6–7),
±1 px about the anchor (the locator's median anchor error, 0.75 px there): every card is compared with
all 54 faces. 3° moves a pip 4.4 cm below the anchor by 2 px; five turns (±4°, ±2°, 0) and two px of
shift read 2.7 points more cards alone but 0.6 more mixed with the classifiers, at four times the cost
(docs/deck.md)."""
INDEX = View(STRIP_PX_PER_CM, 3.5, 0.15, (-3.0, -1.5, 0.0, 1.5, 3.0), 4)
"""The index and the first pips (the card's top 3.5 cm), at the strip's scale (what a 1080p camera gives
is all there, a 4K camera's twice that), five turns and ±4 px (0.2 cm: the locator's anchor lies 2.8 px
off on the sans test design's layout, p90 6.5; three turns and ±3 px read 5 of 62 plays fewer): each
card's top readings are compared again there (``INDEX_CANDIDATES``). Near the anchors the next card's edge
moves little when cards turn, so less of it is left out."""
INDEX_CANDIDATES = 3
"""A card's best readings after the whole-part comparison that the index comparison decides between."""
INDEX_MIN_DETAIL = 7.0
"""Frame px per cm (``referee_station.vision.strips.detail``) below which the index comparison is not made: at 720p
(6–7 px/cm) the strip's index is resampled blur, and comparing it read fewer plays (docs/deck.md)."""


def _canvas_anchor(view: View) -> tuple[int, int]:
    s = view.px_per_cm
    return round((INDEX_ANCHOR[0] + _PAD) * s), round((INDEX_ANCHOR[1] + _PAD) * s)


def _span(view: View) -> tuple[int, int, int]:
    """(x0, y0, y1): the compared part's left column and its rows on the canvas (every card shows them;
    only its right end, the next card's edge, differs)."""
    s = view.px_per_cm
    ax, ay = _canvas_anchor(view)
    return (
        ax - round((INDEX_ANCHOR[0] - _LEFT) * s),
        ay - round((INDEX_ANCHOR[1] - _TOP) * s),
        ay + round((view.bottom - INDEX_ANCHOR[1]) * s),
    )


@dataclass(frozen=True)
class FaceBank:
    """The 54 faces ready for comparing in one ``View``: each turned by every one of its angles about its
    index anchor on a canvas where the anchor lies at a fixed pixel, blurred like a strip, weighted
    (``weights``), and summed column by column, so that a comparison of any width needs no pass over
    the faces beyond one correlation with each."""

    codes: tuple[str, ...]
    view: View
    weights: np.ndarray
    """(1, rows, canvas width): the square root of how much the upright faces differ at each pixel (their
    standard deviation over the 54), so the comparison looks where cards differ (the index, the pips)
    rather than where all are alike (the white, the edges, the card under it). One map for every turn
    (a few degrees move it by a pixel or two), so each window is weighted and normalised once."""
    w2t: np.ndarray
    """(canvas width, rows, 3, angles, codes): each turned face × the weights², column-major, so that
    the columns of any compared part are, for all 54 faces, one (pixels, angles × codes) matrix without
    a copy."""
    sums: dict[str, np.ndarray]
    """Column prefix sums from the compared part's left column: "t" (angles, codes, 3) of the faces,
    "tw2" of face × weight², "t2w2" (angles, codes) of face² × weight², "w2" (1,) of weight², "n"
    pixels."""

    @classmethod
    def from_faces(cls, codes: tuple[str, ...], faces: np.ndarray, view: View = WHOLE) -> FaceBank:
        """``faces``: (len(codes), h, w, 3) uint8 BGR at ``FACE_PX_PER_CM`` (upright, as registration keeps
        them)."""
        if faces.ndim != 4 or faces.shape[0] != len(codes) or faces.shape[3] != 3:
            raise ValueError(f"faces must be ({len(codes)}, h, w, 3), got {faces.shape}")
        one_blas_thread()
        s, angles = view.px_per_cm, view.angles
        w, h = round((CARD_W + 2 * _PAD) * s), round((CARD_H + 2 * _PAD) * s)
        ax, ay = _canvas_anchor(view)
        card = (round(CARD_W * s), round(CARD_H * s))
        x0, y0, y1 = _span(view)
        t = np.empty((len(angles), len(codes), y1 - y0, w, 3), np.float32)
        for i, face in enumerate(faces):
            small = cv2.resize(face, card, interpolation=cv2.INTER_AREA).astype(np.float32)
            canvas = cv2.copyMakeBorder(small, *(round(_PAD * s),) * 4, cv2.BORDER_REPLICATE)
            for j, angle in enumerate(angles):
                m = cv2.getRotationMatrix2D((ax, ay), angle, 1.0)
                turned = cv2.warpAffine(canvas, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                t[j, i] = cv2.GaussianBlur(turned, (0, 0), BLUR_CM * s)[y0:y1]
        spread = t[[angles.index(0.0)]].std(1).mean(3)
        weight = np.sqrt(spread / spread.max())  # (1, rows, width)
        w2 = (weight * weight)[:, None, :, :, None]
        w2t = np.ascontiguousarray((t * w2).transpose(3, 2, 4, 0, 1))

        sums = {
            "t": _prefix(t[..., x0:, :], channels=True),
            "tw2": _prefix((t * w2)[..., x0:, :], channels=True),
            "t2w2": _prefix((t * t * w2).sum(4)[..., x0:], channels=False),
            "w2": _prefix((weight * weight)[..., x0:], channels=False),
            "n": np.arange(w - x0 + 1) * (y1 - y0),
        }
        return cls(tuple(codes), view, weight, w2t, sums)

    def scores(
        self, image: np.ndarray, u: float, v: float, width_cm: float, among: np.ndarray | None = None
    ) -> np.ndarray:
        """NCC (−1..1) of each face (or of the faces ``among``, indices into ``codes``) with the card whose
        index anchor lies at strip px (u, v) in ``image`` (the strip resized to the view's scale), over
        the part ``width_cm`` wide from the card's left edge (the distance to the next card's left edge;
        the card's width for the row's last card): each colour channel's mean taken from face and
        window, both weighted, at every turn and shift, the best per face."""
        view = self.view
        s, shift = view.px_per_cm, view.shift
        ax, ay = _canvas_anchor(view)
        x0, y0, y1 = _span(view)
        width_cm = min(max(width_cm, _MIN_WIDTH + _LEFT + view.right), CARD_W)
        right = view.right if width_cm < CARD_W else _LEFT
        x1 = ax + round((width_cm - INDEX_ANCHOR[0] - right) * s)
        k = x1 - x0
        to_image = s / STRIP_PX_PER_CM
        cu, cv_ = round(u * to_image), round(v * to_image)
        region = cut(image, cu - (ax - x0) - shift, cv_ - (ay - y0) - shift, k + 2 * shift, y1 - y0 + 2 * shift)
        region = cv2.GaussianBlur(region.astype(np.float32), (0, 0), BLUR_CM * s)
        picked = slice(None) if among is None else np.asarray(among)
        w2 = np.ascontiguousarray(self.weights[0, :, x0:x1] ** 2)
        n, sum_w2 = self.sums["n"][k], self.sums["w2"][0, k]
        m_t = self.sums["t"][:, picked, k, :] / n  # (angles, codes, 3): the faces' means over the part
        tw2 = self.sums["tw2"][:, picked, k, :]
        side = 2 * shift + 1
        region -= region.mean((0, 1))  # smaller sums, less float32 error (NCC ignores a channel's offset)
        m_x, s_xw, nx = np.empty((3, side, side)), np.empty((3, side, side)), np.zeros((side, side))
        for h in range(3):  # the windows' sums at every shift at once: not numpy reductions over strided views
            x = np.ascontiguousarray(region[..., h])
            m_x[h] = cv2.matchTemplate(x, np.ones_like(w2), cv2.TM_CCORR) / n
            s_xw[h] = cv2.matchTemplate(x, w2, cv2.TM_CCORR)
            nx += cv2.matchTemplate(x * x, w2, cv2.TM_CCORR) - 2 * m_x[h] * s_xw[h] + m_x[h] ** 2 * sum_w2
        windows = _windows(region, y1 - y0, k, side)
        w2t = self.w2t[x0:x1] if among is None else np.take(self.w2t[x0:x1], picked, axis=-1)
        a = windows @ w2t.reshape(windows.shape[1], -1)  # Σ w² x t: (shifts, angles × codes)
        a = a.reshape(side * side, len(view.angles), -1).transpose(1, 0, 2)  # (angles, shifts, codes)
        m_x, s_xw = m_x.reshape(3, -1), s_xw.reshape(3, -1)
        a -= np.einsum("ach,ho->aoc", m_t, s_xw) + np.einsum("ho,ach->aoc", m_x, tw2)
        a += np.einsum("ho,ach->aoc", m_x, m_t) * sum_w2
        norm2 = self.sums["t2w2"][:, picked, k] - 2 * (m_t * tw2).sum(2) + (m_t * m_t).sum(2) * sum_w2
        ncc = a / np.sqrt(np.maximum(nx.reshape(1, -1, 1), 1e-6) * np.maximum(norm2, 1e-6)[:, None, :])
        return ncc.max((0, 1))


@dataclass(frozen=True)
class Faces:
    """A deck's registered faces as the reader compares them: the whole visible part of each card with
    all 54 (``WHOLE``), then its best readings again on the index at the strip's scale (``INDEX``)."""

    whole: FaceBank
    index: FaceBank

    @classmethod
    def from_faces(cls, codes: tuple[str, ...], faces: np.ndarray) -> Faces:
        return cls(FaceBank.from_faces(codes, faces, WHOLE), FaceBank.from_faces(codes, faces, INDEX))


def _windows(region: np.ndarray, rows: int, cols: int, side: int) -> np.ndarray:
    """(side², cols × rows × 3): the ``rows × cols`` window of ``region`` at every shift, column-major as
    ``FaceBank.w2t``. Copied shift by shift from the region turned column-major, each copy ``cols`` runs of
    rows × 3 floats: reshaping numpy's strided view of the windows copied float by float, ten times slower."""
    turned = np.ascontiguousarray(region.transpose(1, 0, 2))
    out = np.empty((side, side, cols, rows, 3), region.dtype)
    for dy in range(side):
        for dx in range(side):
            out[dy, dx] = turned[dx : dx + cols, dy : dy + rows]
    return out.reshape(side * side, -1)


@functools.cache
def one_blas_thread() -> None:
    """Run every BLAS library this process has loaded (numpy's OpenBLAS) on one thread from now on. The
    face comparison's matrix products are small, and a station or a registration reading frames on two
    threads has no core to spare for them: on a busy 2-core machine OpenBLAS's threads took a product
    600 ms instead of 8 ms, and one thread does it 5–50 times faster than ``numpy.einsum`` (docs/deck.md).
    Set once, when the first bank is made and before any frame is read: a limit set and restored around
    each product would let one reading thread change it while another multiplies. A BLAS library loaded
    later keeps its own threads; without any, nothing is limited."""
    ThreadpoolController().limit(limits=1, user_api="blas")


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
