"""One language at a time (issue #29): every visible text of the station console, the head console and
the replay window, walked in Chinese and in English after live switches; a word of the other language
fails the test (rule ids, table names, card codes, keys and what the referee typed are allowed)."""

from __future__ import annotations

from referee_station.console.hall_feed import FeedWarning
from referee_station.console.models.messages import Message, localize
from referee_station.console.qt.head_app import land
from referee_station.console.qt.window import ConsoleWindow
from referee_station.deck.mismatch import COARSE, DeckVerdict
from referee_station.station.health import REMEDY, SEATS_OFFLINE, CameraState
from referee_station.station.round_gate import TIME_CALLED
from tests.console.helpers import Wired, one_deal_with_flags, two_warnings, wrong_plays
from tests.console.language import foreign
from tests.console.test_head_window import head_window


def every_tab(qtbot, window, lang: str) -> list:
    """The foreign words of each tab shown in turn, the language switched live to ``lang``; on the
    first, each alert is selected in turn, so that every flag's detail is read."""
    window.model.set_language(lang)
    found = []
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        qtbot.wait(10)
        found += [(window.tabs.tabText(i), *f) for f in foreign(window, lang)]
    alerts = window.alerts.list
    for row in range(alerts.topLevelItemCount()):
        alerts.setCurrentItem(alerts.topLevelItem(row))
        found += [(f"alert {row}", *f) for f in foreign(window.alerts, lang)]
    return found


def test_the_station_console_speaks_one_language_at_a_time(qtbot):
    wired = Wired({"T1": one_deal_with_flags(), "T2": two_warnings(), "T3": wrong_plays()})
    window = ConsoleWindow(wired.model)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    wired.run()  # the flags reach the open window's queue, so their details are walked
    assert window.alerts.list.topLevelItemCount() == 6
    window.select("T1")
    window.alerts.list.setCurrentItem(window.alerts.list.topLevelItem(0))
    window.show_warnings([("T1", 12.0, REMEDY[CameraState.LOST].format(s=3))])
    window.feeds_ended()  # the status line, kept and rewritten on a switch
    assert not window.manual.enter("E 3s Xz")  # a bad card code: the event parser's words
    assert every_tab(qtbot, window, "zh") == []
    assert "摄像头无画面：3 秒" in window.warning.text() and "牌码 'Xz' 无法识别" in window.manual.message.text()
    assert every_tab(qtbot, window, "en") == []
    assert "camera lost: no frame for 3 s" in window.warning.text() and "unknown card code 'Xz'" in (
        window.manual.message.text()
    )
    assert not window.manual.enter("Q pass")  # the console's own parse error, switched live
    assert "unknown seat 'Q'" in window.manual.message.text()
    window.select("T1")
    window.replay_action.trigger()
    assert foreign(window.replay, "en") == []
    assert every_tab(qtbot, window, "zh") == [] and foreign(window.replay, "zh") == []
    assert "未知座位 「Q」" in window.manual.message.text()
    window.replay.close()


def test_the_head_console_speaks_one_language_at_a_time(qtbot):
    model, window, _sent = head_window(qtbot)
    window.resize(1600, 1000)
    land(model, window, [FeedWarning("T1", 4.0, Message("feed_bad_frame", {"flag": 2}))])
    assert every_tab(qtbot, window, "zh") == []
    assert "警报 #2 的画面不是可读的 JPEG" in window.warning.text()
    assert every_tab(qtbot, window, "en") == []
    assert "the frame of flag 2 is not a readable JPEG" in window.warning.text()


def test_the_stations_notices_are_written_in_the_consoles_language():
    deck = DeckVerdict(cards=12, mean_confidence=0.41, mismatch=True).message("generic")
    for text, chinese in (
        (REMEDY[CameraState.FROZEN].format(s=4), "摄像头画面冻结：4 秒画面不变"),
        (SEATS_OFFLINE, "座位按键离线"),
        (TIME_CALLED, "R-MATCH-1：时间到"),
        (deck, "牌具档案 'generic' 与桌上的牌不符：最近 12 张平均识别分 0.41"),
        (
            COARSE.format(design="'sans'", needs="10.5", areas="S 10.2"),
            "牌具档案 'sans' 需要每厘米 10.5 像素，此摄像头只给 S 10.2",
        ),
    ):
        assert localize(text, "zh").startswith(chinese), text
        assert localize(text, "en") == text  # the log's stable form is the English
    assert localize("a text no catalogue knows", "zh") == "a text no catalogue knows"
