"""The station console's first step at a real table: the two sides, the rules (length in deals or
minutes, variants V-1…V-5), the starting levels and the first deal's first leader (seed 004 §03: the
seat of the card turned at the first deal). Keyboard first: Tab through the fields, Enter starts.
With a hall, the sides' names come from the table's assignment (``offer_sides``); without one, or
to correct them, the referee types them. Given a camera check (``check_camera``), it also offers the
camera check before play: the test row laid in every play area, read back, and the verdict per area
(``referee_station.vision.camera_check``)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from referee_station.console.models.i18n import tr
from referee_station.rules import RulesError, parse_cards
from referee_station.station.setup import MatchSetup, SetupError
from referee_station.table.config import VARIANTS
from referee_station.table.events import SEATS, SIDES

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
VARIANT_NAMES = (*VARIANTS, "V-5")

CameraCheckStep = Callable[[tuple[str, ...]], list[str]]
"""The test row's card codes → the camera check's report lines (``station.camera_step.check_from_args``);
raises ValueError or OSError saying what is wrong."""


class SetupDialog(QDialog):
    """Fills a ``MatchSetup``; ``accepted`` once it is valid (``setup`` holds it then)."""

    def __init__(
        self, lang: str = "zh", parent: QWidget | None = None, check_camera: CameraCheckStep | None = None
    ) -> None:
        super().__init__(parent)
        self.lang = lang
        self.setWindowTitle(tr("setup_title", lang))
        self.names = {side: QLineEdit() for side in SIDES}
        self.event_name = QLineEdit()
        self.round_no = QSpinBox()
        self.round_no.setRange(0, 999)
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
        form.addRow(tr("event_name", lang), self.event_name)
        form.addRow(tr("round_no", lang), self.round_no)
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
        self.check_camera = check_camera
        if check_camera is not None:
            self.test_row = QLineEdit()
            self.test_row.setPlaceholderText("3s 4h 5d 6c 7s 8h 9d Tc Js Qh")
            self.check_button = QPushButton(tr("check_camera", lang))
            self.check_button.setAutoDefault(False)  # Enter still starts the match
            self.check_button.clicked.connect(self.run_camera_check)
            self.check_report = QPlainTextEdit()
            self.check_report.setReadOnly(True)
            self.check_report.setMaximumHeight(160)
            line = QHBoxLayout()
            line.addWidget(self.test_row)
            line.addWidget(self.check_button)
            form.addRow(tr("test_row", lang), line)
            form.addRow(self.check_report)
        form.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("start_match", lang))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("cancel", lang))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.setup: MatchSetup | None = None
        self.offered: dict[str, str] = {}
        """The names the hall last offered, per side."""

    def offer_sides(self, sides: dict[str, str]) -> None:
        """The hall's names for the sides: each fills its field unless the referee typed another."""
        for side in SIDES:
            box = self.names[side]
            if side in sides and box.text() in ("", self.offered.get(side, "")):
                box.setText(sides[side])
        self.offered = dict(sides)

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
        self.event_name.setText(setup.event or "")
        self.round_no.setValue(setup.round or 0)
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
            self.event_name.text().strip() or None,
            self.round_no.value() or None,
            players if any(players.values()) else None,
        )

    def run_camera_check(self) -> None:
        """Check the camera with the test row typed in; the report (or what is wrong) shows below."""
        assert self.check_camera is not None
        try:
            row = tuple(card.code for card in parse_cards(self.test_row.text())) if self.test_row.text().strip() else ()
            lines = self.check_camera(row)
        except (RulesError, ValueError, OSError) as err:
            lines = [str(err)]
        self.check_report.setPlainText("\n".join(lines))

    def accept(self) -> None:
        try:
            self.setup = self.read()
        except SetupError as err:
            self.error.setText(str(err))
            return
        super().accept()
