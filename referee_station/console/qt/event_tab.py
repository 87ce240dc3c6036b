"""The head console's event tab: the round's pairings and clock (pair, start, call time), the results
awaiting both sides' signatures, the standings, and the head referee's corrections with a reason.

Everything it changes goes through the :class:`~referee_station.event.desk.EventDesk` (journal
actions, audited); it redraws when the desk's ``version`` moves, and the clock every half second.
A refused action is shown in the tab's status line with the event's own message.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_station.console.models.i18n import tr
from referee_station.event.desk import EventDesk
from referee_station.event.model import EventActionError, TableResult
from referee_station.event.pairing import PairingError
from referee_station.event.scoring import LEVELS
from referee_station.event.standings import standings
from referee_station.hall.clock import clock_text
from referee_station.table.events import SIDES

REFRESH_MS = 500


def status_text(result: TableResult, lang: str) -> str:
    """A table's result status in the console's language (``TableResult.status`` is the journal's)."""
    if result.forfeit is None and result.corrected is None and result.reported is not None and not result.counts:
        waiting = [side for side in SIDES if side not in result.confirmed]
        return tr("event_awaiting_sides", lang, sides="、".join(tr(side, lang) for side in waiting))
    return tr(f"event_{result.status}", lang)


def fill(table: QTableWidget, rows: list[list[str]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(text))
    table.resizeColumnsToContents()


class EventTab(QWidget):
    """The event at the head's desk; ``who()`` names the logged-in referee (``None``: nobody)."""

    def __init__(
        self,
        desk: EventDesk,
        who: Callable[[], str | None],
        lang: str = "zh",
        wall: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.desk, self.who, self.lang, self.wall = desk, who, lang, wall
        self.shown_version = -1
        self.round_label, self.clock_label, self.status = QLabel(), QLabel(), QLabel()
        self.pair_button, self.start_button, self.call_button = QPushButton(), QPushButton(), QPushButton()
        self.pair_button.clicked.connect(lambda: self._act(lambda: self.desk.pair_next(self.who())))
        self.start_button.clicked.connect(lambda: self._act(lambda: self.desk.start_round(self.who())))
        self.call_button.clicked.connect(lambda: self._act(lambda: self.desk.call_time(self.who())))
        self.pairings = QTableWidget(0, 6)
        self.awaiting = QListWidget()
        self.problems = QListWidget()
        self.standings = QTableWidget(0, 8)
        self.correct_table = QSpinBox()
        self.correct_table.setMinimum(1)
        self.winner = QComboBox()
        self.winner.addItems(["EW", "NS", "draw"])
        self.gained = {side: QSpinBox() for side in ("EW", "NS")}
        for box in self.gained.values():
            box.setRange(0, LEVELS)
        self.reason = QLineEdit()
        self.correct_button = QPushButton()
        self.correct_button.clicked.connect(self.correct)
        for table in (self.pairings, self.standings):
            table.verticalHeader().hide()
        for label in (self.round_label, self.clock_label):
            label.setStyleSheet("font-size: 20px; font-weight: bold")
        self.clock_label.setMinimumWidth(320)
        self.groups = {key: QGroupBox() for key in ("event_pairings", "event_awaiting", "event_standings",
                                                     "event_correct", "event_problems")}  # fmt: skip
        self._lay_out()
        self.groups["event_awaiting"].setMaximumHeight(170)
        self.groups["event_problems"].setMaximumHeight(120)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(REFRESH_MS)
        self.retranslate(lang)

    def _lay_out(self) -> None:
        head = QHBoxLayout()
        for widget in (self.round_label, self.clock_label):
            head.addWidget(widget)
        head.addStretch(1)
        for button in (self.pair_button, self.start_button, self.call_button):
            head.addWidget(button)
        QVBoxLayout(self.groups["event_pairings"]).addWidget(self.pairings)
        QVBoxLayout(self.groups["event_awaiting"]).addWidget(self.awaiting)
        QVBoxLayout(self.groups["event_standings"]).addWidget(self.standings)
        QVBoxLayout(self.groups["event_problems"]).addWidget(self.problems)
        form = QFormLayout(self.groups["event_correct"])
        self.correct_form = form
        form.addRow(tr("event_table", self.lang), self.correct_table)
        form.addRow(tr("winner", self.lang), self.winner)
        for side, box in self.gained.items():
            form.addRow(f"{side} {tr('event_gained', self.lang)}", box)
        form.addRow(tr("event_reason", self.lang), self.reason)
        form.addRow(self.correct_button)
        grid = QGridLayout()
        grid.addWidget(self.groups["event_pairings"], 0, 0)
        grid.addWidget(self.groups["event_standings"], 0, 1, 3, 1)
        grid.addWidget(self.groups["event_awaiting"], 1, 0)
        grid.addWidget(self.groups["event_correct"], 2, 0)
        grid.addWidget(self.groups["event_problems"], 3, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(0, 1)
        outer = QVBoxLayout(self)
        outer.addLayout(head)
        outer.addLayout(grid)
        outer.addWidget(self.status)

    # -- actions -------------------------------------------------------------------------------

    def _act(self, action: Callable[[], object]) -> bool:
        try:
            action()
        except (EventActionError, PairingError) as err:
            self.status.setText(tr("event_refused", self.lang, error=err))
            return False
        self.status.clear()
        self.refresh()
        return True

    def correct(self) -> None:
        """The head referee's correction of a table in the last paired round: logged in, with a reason."""
        referee = self.who()
        if referee is None:
            self.status.setText(tr("login_first", self.lang))
            return
        if not self.reason.text().strip():
            self.status.setText(tr("event_needs_reason", self.lang))
            self.reason.setFocus()
            return
        round_no = len(self.desk.state.rounds)
        gained = {side: box.value() for side, box in self.gained.items()}
        args = (round_no, self.correct_table.value(), self.winner.currentText(), gained, self.reason.text())
        if self._act(lambda: self.desk.correct(*args, by=referee)):
            self.reason.clear()

    # -- drawing -------------------------------------------------------------------------------

    def refresh(self) -> None:
        with self.desk.lock:
            self._clock()
            if self.desk.version == self.shown_version:
                return
            self.shown_version = self.desk.version
            self._draw()

    def _clock(self) -> None:
        state, lang = self.desk.state, self.lang
        if not state.rounds:
            self.round_label.setText(tr("event_no_round", lang))
            self.clock_label.setText("")
            return
        clock = state.rounds[-1].clock
        self.round_label.setText(tr("event_round", lang, n=len(state.rounds)))
        if clock is None:
            self.clock_label.setText(tr("event_not_started", lang))
        elif clock.remaining(self.wall()) <= 0:
            self.clock_label.setText(tr("event_called", lang))
        else:
            self.clock_label.setText(tr("event_remaining", lang, clock=clock_text(clock.remaining(self.wall()))))

    def _draw(self) -> None:
        state = self.desk.state
        rows, waiting = [], []
        if state.rounds:
            current = state.rounds[-1]
            for number, result in sorted(current.results.items()):
                t = result.table
                final = result.corrected or result.reported
                shown = f"{final.winner} {final.gained['EW']}:{final.gained['NS']}" if final else ""
                status = status_text(result, self.lang)
                rows.append([str(number), self.desk.table_name(number), state.pairs[t.ew].label,
                             state.pairs[t.ns].label, status, shown])  # fmt: skip
                if result.reported is not None and not result.counts:
                    waiting.append(f"{tr('event_round', self.lang, n=current.pairing.round)} "
                                   f"{tr('event_table', self.lang)} {number}: {shown} — {status}")  # fmt: skip
            self.correct_table.setMaximum(max(current.results))
        fill(self.pairings, rows)
        self.awaiting.clear()
        self.awaiting.addItems(waiting)
        self.problems.clear()
        self.problems.addItems(self.desk.problems)
        lines = [
            [str(s.place), s.pair.label, s.pair.unit, str(s.totals.points), str(s.totals.small),
             str(s.totals.gained), str(s.totals.conceded), str(s.played)]
            for s in standings(state)
        ]  # fmt: skip
        fill(self.standings, lines)

    def retranslate(self, lang: str) -> None:
        self.lang = lang
        self.pair_button.setText(tr("event_pair_next", lang))
        self.start_button.setText(tr("event_start", lang))
        self.call_button.setText(tr("event_call", lang))
        self.correct_button.setText(tr("event_correct", lang))
        for key, group in self.groups.items():
            group.setTitle(tr(key, lang))
        self.pairings.setHorizontalHeaderLabels([tr(k, lang) for k in (
            "event_table", "event_hall_table", "EW", "NS", "event_status", "event_result")])  # fmt: skip
        self.standings.setHorizontalHeaderLabels([tr(k, lang) for k in (
            "place", "event_pair", "event_unit", "event_points", "event_small", "event_gained", "event_conceded",
            "event_played")])  # fmt: skip
        self.shown_version = -1
        self.refresh()
