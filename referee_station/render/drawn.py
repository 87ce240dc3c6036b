"""A card design drawn from scratch with OpenCV's Hershey fonts: a deck no training design resembles.

Tests and the benchmark need a design the generic classifier never saw, the way an event's sponsor deck
is unseen. The aisleriot designs all use conventional serif or sans indices; the Hershey vector fonts
(italic triplex ranks) and hand-drawn suit shapes here are none of them. Jokers carry the letters JOKER
stacked in the index column, as Chinese decks do: black for 小王 (SJ), red for 大王 (BJ), with a star
(outlined on SJ, filled on BJ) so the two differ in more than colour.

Sizes and layout are a real deck's: the rank is ``RANK_MM`` tall, the smallest of the training designs'
(the first version drew it 6.3 mm tall, smaller than any real design's 8.0–15.8 mm, and at 720p that
alone made it illegible), number cards carry their pips in the usual layout (the bottom half turned
round), courts a framed picture with the rank in Hershey script, so the wide view a reader takes of a
card's left side (``referee_station.vision.strips.crop_context``) sees what it sees on real cards.

``install_drawn_design`` writes the faces where ``referee_station.render.artwork.load_design`` looks, so the
ordinary renderer draws frames of this deck like any other.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import cv2
import numpy as np

from referee_station.render.artwork import CACHE_DIR, CARD_PX, install_design
from referee_station.render.render import render
from referee_station.render.scene import Camera, Look, PlacedCard, Scene, SeatScene
from referee_station.rules import DECK
from referee_station.vision.geometry import CARD_W, DRAW_ORDER

DRAWN_DESIGN = "drawn_hershey_v3"
"""The design's name as the renderer knows it once installed."""

_PX_PER_CM = CARD_PX[0] / CARD_W
_FONT = cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC
_RED = (30, 20, 200)
_BLACK = (25, 20, 20)
_RANK_TEXT = {"T": "10"}
_FRAME = (48, 16, CARD_PX[0] - 49, CARD_PX[1] - 17)
"""x0, y0, x1, y1 of the frame round a court's picture or a joker's star, centred on the card."""
RANK_MM = 8.0
"""Height of the index's rank glyph: the smallest among the training designs (orell, atlasnye; most
draw 8.4–11 mm)."""
_PIP_PX = 30
_COLUMNS = tuple((x, y) for x in (0.33, 0.67) for y in (0.2, 0.4, 0.6, 0.8))
_PIPS = {
    "A": ((0.5, 0.5),),
    "2": ((0.5, 0.2), (0.5, 0.8)),
    "3": ((0.5, 0.2), (0.5, 0.5), (0.5, 0.8)),
    "4": ((0.33, 0.2), (0.67, 0.2), (0.33, 0.8), (0.67, 0.8)),
    "5": ((0.33, 0.2), (0.67, 0.2), (0.5, 0.5), (0.33, 0.8), (0.67, 0.8)),
    "6": ((0.33, 0.2), (0.67, 0.2), (0.33, 0.5), (0.67, 0.5), (0.33, 0.8), (0.67, 0.8)),
    "7": ((0.33, 0.2), (0.67, 0.2), (0.5, 0.35), (0.33, 0.5), (0.67, 0.5), (0.33, 0.8), (0.67, 0.8)),
    "8": ((0.33, 0.2), (0.67, 0.2), (0.5, 0.35), (0.33, 0.5), (0.67, 0.5), (0.5, 0.65), (0.33, 0.8), (0.67, 0.8)),
    "9": (*_COLUMNS, (0.5, 0.5)),
    "T": (*_COLUMNS, (0.5, 0.3), (0.5, 0.7)),
}
"""Pip centres of the number cards as shares of the face's width and height."""


def _suit_mask(suit: str, size: int) -> np.ndarray:
    """A filled suit shape (uint8 0/255) in a size × size square."""
    m = np.zeros((size * 4, size * 4), np.uint8)  # drawn 4× larger, shrunk for smooth edges
    s = size * 4
    if suit == "d":
        cv2.fillPoly(m, [np.array([[s // 2, 0], [s - s // 6, s // 2], [s // 2, s - 1], [s // 6, s // 2]])], 255)
    elif suit in "hs":
        r = s // 4
        cv2.circle(m, (r + s // 40, r + s // 8), r, 255, -1)
        cv2.circle(m, (s - r - s // 40, r + s // 8), r, 255, -1)
        cv2.fillPoly(m, [np.array([[s // 40, r + s // 5], [s - s // 40, r + s // 5], [s // 2, s - s // 12]])], 255)
        if suit == "s":  # a heart upside down on a stem
            top = cv2.resize(m[::-1], (s, s * 4 // 5), interpolation=cv2.INTER_AREA)
            m = np.zeros((s, s), np.uint8)
            m[: s * 4 // 5] = top
            cv2.fillPoly(m, [np.array([[s // 2, s // 2], [s // 2 + s // 6, s - 1], [s // 2 - s // 6, s - 1]])], 255)
    else:  # clubs: three balls and a stem
        r = s * 5 // 24
        for cx, cy in ((s // 2, r + 2), (r + 2, s // 2 + r // 3), (s - r - 2, s // 2 + r // 3)):
            cv2.circle(m, (cx, cy), r, 255, -1)
        cv2.fillPoly(m, [np.array([[s // 2, s // 3], [s // 2 + s // 6, s - 1], [s // 2 - s // 6, s - 1]])], 255)
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)


def _stamp(face: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Paint ``colour`` through ``mask`` with its top-left at (x, y)."""
    h, w = mask.shape
    a = mask[..., None].astype(np.float32) / 255
    roi = face[y : y + h, x : x + w, :3].astype(np.float32)
    face[y : y + h, x : x + w, :3] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _text(
    face: np.ndarray,
    text: str,
    centre: tuple[float, float],
    height: float,
    colour,
    thickness: int,
    max_width: float = 1e9,
    font: int = _FONT,
) -> None:
    """Text whose ink is ``height`` px tall (narrowed to ``max_width``), centred on ``centre``. Hershey
    glyphs' ink is shorter than ``getTextSize`` says, so the scale comes from the drawn ink."""
    probe = np.zeros((400, 400 * max(1, len(text))), np.uint8)
    cv2.putText(probe, text, (20, 300), font, 4.0, 255, thickness * 4, cv2.LINE_AA)
    ys, xs = np.nonzero(probe)
    scale = 4.0 * min(height / (ys.max() - ys.min() + 1), max_width / (xs.max() - xs.min() + 1))
    canvas = np.zeros(face.shape[:2], np.uint8)
    cv2.putText(canvas, text, (0, face.shape[0] - 1), font, scale, 255, thickness, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    dx = round(centre[0] - (xs.min() + xs.max()) / 2)
    dy = round(centre[1] - (ys.min() + ys.max()) / 2)
    org = (dx, face.shape[0] - 1 + dy)
    cv2.putText(face, text, org, font, scale, (*colour, 255), thickness, cv2.LINE_AA)


def _star(face: np.ndarray, centre: tuple[float, float], r: float, colour, filled: bool) -> None:
    pts = [
        (
            centre[0] + (r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 5),
            centre[1] - (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 5),
        )
        for k in range(10)
    ]
    poly = np.round(np.array(pts)).astype(np.int32)
    if filled:
        cv2.fillPoly(face, [poly], (*colour, 255), cv2.LINE_AA)
    else:
        cv2.polylines(face, [poly], True, (*colour, 255), 3, cv2.LINE_AA)


def _corner(code: str) -> np.ndarray:
    """The top-left index block (rank over suit, or JOKER), BGRA on white, 1.6 × 3.2 cm."""
    w, h = round(1.6 * _PX_PER_CM), round(3.2 * _PX_PER_CM)
    block = np.full((h, w, 4), 255, np.uint8)
    if code in ("SJ", "BJ"):
        colour = _BLACK if code == "SJ" else _RED
        for i, letter in enumerate("JOKER"):
            _text(block, letter, (w * 0.45, 9 + i * 15.5), 12, colour, 3)
        return block
    colour = _RED if code[1] in "hd" else _BLACK
    _text(block, _RANK_TEXT.get(code[0], code[0]), (w * 0.45, h * 0.22), RANK_MM / 10 * _PX_PER_CM, colour, 3, w - 4)
    _stamp(block, _suit_mask(code[1], 20), round(w * 0.45 - 10), round(h * 0.5), colour)
    return block


def _pips(face: np.ndarray, code: str, colour: tuple[int, int, int]) -> None:
    """A number card's pips in the usual layout, those in the bottom half upside down."""
    w, h = CARD_PX
    size = 60 if code[0] == "A" else _PIP_PX
    mask = _suit_mask(code[1], size)
    for fx, fy in _PIPS[code[0]]:
        turned = mask if fy <= 0.5 else mask[::-1, ::-1]
        _stamp(face, turned, round(fx * w - size / 2), round(fy * h - size / 2), colour)


def _court(face: np.ndarray, code: str, colour: tuple[int, int, int]) -> None:
    """A court's picture: a tinted frame with a suit and the rank in Hershey script, the lower half the
    upper turned round."""
    h = CARD_PX[1]
    x0, y0, x1, y1 = _FRAME
    tint = (150, 215, 240) if code[1] in "hd" else (225, 205, 170)
    cv2.rectangle(face, (x0, y0), (x1, y1), (*tint, 255), -1)
    cv2.rectangle(face, (x0, y0), (x1, y1), (*colour, 255), 2)
    mid = (x0 + x1) / 2
    _stamp(face, _suit_mask(code[1], 24), round(mid - 12), y0 + 8, colour)
    _text(face, code[0], (mid, h * 0.3), 52, colour, 4, x1 - x0 - 8, cv2.FONT_HERSHEY_SCRIPT_COMPLEX)
    picture = face[y0 : y1 + 1, x0 : x1 + 1]
    half = len(picture) // 2
    picture[half:] = picture[:half][::-1, ::-1]


def draw_face(code: str) -> np.ndarray:
    """One card face (BGRA at ``CARD_PX``): white with rounded corners, two indices, and pips, a court
    picture or the joker's star."""
    w, h = CARD_PX
    face = np.zeros((h, w, 4), np.uint8)
    r = 10
    cv2.rectangle(face, (r, 0), (w - 1 - r, h - 1), (250, 250, 247, 255), -1)
    cv2.rectangle(face, (0, r), (w - 1, h - 1 - r), (250, 250, 247, 255), -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(face, (cx, cy), r, (250, 250, 247, 255), -1, cv2.LINE_AA)
    block = _corner(code)
    bh, bw = block.shape[:2]
    face[3 : 3 + bh, 2 : 2 + bw, :3] = np.minimum(face[3 : 3 + bh, 2 : 2 + bw, :3], block[..., :3])
    turned = block[::-1, ::-1]
    face[h - 3 - bh : h - 3, w - 2 - bw : w - 2, :3] = np.minimum(
        face[h - 3 - bh : h - 3, w - 2 - bw : w - 2, :3], turned[..., :3]
    )
    if code in ("SJ", "BJ"):
        cv2.rectangle(face, _FRAME[:2], _FRAME[2:], (200, 170, 120, 255), 2)
        _star(face, (w / 2, h / 2), 38, _BLACK if code == "SJ" else _RED, filled=code == "BJ")
    elif code[0] in "JQK":
        _court(face, code, _RED if code[1] in "hd" else _BLACK)
    else:
        _pips(face, code, _RED if code[1] in "hd" else _BLACK)
    return face


def draw_back() -> np.ndarray:
    """A plain cross-hatched back."""
    w, h = CARD_PX
    back = draw_face("2s")
    back[..., :3] = (120, 40, 30)
    for k in range(-h, w, 12):
        cv2.line(back, (k, 0), (k + h, h), (160, 90, 60, 255), 2)
    back[..., 3] = draw_face("2s")[..., 3]
    return back


def install_drawn_design(cache_dir: Path = CACHE_DIR) -> str:
    """Write the drawn deck where ``load_design`` finds designs (once) and return its name."""
    if (cache_dir / DRAWN_DESIGN).exists():
        return DRAWN_DESIGN
    return install_design(DRAWN_DESIGN, {card.code: draw_face(card.code) for card in DECK}, draw_back(), cache_dir)


def registration_photos(out_dir: Path, design: str, seed: int = 0, size: tuple[int, int] = (1920, 1080)) -> None:
    """Render what an organiser's registration shoot gives: 54 photos ``<code>.jpg`` from one calibrated
    camera of frame ``size``, each card alone, face up, in a random seat's play area, plus the calibration
    ``corners.json``."""
    rng = random.Random(seed)
    camera = Camera(
        height=rng.uniform(100, 140),
        tilt=rng.uniform(0, 10),
        tilt_dir=rng.uniform(0, 360),
        roll=rng.gauss(0, 5),
        size=size,
        span_px=rng.uniform(850, 1000) * (size[1] / 1080),  # 1080p: the very draws of before
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    corners = None
    for card in DECK:
        seat = rng.choice(DRAW_ORDER)
        placed = PlacedCard(card.code, rng.uniform(-10, 10), rng.uniform(-25, -23), rng.gauss(0, 4))
        look = Look(cloth=(40, 70, 25), blur=0.5, noise=2.0, jpeg=92, glare=0, seed=rng.randrange(2**31))
        frame = render(Scene(design, {seat: SeatScene(play=(placed,))}, camera, look))
        cv2.imwrite(str(out_dir / f"{card.code}.jpg"), frame.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        corners = frame.corners
    (out_dir / "corners.json").write_text(json.dumps({"corners": np.round(corners, 2).tolist()}))
