"""Camera faults at a live table: the source stops for 5 s and returns, freezes, goes dark and is moved.
Each shows as the camera's health (the tile) and as a ``health`` line in the table's log, the seat
units' presses are refereed on while the camera is away, and no play the camera saw is lost."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

import numpy as np
import pytest

from referee_station.core import Unit
from referee_station.log.jsonl import read_jsonl
from referee_station.station.loop import drive
from referee_station.station.orchestrator import Source
from referee_station.station.setup import MatchSetup
from referee_station.station.wiring import open_station
from referee_station.table.events import Health, Pass, PlayCards

FROZEN = (40.0, 45.0)
MOVED = (60.0, 85.0)
DARK = (95.0, 98.0)
LOST = (168.5, 174.0)
PRESSED = Pass(171.77, "N")
"""N's pass button while the camera is away (the simulated match's own pass, 1.4 s before its time)."""


def args_for(video, log) -> argparse.Namespace:
    return argparse.Namespace(
        camera=None, video=str(video), frames=None, fps=5.0, resolution=None, speed=None, table="T1",
        calibration=None, devices=None, log=str(log), models=None, deck=None, broker=None, hall="hall",
        truth_reader=None, seed=0,
    )  # fmt: skip


def with_faults(frames, station, pressed: list):
    """The camera as it misbehaves; N's press reaches the station while the camera is lost."""
    frozen = None
    for t, image in frames:
        if FROZEN[0] <= t < FROZEN[1]:
            frozen = image if frozen is None else frozen
            image = frozen
        elif MOVED[0] <= t < MOVED[1]:
            image = np.roll(image, (24, 40), axis=(0, 1))  # the camera knocked 40 px sideways
        elif DARK[0] <= t < DARK[1]:
            image = (image * 0.05).astype(np.uint8)
        elif LOST[0] <= t < LOST[1]:
            if t >= PRESSED.t and not pressed:
                station.heard(PRESSED)
                pressed.append(t)
            image = None
        yield t, image


@pytest.mark.timeout(600)
def test_camera_faults_show_and_lose_nothing(opening, tmp_path):
    log, video, setup = opening
    out = tmp_path / "T1.jsonl"
    steps = []
    with ExitStack() as stack:
        opened = open_station(stack, args_for(video, out), setup=MatchSetup.load(setup))
        pressed: list[float] = []
        drive(opened.station, with_faults(opened.frames, opened.station, pressed), steps.append)
    records = [r.record for r in read_jsonl(out)[0]]
    health = [(round(r.t), r.state) for r in records if isinstance(r, Health)]
    # lost 2 s after the last frame (168.4 s)
    expected = [
        (43, "frozen"),
        (45, "ok"),
        (60, "moved"),
        (90, "ok"),
        (96, "dark"),
        (98, "ok"),
        (170, "lost"),
        (174, "ok"),
    ]
    assert health == expected
    noticed_after = {FROZEN: 3.5, MOVED: 0.5, DARK: 1.5, LOST: 2.5}  # frozen 3 s, dark 1 s, lost 2 s (health.py)
    for (start, end), delay in noticed_after.items():  # the tile: camera down while it is faulty
        during = [s for s in steps if start + delay <= s.t < end]
        assert during and all(not s.health.ok(Unit.CAMERA) for s in during), (start, end)
    assert steps[-1].health.ok(Unit.CAMERA)
    heard = [(s.t, f.event) for s in steps for f in s.fed if f.source is Source.SEATS]
    assert [e for _, e in heard] == [PRESSED] and LOST[0] < heard[0][0] < LOST[1]  # refereed while away
    truth = [r.record for r in read_jsonl(log)[0]]
    want = [(e.seat, e.cards) for e in truth if isinstance(e, PlayCards) and e.t < 188.0]
    got = [(e.seat, e.cards) for e in records if isinstance(e, PlayCards)]
    assert got[: len(want)] == want
