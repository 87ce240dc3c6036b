"""Layout and homographies: seats rotate correctly, strips map onto the play areas, bad corners fail."""

from __future__ import annotations

from contextlib import nullcontext as does_not_raise

import numpy as np
import pytest

from referee_station.commands.read_frame import parse_corners
from referee_station.vision.geometry import (
    PLAY_AREA,
    STRIP_H,
    STRIP_W,
    TABLE_CORNERS,
    apply_h,
    cloth_to_image,
    seat_to_cloth,
    strip_to_image,
)


@pytest.mark.parametrize(
    ("seat", "local", "cloth"),
    [
        ("S", (0, -20), (0, -20)),
        ("E", (0, -20), (20, 0)),
        ("N", (0, -20), (0, 20)),
        ("W", (0, -20), (-20, 0)),
        ("E", (-15, -32), (32, -15)),
    ],
)
def test_seat_rotation(seat: str, local: tuple[float, float], cloth: tuple[float, float]) -> None:
    assert np.allclose(seat_to_cloth(seat, [local]), [cloth])


def test_corners_map_back() -> None:
    corners = np.array([[400.0, 1000.0], [1500.0, 980.0], [1450.0, 80.0], [430.0, 100.0]])
    h = cloth_to_image(corners)
    assert np.allclose(apply_h(h, TABLE_CORNERS), corners, atol=1e-6)


def test_south_strip_is_upright_play_area() -> None:
    """Identity-like camera: the strip's corners land on South's play area (plus margin), top edge north."""
    corners = (TABLE_CORNERS * [10, -10]) + [500, 500]  # 10 px/cm, image y down = south
    h = strip_to_image(cloth_to_image(corners), "S")
    top_left, bottom_right = apply_h(h, [[0, 0], [STRIP_W, STRIP_H]])
    x0, x1, y0, y1 = PLAY_AREA
    assert np.allclose(top_left, [500 + (x0 - 1) * 10, 500 - (y1 + 1) * 10])
    assert np.allclose(bottom_right, [500 + (x1 + 1) * 10, 500 - (y0 - 1) * 10])


@pytest.mark.parametrize(
    ("text", "expectation"),
    [
        ("1,2;3,4;5,6;7,8", does_not_raise()),
        (" 1.5,2 ; 3,4;5,6;7,8 ", does_not_raise()),
        ("1,2;3,4;5,6", pytest.raises(ValueError, match="four")),
        ("1,2;3,4;5,6;7", pytest.raises(ValueError)),
        ("1,2;3,4;5,6;x,8", pytest.raises(ValueError)),
        ("1,2;3,4;5,6;nan,8", pytest.raises(ValueError)),
    ],
)
def test_parse_corners(text: str, expectation) -> None:
    with expectation:
        assert parse_corners(text).shape == (4, 2)


@pytest.mark.parametrize(
    ("corners", "expectation"),
    [
        ([[0, 0], [10, 0], [10, 10], [0, 10]], does_not_raise()),
        ([[0, 0], [0, 0], [0, 0], [0, 0]], pytest.raises(ValueError, match="degenerate")),
        ([[0, 0], [5, 5], [10, 10], [0, 10]], pytest.raises(ValueError, match="degenerate")),
    ],
)
def test_degenerate_corners(corners, expectation) -> None:
    with expectation:
        cloth_to_image(np.array(corners, dtype=float))
