"""A console a referee can rule from without fear (issue #29): keys that cannot rule by accident,
a ruling's consequence shown before it is made, the flag's table and evidence, one language."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from referee_station.console.models.manual import refusal
from referee_station.console.models.preview import Consequence, preview
from referee_station.console.qt.alert_view import TABLE_COLUMN, TEXT_COLUMN, AlertView
from referee_station.console.qt.export import sheet_pdf
from referee_station.console.qt.hall_view import tile_html
from referee_station.console.qt.manual_view import ManualEntryView
from referee_station.console.qt.sheet_view import SheetView
from referee_station.console.qt.window import ConsoleWindow
from referee_station.core import Decision, TableState
from referee_station.rules import Card
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import DealEnd, DealStart, Flag, MatchStart, PlayCards, Tick
from referee_station.table.referee import TableReferee
from tests.console.helpers import RecordingTable, Wired, one_deal_with_flags, shown_active, two_warnings
from tests.table.helpers import east_west_sweep

DOCS = Path(__file__).resolve().parents[2] / "docs"


def two_infractions() -> list:
    """S plays out of turn twice (R-PLAY-1, infractions): confirmed, the second makes a foul."""
    table = RecordingTable()
    table.deal("E")
    table.play("S", "3h")
    table.play("S", "4h")
    return table.records


def _window(qtbot, tables) -> tuple[Wired, ConsoleWindow]:
    wired = Wired(tables)
    window = ConsoleWindow(wired.model)
    shown_active(qtbot, window)
    wired.run()
    return wired, window


def test_enter_in_the_entry_box_submits_the_entry_and_never_rules(qtbot):
    wired, window = _window(qtbot, {"T1": two_warnings()[:3]})
    sent = []
    wired.model.send.connect(lambda table, event, who: sent.append(event))
    assert [a.flag.id for a in wired.model.alerts.pending] == [1]
    window.tabs.setCurrentWidget(window.manual)
    for box, text in ((window.manual.typed, "E 3s 3h"), (window.manual.argument, "3d")):
        box.setFocus()
        qtbot.waitUntil(box.hasFocus)
        qtbot.keyClicks(box, text)
        qtbot.keyClick(box, Qt.Key.Key_Return)
        qtbot.keyClick(box, Qt.Key.Key_Return)  # a second Enter on an empty box: still no ruling
        qtbot.keyClick(box, Qt.Key.Key_Enter)
    assert [a.flag.id for a in wired.model.alerts.pending] == [1] and wired.model.alerts.answered == []
    assert [type(e).__name__ for e in sent] == ["PlayCards", "PlayCards"]
    assert sent[0].cards == (Card("3s"), Card("3h")) and sent[1].cards == (Card("3d"),)
    window.alerts.list.setFocus()
    qtbot.waitUntil(window.alerts.list.hasFocus)
    qtbot.keyClick(window.alerts.list, Qt.Key.Key_Return)  # with the queue focused, Enter rules
    assert [(a.flag.id, a.decision) for a in wired.model.alerts.answered] == [(1, "confirm")]


def test_the_preview_names_the_ladder_step_the_referee_then_takes(qtbot):
    wired = Wired({"T1": two_infractions()})
    view = AlertView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    first = wired.model.alerts.pending[0].flag
    assert first.penalty == "infraction" and first.side == "NS"
    assert "确认 → 南北 违例: 下家可停其下一次出牌" in view.preview.text()
    assert "驳回 → 不判罚" in view.preview.text()
    view.confirm()
    wired.run()
    view.select(("T1", 2))
    ladder = wired.model.table("T1").snapshot.ladder
    second = wired.model.alerts.get(("T1", 2)).flag
    shown = preview(second, Decision.CONFIRM, ladder)
    assert shown.steps == (("infraction", "confirmed"), ("foul", "two infractions"))
    assert shown.consequence is Consequence.DEAL_ENDS
    assert "确认 → 南北 违例 → 犯规: 本副结束, 东西 +3" in view.preview.text()
    wired.model.set_language("en")
    assert "confirm → NS infraction → foul: deal ends, EW +3" in view.preview.text()
    assert wired.model.register.ladders["T1"] == ladder  # nothing applied by the preview
    outputs = []
    before = len(wired.model.register.penalties["T1"])
    view.confirm()
    while updates := wired.hall.due():
        for update in updates:
            wired.model.apply(update)
            outputs += update.outputs
    steps = [(p.penalty, p.reason) for p in wired.model.register.penalties["T1"][before:]]
    assert steps == list(shown.steps)  # the referee took exactly the previewed steps
    ends = [o for o in outputs if isinstance(o, DealEnd)]
    assert ends and ends[0].foul and ends[0].side_up == "EW" and ends[0].levels_up == 3


def test_a_match_loss_preview_says_the_match_ends():
    flag = Flag(t=1.0, id=3, seat="E", side="EW", offence="out_of_turn_play", rule="R-PLAY-1", penalty="foul")
    ladder = {"EW": {"warning": 0, "infraction": 0, "foul": 1, "match_loss": 0}, "NS": {}}
    shown = preview(flag, Decision.CONFIRM, ladder)
    assert shown.consequence is Consequence.MATCH_ENDS and shown.top == "match_loss"
    assert shown.text("zh") == "确认 → 东西 犯规 → 判负: 比赛结束, 南北 胜"
    assert ladder["EW"]["foul"] == 1


def test_selecting_a_flag_shows_its_table_and_the_register_the_ruling(qtbot):
    wired, window = _window(qtbot, {"T1": two_warnings(), "T2": one_deal_with_flags()})
    window.select("T1")
    window.alerts.select(("T2", 2))
    assert window.selected == "T2" and window.register.table == "T2" and window.manual.table == "T2"
    window.alerts.confirm()
    wired.run()
    assert "T2 #2" in window.register.last.text() and "确认" in window.register.last.text()


def _foul_update(table: str, flag_id: int) -> TableUpdate:
    flag = Flag(t=5.0, id=flag_id, seat="N", side="NS", offence="wrong_tribute", rule="R-TRIB-4", penalty="foul")
    return TableUpdate(table, Tick(t=5.0), (flag,), replace(TableState.fresh(), open_flags=(flag_id,)))


def test_a_new_foul_flashes_and_the_flag_shows_its_age(qtbot):
    wired = Wired({"T1": two_warnings()[:3]})
    view = AlertView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    assert view.flashes == 0 and view.items()[0].text(TEXT_COLUMN).endswith("· 0 秒")
    wired.model.apply(_foul_update("T1", 7))
    assert view.flashes == 1 and "background" in view.title.styleSheet()
    top = view.items()[0]
    assert (top.text(TABLE_COLUMN), top.text(TEXT_COLUMN)[0]) == ("T1", "北")  # the foul goes to the top
    wired.model.table("T1").now = 65.0
    view.ages.timeout.emit()
    assert view.items()[0].text(TEXT_COLUMN).endswith("· 60 秒")


def test_the_evidence_is_shown_full_size_with_its_cards(qtbot):
    wired = Wired({"T1": two_infractions()})
    view = AlertView(wired.model)
    shown_active(qtbot, view)
    wired.run()
    assert view.evidence_button.isHidden() and view.frame.isHidden()  # no camera: no empty band, nothing to enlarge
    frame = np.zeros((720, 1280, 3), dtype=np.uint8)
    frame[:, :, 1] = 200
    wired.model.alerts.attach_frame(("T1", 1), frame)
    assert view.evidence_button.isEnabled() and not view.evidence_button.isHidden()
    view.list.setFocus()
    qtbot.waitUntil(view.list.hasFocus)
    qtbot.keyClick(view.list, Qt.Key.Key_Space)
    dialog = view.evidence
    assert dialog is not None and dialog.isVisible() and "T1 #1" in dialog.windowTitle()
    image = dialog.image.pixmap().toImage()
    assert (image.width(), image.height()) == (1280, 720 + 36)  # full size, a band for the cards below
    assert image.pixelColor(640, 360).green() == 200
    assert "涉及的牌: 3♥" in view.detail.text()
    dialog.close()


def test_manual_entry_refuses_impossible_plays_and_says_where_it_goes(qtbot):
    wired = Wired({"T1": two_warnings()[:2], "T2": one_deal_with_flags()})
    sent = []
    wired.model.send.connect(lambda table, event, who: sent.append((table, event)))
    view = ManualEntryView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    view.set_table("T1")
    assert view.target.text() == "<b>录入到: T1</b>"
    assert not view.enter("E 3s 3s 3s") and view.message.text() == "✘ T1: 两副牌只有两张 3♠"
    assert view.enter("E Ts Th") and view.message.text() == "✔ T1: 东 出牌 10♠ 10♥"  # words, not JSON
    wired.run()
    table = wired.model.table("T1")
    assert table.entered == {"E"} and table.history[-1].entered  # drawn as an entry, not a camera read
    view.set_table("T2")  # its deal is over (EW swept it)
    assert not view.enter("E 3s") and view.message.text() == "✘ T2: 本副不在进行中，不能录入"
    assert [t for t, _ in sent] == ["T1"]
    wired.model.set_language("en")
    assert view.target.text() == "<b>entries go to: T2</b>"


def test_refusals_follow_the_table_state():
    play = PlayCards(t=9.0, seat="E", cards=("3s", "4s", "5s"))
    referee = TableReferee()
    referee.feed(MatchStart(0.0, {"EW": "EW", "NS": "NS"}))
    referee.feed(DealStart(1.0, "E"))
    state = referee.snapshot()
    assert refusal(play, state) is None  # 27 cards: the referee judges the play
    in_play = replace(state, deal=replace(state.deal, counts={**state.deal.counts, "E": 2}))
    assert refusal(play, in_play).text("en") == "E has 2 cards left, cannot play 3"
    assert refusal(play, replace(in_play, match_over=True)).text("zh") == "比赛已结束，不能再录入"
    assert refusal(PlayCards(t=9.0, seat="E", cards=("3s",)), in_play) is None


def test_a_finished_match_tile_shows_its_result_and_a_paused_one_says_so():
    table = RecordingTable(rules={"length_deals": 1})
    table.deal("E")
    east_west_sweep(table)
    wired = Wired({"T1": table.records, "T2": two_warnings()[:2]})
    wired.run()
    tiles = {tile.table: tile for tile in wired.model.hall.tiles(0.0)}
    assert tiles["T1"].winner == "EW"
    assert "比赛结束" in tile_html(tiles["T1"], "zh") and "东西 胜" in tile_html(tiles["T1"], "zh")
    assert "EW won" in tile_html(tiles["T1"], "en") and "正常" not in tile_html(tiles["T1"], "zh")
    wired.model.pause("T2")
    wired.run()
    t2 = next(tile for tile in wired.model.hall.tiles(0.0) if tile.table == "T2")
    assert t2.paused and "已暂停" in tile_html(t2, "zh")


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) is not installed")
def test_the_record_sheet_names_event_round_table_sides_players_and_has_signature_lines(qtbot, tmp_path):
    table = RecordingTable(
        event="江苏掼蛋公开赛",
        round=3,
        players={"EW": ["张三", "李四"], "NS": ["王五", "赵六"]},
        rules={"length_deals": 1},
    )
    table.deal("E")
    table.play("S", "3h")  # out of turn (R-PLAY-1), confirmed at once: an infraction on the sheet
    table.feed({"type": "ruling", "flag": 1, "decision": "confirm"})
    east_west_sweep(table)
    wired = Wired({"T7": table.records})
    wired.run()
    view = SheetView(wired.model)
    qtbot.addWidget(view)
    view.set_table("T7")
    pdf = tmp_path / "t7.pdf"
    sheet_pdf(wired.model.sheet.sheet("T7"), pdf, "zh", date(2026, 5, 16))
    text = "".join("".join(page.extract_text() for page in PdfReader(pdf).pages).split())
    for field in ("赛事:江苏掼蛋公开赛", "第3轮", "牌桌:T7", "日期:2026-05-16", "东西:East-West(张三/李四)",
                  "南北:North-South(王五/赵六)", "南北违例", "胜方:东西", "已打满1副",
                  "东西East-West签名", "南北North-South签名", "裁判员签名"):  # fmt: skip
        assert field in text, field
    assert "infraction" not in text and "EW" not in text  # one language: 南北 违例, not "NS infraction"
    prefix = tmp_path / "sheet"
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(pdf), str(prefix)], check=True, timeout=60)
    page = QImage(str(prefix.with_suffix(".png")))
    assert page.width() > 400 and page.height() > 600
    inked = [y for y in range(page.height()) if page.pixelColor(page.width() // 2, y).lightness() < 128]
    assert inked and max(inked) > page.height() * 0.1  # the heading, rows and signature lines are drawn
    shutil.copyfile(prefix.with_suffix(".png"), DOCS / "console-sheet.png")


def test_history_rows_follow_a_language_switch(qtbot):
    wired = Wired({"T1": one_deal_with_flags()})
    window = ConsoleWindow(wired.model)
    qtbot.addWidget(window)
    wired.run()
    window.table_view.redraw()
    history = window.table_view.history
    assert history.item(1, 3).text() == "不要" and "出牌" in history.item(2, 3).text()
    window.toggle_language()
    assert history.rowCount() == len(wired.model.table("T1").history)
    assert history.item(1, 3).text() == "pass" and history.item(2, 2).text() == "E"
    assert "下家" not in window.alerts.stop_next.text() and "Penalty register" in window.tabs.tabText(0)
