"""Motion gating on drawn frames: the zone sampler sees cards whose back differs from the cloth only in hue."""

from __future__ import annotations

import cv2
import numpy as np

from referee_station.vision.geometry import apply_h, cloth_to_image
from referee_station.vision.layout import Layout
from referee_station.vision.motion import ZoneSampler, changed_fraction

CORNERS = np.array([[510.0, 990.0], [1410.0, 990.0], [1410.0, 90.0], [510.0, 90.0]])  # SW, SE, NE, NW
CLOTH = (35, 60, 25)
"""BGR green cloth: grey 47."""
BACK = (120, 40, 30)
"""BGR blue card back (the drawn test deck's): grey 46, the cloth's."""


def test_a_back_as_bright_as_the_cloth_changes_the_discard_area() -> None:
    """The pile swept to South's discard area is seen (a clear needs it), in no other zone; grey
    patches would not see it at all."""
    layout = Layout.default()
    h = cloth_to_image(CORNERS)
    before = np.empty((1080, 1920, 3), np.uint8)
    before[:] = CLOTH
    after = before.copy()
    pile = apply_h(h, layout.zone("S", "discard"))
    cv2.fillPoly(after, [np.round(pile).astype(np.int32)], BACK)
    sampler = ZoneSampler(h, layout)
    old, new = sampler.sample(before), sampler.sample(after)
    assert changed_fraction(new[("S", "discard")], old[("S", "discard")]) > 0.5
    assert all(changed_fraction(new[z], old[z]) == 0 for z in old if z != ("S", "discard"))
    grey = [sampler.sample(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY)) for f in (before, after)]
    assert grey[0][("S", "discard")].ndim == 2
    assert changed_fraction(grey[1][("S", "discard")], grey[0][("S", "discard")]) < 0.02
