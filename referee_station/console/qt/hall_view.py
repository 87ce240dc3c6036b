"""The hall grid: a tile per table, most severe first, filterable; a click selects the table.

Tiles are redrawn by a timer (4 Hz) rather than on every event, so the GUI thread's work does
not grow with the event rate of the hall; the running countdowns and event ages need the timer
anyway. A tile of a table that just changed state is redrawn at the next tick, and tables that
join are laid out once per turn of the event loop, not once each. The grid scrolls, so only the
tiles in sight are painted: a hall of 200 tables painted whole took the head's GUI thread for
hundreds of milliseconds a tick, and flags waited behind it.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from referee_station.console.models.cards import level_text
from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.hall import STATES, Tile
from referee_station.console.models.i18n import tr
from referee_station.console.qt.style import STATE_COLOURS
from referee_station.core import Unit

COLUMNS = 4
REFRESH_MS = 250


def tile_html(tile: Tile, lang: str) -> str:
    """A tile's text: table and state, seat to act with its clock, levels, deal, units, age."""
    clock = ""
    if tile.to_act:
        left = ""
        if tile.remaining is not None:  # negative, signed, in the 读秒 grace (R-TIME-3)
            left = f" {tile.remaining:+.0f} s" if tile.remaining < 0 else f" {tile.remaining:.0f} s"
        clock = f"{tr('to_act', lang)} {tr(tile.to_act, lang)} {tr(tile.action or '', lang)}{left}"
    units = " ".join(("✔" if tile.health.ok(unit) else "✘") + tr(unit, lang) for unit in Unit)
    age = "—" if tile.age is None else f"{tile.age:.0f} s"
    levels = (
        f"{tr('EW', lang)} {level_text(tile.levels.get('EW'))} · {tr('NS', lang)} {level_text(tile.levels.get('NS'))}"
    )
    state = tr(tile.state, lang)
    if tile.winner is not None and tile.state == "normal":  # a finished match says how it ended
        winner = tr(tile.winner, lang) if tile.winner in ("EW", "NS") else tr("draw", lang)
        state, clock = tr("match_over", lang), tr("match_won", lang, side=winner)
    if tile.paused:
        state += f" · {tr('paused', lang)}"
    return (
        f"<b>{tile.table}</b> — <b>{state}</b><br>{clock}<br>{levels} · "
        f"{tr('deal', lang, n=tile.deal)}<br><small>{units} · {tr('age', lang)} {age}</small>"
    )


class TileLabel(QLabel):
    """One table's tile; emits ``clicked(table)``."""

    clicked = Signal(str)

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table = table
        self.state = ""
        self.lang = ""
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)  # a narrow screen wraps the tile's lines rather than widening the window
        self.setMinimumSize(150, 80)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def show_tile(self, tile: Tile, lang: str) -> None:
        if tile.state != self.state:
            self.state = tile.state
            self.setStyleSheet(f"background:{STATE_COLOURS[tile.state]};color:white;border-radius:6px;padding:4px;")
        self.lang = lang
        html = tile_html(tile, lang)
        if html != self.text():  # a rich-text relayout per tile per tick is most of a big hall's GUI work
            self.setText(html)

    def mousePressEvent(self, event) -> None:
        self.clicked.emit(self.table)
        super().mousePressEvent(event)


class HallView(QWidget):
    """The grid of tiles over a filter row (state, table name)."""

    table_selected = Signal(str)

    def __init__(self, model: ConsoleModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.tiles: dict[str, TileLabel] = {}
        self.order: list[str] = []
        self.state_filter = QComboBox()
        self.text_filter = QLineEdit()
        self.filter_label = QLabel()
        self.grid = QGridLayout()
        row = QHBoxLayout()
        row.addWidget(self.filter_label)
        row.addWidget(self.state_filter)
        row.addWidget(self.text_filter)
        tiles = QWidget()
        column = QVBoxLayout(tiles)
        column.addLayout(self.grid)
        column.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(tiles)
        self.scroll.verticalScrollBar().valueChanged.connect(lambda _: self.refresh())
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.scroll, 1)
        self._joined = QTimer(self)
        self._joined.setSingleShot(True)
        self._joined.timeout.connect(self.refresh)
        self.retranslate(model.lang)
        self.state_filter.currentIndexChanged.connect(self.refresh)
        self.text_filter.textChanged.connect(self.refresh)
        model.hall.table_added.connect(lambda name: self._joined.start(0))
        model.language_changed.connect(self.retranslate)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(REFRESH_MS)

    def retranslate(self, lang: str) -> None:
        index = max(0, self.state_filter.currentIndex())
        self.state_filter.blockSignals(True)
        self.state_filter.clear()
        self.state_filter.addItem(tr("all", lang), None)
        for state in reversed(STATES):
            self.state_filter.addItem(tr(state, lang), state)
        self.state_filter.setCurrentIndex(index)
        self.state_filter.blockSignals(False)
        self.filter_label.setText(tr("filter", lang))
        self.text_filter.setPlaceholderText(tr("table", lang))
        self.refresh()

    def visible_tiles(self) -> list[Tile]:
        state = self.state_filter.currentData()
        states = frozenset({state}) if state else None
        return self.model.hall.tiles(time.monotonic(), states, self.text_filter.text())

    def refresh(self) -> None:
        """Redraw the tiles in sight, and any tile whose state, place or language changed; the others
        keep their text until they scroll into sight (a hall's ages and clocks change every second
        for every table, a screen shows a few dozen)."""
        tiles = self.visible_tiles()
        order = [t.table for t in tiles]
        before = {name: i for i, name in enumerate(self.order)}
        lang = self.model.lang
        for i, tile in enumerate(tiles):
            label = self.tiles.get(tile.table)
            if label is None:
                label = self.tiles[tile.table] = TileLabel(tile.table)
                label.clicked.connect(self.table_selected)
            changed = label.state != tile.state or label.lang != lang or before.get(tile.table) != i
            if changed or not label.visibleRegion().isEmpty():
                label.show_tile(tile, lang)
        if order != self.order:  # re-lay the grid only when the severity order changed, moving only what moved
            self.order = order
            shown = set(order)
            for name, label in self.tiles.items():
                if name not in shown and name in before:
                    self.grid.removeWidget(label)
                    label.hide()
            for i, name in enumerate(order):
                label = self.tiles[name]
                if before.get(name) != i:
                    self.grid.removeWidget(label)
                    self.grid.addWidget(label, i // COLUMNS, i % COLUMNS)
                    label.show()
