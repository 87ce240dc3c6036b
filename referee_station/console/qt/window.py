"""The console's main window: hall grid and selected table on the left, the alert queue and the
register / manual entry / record sheet tabs on the right; a toolbar switches 中文 / English.

The window only lays views out and tells them which table is selected; every view gets the
``ConsoleModel`` (or the selected ``TableModel``) passed in.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QSplitter, QTabWidget

from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.models.messages import Message, say
from referee_station.console.models.replay import DealReplay
from referee_station.console.qt.alert_view import AlertView, item_key
from referee_station.console.qt.correction_view import CorrectionView
from referee_station.console.qt.hall_view import HallView
from referee_station.console.qt.manual_view import ManualEntryView
from referee_station.console.qt.register_view import RegisterView
from referee_station.console.qt.replay_view import ReplayDialog
from referee_station.console.qt.sheet_view import SheetView
from referee_station.console.qt.table_view import TableView
from referee_station.console.qt.timer_view import TimerView


class ConsoleWindow(QMainWindow):
    """Everything a referee works in during a round."""

    def __init__(self, model: ConsoleModel) -> None:
        super().__init__()
        self.model = model
        self.hall = HallView(model)
        self.table_view = TableView(model.lang)
        self.alerts = AlertView(model)
        self.corrections = CorrectionView(model, self.alerts)
        self.timer_controls = TimerView(model)
        self.alerts.layout().addWidget(self.timer_controls)
        self.register = RegisterView(model)
        self.manual = ManualEntryView(model)
        self.sheet = SheetView(model)
        self.tabs = QTabWidget()
        for view in (self.register, self.manual, self.sheet, self.corrections):
            self.tabs.addTab(view, "")
        self.left = left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.hall)
        left.addWidget(self.table_view)
        left.setSizes([300, 600])
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.alerts)
        right.addWidget(self.tabs)
        right.setSizes([450, 450])
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left)
        main.addWidget(right)
        main.setSizes([1000, 600])
        self.setCentralWidget(main)
        self.language = QAction(self)
        self.language.triggered.connect(self.toggle_language)
        self.addToolBar("language").addAction(self.language)
        self.replay_action = QAction(self)
        self.replay_action.setShortcut(QKeySequence("Ctrl+R"))
        self.replay_action.triggered.connect(self.open_replay)
        self.addToolBar("replay").addAction(self.replay_action)
        self.replay = ReplayDialog(model.lang, self)
        self.replays: dict[str, DealReplay] = {}
        self.selected: str | None = None
        self.ended = False
        self.warnings: list[tuple[str, float, Message | str]] = []
        self.warning = QLabel()
        self.warning.setStyleSheet("color: #b71c1c; font-weight: bold")
        self.statusBar().addPermanentWidget(self.warning)
        self.hall.table_selected.connect(self.select)
        self.alerts.list.currentItemChanged.connect(self._alert_selected)
        model.hall.table_added.connect(lambda name: self.select(name) if self.selected is None else None)
        model.hall.table_added.connect(lambda _: self.fit_hall())
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)
        self.alerts.list.setFocus()  # the ruling keys work from the start, and only there

    def fit_hall(self) -> None:
        """The hall grid as tall as its tiles need (at most half the height), the table below the rest:
        no empty band under the tiles (issue #29)."""
        self.hall.refresh()
        total = sum(self.left.sizes()) or self.height()
        wanted = min(self.hall.sizeHint().height(), total // 2)
        self.left.setSizes([wanted, total - wanted])

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.fit_hall()

    def _alert_selected(self, item, _previous=None) -> None:
        """Selecting a flag shows its table (issue #29: the view stayed on another table)."""
        if item is not None:
            table = item_key(item)[0]
            if table != self.selected:
                self.select(table)
            alert = self.model.alerts.get(item_key(item))
            if alert is not None and alert.flag.offence == "uncertain_read" and alert.readings:
                self.tabs.setCurrentWidget(self.corrections)  # its readings settle it in one click

    def select(self, table: str) -> None:
        self.selected = table
        self.table_view.set_model(self.model.table(table))
        for view in (self.register, self.manual, self.sheet, self.timer_controls):
            view.set_table(table)

    def open_replay(self) -> None:
        """The selected table's deal replayed step by step from its log, in a window of its own."""
        if self.selected is None:
            return
        table = self.selected
        if table not in self.replays:
            alerts = self.model.alerts

            def flag_frame(flag: int):
                alert = alerts.get((table, flag))
                return None if alert is None else alert.frame

            self.replays[table] = DealReplay(self.model.table(table), flag_frame)
        self.replay.open_table(self.replays[table])

    def show_warnings(self, warnings: list[tuple[str, float, Message | str]]) -> None:
        """Camera warnings stay in the status bar (the latest shown, all in its tooltip): a moved camera
        or a wrong deck profile concerns every later read, not one flag. Each is kept as said (a
        message, or the station's logged text) and written in the language of the moment."""
        self.warnings += warnings
        self._show_warnings()

    def _show_warnings(self) -> None:
        if not self.warnings:
            return
        lang = self.model.lang
        table, when, said = self.warnings[-1]
        self.warning.setText(f"⚠ {table} {when:.1f}s: {say(said, lang)}")
        self.warning.setToolTip("\n".join(f"{t} {w:.1f}s: {say(x, lang)}" for t, w, x in self.warnings))

    def feeds_ended(self) -> None:
        """Every table's feed is over; flags can still be ruled and sheets exported (kept, so a
        language switch rewrites it)."""
        self.ended = True
        self.statusBar().showMessage(tr("feeds_ended", self.model.lang))

    def toggle_language(self) -> None:
        self.model.set_language("en" if self.model.lang == "zh" else "zh")

    def retranslate(self, lang: str) -> None:
        self.setWindowTitle(tr("title", lang))
        self.language.setText(tr("language", lang))
        self.table_view.retranslate(lang)
        self.replay_action.setText(tr("replay", lang))
        self.replay.retranslate(lang)
        self._show_warnings()
        if self.ended:
            self.statusBar().showMessage(tr("feeds_ended", lang))
        for view, key in (
            (self.register, "register"),
            (self.manual, "manual"),
            (self.sheet, "sheet"),
            (self.corrections, "corrections"),
        ):
            if (i := self.tabs.indexOf(view)) >= 0:
                self.tabs.setTabText(i, tr(key, lang))
