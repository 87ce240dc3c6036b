"""The card picker of manual entry as a grid of buttons: one per face, a click picks one copy.

The view only sends clicks to its ``CardPicker`` and redraws on ``changed``; the two-copies rule and
the order of the picks live in the model.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from referee_station.console.models.cards import face
from referee_station.console.models.i18n import tr
from referee_station.console.models.picker import GRID, CardPicker
from referee_station.rules.cards import BIG_JOKER, SMALL_JOKER

RED = "color: #c62828;"
"""♥ and ♦ (and the big joker) in red, as printed, so a glance finds the suit."""
BUTTON_WIDTH = 46
JOKERS = (SMALL_JOKER, BIG_JOKER)


class CardPickerView(QWidget):
    """54 face buttons (with the count picked), undo and clear, and the picks in order."""

    def __init__(self, picker: CardPicker, lang: str = "zh", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.picker = picker
        self.lang = lang
        self.buttons: dict[str, QToolButton] = {}
        grid = QGridLayout()
        grid.setSpacing(2)
        for r, row in enumerate(GRID):
            for c, code in enumerate(row):
                span = 2 if code in JOKERS else 1
                button = QToolButton()
                button.setFixedWidth(BUTTON_WIDTH * span)
                if code[-1] in "hd" or code == BIG_JOKER:
                    button.setStyleSheet(RED)
                button.clicked.connect(lambda _=False, code=code: self.pick(code))
                grid.addWidget(button, r, c * span, 1, span)
                self.buttons[code] = button
        self.undo_button = QPushButton()
        self.clear_button = QPushButton()
        self.picked = QLabel()
        self.note = QLabel()
        self.undo_button.clicked.connect(picker.undo)
        self.clear_button.clicked.connect(picker.clear)
        bottom = QHBoxLayout()
        bottom.addWidget(self.picked, 1)
        bottom.addWidget(self.undo_button)
        bottom.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addLayout(bottom)
        layout.addWidget(self.note)
        picker.changed.connect(self.redraw)
        self.retranslate(lang)

    def pick(self, code: str) -> None:
        """A face button: one more copy, or a note saying why not."""
        if self.picker.add(code):
            self.note.clear()
        else:
            self.note.setText("✘ " + tr("third_copy", self.lang, card=face(code, self.lang)))

    def retranslate(self, lang: str) -> None:
        self.lang = lang
        self.undo_button.setText(tr("undo", lang))
        self.clear_button.setText(tr("clear", lang))
        self.redraw()

    def redraw(self) -> None:
        for code, button in self.buttons.items():
            count = self.picker.count(code)
            button.setText(face(code, self.lang) + (f" ×{count}" if count else ""))
        self.picked.setText(tr("picked", self.lang, cards=self.picker.shown(self.lang)))
        if not self.picker.cards:
            self.note.clear()
