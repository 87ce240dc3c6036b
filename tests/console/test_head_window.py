"""The head referee's window without a hall: the login gate before a ruling, a ruling that could
not be sent going back to the queue, and the keys for tables, tabs and language."""

from __future__ import annotations

from PySide6.QtCore import Qt

from referee_station.console.hall_feed import HallFeed
from referee_station.console.models.console import ConsoleModel
from referee_station.console.qt.head_app import land
from referee_station.console.qt.head_window import HeadWindow
from referee_station.hall.topics import RulingCommand
from referee_station.station.live.head_desk import LoginResult, RulingResult
from tests.console.helpers import envelopes, one_deal_with_flags, shown_active, two_warnings


def head_window(qtbot) -> tuple[ConsoleModel, HeadWindow, list]:
    model = ConsoleModel()
    sent: list = []
    model.send.connect(lambda table, event, who: sent.append((table, event, who)))
    window = HeadWindow(model)
    shown_active(qtbot, window)
    feed = HallFeed()
    for table, inputs in (("T1", one_deal_with_flags()), ("T2", two_warnings())):
        for envelope in envelopes(table, inputs):
            feed.record(envelope)
    land(model, window, feed.take())
    return model, window, sent


def test_no_ruling_leaves_before_a_login_and_an_unsent_one_returns_to_the_queue(qtbot):
    model, window, sent = head_window(qtbot)
    key = window.alerts.current_key()
    assert key == ("T1", 1) and window.selected == "T1"  # T1's infraction heads the queue
    qtbot.waitUntil(window.alerts.list.hasFocus)  # the queue has the focus, so its keys rule (issue #29)
    qtbot.keyClick(window.alerts.list, Qt.Key.Key_Return)
    assert sent == [] and model.alerts.get(key) is not None
    assert window.dialog is not None and window.dialog.isVisible()
    assert window.statusBar().currentMessage() == "请先登录再裁决"
    window.login_answered(LoginResult(None, "wrong referee name or password for 'li'"))
    assert window.dialog.isVisible() and "登录失败" in window.dialog.error.text()
    window.login_answered(LoginResult("li"))
    assert not window.dialog.isVisible() and window.who.text() == "已登录: li" and model.referee == "li"
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.alerts.list, Qt.Key.Key_Delete)
    [(table, ruling, who)] = sent
    assert (table, ruling.flag, ruling.decision, who) == ("T1", 1, "dismiss", "li")
    assert model.alerts.get(key) is None
    window.ruling_answered(RulingResult("T1", 1, None, "the register: connection refused"))
    assert model.alerts.get(key) is not None  # back in the queue, in its place
    row = window.alerts.list.topLevelItem(0)
    assert (row.text(0), window.alerts.list.headerItem().text(0)) == ("T1", "牌桌")  # the table in its own column
    assert not row.text(1).startswith("T1") and "→" in row.text(1)
    assert window.statusBar().currentMessage() == "裁决未发出 (T1 #1): the register: connection refused"
    window.ruling_answered(RulingResult("T2", 2, RulingCommand("c", 2, "confirm", "li")))
    assert window.statusBar().currentMessage() == "裁决已发往 T2: #2 确认"


def test_keys_for_tables_tabs_and_language(qtbot):
    model, window, _ = head_window(qtbot)
    window.hall.refresh()
    order = window.hall.order
    assert sorted(order) == ["T1", "T2"]
    window.select(order[0])
    qtbot.keyClick(window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.selected == order[1]
    qtbot.keyClick(window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    assert window.selected == order[0]
    qtbot.keyClick(window, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert window.selected == order[1]
    assert window.tabs.count() == 3  # no manual entry at the head; its corrections travel over the hall (#30)
    assert window.tabs.indexOf(window.corrections) == 2
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.sheet and window.tabs.tabText(1) == "比赛记录表"
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is window.register
    assert window.windowTitle() == "掼蛋总裁判台"
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert model.lang == "en" and window.windowTitle() == "Guandan head referee's console"
    assert window.tabs.tabText(1) == "Record sheet" and window.who.text() == "not logged in"
