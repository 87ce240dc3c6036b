"""The card reader: a frame and its calibration → the cards in each seat's play area, in order.

Stages, each timed: *rectify* each play area into an upright strip (``referee_station.vision.strips``), *locate* the
cards' index anchors in the strips (a small fully convolutional net), *classify* a crop at each anchor
(small CNNs: 54 cards or "none"; the index crop, and the card's wider left side at half the scale), with
a deck profile's registered faces *compare* the visible part of each card with the 54 faces
(``referee_station.vision.faces``) and mix that evidence in, then *decide* each seat's status. The networks are plain
callables, so tests can pass fakes;
``CardReader.from_onnx`` wires the shipped ONNX models through onnxruntime (no torch at the station).

Status per seat: "empty" (nothing in the play area), "cards" (every card read), "unreadable" (cards lie
there but not all could be read: face down, blurred, glare, or the camera gives the area less detail
than a deck profile needs), "occluded" (an arm or hand covers it).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from referee_station.resources import MODELS_DIR
from referee_station.rules import DECK
from referee_station.vision.faces import INDEX_CANDIDATES, INDEX_MIN_DETAIL, Faces, face_probabilities
from referee_station.vision.geometry import CARD_W, DRAW_ORDER, INDEX_CROP, PLAY_AREA, STRIP_MARGIN, STRIP_PX_PER_CM
from referee_station.vision.strips import (
    GRID_H,
    GRID_W,
    LOCATOR_SCALE,
    LOCATOR_STRIDE,
    Need,
    crop_context,
    crop_index,
    detail,
    locator_input,
    rectify,
)

CLASSES = (*(c.code for c in DECK), "none")
"""The classifier's outputs, in order: 54 card codes, then "none" (not a card index)."""
STATUSES = ("empty", "cards", "unreadable", "occluded")
LOCATOR_FILE = "locator.onnx"
CLASSIFIER_FILES = ("classifier.onnx", "classifier_2.onnx", "classifier_3.onnx")
"""The generic classifiers, in a models folder, averaged: the first is required, the others optional."""
CONTEXT_FILE = "classifier_context.onnx"
"""The optional context classifier: it reads the wider, coarser ``crop_context`` (the index and the card's
left side with its pips or court picture)."""
CONTEXT_WEIGHT = 0.5
"""The context classifier's share of the mix, the index classifiers' mean taking the rest: alone it reads
as many held-out plays as they do but errs on other cards, so half and half reads the most
(docs/vision-history.md, eighth session)."""
CONTEXT_SURE = 0.5
"""The context classifier lowers the index classifiers' top card's probability only where it is at least
this sure of another class, because it has not seen every design's pictures (docs/vision-history.md,
eighth session)."""
FACE_SHARPNESS = 100.0
"""NCC → probability: ``face_probabilities``' softmax scale. Registered faces' scores lie within a few
hundredths of each other (the visible parts share the white, the edges, the card under them)."""
CLASSIFIER_SHARE = 0.3
"""The index classifiers' exponent in the product with the face evidence (the faces' is 1): on 30 frames
of the drawn test design read with the generic classifiers, cards read right 71.5 % (classifiers),
83.1 % (faces), 89.4 % (mixed at 0.3), 87.1 % (at 1) (docs/deck.md)."""
FACE_DOUBT = 0.98
"""Where a fitted profile's classifiers and its faces name different cards, the faces' card is lifted to
this share of the read card's probability (``doubt_where_faces_differ``): the read stays, and is doubtful."""
INDEX_SHARPNESS = 200.0
"""NCC → probability for the index comparison among a card's best readings: they differ in a few pixels
of the index, so their scores lie closer than the whole part's (docs/deck.md)."""
CANDIDATE_SHARE = 0.3
"""The exponent of a card's best readings' probabilities (classifiers × whole part) in the product with
the index comparison's: on 20 frames of each test design, 0.3 with ``INDEX_SHARPNESS`` 200 read as many
plays as the index comparison alone and more cards, where a product at 1 (sharpness 100) read 3 plays fewer,
and it keeps a right row sure where the index alone is torn (6♥/8♥)."""
COARSE_CONFIDENCE = 0.5
"""The most a card read at less detail than its deck needs (``CardReader.needs``) is trusted:
under ``Thresholds.confident``, so the seat reads doubtful, and under the referee's ``min_confidence``,
so no penalty comes from it: under its need a deck's cards read right less than 97 % of the time, and a
wrong play read there must reach the referee as a doubt (docs/deck.md)."""
RECHECK_SHIFTS = ((2, 0), (-2, 0), (0, 2), (0, -2), (2, 2), (-2, -2), (2, -2), (-2, 2))
"""Strip-pixel offsets (u, v) of the extra crops a doubtful card is read from again (``Thresholds.recheck``).
The locator's anchor is off by 1–2 px and a crop's pixels fall differently on a 4–5 px index (720p) or a
blurred one, so averaging the neighbours' readings settles a share of those cards (docs/vision-history.md,
seventh session)."""


STILL_PX_LEVELS = 24
"""A locator-input pixel whose colour moved by more than this (0–255, any channel) since a seat's last
read has changed: a card laid, moved or taken changes its pixels by far more, camera noise by less."""
STILL_PX_SHARE = 0.002
"""A seat with fewer changed pixels than this share of its play area's locator input lies still: with
``CardReader.reuse_still`` its last reading is kept instead of locating and classifying it again (a
card's index is about 1 % of the area, a whole card about 10 %)."""


def classifier_paths(model_dir: Path) -> list[Path]:
    """The ``CLASSIFIER_FILES`` a models folder has, in order: the members the reader averages and deck
    registration fine-tunes."""
    return [model_dir / name for name in CLASSIFIER_FILES if (model_dir / name).exists()]


Locate = Callable[[np.ndarray], np.ndarray]
"""(N, H, W, 3) uint8 locator inputs → (N, 5, GRID_H, GRID_W) float32 raw outputs."""
Classify = Callable[[np.ndarray], np.ndarray]
"""(M, CROP_H, CROP_W, 3) uint8 crops → (M, 55) float32 class probabilities."""


ALTERNATIVES = 3
"""Readings of each card a ``SeatReading`` keeps, best first (the tracker's evidence, the referee's choices)."""
ROW_SLACK = 0.6
"""cm by which a hand-laid row's step may fall short of the deck's index width (CLOTH.md lays the whole
index showing): two cards' anchors lie at least the width less this apart. For the generic 1.6 cm index
that is ``Thresholds.index_gap``; a wider index (a suit beside its rank) shadows more (``shadowed``)."""


@dataclass(frozen=True)
class SeatReading:
    """One seat's play area: cards left to right as seen from the seat, one confidence each, a status,
    where each card's index anchor lies in the seat's strip (pixels at ``STRIP_PX_PER_CM``), and each
    card's top ``ALTERNATIVES`` classes as (code, probability) best first, so that a doubtful card can
    be weighed again (the tracker's later looks, the referee's legal readings). Empty alternatives: the
    reader knows none beyond the cards themselves."""

    cards: list[str]
    confidences: list[float]
    status: str
    anchors: list[tuple[float, float]] = field(default_factory=list)
    alternatives: list[tuple[tuple[str, float], ...]] = field(default_factory=list)
    matches: list[float] = field(default_factory=list)
    """Per card, the NCC (−1..1) of its visible part with its best registered face (``Faces.whole``):
    whether the cards are the profile's deck at all, which no confidence says (the deck check,
    ``referee_station.deck.mismatch``). Empty: the reader compared no faces."""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")
        if not (len(self.cards) == len(self.confidences) == len(self.anchors)):
            raise ValueError("cards, confidences and anchors must have one entry per card")
        if self.alternatives and len(self.alternatives) != len(self.cards):
            raise ValueError("alternatives must have one entry per card, or none")
        if self.matches and len(self.matches) != len(self.cards):
            raise ValueError("matches must have one entry per card, or none")


@dataclass(frozen=True)
class FrameReading:
    """Every seat's reading and the milliseconds each stage took."""

    seats: dict[str, SeatReading]
    ms: dict[str, float]

    @property
    def total_ms(self) -> float:
        return sum(self.ms.values())

    def plays(self) -> dict[str, list[str]]:
        """Seats with cards read, as card-code lists (the ``read-frame`` output)."""
        return {seat: r.cards for seat, r in self.seats.items() if r.cards}


@dataclass(frozen=True)
class Thresholds:
    """Decision thresholds, tuned on held-out frames (see ``referee_station/models/MODEL_CARD.md``)."""

    peak: float = 0.35
    """Locator heatmap score for an index anchor."""
    index_gap: float = 1.0
    """cm: of two peaks closer than this only the stronger is an index anchor. A play's row (R-PLAY-4)
    overlaps so that every card's left index shows (CLOTH.md): two cards' indices lie at least an index's
    width (1.6 cm) apart; the locator answered the drawn test deck's tall stacked JOKER index with two
    peaks 0.7–0.9 cm apart, which read as two jokers (docs/deck.md)."""
    none: float = 0.5
    """A crop whose "none" probability passes this is not a card (a locator false alarm); its best card
    probability p still caps the seat's confidences at 1 − p (the row may be a card short)."""
    confident: float = 0.6
    """Below this card probability the seat is reported unreadable."""
    recheck: float = 0.8
    """Below this top probability (a card or "none") a crop is read again at ``RECHECK_SHIFTS``."""
    card_cells: int = 40
    """Card-covered locator cells (0.16 cm² each) that mean cards lie there even with no index found."""
    occluder_cells: int = 20
    """Occluder cells touching the cards that make the seat occluded (an arm over its cards)."""
    occluder_fraction: float = 0.2
    """Share of the play area under an occluder that makes the seat occluded, cards or not."""


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def _play_area_cells() -> np.ndarray:
    """Mask of the locator cells inside the play area proper (the strip has a margin around it)."""
    mask = np.zeros((GRID_H, GRID_W), bool)
    cm_per_cell = LOCATOR_SCALE * LOCATOR_STRIDE / STRIP_PX_PER_CM
    m = round(STRIP_MARGIN / cm_per_cell)
    w = round((PLAY_AREA[1] - PLAY_AREA[0]) / cm_per_cell)
    h = round((PLAY_AREA[3] - PLAY_AREA[2]) / cm_per_cell)
    mask[m : m + h, m : m + w] = True
    return mask


_AREA = _play_area_cells()


def _dilate(mask: np.ndarray, r: int) -> np.ndarray:
    """Binary dilation by a (2r+1)² square, numpy only."""
    padded = np.pad(mask, r)
    out = np.zeros_like(mask)
    h, w = mask.shape
    for dy in range(2 * r + 1):
        for dx in range(2 * r + 1):
            out |= padded[dy : dy + h, dx : dx + w]
    return out


def _session(model: bytes | str, threads: int):
    """An onnxruntime CPU session (a file path or serialised bytes), set up alike for every network."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])


def onnx_locator(model: bytes | str, threads: int = 2) -> Locate:
    """A locator callable (strips → raw outputs) over an ONNX model, as ``CardReader`` expects."""
    session = _session(model, threads)

    def locate(x: np.ndarray) -> np.ndarray:
        return session.run(None, {"x": np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255})[0]

    return locate


def onnx_classifier(model: bytes | str, threads: int = 2) -> Classify:
    """A classifier callable (crops → probabilities) over an ONNX model, as ``CardReader`` expects."""
    session = _session(model, threads)

    def classify(x: np.ndarray) -> np.ndarray:
        logits = session.run(None, {"x": np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255})[0]
        e = np.exp(logits - logits.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    return classify


def onnx_ensemble(models: list[bytes | str], threads: int = 2) -> Classify:
    """The mean of several classifiers' probabilities. Classifiers trained on different data disagree
    mostly where each is unsure, so the mean takes fewer wrong plays and holds back fewer right ones than
    one alone (``referee_station/models/MODEL_CARD.md``); one model is just that model."""
    members = [onnx_classifier(m, threads) for m in models]

    def classify(x: np.ndarray) -> np.ndarray:
        return np.mean([member(x) for member in members], axis=0)

    return classify


def mix_faces(probs: np.ndarray, faces: np.ndarray, share: float) -> np.ndarray:
    """The classifiers' probabilities (N, 55) and the faces' (N, 54) → (N, 55): the 54 cards' product
    (the classifiers' raised to ``share``) renormalised to the share the classifiers left to cards, "none"
    kept as they said it."""
    cards = np.power(np.maximum(probs[:, :-1], 1e-6), share) * faces
    cards = cards / cards.sum(1, keepdims=True) * (1 - probs[:, -1:])
    return np.concatenate([cards, probs[:, -1:]], axis=1).astype(np.float32)


def mix_context(index: np.ndarray, wide: np.ndarray, weight: float) -> np.ndarray:
    """The index classifiers' probabilities (N, 55) and the context classifier's, mixed with ``weight``
    for the latter; where the mix keeps the index classifiers' top class and the context classifier
    agrees or is not sure (``CONTEXT_SURE``) of another class, that class keeps the higher of its
    two probabilities: a wide view that agrees, or knows no better, adds no doubt."""
    mixed = (1 - weight) * index + weight * wide
    rows, top = np.arange(len(mixed)), index.argmax(1)
    vague_or_agrees = (wide.argmax(1) == top) | (wide.max(1) < CONTEXT_SURE)
    keep = rows[(mixed.argmax(1) == top) & vague_or_agrees]
    mixed[keep, top[keep]] = np.maximum(mixed[keep, top[keep]], index[keep, top[keep]])
    return mixed


class CardReader:
    """Reads all four play areas of a frame; create once, call ``read`` per frame."""

    def __init__(
        self,
        locate: Locate,
        classify: Classify,
        thresholds: Thresholds | None = None,
        context: Classify | None = None,
        context_weight: float = CONTEXT_WEIGHT,
        faces: Faces | None = None,
        weigh_by_faces: bool = True,
        index_width: float = INDEX_CROP[0],
        needs: Need | None = None,
    ) -> None:
        """``classify`` reads index crops; ``context``, when given, reads the context crops of the same
        anchors, and ``mix_context`` mixes its probabilities in with ``context_weight``; ``faces``, a
        deck's registered faces, adds the comparison of each card's visible part (``mix_faces``).
        ``weigh_by_faces`` False: the classifiers' read cards stand; the faces measure each card's match
        (the deck check, ``SeatReading.matches``) and only mark a card doubtful where they name another
        (``doubt_where_faces_differ``) — what a profile with classifiers fitted to the deck wants (they
        read it better alone, docs/deck.md). ``index_width``: the cm of each card the index crops take
        (``crop_index``): a profile's classifiers are fitted to its deck's width. ``needs``: the frame
        detail under which the deck's cards do not read reliably (a profile's measured need); a seat the
        camera gives less reads its cards at ``COARSE_CONFIDENCE`` at most (None: no need known)."""
        if not 0 <= context_weight <= 1:
            raise ValueError(f"context_weight must lie in 0..1, got {context_weight}")
        self.locate = locate
        self.classify = classify
        self.thresholds = thresholds or Thresholds()
        self.context = context
        self.context_weight = context_weight
        self.reuse_still = False
        """Keep the last reading of a seat whose pixels lie still (``STILL_PX_SHARE``): at a table one
        area changes at a time while up to four rows lie, so a read costs about one area, not four.
        The station turns it on; a reader asked about unrelated frames (tests, registration) reads all."""
        self._still: dict[str, tuple[np.ndarray, SeatReading]] = {}
        """Per seat: the locator input of its last read and what was read."""
        self.faces = faces
        self.weigh_by_faces = weigh_by_faces
        self.index_width = index_width
        self.needs = needs

    @classmethod
    def from_onnx(cls, model_dir: Path | str = MODELS_DIR, threads: int = 2) -> CardReader:
        """The shipped models run with onnxruntime: ``locator.onnx``, and the mean of the ``CLASSIFIER_FILES``
        the folder has (deck registration fine-tunes each of them), mixed with its ``CONTEXT_FILE`` if any."""
        model_dir = Path(model_dir)
        context = model_dir / CONTEXT_FILE
        return cls(
            onnx_locator(str(model_dir / LOCATOR_FILE), threads),
            onnx_ensemble([str(path) for path in classifier_paths(model_dir)], threads),
            context=onnx_classifier(str(context), threads) if context.exists() else None,
        )

    def read(self, frame: np.ndarray, corners: np.ndarray) -> FrameReading:
        """Read every seat's play area. ``corners``: table-corner pixels SW, SE, NE, NW."""
        ms: dict[str, float] = {}
        t = time.perf_counter()
        strips = rectify(frame, np.asarray(corners, dtype=np.float64))
        inputs = {s: locator_input(strips[s]) for s in DRAW_ORDER}
        fresh = [s for s in DRAW_ORDER if not (self.reuse_still and self._lies_still(s, inputs[s]))]
        ms["rectify"] = (time.perf_counter() - t) * 1000
        seats = {s: self._still[s][1] for s in DRAW_ORDER if s not in fresh}
        t = time.perf_counter()
        batch = np.stack([inputs[s] for s in fresh]) if fresh else None
        raw = self.locate(batch) if batch is not None else None
        ms["locate"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        found = {seat: self.peaks(raw[i]) for i, seat in enumerate(fresh)} if raw is not None else {}
        anchors = [(strips[s], batch[i], u, v) for i, s in enumerate(fresh) for u, v, _ in found[s]]
        probs = self.classify_anchors(anchors)
        matches = np.full(len(probs), np.nan) if self.faces is not None else None
        ms["classify"] = (time.perf_counter() - t) * 1000
        px_per_cm = detail(np.asarray(corners, dtype=np.float64))
        short = self.short_of_detail(px_per_cm)
        if self.faces is not None:
            t = time.perf_counter()
            k = 0
            for i, seat in enumerate(fresh):
                n = len(found[seat])
                fine = strips[seat] if px_per_cm[seat] >= INDEX_MIN_DETAIL else None
                compared = self.compare_faces(self.faces, fine, batch[i], found[seat], probs[k : k + n])
                probs[k : k + n], matches[k : k + n] = compared
                k += n
            ms["compare"] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        k = 0
        for i, seat in enumerate(fresh):
            n = len(found[seat])
            seat_matches = None if matches is None else matches[k : k + n]
            seats[seat] = self._decide(raw[i], found[seat], probs[k : k + n], seat_matches, seat in short)
            k += n
            if self.reuse_still:
                self._still[seat] = (inputs[seat], seats[seat])
        ms["decide"] = (time.perf_counter() - t) * 1000
        return FrameReading({s: seats[s] for s in DRAW_ORDER}, ms)

    def short_of_detail(self, px_per_cm: dict[str, float]) -> dict[str, float]:
        """The seats (with their px/cm, ``detail``) that a camera gives less detail than the deck needs."""
        if self.needs is None:
            return {}
        return {seat: px for seat, px in px_per_cm.items() if self.needs.short(px)}

    def _lies_still(self, seat: str, image: np.ndarray) -> bool:
        """Whether the seat's play area looks as at its last read (``STILL_PX_LEVELS``, ``STILL_PX_SHARE``)."""
        last = self._still.get(seat)
        if last is None or last[0].shape != image.shape:
            return False
        moved = (np.abs(image.astype(np.int16) - last[0]) > STILL_PX_LEVELS).any(-1)
        return int(np.count_nonzero(moved)) < STILL_PX_SHARE * moved.size

    def classify_anchors(self, anchors: list[tuple[np.ndarray, np.ndarray, float, float]]) -> np.ndarray:
        """Class probabilities of the card at each (strip, locator input, u, v): the index classifiers'
        reading (``_read_indices``), with the context classifier's reading of ``crop_context`` mixed in
        (``mix_context``) when the reader has one."""
        if not anchors:
            return np.zeros((0, len(CLASSES)), np.float32)
        probs = self._read_indices(anchors)
        if self.context is None:
            return probs
        wide = np.asarray(self.context(np.stack([crop_context(loc, u, v) for _, loc, u, v in anchors])))
        return mix_context(probs, wide, self.context_weight)

    def compare_faces(
        self,
        faces: Faces,
        strip: np.ndarray | None,
        loc: np.ndarray,
        peaks: list[tuple[float, float, float]],
        probs: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """One seat's class probabilities with the registered faces' evidence mixed in (``mix_faces``),
        and each anchor's best whole-part NCC (NaN where it was not compared, "none"):
        each card's visible part runs from its left edge to the next card's, the next card being the
        next peak the classifiers did not call "none" (a false alarm inside a card would hide most of
        it). Given the ``strip`` (where the camera's detail is worth it, ``INDEX_MIN_DETAIL``), the mixed
        readings' best ``INDEX_CANDIDATES`` are then weighed again by the index comparison alone
        (``refine_by_index``)."""
        hidden = self.shadowed(peaks, probs)
        cards = [k for k, p in enumerate(probs) if p[-1] <= self.thresholds.none and k not in hidden]
        matches = np.full(len(probs), np.nan)
        if not cards:
            return probs, matches
        us = [peaks[k][0] for k in cards]
        widths = [(b - a) / STRIP_PX_PER_CM for a, b in itertools.pairwise(us)] + [CARD_W]
        scores = np.stack([faces.whole.scores(loc, *peaks[k][:2], w) for k, w in zip(cards, widths, strict=True)])
        matches[cards] = scores.max(1)
        out = probs.copy()
        out[cards] = mix_faces(probs[cards], face_probabilities(scores, FACE_SHARPNESS), CLASSIFIER_SHARE)
        for k, w in zip(cards, widths, strict=True) if strip is not None else ():
            out[k] = refine_by_index(out[k], faces, strip, peaks[k][0], peaks[k][1], w)
        return (out if self.weigh_by_faces else doubt_where_faces_differ(probs, out)), matches

    def _read_indices(self, anchors: list[tuple[np.ndarray, np.ndarray, float, float]]) -> np.ndarray:
        """The index classifiers' mean at each anchor; where doubtful (top probability under
        ``Thresholds.recheck``) the mean over the crop and its ``RECHECK_SHIFTS`` neighbours."""
        crops = [crop_index(strip, u, v, width=self.index_width) for strip, _, u, v in anchors]
        probs = np.array(self.classify(np.stack(crops)))
        doubtful = np.flatnonzero(probs.max(1) < self.thresholds.recheck)
        if len(doubtful):
            shifted = [
                crop_index(strip, u + du, v + dv, width=self.index_width)
                for strip, _, u, v in (anchors[k] for k in doubtful)
                for du, dv in RECHECK_SHIFTS
            ]
            more = self.classify(np.stack(shifted)).reshape(len(doubtful), len(RECHECK_SHIFTS), -1)
            probs[doubtful] = (probs[doubtful] + more.sum(1)) / (1 + len(RECHECK_SHIFTS))
        return probs

    def peaks(self, out: np.ndarray) -> list[tuple[float, float, float]]:
        """Heatmap maxima → anchors (u, v, score) in strip pixels, left to right, none closer than
        ``Thresholds.index_gap`` to a stronger one (public so the deck benchmark can tell locator misses
        from classifier misreads)."""
        heat = _sigmoid(out[0])
        padded = np.pad(heat, 1)
        neighbours = np.stack([padded[dy : dy + GRID_H, dx : dx + GRID_W] for dy in range(3) for dx in range(3)])
        ys, xs = np.nonzero((heat >= neighbours.max(0)) & (heat > self.thresholds.peak))
        offset = _sigmoid(out[1:3])
        scale = LOCATOR_STRIDE * LOCATOR_SCALE
        found = [
            ((x + offset[0, y, x]) * scale, (y + offset[1, y, x]) * scale, float(heat[y, x]))
            for y, x in zip(ys, xs, strict=True)
        ]
        gap = self.thresholds.index_gap * STRIP_PX_PER_CM
        kept: list[tuple[float, float, float]] = []
        for u, v, score in sorted(found, key=lambda peak: -peak[2]):
            if all(math.hypot(u - ku, v - kv) >= gap for ku, kv, _ in kept):
                kept.append((u, v, score))
        return sorted(kept)

    def shadowed(self, peaks: list[tuple[float, float, float]], probs: np.ndarray) -> set[int]:
        """The card peaks (not "none") closer than the deck's index width less ``ROW_SLACK`` to a card peak
        the locator scores higher. No card of a row lies there, so such a peak is a mark on a card (at 4K
        the ``sans`` deck read an extra card this way, at 0.1–0.3, in 5 of 436 plays; docs/deck.md), or a
        card the row hides too far to read: it is no card, and its best card probability caps the seat's
        confidences, as a false alarm's does (``_decide``)."""
        gap = round(self.index_width - ROW_SLACK, 3) * STRIP_PX_PER_CM  # the generic index: exactly index_gap
        cards = [k for k, p in enumerate(probs) if p[-1] <= self.thresholds.none]
        return {
            k for k in cards for j in cards if peaks[j][2] > peaks[k][2] and math.dist(peaks[j][:2], peaks[k][:2]) < gap
        }

    def _decide(
        self,
        out: np.ndarray,
        peaks: list[tuple[float, float, float]],
        probs: np.ndarray,
        matches: np.ndarray | None = None,
        coarse: bool = False,
    ) -> SeatReading:
        """One seat's reading from its locator output, peaks and their class probabilities; ``coarse``:
        the camera gives the seat less detail than the deck needs, so no card of it is sure."""
        th = self.thresholds
        cards, conf, anchors, alternatives, kept = [], [], [], [], []
        doubtful, complete = False, 1.0
        hidden = self.shadowed(peaks, probs)
        for k, ((u, v, score), p) in enumerate(zip(peaks, probs, strict=True)):
            best = int(p[:-1].argmax())
            if p[-1] > th.none or k in hidden:
                # a false alarm; the card probability it keeps is the chance that the row lacks a card
                complete = min(complete, 1.0 - float(p[:-1].max()))
                continue
            cards.append(CLASSES[best])
            conf.append(float(p[best] * min(1.0, score / 0.5)))
            anchors.append((u, v))
            alternatives.append(top_classes(p))
            kept.append(k)
            doubtful |= p[best] < th.confident
        cap = min(complete, COARSE_CONFIDENCE) if coarse else complete
        conf = [min(c, cap) for c in conf]
        doubtful |= cap < th.confident
        card = (_sigmoid(out[3]) > 0.5) & _AREA
        occluder = (_sigmoid(out[4]) > 0.5) & _AREA
        near_cards = _dilate(card, 3) & occluder
        if occluder.sum() > th.occluder_fraction * _AREA.sum() or near_cards.sum() > th.occluder_cells:
            status = "occluded"
        elif not cards:
            status = "unreadable" if card.sum() > th.card_cells else "empty"
        else:
            status = "unreadable" if doubtful else "cards"
        face_match = [] if matches is None else [float(matches[k]) for k in kept]
        return SeatReading(cards, conf, status, anchors, alternatives, face_match)


def doubt_where_faces_differ(read: np.ndarray, weighed: np.ndarray) -> np.ndarray:
    """The classifiers' readings (N, 55), each kept, but a card whose reading with the faces weighed in
    (``weighed``) is another card is no longer sure: that card is lifted to just under the reading, so
    the card goes out doubtful with it as the first alternative rather than as a sure misread."""
    out = read.copy()
    for k in np.flatnonzero(read[:, :-1].argmax(1) != weighed[:, :-1].argmax(1)):
        top, other = int(read[k].argmax()), int(weighed[k, :-1].argmax())
        if top == len(CLASSES) - 1:
            continue  # "none" stays the classifiers' call
        out[k, other] = max(out[k, other], FACE_DOUBT * out[k, top])
        out[k] /= out[k].sum()
    return out


def refine_by_index(p: np.ndarray, faces: Faces, strip: np.ndarray, u: float, v: float, width: float) -> np.ndarray:
    """One card's probabilities (``CLASSES``) with its ``INDEX_CANDIDATES`` best cards' share divided
    anew by the index comparison (``Faces.index``, ``redivide``). On the drawn test designs the true card
    is among the three best readings for 92–97 % of cards but first for 65–88 %, mostly a suit within its
    colour, which the index at the strip's scale tells apart (docs/deck.md)."""
    among = np.argsort(-p[:-1], kind="stable")[:INDEX_CANDIDATES]
    return redivide(p, among, faces.index.scores(strip, u, v, width, among))


def redivide(p: np.ndarray, among: np.ndarray, ncc: np.ndarray) -> np.ndarray:
    """``p`` (``CLASSES``) with the cards ``among`` ordered anew by their probabilities raised to
    ``CANDIDATE_SHARE`` times the index comparison's (softmax of ``INDEX_SHARPNESS`` × ``ncc``); "none"
    keeps its share.

    The product decides the order but overstates its winner: the index is part of the whole part already
    counted, so where the index comparison lifts or overturns a reading the whole part doubted, the
    winner keeps at most the geometric mean of its probability before and after. What it gives up goes
    to the other candidates first, then to the other cards, none of them above it, so the order stands
    and the card stays as doubtful as its evidence (``sans``, 20 frames: 4 wrong plays called readable
    → 2, the same plays exact; docs/deck.md)."""
    both = np.power(p[among], CANDIDATE_SHARE) * face_probabilities(ncc[None], INDEX_SHARPNESS)[0]
    out = p.copy()
    out[among] = both / both.sum() * p[among].sum()
    best = among[int(out[among].argmax())]
    rest = np.delete(np.arange(len(p) - 1), best)
    top = min(out[best], max(math.sqrt(p[best] * out[best]), out[rest].max() + 1e-6))
    runners_up = among[among != best]
    for takers in (runners_up, np.setdiff1d(rest, runners_up)):  # the named alternatives first
        room = np.maximum(top - 1e-6 - out[takers], 0.0)
        given = min(out[best] - top, room.sum())
        out[takers] += given * room / max(room.sum(), 1e-12)
        out[best] -= given
    return out


def top_classes(p: np.ndarray, k: int = ALTERNATIVES) -> tuple[tuple[str, float], ...]:
    """The ``k`` most probable cards of one crop's class probabilities (``CLASSES``; "none" left out),
    best first: the classifiers' own probabilities, not scaled by the locator's score."""
    order = np.argsort(-p[:-1], kind="stable")[:k]
    return tuple((CLASSES[i], float(p[i])) for i in order)
