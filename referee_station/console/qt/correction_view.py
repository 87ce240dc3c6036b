"""Corrections at the console (docs/corrections.md): a pending doubtful read's readings as one button
each (one click settles it), and a ruling made here reversed with a reason.

It follows the alert queue's selection: for an ``uncertain_read`` alert it offers the readings the
referee judged the play under; the reversal list holds the answered alerts whose ruling a referee
made. Both go out through ``ConsoleModel.settle`` / ``reverse`` as logged inputs for the table's
referee, which replays its log and withdraws what no longer holds.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from referee_station.console.models.alerts import Alert
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.qt.alert_view import AlertView


class CorrectionView(QWidget):
    """Settle buttons for the selected pending read; a reason and a reverse button for a past ruling."""

    def __init__(self, model: ConsoleModel, alerts: AlertView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.alerts = alerts
        self.settle_label = QLabel()
        self.settle_buttons: list[QPushButton] = []
        self._settle_row = QHBoxLayout()
        self.rulings = QComboBox()
        self.reason = QLineEdit()
        self.reverse_button = QPushButton()
        self.reverse_button.clicked.connect(self.reverse)
        self.reason.textChanged.connect(lambda _: self._enable())
        reverse_row = QHBoxLayout()
        reverse_row.addWidget(self.rulings, 2)
        reverse_row.addWidget(self.reason, 3)
        reverse_row.addWidget(self.reverse_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.settle_label)
        layout.addLayout(self._settle_row)
        layout.addLayout(reverse_row)
        alerts.list.currentItemChanged.connect(lambda *_: self._offer_readings())
        model.alerts.answered_signal.connect(lambda _: self._refresh())
        model.alerts.added.connect(lambda _: self._offer_readings())
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)

    # -- settle -------------------------------------------------------------------------------

    def _offer_readings(self) -> None:
        for button in self.settle_buttons:
            self._settle_row.removeWidget(button)
            button.deleteLater()
        self.settle_buttons = []
        key = self.alerts.current_key()
        alert = None if key is None else self.model.alerts.get(key)
        if alert is None or alert.flag.offence != "uncertain_read":
            return
        for cards in alert.readings:
            button = QPushButton(" ".join(cards))
            button.clicked.connect(lambda _=False, a=alert, c=cards: self.settle(a, c))
            self._settle_row.addWidget(button)
            self.settle_buttons.append(button)

    def settle(self, alert: Alert, cards: tuple[str, ...]) -> None:
        self.model.settle(alert.key, cards)

    # -- reverse ------------------------------------------------------------------------------

    def _reversible(self) -> list[Alert]:
        return [a for a in self.model.alerts.answered if a.can_reverse]

    def _refresh(self) -> None:
        self._offer_readings()
        self.rulings.clear()
        lang = self.model.lang
        for alert in self._reversible():
            self.rulings.addItem(
                f"{alert.table} #{alert.flag.id} {tr(f'ruled_{alert.decision}', lang)}: {alert.text(lang)}"
            )
        self._enable()

    def _enable(self) -> None:
        self.reverse_button.setEnabled(self.rulings.count() > 0 and bool(self.reason.text().strip()))

    def reverse(self) -> None:
        reversible = self._reversible()
        row = self.rulings.currentIndex()
        if not 0 <= row < len(reversible) or not self.reason.text().strip():
            return
        if self.model.reverse(reversible[row].key, self.reason.text().strip()):
            self.reason.clear()
            self._refresh()

    # -- words --------------------------------------------------------------------------------

    def retranslate(self, lang: str) -> None:
        self.settle_label.setText(tr("settle_read", lang))
        self.reason.setPlaceholderText(tr("reverse_reason", lang))
        self.reverse_button.setText(tr("reverse", lang))
        self._refresh()
