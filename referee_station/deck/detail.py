"""The detail a deck needs: the frame px per cm from which the profile's own reader reads its cards right.

Decks differ by more than a camera does: a deck whose index suit is a 4 mm glyph is read at 1080p no
better than a guess within a colour, another one right at 720p. One constant in ``check-camera`` would
pass a camera that cannot read the event's deck, or fail one that can. So registration reads rendered
frames of the deck over the cameras CLOTH.md allows (720p and 1080p, 90–150 cm) and 4K ones with the
reader the station will run, and keeps the detail from which its cards read ``NEEDS_SHARE`` right, where
two fits of the share against the detail agree: a smooth curve and a monotone step, each over every
card, so that the need does not move with the few cards nearest it (docs/deck.md).
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
"""Share of cards read right at the deck's needed detail itself, on both fits (``need_from``): 97 % of cards
is about 90 % of plays of three to five cards."""
ASSURED_Z = 1.645
"""The Wilson bound's z: one-sided 95 %. The cards read at the need or more must assure ``NEEDS_SHARE``
together, so that a curve bent by a few frames never passes a deck its cards do not."""
MIN_CARDS = 100
"""Cards read at the need or more without which it decides nothing: a few sharp cards all read right
assure little."""
SLOPE_PRIOR = 0.01
"""A Gaussian prior's precision on the curve's slope: a deck whose frames split cleanly into misread
blurred cards and right sharp ones still gets a finite curve, and a deck's thousands of cards are not
moved by it."""
FLAT = 1e-6
"""A slope under this is no slope: more detail reads no better, and the curve names no need."""
DETAIL_FRAMES = 120
"""Rendered frames registration reads for it: about 1,900 true cards, 5–22 px/cm. One area's cards share
its light and blur, so the cards are far from independent and a need wants many frames (docs/deck.md)."""
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
    """The log-odds of a card read right at ``centre``."""
    slope: float
    """Log-odds per unit of log px/cm."""
    centre: float
    """The mean log px/cm of the cards fitted."""

    def detail_for(self, share: float) -> float | None:
        """The px/cm at which the curve reaches ``share`` (infinite beyond a float); None where more
        detail reads no better."""
        if self.slope < FLAT:
            return None
        try:
            return math.exp(self.centre + (math.log(share / (1 - share)) - self.intercept) / self.slope)
        except OverflowError:
            return math.inf


def share_curve(reads: list[CardRead]) -> ShareCurve:
    """The maximum a posteriori ``ShareCurve`` of ``reads`` by Newton's method (``SLOPE_PRIOR`` on the slope;
    where every card reads right, or none, the intercept runs off until the iterations end, harmlessly)."""
    logs = np.log([r.px_per_cm for r in reads])
    right = np.array([r.right for r in reads], float)
    centre = float(logs.mean())
    x = np.stack([np.ones_like(logs), logs - centre], axis=1)
    prior = np.diag([0.0, SLOPE_PRIOR])
    w = np.zeros(2)
    for _ in range(100):
        p = 0.5 * (1.0 + np.tanh(0.5 * (x @ w)))  # the logistic function, without overflow
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + prior + 1e-9 * np.eye(2)  # one detail: still solvable
        step = np.linalg.solve(hessian, x.T @ (right - p) - prior @ w)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return ShareCurve(float(w[0]), float(w[1]), centre)


def monotone_detail(reads: list[CardRead], share: float) -> float | None:
    """The least detail from which the share of cards read right, fitted as never falling with more detail
    (pooled adjacent violators over steps of ``MIN_CARDS`` cards or more, from the least detail up),
    reaches ``share``; None where it nowhere does. Unlike the smooth curve it assumes no shape, so sharp
    4K cards cannot lift a band of blurred ones to the share, and a few lucky cards make no step."""
    levels: dict[float, list[int]] = {}
    for r in reads:
        counts = levels.setdefault(r.px_per_cm, [0, 0])
        counts[0] += r.right
        counts[1] += 1
    steps: list[list[float]] = []  # [least detail, cards right, cards], each of MIN_CARDS cards or more
    for px in sorted(levels):
        if not steps or steps[-1][2] >= MIN_CARDS:
            steps.append([px, 0, 0])
        steps[-1][1] += levels[px][0]
        steps[-1][2] += levels[px][1]
    if len(steps) > 1 and steps[-1][2] < MIN_CARDS:  # the finest few cards join the step below
        last = steps.pop()
        steps[-1][1] += last[1]
        steps[-1][2] += last[2]
    blocks: list[list[float]] = []
    for step in steps:
        while blocks and blocks[-1][1] * step[2] > step[1] * blocks[-1][2]:  # the block below reads better
            below = blocks.pop()
            step = [below[0], below[1] + step[1], below[2] + step[2]]
        blocks.append(step)
    return next((start for start, right, cards in blocks if right >= share * cards), None)


@dataclass(frozen=True)
class DetailNeed:
    """What registration measured of the detail the deck needs."""

    px_per_cm: float
    """Where both fits reach ``NEEDS_SHARE``, no less than the least detail measured; where no detail
    measured reaches it, the finest detail measured (``reached`` False: the deck needs more)."""
    reached: bool
    share: float
    """Share of cards read right at ``px_per_cm`` or more (all cards, where not reached)."""
    cards: int
    """Cards read at ``px_per_cm`` or more (all cards, where not reached)."""
    fitted: int
    """Cards both fits were made on: every true card of the frames."""

    def line(self) -> str:
        """The registration log's line."""
        if self.reached:
            return (
                f"detail: cards read {NEEDS_SHARE:.0%} right from {self.px_per_cm:.1f} px/cm (fitted over"
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
    """The detail from which both the smooth curve (``share_curve``) and the monotone step
    (``monotone_detail``) put the share of cards read right at ``share``, provided the ``MIN_CARDS`` or
    more cards read there or finer assure ``share`` together (``assured``)."""
    if not reads:
        raise ValueError("no card in the rendered frames: the detail a deck needs cannot be measured")
    bad = next((r.px_per_cm for r in reads if not (math.isfinite(r.px_per_cm) and r.px_per_cm > 0)), None)
    if bad is not None:
        raise ValueError(f"a card read at {bad} px/cm: the detail must be a positive number")
    finest = max(r.px_per_cm for r in reads)
    stepped = monotone_detail(reads, share)
    smooth = share_curve(reads).detail_for(share)
    if stepped is not None:
        at = stepped if smooth is None else max(stepped, smooth)  # the step is a detail measured: no lower
        there = [r for r in reads if r.px_per_cm >= at]
        right = sum(r.right for r in there)
        if at <= finest and len(there) >= MIN_CARDS and assured(right, len(there)) >= share:
            return DetailNeed(at, True, right / len(there), len(there), len(reads))
    return DetailNeed(finest, False, sum(r.right for r in reads) / len(reads), len(reads), len(reads))
