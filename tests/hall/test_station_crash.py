"""A station killed outright (issue #23): its last will makes its tile 离线 at once, and the camera
frame of a flag it raised before it could send it reaches the head after its restart (the frame
waits in the station's durable outbox, not in paho's memory). The station runs in a process of its
own (``tests.hall.crash_station``) and is killed with SIGKILL, on a real Mosquitto and PostgreSQL."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from referee_station.console.models.hall import OFFLINE_AFTER, tile_of
from referee_station.console.qt.head_app import HeadApp
from referee_station.hall.auth import station_user
from referee_station.hall.broker import free_port
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.evidence import Evidence, jpeg_frame
from referee_station.hall.register import Register
from referee_station.hall.subscriber import HeadConsole
from tests.hall.conftest import HALL, Hall
from tests.hall.helpers import wait_for

FIRST_FLAG = 137
"""Seed 2's first flag (an overtime warning, R-TIME) comes with its 137th event."""
ROOT = Path(__file__).resolve().parents[2]


def start_station(log: Path, table: str, url: str, events: int) -> subprocess.Popen[str]:
    """The station process, once it has fed ``events`` events and published its flags' frames."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.hall.crash_station", str(log), HALL, table, url, "--events", str(events)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    line = proc.stdout.readline() if proc.stdout else ""
    if not line.startswith("ready"):
        proc.kill()
        _, err = proc.communicate(timeout=10)
        raise AssertionError(f"the station did not start: {line!r} {err}")
    return proc


def kill(proc: subprocess.Popen[str]) -> None:
    proc.kill()  # SIGKILL: no clean close
    proc.communicate(timeout=10)


def frames_waiting(log: Path) -> list[int]:
    with sqlite3.connect(log) as db:
        return [flag for (flag,) in db.execute("SELECT flag FROM hall_frames ORDER BY flag")]


def test_a_flags_frame_survives_a_station_crash_and_reaches_the_head_after_the_restart(
    hall: Hall, register: Register, tmp_path: Path
) -> None:
    table, log = "T37", tmp_path / "T37.sqlite"
    unreachable = f"mqtt://{station_user(table)}:{hall.passwords[table]}@127.0.0.1:{free_port()}"
    kill(start_station(log, table, unreachable, FIRST_FLAG))  # flagged, never connected: nothing sent
    assert frames_waiting(log) == [1]
    heard: list[Evidence] = []
    with HeadConsole(BrokerURL.parse(hall.head_url()), HALL, register, on_evidence=heard.append) as head:
        assert head.wait_connected(10)
        station = start_station(log, table, hall.station_url(table), 0)  # the restart feeds nothing new
        try:
            wait_for(lambda: len(heard) == 1, what="the frame at the head")
            wait_for(lambda: not frames_waiting(log), what="the frame acked and forgotten by the station")
            wait_for(lambda: register.records(HALL, table, types=["flag"]), what="the flag's record")
        finally:
            kill(station)
    [frame] = register.evidence(HALL)
    assert (frame.table, frame.flag) == (table, 1) and heard == [frame]
    assert abs(int(jpeg_frame(frame.jpeg)[60, 80, 0]) - 40) < 8  # the picture the station took for flag 1
    assert len(register.records(HALL, table, types=["flag"])) == 1  # and the flag itself, from the station's log


def test_a_killed_stations_last_will_makes_its_tile_offline_at_once(qtbot, hall: Hall, register_dsn: str,
                                                                    tmp_path: Path) -> None:  # fmt: skip
    table = "T38"
    with Register(register_dsn) as register:
        app = HeadApp(BrokerURL.parse(hall.head_url()), HALL, register)
        qtbot.addWidget(app.window)
        app.start(show=False)
        try:
            assert app.head.wait_connected(10)
            station = start_station(tmp_path / "T38.sqlite", table, hall.station_url(table), FIRST_FLAG)
            try:
                qtbot.waitUntil(lambda: app.model.alerts.get((table, 1)) is not None, timeout=15_000)
                model = app.model.table(table)
                assert model.online and tile_of(model, time.monotonic()).state != "offline"
            finally:
                killed = time.monotonic()
                kill(station)
            qtbot.waitUntil(lambda: app.window.hall.tiles[table].state == "offline", timeout=int(OFFLINE_AFTER * 1000))
            took = time.monotonic() - killed
            assert not model.online  # the last will, not the silence
            assert took < OFFLINE_AFTER / 2, f"the tile took {took:.1f} s to show 离线"
        finally:
            app.stop()
