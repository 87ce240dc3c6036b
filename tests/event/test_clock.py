"""The round clock (R-MATCH-1, seed 003 六/十一): when a new deal may start, and lateness."""

from __future__ import annotations

from referee_station.event.rules import EventRules, forfeits_by_lateness
from referee_station.hall.clock import RoundClock, may_start_deal


def test_no_new_deal_after_the_call_but_the_one_dealt_before_it_is_played():
    clock = RoundClock(start=1000.0, limit_s=3600.0, called=2500.0)
    assert may_start_deal(clock, 2499.9, 4)
    refused = may_start_deal(clock, 2500.0, 4)
    assert not refused and "R-MATCH-1" in refused.reason and "called" in refused.reason
    assert clock.remaining(2000.0) == 500.0 and clock.remaining(3000.0) == 0.0


def test_the_limit_calls_time_when_the_head_does_not_and_nine_deals_end_the_match():
    clock = RoundClock(start=0.0, limit_s=3600.0)
    assert may_start_deal(clock, 3599.0, 8)
    assert not may_start_deal(clock, 3600.0, 3)
    assert not may_start_deal(clock, 100.0, 9)
    assert not may_start_deal(clock, -1.0, 0), "not before the round starts"
    assert RoundClock(0.0, 3600.0, called=4000.0).call_time == 3600.0


def test_lateness_forfeits_at_the_configured_minutes():
    clock = RoundClock(start=0.0)
    seed_003, seed_000 = EventRules(), EventRules(late_forfeit_minutes=10)
    assert not forfeits_by_lateness(clock, 14 * 60 + 59, 20 * 60, seed_003)
    assert forfeits_by_lateness(clock, 15 * 60, 20 * 60, seed_003)
    assert forfeits_by_lateness(clock, 10 * 60, 20 * 60, seed_000)
    assert not forfeits_by_lateness(clock, None, 14 * 60, seed_003), "not seated yet, not yet late enough"
    assert forfeits_by_lateness(clock, None, 15 * 60, seed_003)
