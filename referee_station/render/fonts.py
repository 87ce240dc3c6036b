"""Card designs drawn from system fonts: many index typefaces for the classifier to learn from.

The seventeen aisleriot training designs share a handful of index typefaces, and the classifier learnt
them rather than the ranks: on the held-out design most misreads were ranks (8 read as 6, 5 as 3, 4 as
8), not suits. Each design here sets its ranks in one of the TrueType/OpenType fonts installed from
Debian (``fonts-urw-base35``, ``fonts-liberation``, ``fonts-freefont-ttf``, ``fonts-dejavu``; see
``scripts/setup-train.sh``), with its own index size, weight, position, colours and suit glyphs, so
that what stays constant across designs is only what makes a rank that rank.

Hershey fonts are left out on purpose: the drawn test design of deck registration
(``referee_station.render.drawn``) uses them, and it must stay a design the generic classifier never saw. The
faces are drawn with Pillow, which only the training environment has (``[train]`` extra).
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import cv2
import numpy as np

from referee_station.render.artwork import CARD_PX, Design
from referee_station.rules import DECK
from referee_station.vision.geometry import CARD_W

FONT_DIRS = (
    Path("/usr/share/fonts/opentype/urw-base35"),
    Path("/usr/share/fonts/truetype/liberation"),
    Path("/usr/share/fonts/truetype/freefont"),
    Path("/usr/share/fonts/truetype/dejavu"),
)
SKIP = ("StandardSymbols", "D050000L", "Math", "ExtraLight")
"""Symbol and dingbat fonts (no letters) and hairline weights no card uses."""
SUIT_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "FreeSerif.ttf", "FreeSans.ttf")
"""Fonts with the four filled suit glyphs (the first also has the jokers' stars)."""
SUIT_GLYPHS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
RANK_TEXT = {"T": "10"}
PX_PER_CM = CARD_PX[0] / CARD_W


@functools.cache
def rank_fonts() -> tuple[Path, ...]:
    """Every installed letter font, in a fixed order (so a seed gives the same design everywhere)."""
    fonts = sorted(p for d in FONT_DIRS if d.exists() for p in d.iterdir() if p.suffix in (".ttf", ".otf"))
    fonts = tuple(p for p in fonts if not any(s in p.name for s in SKIP))
    if not fonts:
        raise FileNotFoundError(f"no fonts in {', '.join(map(str, FONT_DIRS))}: run scripts/setup-train.sh")
    return fonts


@functools.cache
def suit_fonts() -> tuple[Path, ...]:
    fonts = tuple(sorted((p for p in rank_fonts() if p.name in SUIT_FONTS), key=lambda p: SUIT_FONTS.index(p.name)))
    if not fonts:
        raise FileNotFoundError(f"none of {', '.join(SUIT_FONTS)} installed: run scripts/setup-train.sh")
    return fonts


def _glyph(text: str, font: Path, height: float, stretch: float = 1.0) -> np.ndarray:
    """The ink of ``text`` (uint8 0..255) scaled so it is ``height`` px tall, width times ``stretch``."""
    from PIL import Image, ImageDraw, ImageFont

    face = ImageFont.truetype(str(font), 96)
    x0, y0, x1, y1 = face.getbbox(text)
    image = Image.new("L", (x1 - x0 + 8, y1 - y0 + 8), 0)
    ImageDraw.Draw(image).text((4 - x0, 4 - y0), text, font=face, fill=255)
    ink = np.asarray(image)
    ys, xs = np.nonzero(ink > 0)
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = height / ink.shape[0]
    size = (max(1, round(ink.shape[1] * scale * stretch)), max(1, round(height)))
    return cv2.resize(ink, size, interpolation=cv2.INTER_AREA)


def _stamp(face: np.ndarray, ink: np.ndarray, centre: tuple[float, float], colour: tuple[int, int, int]) -> None:
    """Paint ``colour`` through ``ink`` centred on ``centre`` (clipped to the face)."""
    h, w = ink.shape
    x, y = round(centre[0] - w / 2), round(centre[1] - h / 2)
    x0, y0, x1, y1 = max(0, x), max(0, y), min(face.shape[1], x + w), min(face.shape[0], y + h)
    a = ink[y0 - y : y1 - y, x0 - x : x1 - x, None].astype(np.float32) / 255
    roi = face[y0:y1, x0:x1, :3].astype(np.float32)
    face[y0:y1, x0:x1, :3] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


class FontDesign:
    """One random design: its choices are drawn once from ``seed``; ``design()`` draws the 54 faces."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.name = f"font_{seed}"
        self.font = rng.choice(rank_fonts())
        self.suit_font = rng.choice(suit_fonts())
        self.rank_h = rng.uniform(0.55, 0.95) * PX_PER_CM
        self.stretch = rng.uniform(0.75, 1.25)
        self.suit_h = rng.uniform(0.45, 0.8) * PX_PER_CM
        self.index_x = rng.uniform(0.55, 1.0) * PX_PER_CM
        self.rank_y = rng.uniform(0.55, 1.0) * PX_PER_CM
        self.gap = rng.uniform(0.05, 0.3) * PX_PER_CM
        grey = rng.randint(236, 255)
        self.paper = tuple(min(255, grey + rng.randint(-6, 6)) for _ in range(3))
        self.red = (rng.randint(0, 60), rng.randint(0, 50), rng.randint(150, 230))
        self.black = tuple([rng.randint(0, 50)] * 3) if rng.random() < 0.8 else (rng.randint(60, 120), 30, 20)
        self.border = rng.random() < 0.5

    def colour(self, code: str) -> tuple[int, int, int]:
        if code in ("SJ", "BJ"):
            return self.black if code == "SJ" else self.red
        return self.red if code[1] in "hd" else self.black

    def _index(self, face: np.ndarray, code: str) -> None:
        colour = self.colour(code)
        if code in ("SJ", "BJ"):
            step = 2.4 * PX_PER_CM / 5
            for i, letter in enumerate("JOKER"):  # stacked in the index column, as Chinese decks print it
                ink = _glyph(letter, self.font, min(step * 0.85, self.rank_h), self.stretch)
                _stamp(face, ink, (self.index_x, 0.35 * PX_PER_CM + step * (i + 0.5)), colour)
            return
        rank = _glyph(RANK_TEXT.get(code[0], code[0]), self.font, self.rank_h, self.stretch)
        _stamp(face, rank, (self.index_x, self.rank_y), colour)
        suit = _glyph(SUIT_GLYPHS[code[1]], self.suit_font, self.suit_h)
        _stamp(face, suit, (self.index_x, self.rank_y + self.rank_h / 2 + self.gap + self.suit_h / 2), colour)

    def face(self, code: str) -> np.ndarray:
        """One face (BGRA at ``CARD_PX``): paper with rounded corners, two indices, a centre mark."""
        w, h = CARD_PX
        face = np.zeros((h, w, 4), np.uint8)
        r = 10
        paper = (*self.paper, 255)
        cv2.rectangle(face, (r, 0), (w - 1 - r, h - 1), paper, -1)
        cv2.rectangle(face, (0, r), (w - 1, h - 1 - r), paper, -1)
        for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
            cv2.circle(face, (cx, cy), r, paper, -1, cv2.LINE_AA)
        if self.border:
            cv2.rectangle(face, (50, 14), (w - 51, h - 15), (*self.colour(code), 255), 2)
        self._index(face, code)
        turned = np.ascontiguousarray(face[::-1, ::-1])
        self._index(turned, code)
        face = np.ascontiguousarray(turned[::-1, ::-1])
        colour = self.colour(code)
        if code in ("SJ", "BJ"):
            mark = _glyph("★" if code == "BJ" else "☆", suit_fonts()[0], 2.2 * PX_PER_CM)  # DejaVu has the stars
        elif code[0] in "JQKA":
            mark = _glyph(code[0], self.font, 3.0 * PX_PER_CM)
        else:
            mark = _glyph(SUIT_GLYPHS[code[1]], self.suit_font, 2.0 * PX_PER_CM)
        _stamp(face, mark, (w / 2, h / 2), colour)
        return face

    def design(self) -> Design:
        faces = {card.code: self.face(card.code) for card in DECK}
        back = self.face("2s")
        back[..., :3] = (130, 60, 40)
        back[..., 3] = faces["2s"][..., 3]
        return Design(self.name, faces, back)
