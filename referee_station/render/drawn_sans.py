"""A second drawn test design: a large sans-serif index with the suit beside the rank, and Chinese jokers.

Deck registration is measured on two designs no training design resembles, with different index layouts
(issue #24): ``referee_station.render.drawn`` stacks a Hershey italic rank over its suit; this one sets a large
rank in WenQuanYi Micro Hei (a CJK font's Latin, used by no training design) with the suit to its right,
as many Chinese and casino decks do, and draws the jokers as pictures (a crown in a frame) with 大王
(big joker, red) and 小王 (small joker, black) written down the index column. Pips and courts follow
``referee_station.render.drawn``'s layout with this design's own suit glyphs (the font's). Pillow draws the text (the
``dev`` and ``train`` extras), the font comes from ``fonts-wqy-microhei`` (``scripts/setup.sh``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from referee_station.render.artwork import CACHE_DIR, CARD_PX, install_design
from referee_station.render.drawn import draw_back
from referee_station.rules import DECK
from referee_station.vision.geometry import CARD_W

SANS_DESIGN = "drawn_sans_beside_v1"
FONT = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
_PX_PER_CM = CARD_PX[0] / CARD_W
_RED = (200, 20, 30)  # RGB: Pillow draws in RGB
_BLACK = (20, 20, 25)
_SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
_RANK_TEXT = {"T": "10"}
RANK_MM = 11.0
"""The rank's height: a large index (most training designs draw 8.4–11 mm)."""
_PIPS = {
    "A": ((0.5, 0.5),),
    "2": ((0.5, 0.22), (0.5, 0.78)),
    "3": ((0.5, 0.22), (0.5, 0.5), (0.5, 0.78)),
    "4": ((0.33, 0.22), (0.67, 0.22), (0.33, 0.78), (0.67, 0.78)),
    "5": ((0.33, 0.22), (0.67, 0.22), (0.5, 0.5), (0.33, 0.78), (0.67, 0.78)),
    "6": ((0.33, 0.22), (0.67, 0.22), (0.33, 0.5), (0.67, 0.5), (0.33, 0.78), (0.67, 0.78)),
    "7": ((0.33, 0.22), (0.67, 0.22), (0.5, 0.36), (0.33, 0.5), (0.67, 0.5), (0.33, 0.78), (0.67, 0.78)),
    "8": ((0.33, 0.22), (0.67, 0.22), (0.5, 0.36), (0.33, 0.5), (0.67, 0.5), (0.5, 0.64), (0.33, 0.78), (0.67, 0.78)),
    "9": ((0.33, 0.22), (0.67, 0.22), (0.33, 0.41), (0.67, 0.41), (0.5, 0.5), (0.33, 0.59), (0.67, 0.59),
          (0.33, 0.78), (0.67, 0.78)),
    "T": ((0.33, 0.22), (0.67, 0.22), (0.5, 0.32), (0.33, 0.41), (0.67, 0.41), (0.33, 0.59), (0.67, 0.59),
          (0.5, 0.68), (0.33, 0.78), (0.67, 0.78)),
}  # fmt: skip
"""Pip centres as shares of the face's width and height (a pip column nearer the edge than ``drawn``'s)."""


def _font(px: int):
    from PIL import ImageFont

    return ImageFont.truetype(str(FONT), px)


def _centred(draw, text: str, centre: tuple[float, float], px: int, fill) -> None:
    """``text`` whose ink box is centred on ``centre``."""
    font = _font(px)
    x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
    draw.text((centre[0] - (x0 + x1) / 2, centre[1] - (y0 + y1) / 2), text, font=font, fill=fill)


def _index(draw, code: str, colour) -> None:
    """The top-left index: the rank with its suit beside it, or 大王 / 小王 down the column."""
    if code in ("SJ", "BJ"):
        for i, char in enumerate("大王" if code == "BJ" else "小王"):
            _centred(draw, char, (0.75 * _PX_PER_CM, (0.75 + i * 0.95) * _PX_PER_CM), round(0.85 * _PX_PER_CM), colour)
        return
    rank = _RANK_TEXT.get(code[0], code[0])
    px = round(RANK_MM / 10 * _PX_PER_CM * 1.35)  # the font's cap height is about 0.74 of its size
    _centred(draw, rank, ((0.75 if len(rank) == 1 else 0.9) * _PX_PER_CM, 0.8 * _PX_PER_CM), px, colour)
    _centred(draw, _SUITS[code[1]], (1.75 * _PX_PER_CM, 0.85 * _PX_PER_CM), round(0.7 * _PX_PER_CM), colour)


def _face_rgb(code: str) -> np.ndarray:
    from PIL import Image, ImageDraw

    w, h = CARD_PX
    img = Image.new("RGB", (w, h), (252, 250, 246))
    draw = ImageDraw.Draw(img)
    colour = _RED if code == "BJ" or code[1:] in ("h", "d") else _BLACK
    if code in ("SJ", "BJ"):
        draw.rectangle((48, 30, w - 49, h - 31), outline=colour, width=3)
        crown = [(62, 150), (70, 95), (90, 125), (w / 2, 80), (w - 90, 125), (w - 70, 95), (w - 62, 150)]
        draw.polygon(crown, fill=colour if code == "BJ" else None, outline=colour, width=3)
        _centred(draw, "JOKER", (w / 2, 185), 22, colour)
    elif code[0] in "JQK":
        tint = (245, 215, 160) if colour == _RED else (170, 200, 230)
        draw.rectangle((64, 30, w - 65, h - 31), fill=tint, outline=colour, width=2)
        _centred(draw, code[0], (w / 2, h * 0.42), 70, colour)
        _centred(draw, _SUITS[code[1]], (w / 2, h * 0.7), 40, colour)
    else:
        size = 56 if code[0] == "A" else 30
        for fx, fy in _PIPS[code[0]]:
            _centred(draw, _SUITS[code[1]], (fx * w, fy * h), size, colour)
    _index(draw, code, colour)
    rgb = np.asarray(img).copy()  # the lower index: the upper left corner turned round
    tall = 2.2 if code in ("SJ", "BJ") else 1.6
    corner = rgb[: round(tall * _PX_PER_CM), : round(2.2 * _PX_PER_CM)]
    rgb[h - corner.shape[0] :, w - corner.shape[1] :] = np.minimum(
        rgb[h - corner.shape[0] :, w - corner.shape[1] :], corner[::-1, ::-1]
    )
    return rgb


def draw_sans_face(code: str) -> np.ndarray:
    """One face (BGRA at ``CARD_PX``, rounded corners transparent)."""
    rgb = _face_rgb(code)
    face = np.dstack([rgb[..., ::-1], np.full(rgb.shape[:2], 255, np.uint8)])
    face[..., 3] = draw_back()[..., 3]  # the drawn design's rounded corners
    return face


def install_sans_design(cache_dir: Path = CACHE_DIR) -> str:
    """Write the design where ``load_design`` finds designs (once) and return its name; FileNotFoundError
    when the font is not installed."""
    if (cache_dir / SANS_DESIGN).exists():
        return SANS_DESIGN
    if not FONT.exists():
        raise FileNotFoundError(f"{FONT}: install fonts-wqy-microhei (scripts/setup.sh)")
    return install_design(SANS_DESIGN, {card.code: draw_sans_face(card.code) for card in DECK}, draw_back(), cache_dir)
