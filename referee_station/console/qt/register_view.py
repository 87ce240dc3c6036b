"""The penalty register of the selected table: the rulings made (answered alerts), each confirmed
step of each side's ladder with its reason (RULES.md section 9), the ladder state, and the audit
trail of every ruling and manual entry in the hall (who, when, what changed)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from referee_station.console.models.alerts import Alert
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.qt.style import DeferredRedraw, read_only_table
from referee_station.table.events import SIDES

REFRESH_MS = 300
RULING_COLUMNS = ("table", "seat", "rule", "penalty", "result", "who")
PENALTY_COLUMNS = ("side", "penalty", "reason", "table_time")
AUDIT_COLUMNS = ("table_time", "table", "who", "what", "changed")
"""One time base per view (issue #29): the table clock in seconds; the audit's wall clock is each row's tooltip."""


def _fill(widget: QTableWidget, rows: list[list[str]]) -> None:
    """Append the rows the widget does not show yet (registers only grow)."""
    for row in range(widget.rowCount(), len(rows)):
        widget.insertRow(row)
        for col, value in enumerate(rows[row]):
            widget.setItem(row, col, QTableWidgetItem(value))


def ladder_text(table: str, ladder: dict[str, dict[str, int]], lang: str) -> str:
    """``罚则阶梯 T1: 东西 违例×1 · 南北`` : the rungs each side has climbed (RULES.md section 9)."""
    return f"<b>{tr('ladder', lang)}</b> {table}: " + " · ".join(
        f"{tr(side, lang)} " + " ".join(f"{tr(rung, lang)}×{n}" for rung, n in ladder.get(side, {}).items() if n)
        for side in SIDES
    )


class RegisterView(QWidget):
    """Rulings, ladder steps and ladder state of one table; the hall's audit trail."""

    def __init__(self, model: ConsoleModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.table: str | None = None
        self.ladder = QLabel()
        self.last = QLabel()
        """The ruling just made, whatever table is selected (issue #29: it was missing from the register)."""
        self.last.setWordWrap(True)
        self.rulings = read_only_table(len(RULING_COLUMNS), wide=RULING_COLUMNS.index("rule"))
        self.penalties = read_only_table(len(PENALTY_COLUMNS))
        self.audit = read_only_table(len(AUDIT_COLUMNS), wide=AUDIT_COLUMNS.index("what"))
        self.titles = [QLabel(), QLabel(), QLabel()]
        layout = QVBoxLayout(self)
        layout.addWidget(self.last)
        layout.addWidget(self.ladder)
        for title, widget in zip(self.titles, (self.rulings, self.penalties, self.audit), strict=True):
            layout.addWidget(title)
            layout.addWidget(widget, 1)
        self.deferred = DeferredRedraw(self, self.redraw, REFRESH_MS, dirty=True)
        model.alerts.answered_signal.connect(self.deferred.mark)
        model.alerts.answered_signal.connect(self._show_last)
        model.register.changed.connect(self.deferred.mark)
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)

    def _show_last(self, alert: Alert) -> None:
        lang = self.model.lang
        result = tr(f"ruled_{alert.decision}", lang) + (" + " + tr("stopped", lang) if alert.stop_next else "")
        seat = tr(alert.flag.seat, lang) if alert.flag.seat else "—"
        self.last.setText(
            f"<b>{tr('last_ruling', lang)}</b>: {alert.table} #{alert.flag.id} {seat} "
            f"{tr(alert.flag.offence, lang)} → {result} ({alert.who or ''})"
        )

    def set_table(self, table: str) -> None:
        self.table = table
        self.rulings.setRowCount(0)
        self.penalties.setRowCount(0)
        self.redraw()

    def retranslate(self, lang: str) -> None:
        for widget, columns in (
            (self.rulings, RULING_COLUMNS),
            (self.penalties, PENALTY_COLUMNS),
            (self.audit, AUDIT_COLUMNS),
        ):
            widget.setHorizontalHeaderLabels([tr(c, lang) for c in columns])
            widget.setRowCount(0)
        for title, key in zip(self.titles, ("rulings", "register", "audit"), strict=True):
            title.setText(f"<b>{tr(key, lang)}</b>")
        self.redraw()

    def redraw(self) -> None:
        self.deferred.dirty = False
        lang = self.model.lang
        register = self.model.register
        start = self.audit.rowCount()
        _fill(self.audit, [[f"{e.t:.1f}", e.table, e.who, e.what(lang), e.changed(lang)] for e in register.audit])
        for row in range(start, self.audit.rowCount()):
            self.audit.item(row, 0).setToolTip(f"UTC {register.audit[row].when}")
        if self.table is None:
            return
        answered = [a for a in self.model.alerts.answered if a.table == self.table]
        _fill(
            self.rulings,
            [
                [
                    f"{a.table} #{a.flag.id}",
                    tr(a.flag.seat, lang) if a.flag.seat else "—",
                    f"{a.flag.rule} {tr(a.flag.offence, lang)}",
                    tr(a.flag.penalty, lang),
                    tr(f"ruled_{a.decision}", lang) + (" + " + tr("stopped", lang) if a.stop_next else ""),
                    a.who or "",
                ]
                for a in answered
            ],
        )
        steps = register.penalties.get(self.table, [])
        _fill(
            self.penalties, [[tr(p.side, lang), tr(p.penalty, lang), tr(p.reason, lang), f"{p.t:.1f}"] for p in steps]
        )
        ladder = register.ladders.get(self.table, {})
        self.ladder.setText(ladder_text(self.table, ladder, lang))
