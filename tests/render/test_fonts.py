"""The font designs the classifier can be trained on (``referee_station.render.fonts``): drawn from installed
fonts, one typeface per design, red and black where the suits say, and never the Hershey fonts of the
drawn test deck (that deck must stay unseen by the generic model)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")
fonts = pytest.importorskip("referee_station.render.fonts")


@pytest.fixture(scope="module")
def designs():
    try:
        fonts.rank_fonts(), fonts.suit_fonts()
    except FileNotFoundError as err:  # scripts/setup-train.sh installs them
        pytest.skip(str(err))
    return [fonts.FontDesign(seed).design() for seed in (0, 1)]


def test_a_design_has_every_card_drawn_in_its_colours(designs):
    design = designs[0]
    assert len(design.faces) == 54 and design.back.shape == design.faces["2s"].shape
    for code, red in (("Th", True), ("Qd", True), ("5s", False), ("BJ", True), ("SJ", False)):
        corner = design.faces[code][:90, :50, :3].astype(int)  # the top-left index
        ink = corner.sum(axis=2) < 600
        redness = (corner[..., 2] - corner[..., 0])[ink].mean()
        assert (redness > 60) == red, code


def test_designs_differ_and_a_seed_gives_the_same_design(designs):
    assert fonts.FontDesign(3).font == fonts.FontDesign(3).font
    assert len({fonts.FontDesign(seed).font for seed in range(12)}) > 3
    again = fonts.FontDesign(0).design()
    assert np.array_equal(again.faces["7c"], fonts.FontDesign(0).design().faces["7c"])


def test_no_symbol_or_hershey_fonts(designs):
    names = [p.name for p in fonts.rank_fonts()]
    assert not any(skip in name for name in names for skip in fonts.SKIP)
    assert all(p.suffix in (".ttf", ".otf") for p in fonts.rank_fonts())  # Hershey fonts are OpenCV's own
