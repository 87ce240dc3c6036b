"""The round clock as data (R-MATCH-1, seed 003 六/十一): a station asks it whether a new deal
may start, and the event (``referee_station.event.rules.forfeits_by_lateness``) whether a pair is so
late that it forfeits. It lies with the hall, below the event, because the hall's bus carries it
(``hall.rounds``) to the stations.

Times are seconds on the event's clock (whatever the caller uses, the same for all); nothing here
reads the wall clock."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RoundClock:
    """One round's start, its limit and the head referee's call (if any yet)."""

    start: float
    limit_s: float = 3600.0
    """R-MATCH-1: 60 minutes."""
    called: float | None = None
    """When the head referee called time; before the limit if called early."""

    @property
    def call_time(self) -> float:
        """When time is (or will be) called: the head's call, else the start plus the limit."""
        return min(self.called, self.start + self.limit_s) if self.called is not None else self.start + self.limit_s

    def remaining(self, t: float) -> float:
        """Seconds until time is called (0 once called), for the station's display."""
        return max(0.0, self.call_time - t)


def clock_text(seconds: float) -> str:
    """Time left as the consoles show it, ``mm:ss`` rounded up (``00:00`` only once time is up)."""
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60:02d}:{whole % 60:02d}"


@dataclass(frozen=True)
class DealDecision:
    """The answer to "may a new deal start?", with the rule that decided it."""

    allowed: bool
    reason: str

    def __bool__(self) -> bool:
        return self.allowed


def may_start_deal(clock: RoundClock, t: float, deals_started: int, max_deals: int = 9) -> DealDecision:
    """R-MATCH-1: a new deal starts only before time is called and while fewer than ``max_deals``
    deals have started; a deal already dealt (摸牌) when time is called is finished (seed 003 十一.1)."""
    if t < clock.start:
        return DealDecision(False, f"R-MATCH-1: the round starts at {clock.start:g}, not yet at {t:g}")
    if deals_started >= max_deals:
        return DealDecision(False, f"R-MATCH-1: {deals_started} deals played, at most {max_deals}")
    if t >= clock.call_time:
        return DealDecision(False, f"R-MATCH-1: time was called at {clock.call_time:g}; no new deal starts")
    return DealDecision(True, f"R-MATCH-1: deal {deals_started + 1} of at most {max_deals}, time not called")
