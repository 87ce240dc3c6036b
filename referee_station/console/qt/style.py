"""Colours of states and penalties, the camera frame as a ``QImage`` and deferred redraws: shared by the views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

STATE_COLOURS: dict[str, str] = {
    "normal": "#2e7d32",
    "countdown": "#f9a825",
    "warning": "#ef6c00",
    "infraction": "#c62828",
    "foul": "#6a1b9a",
    "offline": "#546e7a",
    "anomaly": "#1565c0",
    "match_loss": "#4a148c",
    "disqualification": "#000000",
}


def colour(state: str) -> QColor:
    return QColor(STATE_COLOURS.get(state, "#455a64"))


def frame_image(frame: Any) -> QImage | None:
    """An ``H×W×3`` uint8 RGB array as a ``QImage`` (copied: the array may be reused)."""
    if frame is None:
        return None
    height, width = frame.shape[:2]
    data = frame.tobytes()
    return QImage(data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()


class DeferredRedraw(QObject):
    """A view's redraw, at most once every ``ms``: model changes only ``mark`` it, so the GUI thread's
    work follows the screen's pace, not the hall's event rate (the view's ``redraw`` clears ``dirty``)."""

    def __init__(self, parent: QObject, redraw: Callable[[], None], ms: int, dirty: bool = False) -> None:
        super().__init__(parent)
        self.dirty = dirty
        self._redraw = redraw
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.timer.start(ms)

    def mark(self, *_: object) -> None:
        self.dirty = True

    def _tick(self) -> None:
        if self.dirty:
            self._redraw()


def read_only_table(columns: int, wide: int | None = None) -> QTableWidget:
    """A table the views fill and the referee only reads: no editing, no row numbers, and every
    column in sight (issue #29: no column behind a scrollbar). Columns share the width; with ``wide``
    the others take what their contents need and that one (plays, texts) the rest, wrapping."""
    table = QTableWidget(0, columns)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    header = table.horizontalHeader()
    header.setMinimumSectionSize(24)
    if wide is None:
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        return table
    for column in range(columns):
        mode = QHeaderView.ResizeMode.Stretch if column == wide else QHeaderView.ResizeMode.ResizeToContents
        header.setSectionResizeMode(column, mode)
    table.setWordWrap(True)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table
