"""The head referee's console over a real hall (issue #23): two stations (``TableStation`` and
its ``StationLink``, fed a seeded simulated match as ``run --broker`` wires them) on a real
Mosquitto and PostgreSQL, and the head console's window driven from the keyboard under pytest-qt.
A flag raised at T22 reaches the head's queue with its camera frame; the ruling, refused until a
referee logs in, reaches T22 and moves its ladder; the register equals both stations' logs."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import numpy as np
from PySide6.QtCore import Qt

from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.evidence import frame_jpeg
from referee_station.hall.linked import LinkedStation
from referee_station.hall.publisher import StationLink
from referee_station.hall.register import Register
from referee_station.sim.match import simulate
from referee_station.table.events import Flag, Penalty
from tests.hall.conftest import HALL, Hall
from tests.hall.head import started_head
from tests.hall.helpers import LogStation, wait_for

SEEDS = {"T21": 1, "T22": 2}
"""Seed 2's first flag is an overtime warning (R-TIME) at its 137th event."""


class SimStation:
    """One table: the simulator's events into a linked ``TableStation``; flags' frames published."""

    def __init__(self, hall: Hall, table: str, directory: Path) -> None:
        self.events = simulate(SEEDS[table], deals=1, violations=0.1).events
        self.station = LogStation(directory / f"{table}.sqlite", table)
        self.link = StationLink(BrokerURL.parse(hall.station_url(table)), HALL, table, self.station.store.path).start()
        self.linked = LinkedStation(self.station, self.link, clock=lambda: self.t + 0.5)
        self.fed = 0
        self.t = 0.0
        self.penalties: list[Penalty] = []

    def feed_until(self, stop: int | None = None) -> list[Flag]:
        flags = []
        for event in self.events[self.fed : stop]:
            self.t = event.t
            flags += [o for o in self.linked.submit(event) if isinstance(o, Flag)]
            self.fed += 1
        return flags

    def apply_rulings(self) -> bool:
        self.penalties += [o for o in self.linked.apply_rulings() if isinstance(o, Penalty)]
        return bool(self.penalties)

    def close(self) -> None:
        self.link.close()
        self.station.close()


def test_flag_frame_and_ruling_travel_between_two_stations_and_the_head_console(
    qtbot, hall: Hall, register_dsn: str, tmp_path: Path
) -> None:
    with Register(register_dsn) as register:
        app = started_head(qtbot, hall, register, "li")
        window, model = app.window, app.model
        window.windowHandle().requestActivate()
        qtbot.waitUntil(window.isActiveWindow)
        assert app.head.wait_connected(10)
        stations = {table: SimStation(hall, table, tmp_path) for table in SEEDS}
        try:
            t21, t22 = stations["T21"], stations["T22"]
            assert all(s.link.wait_connected(10) for s in stations.values())
            t21.feed_until()
            flag = t22.feed_until(137)[-1]
            assert (flag.id, flag.penalty) == (1, "warning")
            camera = np.full((480, 640, 3), 40, np.uint8)
            camera[100:300, 200:400] = (230, 40, 40)  # a red card on the cloth
            t22.link.publish_evidence(flag.id, flag.t, frame_jpeg(camera))

            key = ("T22", flag.id)
            qtbot.waitUntil(lambda: model.alerts.get(key) is not None and model.alerts.get(key).frame is not None,
                            timeout=15_000)  # fmt: skip
            frame = model.alerts.get(key).frame
            assert frame.shape == (480, 640, 3) and frame[200, 300, 0] > 180 and frame[200, 300, 2] < 90
            ours = ["T21", "T21", "T21", "T22"]  # T21's three infractions first (severity), then the warning
            # T21's flags travel on their own connection: wait for them, not only for T22's frame
            qtbot.waitUntil(lambda: [a.table for a in model.alerts.pending if a.table in SEEDS] == ours, timeout=15_000)

            while window.alerts.current_key() != key:  # the referee goes down the queue with N
                qtbot.keyClick(window.alerts.list, Qt.Key.Key_N)
            assert window.selected == "T22"
            qtbot.keyClick(window.alerts.list, Qt.Key.Key_Return)  # not logged in: refused, login asked
            assert model.alerts.get(key) is not None and window.dialog is not None and window.dialog.isVisible()
            qtbot.keyClicks(window.dialog.name, "li")
            qtbot.keyClicks(window.dialog.password, "wrong")
            qtbot.keyClick(window.dialog.password, Qt.Key.Key_Return)
            qtbot.waitUntil(lambda: "登录失败" in window.dialog.error.text())  # Chinese by default
            assert window.referee is None and window.dialog.isVisible()
            qtbot.keyClicks(window.dialog.password, "secret-li")
            qtbot.keyClick(window.dialog.password, Qt.Key.Key_Return)
            qtbot.waitUntil(lambda: window.referee == "li")
            assert not window.dialog.isVisible()
            window.activateWindow()
            qtbot.waitUntil(window.isActiveWindow)
            assert window.alerts.current_key() == key
            qtbot.keyClick(window.alerts.list, Qt.Key.Key_Return)
            assert model.alerts.get(key) is None

            wait_for(t22.apply_rulings, what="the head's ruling applied at T22")
            assert [(p.side, p.penalty) for p in t22.penalties] == [(flag.side, "warning")]
            t22.feed_until()
            for station in stations.values():
                assert station.link.wait_acked(20)
            logs = {table: s.station.lines() for table, s in stations.items()}
            followed = {table: len(lines) for table, lines in logs.items()}
            qtbot.waitUntil(lambda: {t: app.feed.followed.get(t) for t in SEEDS} == followed, timeout=15_000)
            app.deliver()
        finally:
            for station in stations.values():
                station.close()
            app.stop()

        for table, lines in logs.items():  # the register equals both stations' logs
            assert [row[5] for row in register.records(HALL, table)] == lines
        ladder = stations["T22"].station.referee.snapshot().ladder
        assert model.register.ladders["T22"] == ladder and ladder[flag.side]["warning"] == 1
        assert [(e.table, e.who, e.what("en")) for e in model.register.audit if e.who == "li"] == [
            ("T22", "li", f"confirmed #{flag.id}")
        ]
        assert [a.key for a in model.alerts.answered if a.who == "li"] == [key]
        assert [w for w in window.warnings if w[0] in SEEDS] == []  # the head's replay gave every logged output
        stored = register.evidence(HALL)
        assert [(e.table, e.flag) for e in stored] == [key]
