"""Camera health a referee can act on: lost, frozen, too dark, moved; each change once."""

from __future__ import annotations

import numpy as np

from referee_station.station.health import CameraState, CameraWatch


def noisy(seed: int, level: int = 120) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(level, 6, (72, 128, 3)), 0, 255).astype(np.uint8)


def states(notices):
    return [(n.t, n.state) for n in notices]


def test_frozen_dark_moved_and_lost_are_told_once_each_and_when_they_end():
    watch = CameraWatch()
    out = []
    for i in range(10):
        out += watch.frame(i * 0.5, noisy(i))
    still = noisy(99)
    for i in range(10, 20):  # the driver repeats one buffer: frozen after 3 s
        out += watch.frame(i * 0.5, still)
    for i in range(20, 24):
        out += watch.frame(i * 0.5, noisy(i))
    for i in range(24, 30):
        out += watch.frame(i * 0.5, noisy(i, level=8))  # the light went out
    out += watch.frame(15.0, noisy(30), moved=True)
    out += watch.frame(15.5, noisy(31))  # still moved until a check says otherwise
    out += watch.frame(16.0, noisy(32), moved=False)
    out += watch.idle(17.0) + watch.idle(18.5)  # no frame for 2.5 s
    out += watch.frame(19.0, noisy(33))
    assert states(out) == [
        (8.5, "frozen"),  # identical from 5.5 s on
        (10.0, "ok"),
        (13.0, "dark"),
        (15.0, "moved"),
        (16.0, "ok"),
        (18.5, "lost"),
        (19.0, "ok"),
    ]
    assert watch.state is CameraState.OK
    assert "refereeing goes on" in next(n.text for n in out if n.state == "lost")
