"""The round on the station console: the hall's round clock (the time left before the head calls
time, R-MATCH-1) and, once the match is over, each side's signature of the result (the score sheet,
seed 003 十三). A signature goes into the table's log through the orchestrator (``sign``), and over
the hall into the event's journal; the result counts once both sides signed."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from referee_station.console.models.i18n import tr
from referee_station.hall.clock import clock_text
from referee_station.station.orchestrator import Station
from referee_station.station.round_gate import RoundGate
from referee_station.table.events import SIDES, Sign

REFRESH_MS = 500


class RoundPanel(QWidget):
    """The round's clock and the two sides' sign buttons of one station."""

    def __init__(self, station: Station, gate: RoundGate | None, lang: str = "zh") -> None:
        super().__init__()
        self.station, self.gate, self.lang = station, gate, lang
        self.clock = QLabel()
        self.clock.setStyleSheet("font-weight: bold")
        self.buttons = {side: QPushButton() for side in SIDES}
        self.signed: set[str] = set()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.clock)
        for side, button in self.buttons.items():
            button.clicked.connect(lambda _=False, side=side: self.sign(side))
            layout.addWidget(button)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.refresh)
        self.timer.start(REFRESH_MS)
        self.refresh()

    def sign(self, side: str) -> None:
        """The side signs the result: logged at the table's time by the orchestrator (``enter``)."""
        if side in self.signed or not self.station.referee.match_over:
            return
        self.station.enter(Sign(self.station.now, side), f"{side} captain")
        self.signed.add(side)
        self.refresh()

    def refresh(self) -> None:
        lang = self.lang
        call = None if self.gate is None else self.gate.call
        if call is None:
            self.clock.setText("")
        else:
            left = call.clock.remaining(self.gate.wall())
            when = tr("event_called", lang) if left <= 0 else tr("event_remaining", lang, clock=clock_text(left))
            self.clock.setText(f"{tr('event_round', lang, n=call.round)} {when}")
        over = self.station.referee.match_over
        for side, button in self.buttons.items():
            key = "event_signed" if side in self.signed else "event_sign"
            button.setText(tr(key, lang, side=tr(side, lang)))
            button.setEnabled(over and side not in self.signed)
