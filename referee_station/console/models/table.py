"""One table as the console shows it: seats, the trick history of the deal, levels, results.

Built only from ``TableUpdate``s (the referee's outputs and ``snapshot()``), never from rules of
its own: the console holds no rules (DESIGN.md). A play or pass that a flag made void (R-PLAY-1,
R-PAT, R-CMP) stays in the history, marked void, because the referee needs to see it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee_station.console.models.signal import Signal
from referee_station.core import DealView, Health, LastPlay, TableState
from referee_station.hall.evidence import frame_jpeg
from referee_station.rules import Card
from referee_station.station.live.update import TABLE_SOURCES, TableUpdate
from referee_station.table.events import (
    Clear,
    DealEnd,
    DealStart,
    Exchange,
    Flag,
    MatchEnd,
    MatchStart,
    Pass,
    PlayCards,
    Record,
    Report,
    Withdrawn,
)
from referee_station.table.offences import VOIDING


@dataclass(frozen=True)
class HistoryEntry:
    """One action of the deal as the history table lists it."""

    t: float
    trick: int
    seat: str
    action: str  # play / pass / report / tribute / return
    cards: tuple[Card, ...] = ()
    count: int | None = None
    void: bool = False
    entered: bool = False
    """Typed at a console, not read by the camera or heard from a seat unit."""


class TableModel:
    """The state of one table for the table view and its hall tile.

    Signal: ``changed()`` after every update.
    """

    def __init__(self, table: str) -> None:
        self.table = table
        self.sides: dict[str, str] = {"EW": "EW", "NS": "NS"}
        self.snapshot = TableState.fresh()
        self.now = 0.0
        self.last_wall: float | None = None
        self.health = Health()
        self.online = True
        """Whether the table's station is connected (the head console: its hall ``status``)."""
        self.flags: dict[int, Flag] = {}
        self.trick_cards: dict[str, tuple[Card, ...] | None] = {}
        """This trick's last action per seat: cards, or ``None`` for a pass."""
        self.entered: set[str] = set()
        """Seats whose action in ``trick_cards`` was entered at a console (never drawn as a camera read)."""
        self.history: list[HistoryEntry] = []
        self.trick = 0
        self.results: list[DealEnd] = []
        self.match_end: MatchEnd | None = None
        self.frame: Any = None
        self.inputs: list[tuple[Record, str]] = []
        """Every input the table's referee was fed, in log order, with who made it: what a replay feeds."""
        self.frames: dict[int, bytes] = {}
        """The camera frame (JPEG, as the hall sends a flag's) stored for an input, by its place in ``inputs``."""
        self.changed = Signal()

    # -- reading the state ------------------------------------------------------------------

    @property
    def deal(self) -> DealView | None:
        return self.snapshot.deal

    @property
    def levels(self) -> Mapping[str, str]:
        return self.snapshot.levels

    @property
    def to_act(self) -> str | None:
        return None if self.deal is None else self.deal.to_act

    def clock(self) -> tuple[str, str, float] | None:
        """The running clock of the seat to act (or of the tribute payers): seat, action, seconds
        left on the table clock; negative while the 读秒 grace runs (R-TIME-3)."""
        clocks = {} if self.deal is None else self.deal.clocks
        seat = self.to_act if self.to_act in clocks else next(iter(clocks), None)
        if seat is None:
            return None
        now = self.paused_at if self.paused_at is not None else self.now  # a paused clock stands still
        return seat, clocks[seat].action, clocks[seat].deadline - now

    @property
    def paused_at(self) -> float | None:
        """Table time the referee paused the clocks at, while they are paused (``timer`` pause)."""
        return self.snapshot.paused_at

    def open_flags(self) -> list[Flag]:
        """Flags still waiting for a ruling (anomalies are not penalties and never wait)."""
        return [self.flags[i] for i in self.snapshot.open_flags if i in self.flags]

    def place(self, seat: str) -> int | None:
        """1 for 上游 … while the deal is played (R-PLAY-3); ``None`` while the seat holds cards."""
        order = () if self.deal is None else self.deal.order
        return order.index(seat) + 1 if seat in order else None

    # -- applying an update -----------------------------------------------------------------

    def apply(self, update: TableUpdate) -> None:
        before = None if self.deal is None else self.deal.last
        ev = update.event
        self.snapshot = update.snapshot
        self.now = max(self.now, ev.t)
        self.last_wall = update.produced
        self.health = update.health
        if update.frame is not None:
            self.frame = update.frame
        if isinstance(ev, MatchStart):  # a new match (a new station log at the head): its replay starts here
            self.inputs, self.frames = [], {}
        if update.frame is not None:
            self.frames[len(self.inputs)] = frame_jpeg(update.frame)
        self.inputs.append((ev, update.who))
        void = any(isinstance(o, Flag) and o.offence in VOIDING for o in update.outputs)
        for out in update.outputs:
            if isinstance(out, Flag):
                self.flags[out.id] = out
            elif isinstance(out, DealEnd):
                self.results.append(out)
            elif isinstance(out, MatchEnd):
                self.match_end = out
            elif isinstance(out, Withdrawn):  # a correction replayed the log (docs/corrections.md)
                self._withdraw(out)
        if isinstance(ev, MatchStart):
            self.sides = {side: ev.sides.get(side, side) for side in ("EW", "NS")}
        elif isinstance(ev, DealStart):
            self.history, self.trick, self.trick_cards = [], 0, {}
            self.entered = set()
        elif isinstance(ev, Clear):  # the trick's cards went to the discards
            self.trick_cards = {}
            self.entered = set()
        elif isinstance(ev, (PlayCards, Pass)):
            self._action(ev, before, void, update.who not in TABLE_SOURCES)
        elif isinstance(ev, (Report, Exchange)):
            entry = HistoryEntry(
                ev.t,
                self.trick,
                ev.seat,
                ev.TYPE,
                (ev.card,) if isinstance(ev, Exchange) else (),
                ev.count if isinstance(ev, Report) else None,
            )
            self.history.append(entry)
        self.changed.emit()

    def _withdraw(self, out: Withdrawn) -> None:
        if out.what == "flag" and out.flag is not None:
            self.flags.pop(out.flag, None)
        elif out.what == "deal_end":
            self.results = [r for r in self.results if r.to_json() != out.record]
        elif out.what == "match_end" and self.match_end is not None and self.match_end.to_json() == out.record:
            self.match_end = None

    def _action(self, ev: PlayCards | Pass, before: LastPlay | None, void: bool, entered: bool) -> None:
        if isinstance(ev, PlayCards) and not void and before is None:  # a lead opens a new trick
            self.trick += 1
            self.trick_cards = {}
            self.entered = set()
        cards = ev.cards if isinstance(ev, PlayCards) else None
        if not void:
            self.trick_cards[ev.seat] = cards
            (self.entered.add if entered else self.entered.discard)(ev.seat)
        self.history.append(HistoryEntry(ev.t, self.trick, ev.seat, ev.TYPE, cards or (), void=void, entered=entered))
