"""How much of a card, from its left edge, its index takes: the width the deck's index crops must have.

The generic index crop is ``INDEX_CROP`` (1.6 × 3.2 cm about the anchor): a rank over its suit. A deck
that sets the suit beside the rank puts the suit 1.4–2.1 cm from the edge, outside that crop, and
classifiers fitted to it can only guess a suit within its colour (the benchmark's ``sans`` deck: 89 % of
held-back crops; docs/deck.md). Registration finds the index's suit on the deck's own faces, as the
ink that every card of a suit has in the same place near the corner (the ranks and pips differ from
card to card), and the profile's index crops reach past it (``referee_station.vision.strips.crop_index``).
The renderer measures its designs the same way, so that a row it lays shows every card's whole index
(CLOTH.md; ``referee_station.render.scene.row_step``).
"""

from __future__ import annotations

import cv2
import numpy as np

from referee_station.vision.geometry import CARD_W, INDEX_CROP

MAX_INDEX_WIDTH = 2.2
"""cm: the widest index measured (the benchmark's ``sans`` deck: its suit mark ends 2.06 cm from the edge,
plus ``MARGIN_CM``); a row laid with its whole index showing steps at least this far (``row_step``), and
past it an index crop would take in more of the next card than of its own."""
CORNER_CM = (0.1, 2.6)
"""The corner searched (cm from the card's left and top edges, both ways)."""
SHARED = 0.8
"""Ink is the suit's own where this share of its 13 cards has it (the 4–10 share their first pips: 7)."""
ALIGN_CM = 0.05
"""Each card's ink is widened by this before comparing: photos cut a card a pixel or two off."""
MAX_MARK_CM = 1.2
"""A suit mark is smaller than this both ways (a border or a frame line is not)."""
INK = 70
"""A pixel is ink where a channel differs from the paper's (the face's median) by more than this."""
MARGIN_CM = 0.15
"""Beyond the measured mark: the locator's anchor error and the card's turn in a row."""


def _ink(face: np.ndarray) -> np.ndarray:
    """Where a face (BGR, or BGRA whose transparent corners count as paper) has ink."""
    bgr = face[..., :3].astype(np.int16)
    if face.shape[2] == 4:
        bgr[face[..., 3] == 0] = 255
    paper = np.median(bgr.reshape(-1, 3), axis=0)
    return (np.abs(bgr - paper).max(axis=2) > INK).astype(np.uint8)


def suit_mark_extent(faces: list[np.ndarray]) -> float | None:
    """cm from the left edge to the right end of the index marks one suit's upright faces (BGR or BGRA,
    one scale) share; None where they share none that starts inside the generic crop."""
    px_per_cm = faces[0].shape[1] / CARD_W
    grow = 2 * max(1, round(ALIGN_CM * px_per_cm)) + 1
    shared = np.mean([cv2.dilate(_ink(face), np.ones((grow, grow), np.uint8)) for face in faces], axis=0)
    lo, hi = (round(cm * px_per_cm) for cm in CORNER_CM)
    corner = np.zeros(shared.shape, np.uint8)
    corner[lo:hi, lo:hi] = shared[lo:hi, lo:hi] >= SHARED
    n, _, stats, _ = cv2.connectedComponentsWithStats(corner)
    ends = [
        (x + w) / px_per_cm
        for x, _, w, h, _ in stats[1:n]
        if max(w, h) < MAX_MARK_CM * px_per_cm and x < INDEX_CROP[0] * px_per_cm and x + w < hi
    ]
    return max(ends, default=None)


def index_width(faces: dict[str, np.ndarray]) -> float:
    """The index crop width (cm) for a deck (faces by card code): past its widest suit mark by
    ``MARGIN_CM``, never less than the generic ``INDEX_CROP`` width (the generic networks' crop, kept bit
    for bit where it suffices) nor more than ``MAX_INDEX_WIDTH``."""
    ends = [suit_mark_extent([face for code, face in faces.items() if code[1:] == suit]) for suit in "shdc"]
    found = [end for end in ends if end is not None]
    if not found:
        return INDEX_CROP[0]
    return round(min(MAX_INDEX_WIDTH, max(INDEX_CROP[0], max(found) + MARGIN_CM)), 2)
