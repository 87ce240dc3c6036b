"""Manual entry for when vision is unsure: pick a seat, click the cards (or type them, or the
count) and click an action, or type the whole entry. The entry becomes an input event for the
selected table's referee (``ConsoleModel.enter``), judged like the camera's read and audited with
the referee's name."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.models.manual import EntryRefused, ManualEntryError, describe
from referee_station.console.models.messages import Message, say
from referee_station.console.qt.picker_view import CardPickerView
from referee_station.table.events import SEATS, EventError, Record

ACTIONS = ("play", "pass", "report", "tribute", "return")


class ManualEntryView(QWidget):
    """Seat, action buttons, argument, card picker and a free-text line; errors are shown, never
    raised. The picker writes the argument; a successful action clears it for the next entry."""

    def __init__(self, model: ConsoleModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.table: str | None = None
        self.target = QLabel()
        """Which table the entry goes to (issue #29: the form never said)."""
        self.seat = QComboBox()
        self.argument = QLineEdit()
        self.picker = CardPickerView(model.picker, model.lang)
        self.buttons = {action: QPushButton() for action in ACTIONS}
        self.typed = QLineEdit()
        self.submit_button = QPushButton()
        self.message = QLabel()
        self._said: tuple[str, Message | str | Record] | None = None
        row = QHBoxLayout()
        row.addWidget(self.seat)
        row.addWidget(self.argument, 1)
        actions = QHBoxLayout()  # a row of their own: the form fits a 1366 px screen's right column
        for action, button in self.buttons.items():
            actions.addWidget(button)
            button.clicked.connect(lambda _=False, a=action: self.click(a))
        typed = QHBoxLayout()
        typed.addWidget(self.typed, 1)
        typed.addWidget(self.submit_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.target)
        layout.addLayout(row)
        layout.addLayout(actions)
        layout.addWidget(self.picker)
        layout.addLayout(typed)
        layout.addWidget(self.message)
        layout.addStretch(1)
        self.typed.returnPressed.connect(self.submit_typed)
        self.argument.returnPressed.connect(self.submit_argument)
        self.submit_button.clicked.connect(self.submit_typed)
        model.picker.changed.connect(lambda: self.argument.setText(model.picker.argument))
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)

    def set_table(self, table: str) -> None:
        self.table = table
        self._retarget()

    def _retarget(self) -> None:
        lang = self.model.lang
        shown = tr("entry_target", lang, table=self.table) if self.table else tr("entry_no_table", lang)
        self.target.setText(f"<b>{shown}</b>")

    def submit_argument(self) -> None:
        """Enter in the argument box: a number is a report, cards are a play."""
        text = self.argument.text().strip()
        if text:
            self.click("report" if text.isdigit() else "play")

    def click(self, action: str) -> None:
        """An action button: the seat picked, the action, the argument box."""
        seat = self.seat.currentData()
        argument = "" if action == "pass" else self.argument.text()
        if self.enter(f"{seat} {action} {argument}".strip()):
            self.model.picker.clear()
            self.argument.clear()

    def submit_typed(self) -> None:
        if self.enter(self.typed.text()):
            self.typed.clear()

    def enter(self, text: str) -> bool:
        if self.table is None:
            self._say("✘", Message("entry_no_table"))
            return False
        try:
            event = self.model.enter(self.table, text)
        except EntryRefused as err:
            self._say(f"✘ {err.table}:", err.refusal)
            return False
        except ManualEntryError as err:
            self._say("✘", err.message)
            return False
        except EventError as err:  # a bad card code: the event's own words, in the console's language
            self._say("✘", str(err))
            return False
        self._said = (f"✔ {self.table}:", event)
        self._show_said()
        return True

    def _say(self, mark: str, message: Message | str) -> None:
        self._said = (mark, message)
        self._show_said()

    def _show_said(self) -> None:
        """The last entry's feedback, in the language of the moment (it is redrawn on a switch)."""
        if self._said is None:
            return
        mark, said = self._said
        lang = self.model.lang
        text = describe(said, lang) if isinstance(said, Record) else say(said, lang)
        self.message.setText(f"{mark} {text}")

    def retranslate(self, lang: str) -> None:
        index = max(0, self.seat.currentIndex())
        self.seat.clear()
        for seat in SEATS:
            self.seat.addItem(tr(seat, lang), seat)
        self.seat.setCurrentIndex(index)
        for action, button in self.buttons.items():
            button.setText(tr(action, lang))
        self.argument.setPlaceholderText(tr("card_or_count", lang))
        self.typed.setPlaceholderText(tr("typed", lang))
        self.submit_button.setText(tr("submit", lang))
        self._retarget()
        self._show_said()
        self.picker.retranslate(lang)
