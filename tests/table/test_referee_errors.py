"""The referee's own errors against bad input (issue #26): input the rules refuse is a flag naming what
was wrong, and nothing recorded is lost; a bug in the referee raises in the tests (``strict``, set by
tests/conftest.py) and at the station is flagged and logged with its traceback."""

from __future__ import annotations

import logging

import pytest

from referee_station.rules import Card
from referee_station.table import tribute
from referee_station.table.events import DealStart, EventError, MatchStart, PlayCards
from referee_station.table.referee import TableReferee
from tests.table.helpers import Table, east_west_sweep, hands_with


def _dealt() -> TableReferee:
    referee = TableReferee(auto_confirm=True)
    referee.feed(MatchStart(0.0, {"EW": "EW", "NS": "NS"}))
    referee.feed(DealStart(1.0, "E"))
    return referee


def test_the_tests_run_the_referee_strict():
    assert TableReferee.strict


def test_r_card_1_a_bad_card_code_built_in_code_never_reaches_the_referee_and_the_turn_stays():
    referee = _dealt()
    with pytest.raises(EventError, match="play: field 'cards': unknown card code 'Zz'"):
        PlayCards(2.0, "E", ("Zz",))
    state = referee.snapshot()
    assert state.deal.to_act == "E" and state.deal.counts["E"] == 27  # nothing laid, nothing lost
    assert [o.TYPE for o in referee.feed(PlayCards(3.0, "E", ("3s",)))] == ["countdown"]


def _to_the_last_return(monkeypatch: pytest.MonkeyPatch) -> tuple[Table, str]:
    """EW win 1-2, NS both pay tribute and all but the last return are made, with the rule that names
    the first leader broken (as a bug would break it): returns the table and the seat still to return."""
    table = Table(auto_confirm=True)
    table.deal("E")
    east_west_sweep(table)
    table.deal()

    def broken(*args: object, **kwargs: object) -> str:
        raise KeyError("a bug in first_leader")

    monkeypatch.setattr(tribute, "first_leader", broken)
    for payer in table.referee.deal.plan.payers:
        table.feed({"type": "tribute", "seat": payer, "card": "BJ"})
    *first, last = table.referee.deal.paid_to.values()
    for recipient in first:
        table.feed({"type": "return", "seat": recipient, "card": "3s"})
    return table, last


def test_a_bug_in_the_referee_raises_when_strict(monkeypatch: pytest.MonkeyPatch):
    table, recipient = _to_the_last_return(monkeypatch)
    with pytest.raises(KeyError, match="a bug in first_leader"):
        table.feed({"type": "return", "seat": recipient, "card": "3s"})


def test_at_the_station_a_bug_is_flagged_and_logged_and_play_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    monkeypatch.setattr(TableReferee, "strict", False)
    table, recipient = _to_the_last_return(monkeypatch)
    with caplog.at_level(logging.ERROR, logger="referee_station.table.referee"):
        out = table.feed({"type": "return", "seat": recipient, "card": "3s"})
    assert [(o["offence"], o["seat"]) for o in out if o["type"] == "flag"] == [("strange_event", recipient)]
    assert "return could not be applied (a fault): 'a bug in first_leader'" in out[0]["detail"]
    assert "a bug in first_leader" in caplog.text and "Traceback" in caplog.text
    assert table.referee.deal.returns[recipient] is Card("3s")  # what was recorded before the fault stays


def test_r_trib_4_a_wrong_tribute_confirmed_into_a_foul_ends_the_deal_and_nothing_else():
    """Found by the phase table: the last tribute's own flag, auto-confirmed, climbs NS's ladder to a
    foul (R-PEN: warning + warning -> infraction, + infraction -> foul), which ends the deal at once;
    the tribute then moves the phase no further (before, a phase string was set on an ended deal)."""
    table = Table(auto_confirm=True)
    table.deal("E")
    assert table.flags(table.pass_("S") + table.play("N", "3s")) == [
        ("S", "out_of_turn_pass", "warning"),
        ("N", "out_of_turn_play", "infraction"),
    ]
    east_west_sweep(table)  # EW 1st and 2nd: N and S both pay tribute
    table.deal(hands=hands_with(7, {"N": ["BJ"], "E": ["BJ"], "S": ["SJ", "3s"]}))  # no 抗贡: one 大王 each side
    assert table.flags(table.feed({"type": "tribute", "seat": "N", "card": "BJ"})) == []
    out = table.feed({"type": "tribute", "seat": "S", "card": "3s"})  # S holds a 小王: wrong (R-TRIB-4)
    assert table.flags(out) == [("S", "wrong_tribute", "warning")]
    assert [(o["type"], o.get("penalty")) for o in out[1:]] == [
        ("penalty", "warning"),
        ("penalty", "infraction"),
        ("penalty", "foul"),
        ("deal_end", None),
    ]
    assert out[-1]["foul"] and out[-1]["side_up"] == "EW"
    assert table.state().deal.phase == "over" and table.state().deal.clocks == {}
