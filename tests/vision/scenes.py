"""Fixed scenes for the reader tests: the held-out design, plays laid as at a table, mild camera and light."""

from __future__ import annotations

import random

from referee_station.render.artwork import HELDOUT_DESIGNS
from referee_station.render.scene import Camera, Look, Scene, SeatScene, random_row

PLAYS = [
    {"S": ["5s", "5h", "5d"], "E": ["3c", "4d", "5s", "6h", "7h"], "N": ["SJ", "SJ", "BJ", "BJ"], "W": []},
    {"S": ["Th"], "E": [], "N": ["2c", "2d", "2h", "2s", "9h", "9s"], "W": ["4c", "4d", "Qh", "Qs", "Qd"]},
    {"S": ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs"], "E": ["Ac"], "N": [], "W": ["Kd", "Kd"]},
]


def scene(index: int, seed: int = 0) -> Scene:
    """Scene ``index`` of ``PLAYS`` with a camera and lighting drawn from ``seed``."""
    rng = random.Random(seed * 100 + index)
    seats = {seat: SeatScene(play=random_row(rng, cards) if cards else ()) for seat, cards in PLAYS[index].items()}
    camera = Camera(
        height=rng.uniform(100, 140),
        tilt=rng.uniform(0, 12),
        tilt_dir=rng.uniform(0, 360),
        roll=rng.uniform(-180, 180),
        span_px=rng.uniform(850, 1000),
    )
    look = Look(cloth=(35, 60, 25), blur=0.5, noise=2.5, jpeg=90, glare=0, seed=seed * 100 + index)
    return Scene(HELDOUT_DESIGNS[0], seats, camera, look)
