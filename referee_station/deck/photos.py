"""Cut one card's face out of a registration photo taken by a table's calibrated camera.

The photo shows the card alone, face up, in some seat's play area. Each play area is rectified with the
calibration (``referee_station.vision.strips.rectify``: the card stands upright there, at 20 px/cm), the card is the one
bright card-sized blob on the dark cloth, and its four corners, mapped back into the photo, give the
homography that cuts the face straight from the photo's pixels (one resampling, not two) at the
artwork's size, so the crop synthesis treats it like any design's face.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from referee_station.render.artwork import CARD_PX
from referee_station.vision.geometry import (
    CARD_H,
    CARD_W,
    DRAW_ORDER,
    STRIP_PX_PER_CM,
    apply_h,
    cloth_to_image,
    strip_to_image,
)
from referee_station.vision.strips import rectify

_CARD_AREA = CARD_W * CARD_H * STRIP_PX_PER_CM**2
_CORNER_R = 0.3 / CARD_W * CARD_PX[0]
"""Rounded card corners (0.3 cm): left transparent so no cloth is carried into the face."""


SHARP_PHOTO_PX_PER_CM = 15.0
"""Frame px per cm a registration photo must give its card's play area for the cut face to keep an
index's small marks (a 4K camera gives 16–22, a 1080p one 8–11). Cut from coarser photos, a 4 mm suit
mark is a blob that the profile learns as the blob, and reads no better at 4K (docs/deck.md)."""


class PhotoError(ValueError):
    """The photo does not show exactly one face-up card in a play area."""


def _card_quad(strip: np.ndarray) -> np.ndarray | None:
    """The card's corners TL, TR, BR, BL in strip pixels (portrait, upright), or None when no card."""
    grey = cv2.GaussianBlur(cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if mask.all() or not mask.any() or grey[mask > 0].mean() - grey[mask == 0].mean() < 40:
        return None  # no bright object on the cloth
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cards = [c for c in contours if 0.7 * _CARD_AREA < cv2.contourArea(c) < 1.35 * _CARD_AREA]
    if len(cards) != 1:
        return None
    box = cv2.boxPoints(cv2.minAreaRect(cards[0]))
    centre = box.mean(0)
    # portrait: the top edge is the shorter one nearest the strip's top; order TL, TR, BR, BL
    ang = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    box = box[np.argsort(ang)]  # counterclockwise in image terms starting from the upper left
    sides = np.linalg.norm(box - np.roll(box, -1, axis=0), axis=1)
    if sides[0] > sides[1]:  # box[0]→box[1] is a long side: start one corner later
        box = np.roll(box, -1, axis=0)
    if box[:2, 1].mean() > box[2:, 1].mean():  # upside down: turn by 180°
        box = np.roll(box, 2, axis=0)
    return box.astype(np.float64)


def find_card(photo: np.ndarray, corners: np.ndarray) -> tuple[str, np.ndarray]:
    """The seat whose play area holds the one card, and the card's corners TL, TR, BR, BL in that seat's
    strip pixels; PhotoError when no play area, or more than one, holds a single card."""
    strips = rectify(photo, corners)
    found = [(seat, q) for seat in DRAW_ORDER if (q := _card_quad(strips[seat])) is not None]
    if len(found) != 1:
        where = ", ".join(s for s, _ in found) or "no play area"
        raise PhotoError(f"need exactly one face-up card in one play area, found cards in {where}")
    return found[0]


def cut_face(photo: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, str]:
    """The card's face (BGRA at ``CARD_PX``, corners transparent) and the seat whose play area held it."""
    seat, quad = find_card(photo, corners)
    in_photo = apply_h(strip_to_image(cloth_to_image(corners), seat), quad)
    w, h = CARD_PX
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(in_photo.astype(np.float32), target)
    face = cv2.warpPerspective(photo, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    white = np.percentile(face, 95)  # the card's white, whatever the light where it lay
    face = cv2.convertScaleAbs(face, alpha=min(2.0, 245 / max(white, 1.0)))
    alpha = np.zeros((h, w), np.uint8)
    r = round(_CORNER_R)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.dstack([face, alpha]), seat


@dataclass(frozen=True)
class CutFaces:
    """The 54 faces cut from the registration photos, and the detail each photo gave its card: a face is
    no sharper than the photo it was cut from (``SHARP_PHOTO_PX_PER_CM``)."""

    faces: dict[str, np.ndarray]
    """BGRA at ``CARD_PX`` by card code (``cut_face``)."""
    px_per_cm: dict[str, float]
    """Frame px per cm of the play area each card lay in (``referee_station.vision.strips.detail``)."""

    @property
    def least_px_per_cm(self) -> float:
        """The coarsest photo's detail: what the profile keeps (``DeckMeta.photos_px_per_cm``)."""
        return min(self.px_per_cm.values())

    def coarse(self) -> list[str]:
        """The cards whose photos are too coarse to keep small marks, coarsest first."""
        low = [code for code, px in self.px_per_cm.items() if px < SHARP_PHOTO_PX_PER_CM]
        return sorted(low, key=self.px_per_cm.__getitem__)

    def line(self) -> str:
        """The registration log's line on the photos' detail."""
        return f"photos give {self.least_px_per_cm:.1f}–{max(self.px_per_cm.values()):.1f} px/cm"

    def warning(self) -> str | None:
        """The registration log's warning, naming the coarsest photo and the remedy; None where all are sharp."""
        coarse = self.coarse()
        if not coarse:
            return None
        return (
            f"warning: {len(coarse)} photos give under {SHARP_PHOTO_PX_PER_CM:.0f} px/cm ({coarse[0]}: "
            f"{self.px_per_cm[coarse[0]]:.1f}): their faces blur the index's small marks and the profile cannot "
            "learn them; take the photos at 4K (register-deck --guided --resolution 3840x2160, with --corners "
            "found at that size) or with the camera lowered and calibrated for the shoot"
        )
