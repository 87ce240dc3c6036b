"""Card faces rasterised from Debian's aisleriot card sheets (package ``gnome-cards-data``, GPL-3+).

The artwork is installed at build time (``scripts/setup.sh``) and rasterised once with ``rsvg-convert``
(package ``librsvg2-bin``) into a cache folder; nothing of it is committed. A sheet is a 13 × 5 grid:
rows clubs, diamonds, hearts, spades (columns A, 2 … 10, J, Q, K), then joker_black (小王 SJ),
joker_red (大王 BJ) and the back.

Designs are split: ``TRAIN_DESIGNS`` feed training, ``HELDOUT_DESIGNS`` are for validation and the
benchmark only, so the measured accuracy is the accuracy on a deck the model never saw.
"""

from __future__ import annotations

import functools
import gzip
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee_station.rules import DECK

SHEET_DIR = Path("/usr/share/aisleriot/cards")
CACHE_DIR = Path(os.environ.get("REFEREE_STATION_CACHE", Path.home() / ".cache" / "referee-station")) / "cards"

# Designs with English indices (A K Q J 10) and jokers that differ by colour. Left out: dondorf,
# slavic_costumes and bellot (jokers alike), the German/French/Russian-index decks (D, R, B, T, 1)
# and guyenne-classic and swiss-xvii (court cards without indices).
TRAIN_DESIGNS = (
    "anglo",
    "anglo_bitmap",
    "anglo_modern",
    "anglo_modern_4_color",
    "anglo_poker",
    "atlasnye",
    "gnomangelo",
    "gnomangelo_bitmap",
    "neoclassical",
    "neoclassical_4_color",
    "ornamental",
    "orell",
    "paris",
    "plastic",
    "simplistic",
    "tango",
    "tango_nuevo",
)
HELDOUT_DESIGNS = ("tigullio",)

CARD_PX = (180, 252)
"""Width, height of a rasterised face: 63 × 88 mm at about 28.6 px/cm."""

_SUIT_ROWS = {"c": 0, "d": 1, "h": 2, "s": 3}
_RANK_COLS = {"A": 0, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6, "8": 7, "9": 8, "T": 9, "J": 10, "Q": 11, "K": 12}
_SHEET_WIDTH = CARD_PX[0] * 13


@dataclass(frozen=True)
class Design:
    """One deck's artwork: the 54 faces by card code, and its back, each BGRA at ``CARD_PX``."""

    name: str
    faces: dict[str, np.ndarray]
    back: np.ndarray


def _cell(code: str) -> tuple[int, int]:
    if code == "SJ":
        return 4, 0
    if code == "BJ":
        return 4, 1
    return _SUIT_ROWS[code[1]], _RANK_COLS[code[0]]


def _rasterise(name: str, dest: Path) -> None:
    """Render the sheet once with rsvg-convert and cut its grid into one PNG per card."""
    src = SHEET_DIR / f"{name}.svgz"
    if not src.exists():
        raise FileNotFoundError(f"{src} missing: install the Debian package gnome-cards-data (scripts/setup.sh)")
    if shutil.which("rsvg-convert") is None:
        raise FileNotFoundError("rsvg-convert missing: install the Debian package librsvg2-bin (scripts/setup.sh)")
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "sheet.svg"
        svg.write_bytes(gzip.decompress(src.read_bytes()))
        png = Path(tmp) / "sheet.png"
        subprocess.run(["rsvg-convert", "-w", str(_SHEET_WIDTH), "-b", "none", str(svg), "-o", str(png)], check=True)
        sheet = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    height, width = sheet.shape[:2]
    cw, ch = width / 13, height / 5
    staging = Path(tempfile.mkdtemp(dir=dest.parent))
    for code in [*(c.code for c in DECK), "back"]:
        row, col = (4, 2) if code == "back" else _cell(code)
        cell = sheet[round(row * ch) : round((row + 1) * ch), round(col * cw) : round((col + 1) * cw)]
        ys, xs = np.nonzero(cell[..., 3] > 128)
        cell = cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        cv2.imwrite(str(staging / f"{code}.png"), cv2.resize(cell, CARD_PX, interpolation=cv2.INTER_AREA))
    try:
        staging.rename(dest)
    except OSError:  # another process rasterised it first
        shutil.rmtree(staging)


@functools.cache
def load_design(name: str) -> Design:
    """The design's faces, rasterised on first use and cached on disk (a few seconds per design)."""
    dest = CACHE_DIR / name
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        _rasterise(name, dest)
    faces = {c.code: cv2.imread(str(dest / f"{c.code}.png"), cv2.IMREAD_UNCHANGED) for c in DECK}
    return Design(name, faces, cv2.imread(str(dest / "back.png"), cv2.IMREAD_UNCHANGED))


def install_design(name: str, faces: dict[str, np.ndarray], back: np.ndarray, cache_dir: Path = CACHE_DIR) -> str:
    """Write faces drawn or cut elsewhere (a test deck, a registered deck) where ``load_design`` finds
    designs, once; staged and renamed so that two processes never leave half a design. Returns ``name``."""
    dest = cache_dir / name
    if dest.exists():
        return name
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=dest.parent))
    for code, face in faces.items():
        cv2.imwrite(str(staging / f"{code}.png"), face)
    cv2.imwrite(str(staging / "back.png"), back)
    try:
        staging.rename(dest)
    except OSError:  # another process installed it first
        shutil.rmtree(staging)
    return name
