"""What a seat's clock times (EVENTS.md ``countdown.action``; R-TIME-1..3): one list for the referee,
the snapshot, the timer's wire protocol (``devices.messages`` gives each its code) and the console."""

from __future__ import annotations

from enum import StrEnum


class Clock(StrEnum):
    """The action a countdown waits for; a ``StrEnum`` holding the log's value."""

    TRIBUTE = "tribute"
    RETURN = "return"
    LEAD = "lead"
    FOLLOW = "follow"
    GRACE = "grace"
    """The grace period after a limit ran out (R-TIME-2)."""
