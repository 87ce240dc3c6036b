"""Pausing a table and adding time to a seat (issue #29): a referee weighing a ruling can stop the
table's clocks, so nobody runs out of time meanwhile, and can give a seat more time (R-TIME).

Both are ``timer`` input events for the selected table's referee (``ConsoleModel.pause`` /
``add_time``); the referee moves its deadlines and the station's timer follows (referee_station/devices/PROTOCOL.md).
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from referee_station.console.models.console import ADD_SECONDS, ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.table.events import SEATS


class TimerView(QWidget):
    """A pause / resume button for the selected table, a seat and an add-time button."""

    def __init__(self, model: ConsoleModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.table: str | None = None
        self.state = QLabel()
        self.pause_button = QPushButton()
        self.seat = QComboBox()
        self.add_button = QPushButton()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.pause_button)
        row.addWidget(self.state)
        row.addStretch(1)
        row.addWidget(self.seat)
        row.addWidget(self.add_button)
        self.pause_button.clicked.connect(self.toggle_pause)
        self.add_button.clicked.connect(self.add_time)
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)

    def set_table(self, table: str) -> None:
        if self.table is not None:
            self.model.table(self.table).changed.disconnect(self.refresh)
        self.table = table
        self.model.table(table).changed.connect(self.refresh)
        self.refresh()

    def toggle_pause(self) -> None:
        if self.table is not None:
            self.model.pause(self.table)

    def add_time(self) -> None:
        if self.table is not None:
            self.model.add_time(self.table, self.seat.currentData())

    def refresh(self) -> None:
        """The button says what a press does; the seat to act is offered first for added time."""
        lang = self.model.lang
        enabled = self.table is not None
        table = self.model.table(self.table) if self.table is not None else None
        paused = table is not None and table.paused_at is not None
        key = "resume_table" if paused else "pause_table"
        self.pause_button.setText(tr(key, lang, table=self.table or ""))
        self.pause_button.setEnabled(enabled)
        self.state.setText(f"<b>{tr('paused', lang)}</b>" if paused else "")
        running = table is not None and table.clock() is not None
        self.add_button.setEnabled(running)
        if table is not None and table.to_act in SEATS and not self.seat.hasFocus():
            self.seat.setCurrentIndex(SEATS.index(table.to_act))

    def retranslate(self, lang: str) -> None:
        index = max(0, self.seat.currentIndex())
        self.seat.clear()
        for seat in SEATS:
            self.seat.addItem(tr(seat, lang), seat)
        self.seat.setCurrentIndex(index)
        self.add_button.setText(tr("add_time", lang, seconds=ADD_SECONDS))
        self.refresh()
