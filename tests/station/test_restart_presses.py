"""A station restarted while the players go on pressing: the hub keeps the presses it could not deliver
and sends them when the station is back; the station, resuming its table clock from its log, feeds them
after everything it logged before (never back in time, none lost)."""

from __future__ import annotations

import argparse
import json
import time
from contextlib import ExitStack

import pytest

from referee_station.devices.emulator import Emulator
from referee_station.log.store import EventStore
from referee_station.station.setup import MatchSetup
from referee_station.station.wiring import open_station


def args_for(video, db, port) -> argparse.Namespace:
    return argparse.Namespace(
        camera=None, video=str(video), frames=None, fps=5.0, resolution=None, speed=20.0, table="T1",
        calibration=None, devices=port, log=str(db), models=None, deck=None, broker=None, hall="hall",
        truth_reader=None, seed=0,
    )  # fmt: skip


def run_frames(opened, until: float) -> list:
    fed = []
    for t, image in opened.frames:
        step = opened.station.frame(t, image) if image is not None else opened.station.idle(t)
        fed += step.fed
        if t >= until:
            break
    return fed


@pytest.mark.timeout(300)
def test_presses_made_while_the_station_restarts_are_fed_after_its_log(opening, tmp_path):
    _, video, setup = opening
    db = tmp_path / "T1.sqlite"
    with Emulator(table="T1") as emulator:
        port = emulator.port
        with ExitStack() as stack:
            first = open_station(stack, args_for(video, db, port), setup=MatchSetup.load(setup))
            run_frames(first, 20.0)
            last = first.station.now
        for seat in ("E", "S", "W"):  # nobody listens: the hub keeps them
            emulator.press_pass(seat)
            time.sleep(0.05)
        with ExitStack() as stack:
            second = open_station(stack, args_for(video, db, port), setup=MatchSetup.load(setup))
            assert second.station.offset == pytest.approx(last)
            deadline = time.monotonic() + 20
            heard = []
            while len(heard) < 3 and time.monotonic() < deadline:
                heard += [f for f in run_frames(second, 0.0) if f.source.value == "seats"]
    assert [f.event.seat for f in heard] == ["E", "S", "W"]
    assert all(f.event.t >= last for f in heard)
    with EventStore(db) as store:
        rows = [json.loads(line) for line, _ in store.rows("T1")]
    times = [r["t"] for r in rows if r["type"] not in ("flag", "penalty", "countdown", "deal_end", "match_end")]
    assert times == sorted(times)
    assert not any("time went backwards" in r.get("detail", "") for r in rows)
