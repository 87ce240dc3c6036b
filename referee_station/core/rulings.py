"""The penalty ladder's rungs and a referee's decisions on a flag (R-PEN), as the log writes them."""

from __future__ import annotations

from enum import StrEnum


class Penalty(StrEnum):
    """What a flag proposes. The ladder climbs warning -> infraction -> foul -> match loss, two of a
    rung making the next; ``anomaly`` is not on it: a note for the referee that no ruling counts."""

    WARNING = "warning"
    INFRACTION = "infraction"
    FOUL = "foul"
    MATCH_LOSS = "match_loss"
    DISQUALIFICATION = "disqualification"
    ANOMALY = "anomaly"


LADDER: tuple[Penalty, ...] = (
    Penalty.WARNING,
    Penalty.INFRACTION,
    Penalty.FOUL,
    Penalty.MATCH_LOSS,
    Penalty.DISQUALIFICATION,
)
"""The rungs a confirmed flag can put a side on, lowest first (an anomaly is none)."""


class Decision(StrEnum):
    """A referee's ruling on a flag (EVENTS.md ``ruling``)."""

    CONFIRM = "confirm"
    DISMISS = "dismiss"

    @property
    def other(self) -> Decision:
        """What a ``reverse`` turns this ruling into."""
        return Decision.DISMISS if self is Decision.CONFIRM else Decision.CONFIRM


DECISIONS: tuple[Decision, ...] = tuple(Decision)
