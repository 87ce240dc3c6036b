"""The contract core: the words every layer of the station shares (EVENTS.md, RULES.md).

Seats and sides, what a clock times, the table's units and their health, the referee's deal phases and
their transitions, the penalty ladder's rungs and a referee's decisions, and the frozen view of a table's
state that ``TableReferee.snapshot()`` hands to the console, the station and the hall. Enums are
``StrEnum`` holding the values the JSON log already uses, so every existing log reads and replays
unchanged. This package imports nothing of the project: it is the bottom layer every other one may import.
"""

from referee_station.core.clocks import Clock
from referee_station.core.health import Health, Unit
from referee_station.core.phase import TRANSITIONS, Phase, PhaseError, Step, advance
from referee_station.core.rulings import DECISIONS, LADDER, Decision, Penalty
from referee_station.core.seats import (
    NEXT_SEAT,
    OTHER_SIDE,
    PARTNER,
    PREV_SEAT,
    SEATS,
    SIDE_OF,
    SIDE_SEATS,
    SIDES,
    Seat,
    Side,
)
from referee_station.core.state import ClockView, DealView, LastPlay, PendingRead, TableState

__all__ = [
    "DECISIONS",
    "LADDER",
    "NEXT_SEAT",
    "OTHER_SIDE",
    "PARTNER",
    "PREV_SEAT",
    "SEATS",
    "SIDES",
    "SIDE_OF",
    "SIDE_SEATS",
    "TRANSITIONS",
    "Clock",
    "ClockView",
    "DealView",
    "Decision",
    "Health",
    "LastPlay",
    "Penalty",
    "PendingRead",
    "Phase",
    "PhaseError",
    "Seat",
    "Side",
    "Step",
    "TableState",
    "Unit",
    "advance",
]
