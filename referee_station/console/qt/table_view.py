"""One table: the camera image (or the bare cloth) with the zones and the recognised cards, the
four seats, the trick history of the deal with times, the levels and the match score.

The view redraws at most every 200 ms while its table changes (a deal produces a few events a
second; redrawing on each would be wasted work on a busy hall).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_station.console.models.cards import card_text, level_text
from referee_station.console.models.cloth import HALF, ZONES, Point, label
from referee_station.console.models.i18n import tr
from referee_station.console.models.table import TableModel
from referee_station.console.qt.style import DeferredRedraw, frame_image, read_only_table
from referee_station.rules import Card
from referee_station.table.events import SEATS

REFRESH_MS = 200
SEAT_COLUMNS = ("seat", "cards_left", "last_play", "reported", "place")
HISTORY_COLUMNS = ("table_time", "trick", "seat", "what", "play")
ENTERED_MARK = "✎"
"""Drawn before an action typed at a console, so it is never taken for a camera read (issue #29)."""


UNNAMED = {"EW": "East-West", "NS": "North-South"}
"""What a match without team names calls its sides (the simulator's): the side's name, not a team's."""


def side_name(model: TableModel, side: str, lang: str) -> str:
    """The side's team name with the side in the console's language; the side alone when unnamed
    (issue #29: "East-West (东西)" in the Chinese header)."""
    name = model.sides.get(side, side)
    return tr(side, lang) if name in (side, UNNAMED[side]) else f"{name} ({tr(side, lang)})"


class ClothCanvas(QWidget):
    """The table from above: camera image when there is one, zones, and this trick's cards."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model: TableModel | None = None
        self.lang = "zh"
        self.evidence: Any = None
        """A flag's frame to show instead of the table's latest (the head console's selected alert)."""
        self.setMinimumSize(260, 260)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def _square(self) -> QRectF:
        side = min(self.width(), self.height()) - 8
        return QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side)

    def _to_px(self, square: QRectF, point: Point) -> QPointF:
        """Cloth cm (origin at the centre, +y North) to widget pixels (+y down)."""
        scale = square.width() / (2 * HALF)
        return QPointF(square.center().x() + point[0] * scale, square.center().y() - point[1] * scale)

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        square = self._square()
        frame = self.evidence if self.evidence is not None else self.model.frame if self.model is not None else None
        image = frame_image(frame)
        if image is not None:
            painter.drawImage(square, image)
        else:
            painter.fillRect(square, QColor("#1b3a2a"))
        painter.setPen(QPen(QColor("#9e9e9e"), 1, Qt.PenStyle.DashLine))
        painter.drawLine(square.bottomLeft(), square.topRight())  # the screen on the SW–NE diagonal
        model = self.model
        to_act = model.to_act if model else None
        for seat, areas in ZONES.items():
            for area, corners in areas.items():
                colour = QColor("#ffd54f") if seat == to_act and area == "play" else QColor("#80cbc4")
                painter.setPen(QPen(colour, 2 if area == "play" else 1))
                painter.drawPolygon(QPolygonF([self._to_px(square, p) for p in corners]))
            painter.setPen(QColor("white"))
            painter.drawText(self._to_px(square, label(seat)), tr(seat, self.lang))
            if model is not None and seat in model.trick_cards:
                self._draw_cards(painter, square, seat, model.trick_cards[seat], seat in model.entered)

    def _draw_cards(
        self, painter: QPainter, square: QRectF, seat: str, cards: tuple[Card, ...] | None, entered: bool
    ) -> None:
        """The seat's action of this trick in its play zone; an entry is marked and drawn in blue."""
        corners = ZONES[seat]["play"]
        centre = self._to_px(square, (sum(p[0] for p in corners) / 4, sum(p[1] for p in corners) / 4))
        text = tr("pass", self.lang) if cards is None else card_text(cards, self.lang)
        if entered:
            text = f"{ENTERED_MARK} {text}"
        font = QFont(painter.font())
        font.setBold(True)
        painter.setFont(font)
        box = painter.fontMetrics().boundingRect(text).adjusted(-4, -2, 4, 2)
        box.moveCenter(centre.toPoint())
        painter.fillRect(box, QColor("#e3f2fd") if entered else QColor("white"))
        painter.setPen(QColor("#0d47a1") if entered else QColor("#b71c1c") if cards else QColor("#424242"))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class TableView(QWidget):
    """The selected table; ``set_model`` switches tables."""

    def __init__(self, lang: str = "zh", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model: TableModel | None = None
        self.lang = lang
        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.canvas = ClothCanvas()
        self.seats = read_only_table(len(SEAT_COLUMNS), wide=SEAT_COLUMNS.index("last_play"))
        self.seats.setRowCount(len(SEATS))
        self.history = read_only_table(len(HISTORY_COLUMNS), wide=HISTORY_COLUMNS.index("play"))
        right = QVBoxLayout()
        right.addWidget(self.seats)
        right.addWidget(self.history, 1)
        body = QHBoxLayout()
        body.addWidget(self.canvas, 1)
        body.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addLayout(body, 1)
        self._shown: list = []
        self.deferred = DeferredRedraw(self, self.redraw, REFRESH_MS)
        self.retranslate(lang)

    def set_model(self, model: TableModel) -> None:
        if self.model is not None:
            self.model.changed.disconnect(self.deferred.mark)
        self.model = model
        self.canvas.model = model
        model.changed.connect(self.deferred.mark)
        self.redraw()

    def retranslate(self, lang: str) -> None:
        self.lang = self.canvas.lang = lang
        self.seats.setHorizontalHeaderLabels([tr(c, lang) for c in SEAT_COLUMNS])
        self.history.setHorizontalHeaderLabels([tr(c, lang) for c in HISTORY_COLUMNS])
        self.history.setRowCount(0)  # the rows already shown are written again in the new language
        self.redraw()

    def redraw(self) -> None:
        self.deferred.dirty = False
        model = self.model
        if model is None:
            return
        self.header.setText(self._header_html(model))
        self._fill_seats(model)
        self._fill_history(model)
        self.canvas.update()

    def _header_html(self, model: TableModel) -> str:
        lang = self.lang
        deal = model.deal
        score = {"EW": 0, "NS": 0}
        for result in model.results:
            if result.side_up:
                score[result.side_up] += 1
        clock = model.clock()
        running = ""
        if clock is not None:
            seat, action, left = clock
            running = f" · {tr('to_act', lang)} {tr(seat, lang)} {tr(action, lang)} {left:.0f} s"
        points = ""
        if model.match_end is not None:
            end = model.match_end
            winner = tr(end.winner, lang) if end.winner in ("EW", "NS") else end.winner
            points = (
                f" · <b>{tr('winner', lang)} {winner}</b> {tr('points', lang)} "
                f"{tr('EW', lang)} {end.points.get('EW')} {tr('NS', lang)} {end.points.get('NS')}"
            )
        return (
            f"<b>{model.table}</b> · {side_name(model, 'EW', lang)} {level_text(model.levels.get('EW'))} — "
            f"{side_name(model, 'NS', lang)} {level_text(model.levels.get('NS'))} · "
            f"{tr('deal', lang, n=0 if deal is None else deal.number)} {tr('level', lang)} "
            f"{level_text(None if deal is None else deal.level)} · "
            f"{tr('score', lang)} {score['EW']}:{score['NS']}{points}{running}"
        )

    def _fill_seats(self, model: TableModel) -> None:
        counts = {} if model.deal is None else model.deal.counts
        reports = {} if model.deal is None else model.deal.reports
        places = tr("places", self.lang).split(",")
        for row, seat in enumerate(SEATS):
            cards = model.trick_cards.get(seat, ())
            last = tr("pass", self.lang) if cards is None else card_text(cards, self.lang)
            if seat in model.entered:
                last = f"{ENTERED_MARK} {last}"
            place = model.place(seat)
            values = [
                tr(seat, self.lang) + (" ▶" if seat == model.to_act else ""),
                str(counts.get(seat, "")),
                last,
                "" if reports.get(seat) is None else str(reports[seat]),
                places[place - 1] if place else "",
            ]
            for col, value in enumerate(values):
                self.seats.setItem(row, col, QTableWidgetItem(value))

    def _fill_history(self, model: TableModel) -> None:
        if model.history is not self._shown:  # a new deal began, or another table was selected
            self._shown = model.history
            self.history.setRowCount(0)
        for row in range(self.history.rowCount(), len(model.history)):
            entry = model.history[row]
            what = tr(entry.action, self.lang) + (f" {entry.count}" if entry.count is not None else "")
            if entry.entered:
                what = f"{ENTERED_MARK} {what} ({tr('entered', self.lang)})"
            cards = card_text(entry.cards, self.lang)
            values = [f"{entry.t:.1f}", str(entry.trick), tr(entry.seat, self.lang), what, cards]
            self.history.insertRow(row)
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                if entry.void:
                    font = item.font()
                    font.setStrikeOut(True)
                    item.setFont(font)
                    item.setForeground(QColor("#c62828"))
                self.history.setItem(row, col, item)
        self.history.scrollToBottom()
