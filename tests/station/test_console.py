"""The station console at a table, end to end with real parts: a rendered whole match is the camera, the
pty emulator is the seat units (the players' passes and reports pressed on it, and two passes out of
turn), and pytest-qt drives the window as a referee would: fill the match setup, let both deals run,
enter by hand the tribute the camera could not see, confirm one flag and dismiss the other. The log's
outputs equal those of replaying the simulator's truth with the same presses and rulings."""

from __future__ import annotations

import argparse
import json
import threading
import time

import cv2
import numpy as np
import pytest
from PySide6.QtCore import Qt

from referee_station.console.qt import station_app
from referee_station.console.qt.station_app import StationApp
from referee_station.devices.emulator import Emulator
from referee_station.log.jsonl import read_jsonl
from referee_station.rules import Card
from referee_station.table.events import (
    DealEnd,
    DealStart,
    Exchange,
    Flag,
    MatchEnd,
    Pass,
    Penalty,
    Report,
    Ruling,
    Tick,
    Tribute,
    parse_record,
)
from referee_station.table.referee import TableReferee
from referee_station.vision.layout import Layout

EXTRA = [Pass(131.0, "E"), Pass(146.0, "S")]
"""Two presses out of turn (R-PLAY-1, warnings): S is to act at 131 s, W at 146 s."""
HIDDEN = Tribute(712.32, "N", "BJ")
"""N's tribute card lies outside what the camera reads (masked): the referee enters it by hand."""
SPEED = 10.0


def masked(opened, entered: threading.Event):
    """The camera frames with N's play area showing no card while N's tribute lies there; the frames
    wait (as a live camera's would not: this keeps the test independent of the machine's speed) until
    the referee has entered the tribute."""
    zone = Layout.default().zone("N", "play")
    points = cv2.perspectiveTransform(zone.reshape(-1, 1, 2).astype(np.float64), opened.calibration.homography)
    mask = np.zeros((720, 1280), np.uint8)
    cv2.fillPoly(mask, [points.reshape(-1, 2).round().astype(np.int32)], 255)
    mask = cv2.dilate(mask, np.ones((15, 15), np.uint8)) > 0
    before = None
    for t, image in opened.frames:
        if image is not None and t < HIDDEN.t - 0.3:
            before = image
        elif image is not None and t < HIDDEN.t + 3.0:
            image = image.copy()
            image[mask] = before[mask]
            if t >= HIDDEN.t + 0.5:
                assert entered.wait(60), "the tribute was not entered"
        yield t, image


def press(emulator: Emulator, app: StationApp, presses, stop: threading.Event) -> None:
    """The players at the seat units: each press when the table clock reaches it."""
    while app.engine is None and not stop.is_set():
        time.sleep(0.01)
    for event in presses:
        while not stop.is_set() and app.engine.opened.clock() < event.t:
            time.sleep(0.005)
        if stop.is_set():
            return
        if isinstance(event, Pass):
            emulator.press_pass(event.seat)
        else:
            emulator.enter_report(event.seat, event.count)


def expected(truth, rulings):
    """Replaying the simulator's truth (hands unknown, as at a real table) with the presses and rulings."""
    inputs = [e for e in truth if e.IS_INPUT and type(e) is not Tick]
    inputs = [DealStart(e.t, e.first_leader) if isinstance(e, DealStart) else e for e in inputs]
    inputs = sorted([*inputs, *EXTRA, *rulings], key=lambda e: e.t)
    referee = TableReferee()
    return [o for e in inputs for o in referee.feed(e)]


def summary(outputs):
    out = []
    for o in outputs:
        if isinstance(o, Flag):
            out.append(("flag", o.offence, o.seat, o.penalty))
        elif isinstance(o, Penalty):
            out.append(("penalty", o.side, o.penalty, tuple(o.flags)))
        elif isinstance(o, (DealEnd, MatchEnd)):
            body = o.to_json()
            body.pop("t")
            out.append((o.TYPE, json.dumps(body, sort_keys=True)))
    return out


@pytest.mark.timeout(1200)
def test_a_referee_runs_a_whole_match_from_the_station_console(qtbot, whole_match, tmp_path, monkeypatch):
    log, video, setup_file = whole_match
    truth = [r.record for r in read_jsonl(log)[0]]
    presses = sorted([e for e in truth if type(e) in (Pass, Report)] + EXTRA, key=lambda e: e.t)
    setup = json.loads(setup_file.read_text(encoding="utf-8"))
    entered, stop = threading.Event(), threading.Event()
    opened_with = station_app.open_station

    def open_masked(stack, args, **kwargs):
        opened = opened_with(stack, args, **kwargs)
        return type(opened)(opened.station, masked(opened, entered), opened.calibration, opened.reader, opened.clock)

    monkeypatch.setattr(station_app, "open_station", open_masked)
    emulator = Emulator(table="T1")
    port = emulator.start()
    out = tmp_path / "T1.jsonl"
    args = argparse.Namespace(
        camera=None, video=str(video), frames=None, fps=5.0, resolution=None, speed=SPEED, table="T1",
        calibration=None, devices=port, log=str(out), models=None, deck=None, broker=None, hall="hall",
        truth_reader=None, seed=0,
    )  # fmt: skip
    app = StationApp(args, "zh", "zhao")
    qtbot.addWidget(app.window, before_close_func=lambda w: app.engine and app.engine.stop())
    presser = threading.Thread(target=press, args=(emulator, app, presses, stop), daemon=True)
    try:
        app.show()
        dialog = app.dialog
        qtbot.waitUntil(dialog.isVisible)
        qtbot.keyClicks(dialog.names["EW"], setup["sides"]["EW"])
        qtbot.keyClicks(dialog.names["NS"], setup["sides"]["NS"])
        dialog.deals.setValue(setup["rules"]["length_deals"])
        dialog.leader.setCurrentIndex(dialog.leader.findData(setup["leader"]))
        presser.start()
        qtbot.keyClick(dialog.names["NS"], Qt.Key.Key_Return)  # Enter starts the match
        qtbot.waitUntil(lambda: app.engine is not None, timeout=30_000)
        table = app.model.table("T1")
        rulings: list[Ruling] = []
        for decision in ("confirm", "dismiss"):  # the two flags, in the order they come
            qtbot.waitUntil(lambda: len(app.model.alerts.pending) == 1, timeout=300_000)
            alert = app.model.alerts.pending[0]
            app.window.activateWindow()  # the queue's keys work in the active window
            qtbot.waitUntil(app.window.isActiveWindow)
            app.window.alerts.list.setFocus()
            app.window.alerts.list.setCurrentItem(app.window.alerts.list.topLevelItem(0))
            qtbot.keyClick(app.window.alerts.list, Qt.Key.Key_Return if decision == "confirm" else Qt.Key.Key_Delete)
            qtbot.waitUntil(lambda a=alert: app.model.alerts.get(a.key) is None or a not in app.model.alerts.pending)
            rulings.append(Ruling(alert.flag.t + 0.001, alert.flag.id, decision))
        qtbot.waitUntil(lambda: table.deal is not None and table.deal.phase == "tribute" and "S" in table.deal.tributes,
                        timeout=600_000)  # fmt: skip
        app.model.enter("T1", "北 贡 BJ")
        entered.set()
        qtbot.waitUntil(lambda: table.match_end is not None, timeout=900_000)
    finally:
        stop.set()
        app.stop()
        emulator.close()
    records = [parse_record(json.loads(line)) for line in out.read_text(encoding="utf-8").splitlines()]
    inputs = [e for e in records if e.IS_INPUT]
    assert any(isinstance(e, Exchange) and (e.seat, e.card) == ("N", Card("BJ")) for e in inputs)  # by hand
    heard = [e for e in inputs if isinstance(e, (Pass, Report))]
    assert [(e.TYPE, e.seat) for e in heard] == [(e.TYPE, e.seat) for e in presses]  # every press heard
    assert summary(o for o in records if not o.IS_INPUT) == summary(expected(truth, rulings))
    assert sum(isinstance(o, Penalty) for o in records) == 1  # the confirmed warning, not the dismissed one
