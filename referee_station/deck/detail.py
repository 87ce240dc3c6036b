"""The detail a deck needs: the frame px per cm from which the profile's own reader reads its cards right.

Decks differ by more than a camera does: a deck whose index suit is a 4 mm glyph is read at 1080p no
better than a guess within a colour, another one right at 720p. One constant in ``check-camera`` would
pass a camera that cannot read the event's deck, or fail one that can. So registration reads rendered
frames of the deck over the cameras CLOTH.md allows (720p and 1080p, 90–150 cm) and 4K ones with the
reader the station will run, fits the share of cards read right against the frame's detail as one smooth
curve, and keeps the detail where that curve reaches ``NEEDS_SHARE``; ``check-camera`` compares each play
area with it. One curve over every card, rather than the least detail whose few nearest cards happened to
read right, so that the verdict on a camera does not move with which frames registration drew.
The frames are rendered in the renderer's held-out looks, which no network was fitted on: in the
training looks the profile reads renders of its own cut faces better than a table's cards, and the
sans test deck's need came out at 6.4 px/cm where its benchmark frames need 8.5 (docs/deck.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from difflib import SequenceMatcher

import numpy as np

from referee_station.deck.threshold import FrameRead

NEEDS_SHARE = 0.97
"""Share of cards read right at the deck's needed detail itself, on the fitted curve (``ShareCurve``): 97 %
of cards is about 90 % of plays of three to five cards."""
ASSURED_Z = 1.645
"""The Wilson bound's z: one-sided 95 %. The cards read at the need or more must assure ``NEEDS_SHARE``
together, so that a curve bent by a few frames never passes a deck its cards do not."""
MIN_CARDS = 100
"""Cards read at the need or more without which it decides nothing (88 sharp 4K cards all read right
once set the sans deck's need at 10 px/cm, where its 1080p cards read 77 % of plays)."""
SLOPE_PRIOR = 0.01
"""A Gaussian prior's precision on the curve's slope: a deck whose frames split into misread blurred
cards and right sharp ones still gets a finite curve, and one with thousands of cards is not moved."""
DETAIL_FRAMES = 120
"""Rendered frames registration reads for it: about 1,900 true cards, 5–22 px/cm. Each area's cards share
its light, so cards are not independent: 40 frames put one deck's need anywhere from 6 to 11 px/cm, 120
within about a px/cm of what 640 frames give (docs/deck.md)."""
DETAIL_LARGE_FRAMES = 0.4
"""The share of them seen by a 4K camera, so that a deck 1080p cannot read is told how much more it needs
(16–22 px/cm) instead of only "more than 11"."""


@dataclass(frozen=True)
class CardRead:
    """One true card of a rendered frame: the px/cm its play area gets, and whether it was read right."""

    px_per_cm: float
    right: bool


@dataclass(frozen=True)
class ShareCurve:
    """The share of cards read right as a logistic curve in the log of the detail: a deck's misreads fall
    smoothly as the index's marks grow in pixels, and the log spreads 720p's 5 px/cm as widely as 4K's 20."""

    intercept: float
    slope: float
    """Per unit of log px/cm, about ``centre``."""
    centre: float
    """The mean log px/cm of the cards fitted."""

    def share(self, px_per_cm: float) -> float:
        """The share of cards read right at ``px_per_cm``."""
        return 1.0 / (1.0 + math.exp(-(self.intercept + self.slope * (math.log(px_per_cm) - self.centre))))

    def detail_for(self, share: float) -> float | None:
        """The px/cm at which the curve reaches ``share``; None where more detail reads no better."""
        if self.slope <= 0:
            return None
        return math.exp(self.centre + (math.log(share / (1 - share)) - self.intercept) / self.slope)


def share_curve(reads: list[CardRead]) -> ShareCurve:
    """The maximum a posteriori ``ShareCurve`` of ``reads`` (Newton's method; ``SLOPE_PRIOR`` on the slope)."""
    logs = np.log([r.px_per_cm for r in reads])
    right = np.array([r.right for r in reads], float)
    centre = float(logs.mean())
    x = np.stack([np.ones_like(logs), logs - centre], axis=1)
    prior = np.diag([0.0, SLOPE_PRIOR])
    w = np.zeros(2)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + prior
        step = np.linalg.solve(hessian + 1e-9 * np.eye(2), x.T @ (right - p) - prior @ w)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return ShareCurve(float(w[0]), float(w[1]), centre)


@dataclass(frozen=True)
class DetailNeed:
    """What registration measured of the detail the deck needs."""

    px_per_cm: float
    """Where the fitted curve reaches ``NEEDS_SHARE``, no less than the least detail measured (the least
    where more detail reads no better); where no detail measured reaches it, the finest detail measured
    (``reached`` False: the deck needs more)."""
    reached: bool
    share: float
    """Share of cards read right at ``px_per_cm`` or more (all cards, where not reached)."""
    cards: int
    """Cards read at ``px_per_cm`` or more (all cards, where not reached)."""
    fitted: int
    """Cards the curve was fitted on: every true card of the frames."""

    def line(self) -> str:
        """The registration log's line."""
        if self.reached:
            return (
                f"detail: cards read {NEEDS_SHARE:.0%} right from {self.px_per_cm:.1f} px/cm (a curve over"
                f" {self.fitted} cards); {self.share:.1%} of the {self.cards} cards read there or finer read right"
                f" (at least {NEEDS_SHARE:.0%}, 95 % sure)"
            )
        return (
            f"detail: {self.share:.1%} of {self.cards} cards read right, and at no detail up to"
            f" {self.px_per_cm:.1f} px/cm at least {NEEDS_SHARE:.0%} (95 % sure): this deck needs more detail"
            " than the frames gave"
        )


def card_reads(reads: list[FrameRead]) -> list[CardRead]:
    """Every true card of the readable seats in rendered frames, and whether it was read right (a card is
    right where it lies in the longest run read as it is: a card missed or added costs only itself)."""
    out = []
    for frame in reads:
        for seat, truth in frame.truth.items():
            if truth.status != "cards":
                continue
            read = frame.reading.seats[seat].cards
            matcher = SequenceMatcher(None, list(truth.cards), read, autojunk=False)
            right = [False] * len(truth.cards)
            for block in matcher.get_matching_blocks():
                right[block.a : block.a + block.size] = [True] * block.size
            out += [CardRead(frame.px_per_cm[seat], ok) for ok in right]
    return out


def assured(right: int, n: int, z: float = ASSURED_Z) -> float:
    """The Wilson score lower bound of the share read right: what ``right`` of ``n`` cards assure."""
    p, z2 = right / n, z * z
    centre = p + z2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (centre - spread) / (1 + z2 / n)


def need_from(reads: list[CardRead], share: float = NEEDS_SHARE) -> DetailNeed:
    """The detail where the share of cards read right (``share_curve``) reaches ``share``, provided the
    ``MIN_CARDS`` or more cards read there or finer assure ``share`` together (``assured``)."""
    if not reads:
        raise ValueError("no card in the rendered frames: the detail a deck needs cannot be measured")
    details = [r.px_per_cm for r in reads]
    lowest, finest = min(details), max(details)
    at = share_curve(reads).detail_for(share)
    at = lowest if at is None else max(at, lowest)  # None: no more detail reads better than the least
    if at <= finest:
        there = [r for r in reads if r.px_per_cm >= at]
        right = sum(r.right for r in there)
        if len(there) >= MIN_CARDS and assured(right, len(there)) >= share:
            return DetailNeed(at, True, right / len(there), len(there), len(reads))
    return DetailNeed(finest, False, sum(r.right for r in reads) / len(reads), len(reads), len(reads))
