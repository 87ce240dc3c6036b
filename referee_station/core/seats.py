"""Seats and sides (R-SEAT-1/2): the one definition the log, the referee, the reader and the console use.

Partners sit opposite (E-W, S-N); play goes counterclockwise seen from above, E -> N -> W -> S -> E,
so a seat's 下家 (next to act) is ``seat.next``. ``SEATS`` is the log's order (E S W N); the cloth
turns South's areas into the other seats' in its own order (``referee_station.vision.geometry.DRAW_ORDER``).
"""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    """A partnership: the log names it by its seats."""

    EW = "EW"
    NS = "NS"

    @property
    def other(self) -> Side:
        return Side.NS if self is Side.EW else Side.EW

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.E, Seat.W) if self is Side.EW else (Seat.S, Seat.N)


class Seat(StrEnum):
    """A seat at the table, by its compass letter."""

    E = "E"
    S = "S"
    W = "W"
    N = "N"

    @property
    def next(self) -> Seat:
        """下家: the seat that acts after this one (R-SEAT-2)."""
        return _NEXT[self]

    @property
    def prev(self) -> Seat:
        """上家: the seat that acted before this one."""
        return _PREV[self]

    @property
    def partner(self) -> Seat:
        return _PARTNER[self]

    @property
    def side(self) -> Side:
        return Side.EW if self in (Seat.E, Seat.W) else Side.NS


_NEXT = {Seat.E: Seat.N, Seat.N: Seat.W, Seat.W: Seat.S, Seat.S: Seat.E}
_PREV = {after: before for before, after in _NEXT.items()}
_PARTNER = {Seat.E: Seat.W, Seat.W: Seat.E, Seat.S: Seat.N, Seat.N: Seat.S}

SEATS: tuple[Seat, ...] = tuple(Seat)
"""E S W N: the order the log, the referee's state and the console list seats in."""
SIDES: tuple[Side, ...] = tuple(Side)
NEXT_SEAT: dict[Seat, Seat] = {seat: seat.next for seat in SEATS}
"""下家 of each seat: play order E -> N -> W -> S (R-SEAT-2)."""
PREV_SEAT: dict[Seat, Seat] = {seat: seat.prev for seat in SEATS}
PARTNER: dict[Seat, Seat] = {seat: seat.partner for seat in SEATS}
SIDE_OF: dict[Seat, Side] = {seat: seat.side for seat in SEATS}
OTHER_SIDE: dict[Side, Side] = {side: side.other for side in SIDES}
SIDE_SEATS: dict[Side, tuple[Seat, Seat]] = {side: side.seats for side in SIDES}
