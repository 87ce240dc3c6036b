"""Two stations at real tables (the orchestrator over rendered video through the shipped card reader,
their logs in SQLite, linked to a real Mosquitto and PostgreSQL) and the head referee's console: a flag
raised at T02 reaches the head's queue with the station's camera frame, the head's ruling reaches T02
and moves its ladder, and the register equals both stations' logs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import argparse
from contextlib import ExitStack
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from referee_station.hall.register import Register
from referee_station.log.jsonl import read_jsonl
from referee_station.log.store import EventStore
from referee_station.station.setup import MatchSetup
from referee_station.station.wiring import open_station
from referee_station.table.events import Flag, Pass, Penalty, Report
from tests.hall.conftest import HALL, Hall
from tests.hall.head import started_head
from tests.hall.helpers import wait_for
from tests.station.conftest import opening  # noqa: F401 (the rendered opening of a match)

OUT_OF_TURN = Pass(131.0, "E")
"""E's pass button at T02 while S is to act after W's 5♣ (R-PLAY-1): a warning."""


class VideoStation:
    """One table's station over the rendered clip; its seat units pressed as the simulated match did."""

    def __init__(self, stack: ExitStack, hall: Hall, table: str, video: Path, setup: Path, log: Path, presses):
        args = argparse.Namespace(
            camera=None, video=str(video), frames=None, fps=5.0, resolution=None, speed=None, table=table,
            calibration=None, devices=None, log=str(log), models=None, deck=None, broker=hall.station_url(table),
            hall=HALL, truth_reader=None, seed=0,
        )  # fmt: skip
        self.opened = open_station(stack, args, setup=MatchSetup.load(setup), seat_units=True)
        self.station = self.opened.station
        self.presses = sorted(presses, key=lambda e: e.t)
        self.outputs: list = []
        self.t = 0.0

    def run_until(self, until: float) -> None:
        for t, image in self.opened.frames:
            while self.presses and self.presses[0].t <= t:
                self.station.heard(self.presses.pop(0))
            step = self.station.frame(t, image)
            self.outputs += [o for fed in step.fed for o in fed.outputs]
            self.t = t
            if t >= until:
                return
        self.outputs += [o for fed in self.station.finish(self.t).fed for o in fed.outputs]


@pytest.mark.timeout(600)
def test_a_flag_at_a_live_table_is_ruled_at_the_head(qtbot, hall: Hall, register_dsn: str, tmp_path, opening):  # noqa: F811
    log, video, setup = opening
    presses = [r.record for r in read_jsonl(log)[0] if type(r.record) in (Pass, Report)]
    with Register(register_dsn) as register, ExitStack() as stack:
        app = started_head(qtbot, hall, register, "wang")
        stack.callback(app.stop)
        window, model = app.window, app.model
        window.windowHandle().requestActivate()
        qtbot.waitUntil(window.isActiveWindow)
        assert app.head.wait_connected(10)
        t01 = VideoStation(stack, hall, "T01", video, setup, tmp_path / "T01.sqlite", presses)
        t02 = VideoStation(stack, hall, "T02", video, setup, tmp_path / "T02.sqlite", [*presses, OUT_OF_TURN])
        t01.run_until(float("inf"))
        t02.run_until(140.0)
        flags = [o for o in t02.outputs if isinstance(o, Flag)]
        assert [(f.offence, f.seat) for f in flags] == [("out_of_turn_pass", "E")]
        key = ("T02", flags[0].id)
        qtbot.waitUntil(lambda: model.alerts.get(key) is not None and model.alerts.get(key).frame is not None,
                        timeout=20_000)  # fmt: skip
        frame = model.alerts.get(key).frame
        assert frame.shape == (540, 540, 3) and frame.std() > 10  # the table from above, cards and markers
        while window.alerts.current_key() != key:
            qtbot.keyClick(window.alerts.list, Qt.Key.Key_N)
        qtbot.keyClick(window.alerts.list, Qt.Key.Key_Return)  # asks for a login first
        qtbot.waitUntil(lambda: window.dialog is not None and window.dialog.isVisible())
        qtbot.keyClicks(window.dialog.name, "wang")
        qtbot.keyClicks(window.dialog.password, "secret-wang")
        qtbot.keyClick(window.dialog.password, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: window.referee == "wang")
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        qtbot.keyClick(window.alerts.list, Qt.Key.Key_Return)
        assert model.alerts.get(key) is None

        def ruled() -> bool:
            t02.run_until(t02.t + 1.0)  # the table plays on; the ruling is applied between two events
            return any(isinstance(o, Penalty) for o in t02.outputs)

        wait_for(ruled, timeout=30, what="the head's ruling applied at T02")
        assert [(p.side, p.penalty) for p in t02.outputs if isinstance(p, Penalty)] == [("EW", "warning")]
        t02.run_until(float("inf"))
        for station in (t01, t02):
            assert station.opened.station.hall.wait_acked(20)
        lines = {}
        for table in ("T01", "T02"):
            with EventStore(tmp_path / f"{table}.sqlite") as store:
                lines[table] = [line for line, _ in store.rows(table)]
        qtbot.waitUntil(lambda: {t: app.feed.followed.get(t) for t in lines} == {t: len(v) for t, v in lines.items()},
                        timeout=20_000)  # fmt: skip
        for table, want in lines.items():  # the register equals both stations' logs
            assert [row[5] for row in register.records(HALL, table)] == want
        assert [(e.table, e.flag) for e in register.evidence(HALL)] == [key]
        app.deliver()
        ladder = t02.station.referee.snapshot().ladder
        assert model.register.ladders["T02"] == ladder and ladder["EW"]["warning"] == 1
