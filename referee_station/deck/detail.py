"""The detail a deck needs: the frame px per cm from which the profile's own reader reads its cards right.

Decks differ by more than a camera does: a deck whose index suit is a 4 mm glyph is read at 1080p no
better than a guess within a colour, another one right at 720p. One constant in ``check-camera`` would
pass a camera that cannot read the event's deck, or fail one that can. So registration reads rendered
frames of the deck over the cameras CLOTH.md allows (720p and 1080p, 90–150 cm) and 4K ones with the
reader the station will run, and keeps the least detail from which its cards are assured to read right
(``NEEDS_SHARE``, the share's Wilson lower bound); ``check-camera`` compares each play area with it.
The frames are rendered in the renderer's held-out looks, which no network was fitted on: in the
training looks the profile reads renders of its own cut faces better than a table's cards, and the
sans test deck's need came out at 6.4 px/cm where its benchmark frames need 8.5 (docs/deck.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from difflib import SequenceMatcher

from referee_station.deck.threshold import FrameRead

NEEDS_SHARE = 0.97
"""Share of cards read right that must be assured (``ASSURED``), among those read at the deck's needed
detail or more: 97 % of cards is about 90 % of plays of three to five cards."""
ASSURED_Z = 1.645
"""The Wilson bound's z: one-sided 95 %. Forty cards all read right assure only 94 %; a few misread
cards among the finest must not pass a deck, nor a lucky few pass one."""
WINDOW = 100
"""Cards at the least detail counted that must read right at ``NEEDS_SHARE`` themselves; fewer cards
counted decide nothing (88 sharp 4K cards all read right once set the sans deck's need at 10 px/cm, where
its 1080p cards read 77 % of plays)."""
DETAIL_FRAMES = 40
"""Rendered frames registration reads for it: about 600 true cards, 5–22 px/cm."""
DETAIL_LARGE_FRAMES = 0.4
"""The share of them seen by a 4K camera, so that a deck 1080p cannot read is told how much more it needs
(16–22 px/cm) instead of only "more than 11"."""


@dataclass(frozen=True)
class CardRead:
    """One true card of a rendered frame: the px/cm its play area gets, and whether it was read right."""

    px_per_cm: float
    right: bool


@dataclass(frozen=True)
class DetailNeed:
    """What registration measured of the detail the deck needs."""

    px_per_cm: float
    """The least detail from which ``NEEDS_SHARE`` of the cards are assured to read right; where no detail
    assures it, the finest detail measured (``reached`` False: the deck needs more than that)."""
    reached: bool
    share: float
    """Share of cards read right at ``px_per_cm`` or more (all cards, where not reached)."""
    cards: int
    """Cards read at ``px_per_cm`` or more (all cards, where not reached)."""

    def line(self) -> str:
        """The registration log's line."""
        if self.reached:
            return (
                f"detail: {self.share:.1%} of {self.cards} cards read right from {self.px_per_cm:.1f} px/cm up"
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


def need_from(reads: list[CardRead], share: float = NEEDS_SHARE, window: int = WINDOW) -> DetailNeed:
    """The least detail d such that at least ``window`` cards are read at d or more, they assure ``share``
    read right (``assured``), and the ``window`` of them read at the least detail read right at ``share``
    at least: many sharp cards must not carry a band of blurred ones, nor a lucky few decide."""
    if not reads:
        raise ValueError("no card in the rendered frames: the detail a deck needs cannot be measured")
    ordered = sorted(reads, key=lambda r: -r.px_per_cm)
    right = 0
    best: DetailNeed | None = None
    for n, card in enumerate(ordered, 1):
        right += card.right
        if n < len(ordered) and ordered[n].px_per_cm == card.px_per_cm:
            continue  # one area's cards share its detail: judged together, none left out
        lowest = ordered[max(0, n - window) : n]
        if n >= window and assured(right, n) >= share and sum(r.right for r in lowest) >= share * window:
            best = DetailNeed(card.px_per_cm, True, right / n, n)
    if best is not None:
        return best
    return DetailNeed(ordered[0].px_per_cm, False, right / len(ordered), len(ordered))
