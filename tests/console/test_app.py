"""The console application: referees in the engine thread, updates reaching the window by
signal, a ruling made in the window going back to the table's referee."""

from __future__ import annotations

from referee_station.console.live.feed import LiveTable
from referee_station.console.qt.app import ConsoleApp
from tests.console.helpers import one_deal_with_flags, two_warnings


def test_engine_thread_feeds_the_window_and_takes_rulings(qtbot):
    app = ConsoleApp([LiveTable("T1", one_deal_with_flags()), LiveTable("T2", two_warnings())], speed=0, referee="李")
    qtbot.addWidget(app.window, before_close_func=lambda w: app.engine.stop())
    app.start()
    qtbot.waitUntil(lambda: app.window.alerts.list.count() == 4, timeout=5000)
    qtbot.waitUntil(lambda: bool(app.window.statusBar().currentMessage()), timeout=5000)
    assert app.window.selected in ("T1", "T2")
    key = ("T2", 1)
    app.window.alerts.select(key)
    app.window.alerts.confirm()
    qtbot.waitUntil(lambda: bool(app.model.register.penalties.get("T2")), timeout=5000)
    assert app.model.register.penalties["T2"][0].penalty == "warning"
    assert app.model.register.audit[-1].who == "李"
    assert app.engine.is_running()
    app.stop()
    assert not app.engine.is_running()
