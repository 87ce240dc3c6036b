"""The console application: referees in the engine thread, updates reaching the window by
signal, a ruling made in the window going back to the table's referee."""

from __future__ import annotations

from referee_station.console.qt.app import ConsoleApp
from referee_station.station.live.feed import LiveTable
from tests.console.helpers import one_deal_with_flags, two_warnings


def test_engine_thread_feeds_the_window_and_takes_rulings(qtbot):
    app = ConsoleApp([LiveTable("T1", one_deal_with_flags()), LiveTable("T2", two_warnings())], speed=0, referee="李")
    qtbot.addWidget(app.window, before_close_func=lambda w: app.engine.stop())
    app.start()
    qtbot.waitUntil(lambda: app.window.alerts.list.topLevelItemCount() == 4, timeout=15_000)
    qtbot.waitUntil(lambda: bool(app.window.statusBar().currentMessage()), timeout=15_000)
    assert app.window.selected in ("T1", "T2")
    key = ("T2", 1)
    app.window.alerts.select(key)
    app.window.alerts.confirm()
    qtbot.waitUntil(lambda: bool(app.model.register.penalties.get("T2")), timeout=15_000)
    assert app.model.register.penalties["T2"][0].penalty == "warning"
    assert app.model.register.audit[-1].who == "李"
    assert app.engine.is_running()
    app.stop()
    assert not app.engine.is_running()


def test_a_camera_warning_stays_in_the_status_bar(qtbot, tmp_path):
    """A table read with a deck profile that does not fit its cards: the warning crosses from the engine
    thread and stays in the window's status bar, naming the table."""
    from referee_station.deck.mismatch import WatchedReader
    from referee_station.deck.profile import reader_for
    from referee_station.station.live.camera import CameraTable
    from referee_station.station.live.simulated import simulated_tables
    from tests.deck.test_profile import generic_profile

    (table,) = simulated_tables(1, seed=3, deals=1, violations=0.0)
    watched = WatchedReader(reader_for(generic_profile(0.99)), "generic", 0.99)
    events = [e for e in table.events if e.t <= 120]
    camera = CameraTable("T1", events, watched, design="anglo", fps=5.0, watch=watched.news)
    app = ConsoleApp([LiveTable("T1", camera.others, camera)], speed=0)
    qtbot.addWidget(app.window, before_close_func=lambda w: app.engine.stop())
    app.start()
    qtbot.waitUntil(lambda: bool(app.window.warning.text()), timeout=60_000)
    assert app.window.warning.text().startswith("⚠ T1 ")
    assert "牌具档案 'generic' 与桌上的牌不符" in app.window.warning.text()  # the Chinese UI's words (issue #29)
    app.model.set_language("en")
    assert "deck profile 'generic' does not match" in app.window.warning.text()
    app.stop()
