"""The referee's state as the console, the station and the hall read it: frozen, copied, no references
into the referee (``TableReferee.snapshot()``). Field names are those the snapshot always had."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from referee_station.core.clocks import Clock
from referee_station.core.phase import Phase
from referee_station.core.rulings import Penalty
from referee_station.core.seats import Seat, Side


@dataclass(frozen=True)
class LastPlay:
    """The play the next one must beat: its cards, its reading, and every reading it leaves open
    (``{"kind", "key"}``, weakest first: R-WILD-3)."""

    seat: Seat
    cards: tuple[str, ...]
    kind: str
    key: str | None
    readings: tuple[Mapping[str, str], ...]


@dataclass(frozen=True)
class ClockView:
    """A seat's running time limit (R-TIME)."""

    action: Clock
    deadline: float


@dataclass(frozen=True)
class DealView:
    """Where the deal in progress (or the last one) stands."""

    number: int
    level: str
    phase: Phase
    to_act: Seat | None
    last: LastPlay | None
    passes: int
    counts: Mapping[Seat, int]
    order: tuple[Seat, ...]
    reports: Mapping[Seat, int | None]
    stopped: tuple[Seat, ...]
    clocks: Mapping[Seat, ClockView]
    tributes: Mapping[Seat, str]
    returns: Mapping[Seat, str]
    resisted: bool | None


@dataclass(frozen=True)
class PendingRead:
    """A doubtful play judged under its close readings until settled (#30); ``flag``: its
    ``uncertain_read`` flag once raised; a reading ``()`` is "not read"."""

    flag: int | None
    t: float
    seat: Seat
    cards: tuple[str, ...]
    readings: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class TableState:
    """One table's referee state: levels, the ladder, the flags awaiting a ruling, the deal."""

    levels: Mapping[Side, str]
    next_level: str
    deals_played: int
    match_over: bool
    time_called: float | None
    paused_at: float | None
    ladder: Mapping[Side, Mapping[Penalty, int]]
    open_flags: tuple[int, ...]
    deal: DealView | None = None
    pending: tuple[PendingRead, ...] = ()
    """The doubtful plays pending (the correcting referee's; none for a plain one)."""

    @classmethod
    def fresh(cls) -> TableState:
        """A table before its first event: both sides on 2, nothing played (what a console shows first)."""
        return cls({Side.EW: "2", Side.NS: "2"}, "2", 0, False, None, None, {}, ())
