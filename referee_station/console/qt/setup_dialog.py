"""The station console's first step at a real table: the two sides, the rules (length in deals or
minutes, variants V-1…V-5), the starting levels and the first deal's first leader (seed 004 §03: the
seat of the card turned at the first deal). Keyboard first: Tab through the fields, Enter starts."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from referee_station.console.models.i18n import tr
from referee_station.station.setup import MatchSetup, SetupError
from referee_station.table.config import VARIANTS
from referee_station.table.events import SEATS, SIDES

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
VARIANT_NAMES = (*VARIANTS, "V-5")


class SetupDialog(QDialog):
    """Fills a ``MatchSetup``; ``accepted`` once it is valid (``setup`` holds it then)."""

    def __init__(self, lang: str = "zh", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lang = lang
        self.setWindowTitle(tr("setup_title", lang))
        self.names = {side: QLineEdit() for side in SIDES}
        self.event = QLineEdit()
        self.round = QSpinBox()
        self.round.setRange(0, 999)
        self.players = {side: QLineEdit() for side in SIDES}
        """Names separated by ``/`` (for the record sheet, seed 003 十三)."""
        self.deals = QSpinBox()
        self.deals.setRange(0, 99)
        self.minutes = QSpinBox()
        self.minutes.setRange(0, 600)
        self.variants = {name: QCheckBox(name) for name in VARIANT_NAMES}
        self.levels = {side: QComboBox() for side in SIDES}
        for box in self.levels.values():
            box.addItems([("10" if v == "T" else v) for v in LEVELS])
        self.leader = QComboBox()
        for seat in SEATS:
            self.leader.addItem(f"{tr(seat, lang)} ({seat})", seat)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b71c1c")
        form = QFormLayout(self)
        for side in SIDES:
            form.addRow(tr("side_name", lang, side=tr(side, lang)), self.names[side])
        form.addRow(tr("event_name", lang), self.event)
        form.addRow(tr("round_no", lang), self.round)
        for side in SIDES:
            form.addRow(tr("players_of", lang, side=tr(side, lang)), self.players[side])
        form.addRow(tr("length_deals", lang), self.deals)
        form.addRow(tr("length_minutes", lang), self.minutes)
        row = QHBoxLayout()
        for box in self.variants.values():
            row.addWidget(box)
        form.addRow(tr("variants", lang), row)
        for side in SIDES:
            form.addRow(tr("start_level", lang, side=tr(side, lang)), self.levels[side])
        form.addRow(tr("first_leader", lang), self.leader)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("start_match", lang))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("cancel", lang))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.setup: MatchSetup | None = None

    def fill(self, setup: MatchSetup) -> None:
        """Show a setup (from ``--setup`` or the hall) for the referee to check."""
        for side in SIDES:
            self.names[side].setText(setup.sides[side])
            level = (setup.levels or {}).get(side, "2")
            self.levels[side].setCurrentIndex(LEVELS.index(level) if level in LEVELS else 0)
        self.deals.setValue(int(setup.rules.get("length_deals") or 0))
        self.minutes.setValue(int(setup.rules.get("length_minutes") or 0))
        for name, box in self.variants.items():
            box.setChecked(name in setup.rules.get("variants", []))
        self.leader.setCurrentIndex(SEATS.index(setup.leader))
        self.event.setText(setup.event or "")
        self.round.setValue(setup.round or 0)
        for side in SIDES:
            self.players[side].setText(" / ".join((setup.players or {}).get(side, [])))

    def read(self) -> MatchSetup:
        """The setup as filled; ``SetupError`` says what is missing."""
        sides = {side: box.text().strip() for side, box in self.names.items()}
        if not all(sides.values()):
            raise SetupError(tr("setup_needs_names", self.lang))
        rules: dict = {}
        if self.deals.value():
            rules["length_deals"] = self.deals.value()
        if self.minutes.value():
            rules["length_minutes"] = float(self.minutes.value())
        variants = [name for name, box in self.variants.items() if box.isChecked()]
        if variants:
            rules["variants"] = variants
        levels = {side: LEVELS[box.currentIndex()] for side, box in self.levels.items()}
        players = {side: [n.strip() for n in box.text().split("/") if n.strip()] for side, box in self.players.items()}
        return MatchSetup(
            sides,
            self.leader.currentData(),
            rules,
            None if set(levels.values()) == {"2"} else levels,
            self.event.text().strip() or None,
            self.round.value() or None,
            players if any(players.values()) else None,
        )

    def accept(self) -> None:
        try:
            self.setup = self.read()
        except SetupError as err:
            self.error.setText(str(err))
            return
        super().accept()
