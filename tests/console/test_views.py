"""The PySide6 views, offscreen, on models fed through a live hall (pytest-qt)."""

from __future__ import annotations

import csv

from pypdf import PdfReader
from PySide6.QtCore import Qt

from referee_station.console.qt.alert_view import AlertView
from referee_station.console.qt.export import sheet_html
from referee_station.console.qt.hall_view import HallView
from referee_station.console.qt.manual_view import ManualEntryView
from referee_station.console.qt.register_view import RegisterView
from referee_station.console.qt.sheet_view import SheetView
from referee_station.console.qt.table_view import TableView
from referee_station.console.qt.window import ConsoleWindow
from referee_station.core import Health
from referee_station.table.events import PlayCards
from tests.console.helpers import Wired, one_deal_with_flags, shown_active, two_warnings


def texts(widget, column):
    return [widget.item(r, column).text() for r in range(widget.rowCount())]


def test_a_flag_raised_by_the_referee_appears_in_the_queue(qtbot):
    wired = Wired({"T1": one_deal_with_flags()})
    view = AlertView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    shown = [view.list.topLevelItem(row).text(1) for row in range(view.list.topLevelItemCount())]
    assert [view.list.topLevelItem(row).text(0) for row in range(2)] == ["T1", "T1"]  # the table's own column
    assert len(shown) == 2
    assert "越序出牌" in shown[0] and "违例" in shown[0]
    assert view.current_key() == ("T1", 1)
    assert "R-PLAY-1" in view.detail.text() and "越序出牌" in view.detail.text()
    assert "out-of-turn" not in view.detail.text()  # one language at a time (issue #29)
    wired.model.set_language("en")
    assert "out-of-turn play" in view.detail.text() and "越序" not in view.detail.text()
    wired.model.set_language("zh")
    assert view.stop_next.isEnabled()  # infraction: the 下家 (E) may stop S's next play
    view.select_next()
    assert view.current_key() == ("T1", 2) and not view.stop_next.isEnabled()


def test_confirm_moves_it_to_the_register_and_escalates_the_ladder(qtbot):
    wired = Wired({"T1": two_warnings()})
    alerts, register = AlertView(wired.model), RegisterView(wired.model)
    qtbot.addWidget(alerts)
    qtbot.addWidget(register)
    register.set_table("T1")
    wired.run()
    assert alerts.list.topLevelItemCount() == 2
    alerts.confirm_action.trigger()
    alerts.confirm()
    wired.run()
    register.redraw()
    assert alerts.list.topLevelItemCount() == 0
    assert texts(register.rulings, 4) == ["确认", "确认"]
    assert texts(register.rulings, 5) == ["张裁判", "张裁判"]
    assert texts(register.penalties, 1) == ["警告", "警告", "违例"]
    assert texts(register.penalties, 2)[-1] == "两次警告"
    assert "违例×1" in register.ladder.text()
    assert texts(register.audit, 4)[-1] == "南北 警告 1→2, 南北 违例 0→1"
    assert texts(register.audit, 3)[-1] == "确认 #2" and texts(register.audit, 0)[-1] == "3.0"
    assert register.audit.horizontalHeaderItem(0).text() == "牌桌时间 (秒)"  # one time base, with its unit
    wired.model.set_language("en")
    assert texts(register.audit, 4)[-1] == "NS warning 1→2, NS infraction 0→1"
    assert texts(register.penalties, 2)[-1] == "two warnings" and texts(register.audit, 3)[-1] == "confirmed #2"


def test_infraction_with_the_stop_next_choice(qtbot):
    wired = Wired({"T1": one_deal_with_flags()[:3]})
    sent = []
    wired.model.send.connect(lambda table, event, who: sent.append(event))
    view = AlertView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    view.stop_next.setChecked(True)
    view.confirm()
    assert sent[-1].stop_next and sent[-1].decision == "confirm" and sent[-1].flag == 1


def test_keyboard_shortcuts(qtbot):
    wired = Wired({"T1": two_warnings()})
    view = AlertView(wired.model)
    shown_active(qtbot, view)
    wired.run()
    assert view.current_key() == ("T1", 1)
    qtbot.keyClick(view.list, Qt.Key.Key_N)
    assert view.current_key() == ("T1", 2)
    qtbot.keyClick(view.list, Qt.Key.Key_Delete)
    assert [(a.flag.id, a.decision) for a in wired.model.alerts.answered] == [(2, "dismiss")]
    qtbot.keyClick(view.list, Qt.Key.Key_Return)
    assert [(a.flag.id, a.decision) for a in wired.model.alerts.answered] == [(2, "dismiss"), (1, "confirm")]


def _manual_entry(qtbot) -> tuple[Wired, list, ManualEntryView]:
    """Manual entry over T1 (two events in), East selected; ``sent`` collects what the console sends."""
    wired = Wired({"T1": two_warnings()[:2]})
    sent: list = []
    wired.model.send.connect(lambda table, event, who: sent.append((table, event, who)))
    view = ManualEntryView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    view.set_table("T1")
    view.seat.setCurrentIndex(0)  # 东 E
    return wired, sent, view


def test_manual_entry_produces_the_right_event(qtbot):
    wired, sent, view = _manual_entry(qtbot)
    view.argument.setText("3s 3h")
    qtbot.mouseClick(view.buttons["play"], Qt.MouseButton.LeftButton)
    assert sent == [("T1", PlayCards(t=1.0, seat="E", cards=("3s", "3h")), "张裁判")]
    view.typed.setText("南 报 x")
    view.submit_typed()
    assert view.message.text().startswith("✘") and len(sent) == 1
    wired.run()
    assert wired.model.table("T1").deal.last.cards == ("3s", "3h")


def test_clicked_cards_make_the_play_and_a_third_copy_is_refused(qtbot):
    wired, sent, view = _manual_entry(qtbot)
    picker = view.picker
    for _ in range(3):
        qtbot.mouseClick(picker.buttons["3s"], Qt.MouseButton.LeftButton)
    assert wired.model.picker.cards == ["3s", "3s"]  # two decks: the third click is refused
    assert picker.buttons["3s"].text() == "3♠ ×2" and picker.note.text() == "✘ 3♠ 已选两张（两副牌）"
    qtbot.mouseClick(picker.undo_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(picker.buttons["3h"], Qt.MouseButton.LeftButton)
    assert view.argument.text() == "3s 3h" and picker.picked.text() == "已选: 3♠ 3♥"
    assert picker.buttons["3s"].text() == "3♠ ×1" and picker.note.text() == ""
    assert sent == []
    qtbot.mouseClick(view.buttons["play"], Qt.MouseButton.LeftButton)
    assert sent == [("T1", PlayCards(t=1.0, seat="E", cards=("3s", "3h")), "张裁判")]
    assert view.argument.text() == "" and picker.buttons["3s"].text() == "3♠"  # ready for the next entry
    wired.run()
    assert wired.model.table("T1").deal.last.cards == ("3s", "3h")


def test_the_picker_clears_and_speaks_english(qtbot):
    wired = Wired({"T1": two_warnings()[:2]})
    view = ManualEntryView(wired.model)
    qtbot.addWidget(view)
    wired.model.set_language("en")
    for code in ("BJ", "SJ", "Td"):
        qtbot.mouseClick(view.picker.buttons[code], Qt.MouseButton.LeftButton)
    assert view.picker.picked.text() == "picked: BJ SJ 10♦" and view.argument.text() == "BJ SJ Td"
    qtbot.mouseClick(view.picker.clear_button, Qt.MouseButton.LeftButton)
    assert view.argument.text() == "" and wired.model.picker.cards == [] and view.picker.buttons["BJ"].text() == "BJ"


def test_export_files_hold_the_match(qtbot, tmp_path):
    wired = Wired({"T1": one_deal_with_flags()})
    view = SheetView(wired.model)
    qtbot.addWidget(view)
    view.set_table("T1")
    wired.run()
    assert view.grid.rowCount() == 1 and view.grid.item(0, 2).text() == "东 西 — —"
    view.export_csv(tmp_path / "t1.csv")
    rows = list(csv.reader((tmp_path / "t1.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert rows[0][:4] == ["比赛记录表", "牌桌: T1", "东西: East-West", "南北: North-South"]
    assert rows[-1] == ["东西 East-West签名: ", "南北 North-South签名: ", "裁判员签名: "]
    assert rows[2][:4] == ["1", "2", "东 西 — —", "东西 +3"]
    html = sheet_html(wired.model.sheet.sheet("T1"), "en")
    assert "<td>E W — —</td><td>EW +3</td><td>5</td><td>2</td>" in html and "Record sheet — T1" in html
    sheet = wired.model.sheet.sheet("T1")
    view.export_pdf(tmp_path / "t1.pdf")
    text = pdf_text(tmp_path / "t1.pdf")
    # Qt fakes bold for the CJK font (drawn twice), so the bold Chinese title and header come out
    # doubled ("副 副"); the rows are plain and come out as laid, so the rows are what is compared.
    assert "EW: East-West NS: North-South" not in text and "East-West" in text
    assert in_order(text, [cell for row in sheet.rows for cell in sheet.cells(row, "zh") if cell])
    assert "东 西 — — 东西 +3 5 2" in text
    wired.model.set_language("en")
    view.export_pdf(tmp_path / "t1-en.pdf")
    text = pdf_text(tmp_path / "t1-en.pdf")
    assert "Table: T1 · date: " in text and "EW: East-West NS: North-South " + " ".join(sheet.header("en")) in text
    assert in_order(text, [cell for row in sheet.rows for cell in sheet.cells(row, "en") if cell])


def pdf_text(path):
    """The PDF's text with every run of white space (tabs, newlines, nbsp) made one space."""
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(path).pages)


def in_order(text, cells):
    """True when every cell's text appears in ``text``, each after the one before."""
    at = 0
    for cell in cells:
        found = text.find(" ".join(cell.split()), at)
        if found < 0:
            return False
        at = found + len(cell)
    return True


def test_hall_grid_sorts_and_filters(qtbot):
    wired = Wired({"T1": two_warnings()[:2], "T2": one_deal_with_flags()})
    view = HallView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    view.refresh()
    assert view.order == ["T2", "T1"]
    assert "违例" in view.tiles["T2"].text() and "正常" in view.tiles["T1"].text()
    view.text_filter.setText("1")
    assert view.order == ["T1"]
    wired.model.set_language("en")
    assert "normal" in view.tiles["T1"].text() and "to act E lead" in view.tiles["T1"].text()
    seen = []
    view.table_selected.connect(seen.append)
    qtbot.mouseClick(view.tiles["T1"], Qt.MouseButton.LeftButton)
    assert seen == ["T1"]


def test_table_view_draws_the_table(qtbot):
    wired = Wired({"T1": one_deal_with_flags()[:6]})
    view = TableView()
    qtbot.addWidget(view)
    wired.run()
    view.set_model(wired.model.table("T1"))
    view.resize(900, 500)
    assert "T1" in view.header.text() and "该出 西 跟牌 20 s" in view.header.text()
    assert [view.seats.item(r, 1).text() for r in range(4)] == ["19", "27", "27", "27"]
    assert view.history.item(0, 4).font().strikeOut()  # S's out-of-turn play, void
    assert not view.grab().isNull()


def test_window_switches_language(qtbot):
    wired = Wired({"T1": one_deal_with_flags()})
    window = ConsoleWindow(wired.model)
    qtbot.addWidget(window)
    wired.run()
    assert window.selected == "T1" and window.windowTitle() == "掼蛋裁判台"
    window.toggle_language()
    assert window.windowTitle() == "Guandan referee station"
    assert "out-of-turn play" in window.alerts.list.topLevelItem(0).text(1)
    assert window.alerts.confirm_button.text() == "Confirm (Enter)"


class FakeCamera:
    """A table camera that returns a flat grey image and counts the frames asked for."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def frame(self, t):
        import numpy as np

        self.asked.append(t)
        return np.full((90, 160, 3), 128, dtype=np.uint8)


def test_the_camera_frame_of_the_flag_is_shown(qtbot):
    from referee_station.station.live.runner import TableRunner

    camera = FakeCamera()
    wired = Wired({})
    runner = TableRunner("T1", one_deal_with_flags()[:4], camera=camera)
    wired.hall.runners["T1"] = runner
    alerts, table = AlertView(wired.model), TableView()
    qtbot.addWidget(alerts)
    qtbot.addWidget(table)
    wired.run()
    table.set_model(wired.model.table("T1"))
    assert camera.asked == [2.0, 3.0]  # S's play (flagged) and N's pass (flagged): frames of those moments
    assert wired.model.alerts.pending[0].frame.shape == (90, 160, 3)
    assert not alerts.frame.pixmap().isNull()
    assert not table.grab().isNull()


class DeadCamera(FakeCamera):
    def frame(self, t):
        self.asked.append(t)


def test_a_camera_without_image_takes_the_tile_offline(qtbot):
    from referee_station.station.live.runner import TableRunner

    wired = Wired({})
    wired.hall.runners["T1"] = TableRunner("T1", one_deal_with_flags()[:4], camera=DeadCamera())
    view = HallView(wired.model)
    qtbot.addWidget(view)
    wired.run()
    view.refresh()
    assert wired.model.table("T1").health == Health(camera=False, timer=True, seats=True)
    assert "离线" in view.tiles["T1"].text() and "✘摄像头" in view.tiles["T1"].text()
