"""Corrections by replay (#30): a settled read, a reversed ruling, a tribute fixed late. The log is the
truth; what no longer holds is withdrawn visibly, and replaying the corrected log gives the same."""

from dataclasses import replace
from typing import Any

import pytest

from referee_station.log.jsonl import NumberedRecord
from referee_station.log.replay import replay
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.log.timeline import describe
from referee_station.sim.match import simulate
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import (
    EventError,
    Flag,
    Output,
    Penalty,
    PlayCards,
    Record,
    Settle,
    Withdrawn,
    parse_line,
)
from referee_station.table.referee import TableReferee
from tests.table.helpers import Table


def _plain(outputs: list[Output]) -> list[str]:
    """Outputs compared without flag numbers (a doubtful read's flag takes a number of its own)."""
    return [
        replace(o, id=0).to_line()
        if isinstance(o, Flag)
        else replace(o, flags=()).to_line()
        if isinstance(o, Penalty)
        else o.to_line()
        for o in outputs
    ]


def _misread_first_lead() -> tuple[list[Record], int, PlayCards]:
    """A seeded match with violations whose first trick is a single card lead followed by a single card;
    the lead misread at low confidence as the big joker, which the follow does not beat (R-CMP)."""
    for seed in range(40):
        events = simulate(seed, 2, 0.08).events
        plays = [(i, e) for i, e in enumerate(events) if isinstance(e, PlayCards)]
        (i, lead), (_, follow) = plays[0], plays[1]
        if len(lead.cards) == 1 == len(follow.cards) and "BJ" not in (*lead.cards, *follow.cards):
            misread = replace(lead, cards=("BJ",), confidence=0.2, alternatives=((("BJ", 0.5), (lead.cards[0], 0.4)),))
            return events, i, misread
    raise AssertionError("no seeded match opens with a single card and a single follow")


def test_a_misread_in_the_first_trick_gives_no_penalty_from_it_and_once_settled_the_correct_outputs() -> None:
    events, i, misread = _misread_first_lead()
    truth: list[Output] = []
    sure = TableReferee(auto_confirm=True)
    for event in events:
        truth += sure.feed(event)
    referee = CorrectingReferee(auto_confirm=True)
    sent: list[Output] = []
    for event in [*events[:i], misread, *events[i + 1 :]]:
        sent += referee.feed(event)
    penalties = [o for o in sent if isinstance(o, Flag) and o.penalty != "anomaly"]
    assert penalties, "the match has real violations, and they still go out"
    assert set(_plain(penalties)) <= set(_plain(truth)), "no penalty that depends on the misread"
    assert [o.offence for o in sent if isinstance(o, Flag) and o.offence == "uncertain_read"] == ["uncertain_read"]
    wrong = TableReferee(auto_confirm=True)  # what applying the guess would have done
    guessed = [o for e in [*events[:i], replace(misread, confidence=None), *events[i + 1 :]] for o in wrong.feed(e)]
    assert not set(_plain([o for o in guessed if isinstance(o, Flag)])) <= set(_plain(truth))

    fixed = referee.feed(Settle(events[-1].t + 1, misread.t, misread.seat, events[i].cards, "looked at the video"))
    assert [(o.what, o.record["offence"]) for o in fixed if isinstance(o, Withdrawn)] == [("flag", "uncertain_read")]
    assert _plain(referee.standing) == _plain(truth)
    assert referee.snapshot().pending == () and referee.snapshot().levels == sure.snapshot().levels


def test_settling_the_read_as_laid_sends_the_flags_it_held_back() -> None:
    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    t.play("E", "Kh", confidence=0.3, alternatives=[[["Kh", 0.5], ["3h", 0.4]]])
    t.play("N", "5h")
    assert t.flags() == [("E", "uncertain_read", "anomaly")]  # raised when the readings disagreed
    read = t.of_type("flag")[0]["id"]
    out = t.feed({"type": "settle", "at": 2.0, "seat": "E", "cards": ["Kh"], "reason": "the video shows Kh"})
    assert [o["type"] for o in out] == ["withdrawn", "flag"]
    assert out[0]["flag"] == read and "settled as Kh: the video shows Kh" in out[0]["reason"]
    assert (out[1]["seat"], out[1]["offence"]) == ("N", "does_not_beat")
    assert t.state().open_flags == (out[1]["id"],)


def _ruled_out_of_turn() -> Table:
    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    t.play("S", "4s")  # flag 1: out of turn (R-PLAY-1)
    return t


def test_r_pen_a_reversed_ruling_restores_the_ladder_and_is_audited() -> None:
    t = _ruled_out_of_turn()
    before = t.state().ladder
    out = t.feed({"type": "ruling", "flag": 1, "decision": "confirm"})
    assert [o["type"] for o in out] == ["penalty"] and t.state().ladder != before
    out = t.feed({"type": "reverse", "flag": 1, "reason": "S's turn after all: the video"})
    assert [(o["type"], o["what"], o["flag"]) for o in out] == [("withdrawn", "penalty", 1)]
    assert "reversed: S's turn after all" in out[0]["reason"]
    assert t.state().ladder == before
    out = t.feed({"type": "reverse", "flag": 1, "reason": "it was out of turn"})  # reversed back
    assert [o["type"] for o in out] == ["penalty"] and t.state().ladder != before


def test_r_pen_a_reversed_dismissal_puts_the_penalty_on_the_ladder() -> None:
    t = _ruled_out_of_turn()
    assert t.feed({"type": "ruling", "flag": 1, "decision": "dismiss"}) == []
    out = t.feed({"type": "reverse", "flag": 1, "reason": "the head referee saw it"})
    assert [(o["type"], o["side"], o["penalty"]) for o in out] == [("penalty", "NS", "infraction")]


def test_r_trib_4_a_wrong_tribute_entered_late_is_fixed_by_replay() -> None:
    from tests.table.helpers import east_west_sweep, hands_with

    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    east_west_sweep(t)
    hands = hands_with(3, {"N": ["BJ"], "S": ["SJ"]})
    t.deal(None, hands=hands)
    at = t.t + 1
    out = t.feed({"type": "tribute", "seat": "N", "card": hands["N"][1]})  # entered wrong on the picker
    assert ("N", "wrong_tribute", "warning") in t.flags(out)
    out = t.feed({"type": "settle", "at": at, "seat": "N", "cards": ["BJ"], "reason": "entered the wrong card"})
    assert [(o["type"], o["record"]["offence"]) for o in out if o["type"] == "withdrawn"] == [
        ("withdrawn", "wrong_tribute")
    ]
    assert t.state().deal.tributes["N"] == "BJ"


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ({"type": "settle", "at": 99.0, "seat": "E", "cards": ["3s"]}, "no play, tribute or return by E"),
        ({"type": "reverse", "flag": 1, "reason": "why not"}, "flag 1 has no ruling to reverse"),
    ],
)
def test_a_correction_that_names_nothing_is_a_strange_event_and_changes_nothing(
    line: dict[str, Any], words: str
) -> None:
    t = _ruled_out_of_turn()
    before = t.state()
    out = t.feed(line)
    assert [(o["offence"], words in o["detail"]) for o in out] == [("strange_event", True)]
    assert replace(t.state(), open_flags=()) == replace(before, open_flags=())
    # a later correction replays the log and keeps that strange event standing
    out = t.feed({"type": "ruling", "flag": 1, "decision": "confirm"})
    out = t.feed({"type": "reverse", "flag": 1, "reason": "not out of turn"})
    assert [o["what"] for o in out] == ["penalty"]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ('{"t":1,"type":"settle","seat":"E","cards":["3s"]}', "settle: missing field 'at'"),
        ('{"t":1,"type":"settle","at":0.5,"seat":"E","cards":[]}', "settle: field 'cards' is empty"),
        ('{"t":1,"type":"settle","at":0.5,"seat":"E","cards":["3x"]}', "settle: field 'cards'"),
        ('{"t":1,"type":"reverse","flag":2}', "a ruling is reversed for a stated reason"),
        ('{"t":1,"type":"reverse","flag":0,"reason":"x"}', "field 'flag' must be an integer"),
        ('{"t":1,"type":"withdrawn","what":"flag","reason":"r"}', "withdrawn: missing field 'record'"),
    ],
)
def test_bad_correction_lines_name_what_is_wrong(line: str, error: str) -> None:
    with pytest.raises(EventError, match=error):
        parse_line(line)


def test_corrections_round_trip_and_replay_gives_the_same_outputs_withdrawals_included(tmp_path) -> None:
    events, i, misread = _misread_first_lead()
    log = [*events[:i], misread, *events[i + 1 : i + 40]]
    log.append(Settle(log[-1].t + 1, misread.t, misread.seat, ("BJ",), ""))
    log.append(Settle(log[-1].t + 1, misread.t, misread.seat, events[i].cards, "second look"))
    lines = [e.to_line() for e in log]
    assert [parse_line(line).to_line() for line in lines] == lines
    live = CorrectingReferee()
    sent = [(n, o.to_line()) for n, e in enumerate(log, 1) for o in live.feed(e)]
    assert any('"type":"withdrawn"' in line for _, line in sent)
    again = [(n, o.to_line()) for n, o in replay(NumberedRecord(n, parse_line(x)) for n, x in enumerate(lines, 1))]
    assert again == sent
    for _, line in sent:
        assert parse_line(line).to_line() == line
    words = [describe(parse_line(line)) for _, line in sent if '"type":"withdrawn"' in line]
    assert words and all(w.startswith("撤回 withdrawn flag #") and "settled as" in w for w in words)
    with EventStore(tmp_path / "t.db") as store:
        station = TableStation(store, "T1")
        for event in log:
            station.submit(event)
    with EventStore(tmp_path / "t.db") as store:
        assert TableStation.open(store, "T1").referee.snapshot() == live.snapshot()
