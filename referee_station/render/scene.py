"""What lies on the table in one frame: a plain description that ``render`` turns into pixels.

A scene is data, not randomness: ``random_scene`` draws one from a ``random.Random``, and a later
simulator can build scenes itself (a whole deal, frame by frame) and keep cards where they were laid.
All positions are seat-local centimetres (South's frame, see ``referee_station.vision.geometry``).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field

from referee_station.render.artwork import load_design
from referee_station.rules import DECK
from referee_station.vision.geometry import CARD_H, CARD_W, DRAW_ORDER, PLAY_AREA
from referee_station.vision.index_width import index_width

RANKS = "23456789TJQKA"
SUITS = "shdc"


@dataclass(frozen=True)
class PlacedCard:
    """A card lying on the cloth: code, centre (cm, seat-local), angle (degrees ccw), face up or down."""

    code: str
    x: float
    y: float
    angle: float = 0.0
    face_up: bool = True


@dataclass(frozen=True)
class Arm:
    """A player's arm reaching over the table from a seat's edge to (x, y) seat-local, seen from above."""

    start_x: float
    x: float
    y: float
    width: float = 8.0
    sleeve: tuple[int, int, int] = (60, 60, 140)
    skin: tuple[int, int, int] = (140, 170, 215)


@dataclass(frozen=True)
class SeatScene:
    """One seat's things: the play in its play area, its discard pile, its held hand and an arm."""

    play: tuple[PlacedCard, ...] = ()
    discard: tuple[PlacedCard, ...] = ()
    hand: tuple[PlacedCard, ...] = ()
    arm: Arm | None = None


@dataclass(frozen=True)
class Camera:
    """Pinhole camera above the table: height (cm), tilt of the optical axis from vertical (degrees) and
    the direction it leans to, roll about the axis (the frame's rotation), frame size, and the cloth's
    target size in the frame (px)."""

    height: float = 120.0
    tilt: float = 0.0
    tilt_dir: float = 0.0
    roll: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)
    size: tuple[int, int] = (1920, 1080)
    span_px: float = 900.0


@dataclass(frozen=True)
class Look:
    """Materials, light and sensor: everything that changes pixels without changing what is on the table."""

    cloth: tuple[int, int, int] = (40, 70, 25)
    floor: tuple[int, int, int] = (90, 100, 110)
    background: str = "blobs"
    line_tone: int = 45
    light_gain: float = 1.0
    light_gradient: float = 0.3
    glare: int = 1
    shadow: float = 0.35
    blur: float = 0.6
    noise: float = 3.0
    jpeg: int = 85
    seed: int = 0


@dataclass(frozen=True)
class Scene:
    """A full frame's content. ``design`` names a card artwork (``referee_station.render.artwork``)."""

    design: str
    seats: dict[str, SeatScene] = field(default_factory=dict)
    camera: Camera = field(default_factory=Camera)
    look: Look = field(default_factory=Look)


TRAIN_CLOTHS = ((40, 70, 25), (25, 45, 20), (70, 40, 20), (35, 35, 35), (20, 20, 60), (60, 50, 20), (30, 30, 30))
TRAIN_FLOORS = ((90, 100, 110), (60, 80, 120), (150, 150, 150), (40, 60, 90), (120, 110, 100))
HELDOUT_CLOTHS = ((55, 25, 55), (30, 55, 55), (20, 30, 45))
HELDOUT_FLOORS = ((70, 130, 160), (200, 200, 190), (30, 30, 40))
SLEEVES = ((60, 60, 140), (30, 30, 30), (200, 200, 200), (120, 60, 20), (40, 90, 40), (150, 120, 180), (20, 40, 90))
SKINS = ((140, 170, 215), (110, 140, 190), (80, 110, 160), (160, 185, 225), (60, 80, 120))


def random_play(rng: random.Random, n: int) -> list[str]:
    """Cards of a plausible play of n cards, ordered by rank left to right (R-PLAY-4)."""
    kind = rng.random()
    if kind < 0.3 or n in (1, 7, 9):
        cards = rng.sample([c.code for c in DECK], n)
    elif kind < 0.6 and n <= 8:  # same rank: pair, triple, bomb
        rank = rng.choice(RANKS)
        suits = [rng.choice(SUITS) for _ in range(n)]
        cards = [rank + s for s in suits]
    else:  # a run of ranks, singles or pairs or triples
        width = rng.choice([w for w in (1, 2, 3) if n % w == 0 and n // w <= 13])
        start = rng.randrange(0, 14 - n // width)
        cards = [RANKS[(start + i // width) % 13] + rng.choice(SUITS) for i in range(n)]
    if rng.random() < 0.1:
        cards[rng.randrange(n)] = rng.choice(["SJ", "BJ"])
    order = {r: i for i, r in enumerate(RANKS)} | {"S": 13, "B": 14}
    cards = sorted(cards, key=lambda c: order[c[0]]) if rng.random() < 0.85 else cards
    if rng.random() < 0.2:  # a wild card (the level's ♥) lies where the card it stands for would (R-PLAY-4)
        cards[rng.randrange(n)] = rng.choice(RANKS) + "h"
    return cards


MIN_STEP = 2.0
"""cm from one card's left edge to the next card's in a row: enough for a rank over its suit."""


@functools.cache
def row_step(design: str) -> float:
    """The least step (cm) of ``design``'s rows: ``MIN_STEP``, or its index's width where the index is
    wider (a suit beside its rank). CLOTH.md lays a row so that every card's left index shows; laid at
    ``MIN_STEP``, the benchmark's ``sans`` deck hid its suit mark under the next card."""
    return max(MIN_STEP, index_width(load_design(design).faces))


def random_row(rng: random.Random, codes: list[str], min_step: float = MIN_STEP) -> tuple[PlacedCard, ...]:
    """Lay codes left to right in the play area, each card's left index showing: the step from card to
    card is at least ``min_step`` (``row_step`` of the design)."""
    n = len(codes)
    x0, x1, y0, y1 = PLAY_AREA
    room = (x1 - x0) - CARD_W + 1.0
    step = rng.uniform(min_step, min(3.4, room / (n - 1))) if n > 1 else 0.0
    if n > 1 and n <= 4 and rng.random() < 0.25:
        step = rng.uniform(min_step, min(CARD_W + 1.5, room / (n - 1)))
    width = step * (n - 1)
    left = rng.uniform(x0 + CARD_W / 2 - 0.5, x1 - CARD_W / 2 + 0.5 - width)
    cy = rng.uniform(y0 + CARD_H / 2 - 0.3, y1 - CARD_H / 2 + 0.3)
    tilt = rng.gauss(0, 2.0)
    slope = rng.gauss(0, 0.03)
    return tuple(
        PlacedCard(
            code,
            left + i * step + rng.gauss(0, 0.1),
            cy + i * step * slope + rng.gauss(0, 0.15),
            tilt + rng.gauss(0, 1.2),
        )
        for i, code in enumerate(codes)
    )


SMALL_FRAMES = 0.2
"""The share of 1280 × 720 cameras in a random scene (the rest are 1080p; CLOTH.md allows both)."""
LARGE_SIZE = (3840, 2160)
"""A 4K camera: 16–22 px/cm at the standard height, where a deck's small suit mark needs more than 1080p."""


def random_scene(
    rng: random.Random,
    design: str,
    *,
    heldout_look: bool = False,
    arms: float = 0.08,
    small_frames: float = SMALL_FRAMES,
    large_frames: float = 0.0,
) -> Scene:
    """A random scene: plays of 0–10 cards, discard piles, held hands, occasional arms, random camera/light.
    ``small_frames``: the share of 1280 × 720 cameras, ``large_frames`` of 4K ones (``LARGE_SIZE``), the
    rest 1080p; training renders extra 720p chunks because an index there is only 4–5 px tall and most
    misreads happen there. Both shares come from one draw, so a seed without 4K cameras renders as it
    always did."""
    deck = [c.code for c in DECK]
    min_step = row_step(design)
    seats = {}
    for seat in DRAW_ORDER:
        n = 0 if rng.random() < 0.18 else rng.randint(1, 10)
        play = random_row(rng, random_play(rng, n), min_step) if n else ()
        if n and n <= 3 and rng.random() < 0.04:  # a play laid face down: cards, but unreadable
            play = tuple(PlacedCard(c.code, c.x, c.y, c.angle, face_up=False) for c in play)
        discard = tuple(
            PlacedCard(
                rng.choice(deck),
                rng.uniform(-24.5, -21.5),
                rng.uniform(-40, -37),
                rng.gauss(0, 12) + rng.choice([0, 90]),
                False,
            )
            for _ in range(rng.choice([0, 0, rng.randint(1, 25)]))
        )
        hand = ()
        if rng.random() < 0.5:
            k = rng.randint(3, 14)
            hx, face = rng.uniform(-22, 22), rng.random() < 0.6
            hand = tuple(
                PlacedCard(rng.choice(deck), hx + (i - k / 2) * 1.6, rng.uniform(-47.5, -46.0), (k / 2 - i) * 6, face)
                for i in range(k)
            )
        arm = None
        if rng.random() < arms:
            into_play = rng.random() < 0.5
            arm = Arm(
                start_x=rng.uniform(-25, 25),
                x=rng.uniform(-14, 14) if into_play else rng.uniform(-38, 38),
                y=rng.uniform(-30, -18) if into_play else rng.uniform(-44, -36),
                width=rng.uniform(6.5, 10),
                sleeve=rng.choice(SLEEVES),
                skin=rng.choice(SKINS),
            )
        seats[seat] = SeatScene(play, discard, hand, arm)
    draw = rng.random()
    size = LARGE_SIZE if draw < large_frames else (1920, 1080) if draw < 1 - small_frames else (1280, 720)
    camera = Camera(
        height=rng.uniform(90, 150),
        tilt=abs(rng.gauss(0, 8)) % 20,
        tilt_dir=rng.uniform(0, 360),
        roll=rng.uniform(-180, 180) if rng.random() < 0.3 else rng.gauss(0, 6),
        offset=(rng.gauss(0, 3), rng.gauss(0, 3)),
        size=size,
        span_px=rng.uniform(800, 1000) * size[1] / 1080,
    )
    cloths, floors = (HELDOUT_CLOTHS, HELDOUT_FLOORS) if heldout_look else (TRAIN_CLOTHS, TRAIN_FLOORS)
    jitter = [rng.randint(-12, 12) for _ in range(3)]
    look = Look(
        cloth=tuple(max(0, c + j) for c, j in zip(rng.choice(cloths), jitter, strict=True)),
        floor=rng.choice(floors),
        background="planks" if heldout_look else "blobs",
        line_tone=rng.randint(20, 80),
        light_gain=rng.uniform(0.7, 1.25),
        light_gradient=rng.uniform(0.0, 0.5),
        glare=rng.choice([0, 0, 1, 1, 2]),
        shadow=rng.uniform(0.15, 0.5),
        blur=rng.uniform(0.0, 1.0),
        noise=rng.uniform(1.0, 7.0),
        jpeg=rng.randint(55, 95),
        seed=rng.randrange(2**31),
    )
    return Scene(design, seats, camera, look)
