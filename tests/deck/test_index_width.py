"""The index crop a deck needs: measured on its faces, cut by the reader, synthesised for its fitting,
kept in its profile (issue #24: the suit beside the rank lay outside the generic crop)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from referee_station.deck.crops import CODES, synth_crop
from referee_station.deck.profile import DeckMeta, DeckProfile, reader_for
from referee_station.render.artwork import CARD_PX
from referee_station.render.drawn import draw_face
from referee_station.render.drawn_sans import FONT, draw_sans_face
from referee_station.vision.faces import strip_faces
from referee_station.vision.geometry import INDEX_ANCHOR, INDEX_CROP, STRIP_PX_PER_CM
from referee_station.vision.index_width import MAX_INDEX_WIDTH, index_width
from referee_station.vision.reader import CLASSES, MODELS_DIR
from referee_station.vision.strips import CROP_H, CROP_W, crop_index
from tests.deck.test_profile import META, generic_profile, stub

needs_font = pytest.mark.skipif(not FONT.exists(), reason="fonts-wqy-microhei (scripts/setup.sh)")


@needs_font
def test_a_suit_beside_the_rank_widens_the_crop_and_a_suit_under_it_does_not():
    sans = index_width({code: draw_sans_face(code) for code in CODES})
    assert 2.0 <= sans <= MAX_INDEX_WIDTH  # the sans suit mark ends 2.0–2.06 cm from the edge
    assert index_width({code: draw_face(code) for code in CODES}) == INDEX_CROP[0]


def test_faces_that_share_no_mark_keep_the_generic_crop():
    rng = np.random.default_rng(3)
    faces = {code: rng.integers(0, 255, (CARD_PX[1], CARD_PX[0], 3), np.uint8) for code in CODES}  # noise
    assert index_width(faces) == INDEX_CROP[0]
    blank = {code: np.full((CARD_PX[1], CARD_PX[0], 3), 250, np.uint8) for code in CODES}
    assert index_width(blank) == INDEX_CROP[0]


def test_a_wide_crop_reaches_past_the_generic_one_and_keeps_the_classifiers_input():
    """A mark 1.8 cm from the card's left edge lies outside the generic crop and inside a 2.2 cm one,
    at the crop's 1.8 / 2.2 across; the generic width cuts what it always cut."""
    strip = np.full((400, 600, 3), 255, np.uint8)
    u, v = 200.0, 200.0  # the anchor: the card's left edge lies INDEX_ANCHOR[0] cm left of it
    edge = u - INDEX_ANCHOR[0] * STRIP_PX_PER_CM
    mark = round(edge + 1.8 * STRIP_PX_PER_CM)
    strip[195:205, mark - 3 : mark + 3] = 0
    generic, wide = crop_index(strip, u, v), crop_index(strip, u, v, width=2.2)
    assert generic.shape == wide.shape == (CROP_H, CROP_W, 3)
    assert generic.min() == 255
    dark = np.flatnonzero(wide.min(axis=(0, 2)) < 128)
    assert abs(dark.mean() - 1.8 / 2.2 * CROP_W) <= 1.0
    np.testing.assert_array_equal(crop_index(strip, u, v, 2), strip[166:234, 182:218])


@needs_font
def test_synthesised_crops_show_the_suit_beside_the_rank_only_when_wide():
    """The fitting's crops of a sans ace: its spade (1.5–2.0 cm from the edge, at the rank's height) is
    ink in the wide crop's columns there and paper in the generic crop, which ends at 1.6 cm."""
    faces = {code: draw_sans_face(code) for code in CODES}
    rows = slice(round(0.6 * STRIP_PX_PER_CM), round(1.1 * STRIP_PX_PER_CM))  # the crop's top is the card's

    def darkness(width: float, cm: tuple[float, float]) -> float:
        cols = slice(*(round(c / width * CROP_W) for c in cm))
        crops = [synth_crop(random.Random(i), faces, CLASSES.index("As"), jitter=0, width=width) for i in range(12)]
        return float(np.mean([255 - c[rows, cols].mean() for c in crops]))

    assert darkness(2.2, (1.55, 1.95)) > 3 * darkness(INDEX_CROP[0], (1.2, 1.5)) + 20


def test_the_profile_keeps_its_width_and_the_reader_crops_with_it(tmp_path):
    wide = DeckMeta(**{**META.__dict__, "index_width": 2.2})
    DeckProfile(wide, stub("onnx")).save(tmp_path / "w.deck")
    assert DeckProfile.load(tmp_path / "w.deck").meta.index_width == 2.2
    generic = generic_profile(0.5)
    assert reader_for(generic).index_width == INDEX_CROP[0]  # profiles before the width read the generic crop
    assert reader_for(DeckProfile(wide, generic.classifier)).index_width == 2.2
    (tmp_path / "deck.json").write_text(json.dumps(META.__dict__ | {"index_width": 9.0}))
    (tmp_path / "classifier.onnx").write_bytes((MODELS_DIR / "classifier.onnx").read_bytes())
    with pytest.raises(ValueError, match=r"field 'index_width' is 9.0: a width in cm, 1.6..2.2"):
        DeckProfile.load(tmp_path)


def test_a_faces_only_profile_cannot_ask_for_a_wide_crop():
    """The generic classifiers read a faces-only profile, and they know only the generic crop."""
    faces = strip_faces({code: draw_face(code) for code in CODES}, CODES)
    DeckProfile(META, None, faces=faces)  # the generic width: fine
    with pytest.raises(ValueError, match="without a fitted classifier reads with the generic ones"):
        DeckProfile(DeckMeta(**{**META.__dict__, "index_width": 2.2}), None, faces=faces)
