"""The detail a deck needs: the frame px per cm from which the profile's own reader reads its cards right.

Decks differ by more than a camera does: a deck whose index suit is a 4 mm glyph is read at 1080p no
better than a guess within a colour, another one right at 720p. One constant in ``check-camera`` would
pass a camera that cannot read the event's deck, or fail one that can. So registration reads rendered
frames of the deck over the cameras CLOTH.md allows (720p and 1080p, 90–150 cm) with the reader the
station will run, and keeps the least detail from which its cards read right (``NEEDS_SHARE``);
``check-camera`` compares each play area with it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from difflib import SequenceMatcher

from referee_station.render.render import render
from referee_station.render.scene import random_scene
from referee_station.vision.reader import CardReader
from referee_station.vision.strips import detail

NEEDS_SHARE = 0.99
"""Share of cards read right, among those read at the deck's needed detail or more."""
LEAST_CARDS = 40
"""Fewest cards a share is taken over: below it one misread decides."""
DETAIL_FRAMES = 30
"""Rendered frames registration reads for it: about 450 true cards, 5–11 px/cm."""


@dataclass(frozen=True)
class CardRead:
    """One true card of a rendered frame: the px/cm its play area gets, and whether it was read right."""

    px_per_cm: float
    right: bool


@dataclass(frozen=True)
class DetailNeed:
    """What registration measured of the detail the deck needs."""

    px_per_cm: float
    """The least detail from which ``NEEDS_SHARE`` of the cards read right; where that share is never
    reached, the finest detail measured (``reached`` False: the deck needs more than that)."""
    reached: bool
    share: float
    """Share of cards read right at ``px_per_cm`` or more."""
    cards: int
    """Cards read at ``px_per_cm`` or more."""

    def line(self) -> str:
        """The registration log's line."""
        if self.reached:
            return f"detail: {self.share:.1%} of {self.cards} cards read right from {self.px_per_cm:.1f} px/cm up"
        return (
            f"detail: only {self.share:.1%} of the {self.cards} cards read at {self.px_per_cm:.1f} px/cm or more read"
            f" right: this deck needs more detail than the frames gave"
        )


def card_reads(reader: CardReader, design: str, frames: int, seed: int) -> list[CardRead]:
    """Every true card of the readable seats in ``frames`` random scenes of ``design``, read by ``reader``
    (a card is right where it lies in the longest run read as it is: a card missed or added costs only
    itself)."""
    if frames < 1:
        raise ValueError(f"detail frames must be at least 1, got {frames}")
    rng = random.Random(seed)
    out = []
    for _ in range(frames):
        shot = render(random_scene(rng, design))
        reading = reader.read(shot.image, shot.corners)
        scale = detail(shot.corners)
        for seat, truth in shot.truth.items():
            if truth.status != "cards":
                continue
            read = reading.seats[seat].cards
            matcher = SequenceMatcher(None, list(truth.cards), read, autojunk=False)
            right = [False] * len(truth.cards)
            for block in matcher.get_matching_blocks():
                right[block.a : block.a + block.size] = [True] * block.size
            out += [CardRead(scale[seat], ok) for ok in right]
    return out


def need_from(reads: list[CardRead], share: float = NEEDS_SHARE, least: int = LEAST_CARDS) -> DetailNeed:
    """The least detail d such that, of the cards read at d or more (``least`` of them at the fewest, or all
    there are), ``share`` read right."""
    if not reads:
        raise ValueError("no card in the rendered frames: the detail a deck needs cannot be measured")
    least = min(least, len(reads))
    ordered = sorted(reads, key=lambda r: -r.px_per_cm)
    right = 0
    best: DetailNeed | None = None
    for n, card in enumerate(ordered, 1):
        right += card.right
        if n >= least and right / n >= share:
            best = DetailNeed(card.px_per_cm, True, right / n, n)
    if best is not None:
        return best
    counted = ordered[:least]
    return DetailNeed(counted[0].px_per_cm, False, sum(r.right for r in counted) / least, least)


def measure_need(reader: CardReader, design: str, frames: int, seed: int) -> DetailNeed:
    """The detail ``design`` needs when read by ``reader``, measured on ``frames`` rendered scenes."""
    return need_from(card_reads(reader, design, frames, seed))
