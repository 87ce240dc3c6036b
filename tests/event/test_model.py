"""The event's journal: a result counts only once both sides signed it (seed 003 十三), the head
corrects with a reason (seed 004 11), forfeits and byes score 2 and 17 (seed 003 十一.3), and a
refused action leaves the stored journal as it was."""

from __future__ import annotations

import pytest

from referee_station.event.actions import (
    Forfeited,
    ResultConfirmed,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    RoundStarted,
    TimeCalled,
    action_from_json,
)
from referee_station.event.model import EventActionError, EventState
from referee_station.event.planner import next_pairing
from referee_station.event.rules import EventRules, System
from referee_station.event.scoring import Outcome, RoundScore
from referee_station.event.store import EventStore, EventStoreError
from tests.event.helpers import new_event, pair_round, play


def test_a_result_counts_only_after_both_sides_confirm():
    state = new_event(4)
    pair_round(state)
    state.apply(ResultReported(round=1, table=1, winner="EW", gained={"EW": 6, "NS": 1}))
    assert state.scores(1) == {}
    state.apply(ResultConfirmed(round=1, table=1, side="NS"))
    assert state.table(1, 1).status == "awaiting EW" and state.scores(1) == {}
    state.apply(ResultConfirmed(round=1, table=1, side="EW"))
    assert state.scores(1) == {
        1: RoundScore(Outcome.WIN, 2, 18, 6, 1),
        2: RoundScore(Outcome.LOSS, 0, 8, 1, 6),
    }
    with pytest.raises(EventActionError, match="already counts"):
        state.apply(ResultReported(round=1, table=1, winner="NS", gained={"EW": 0, "NS": 3}))


def test_a_new_report_before_both_signed_needs_fresh_signatures():
    state = new_event(4)
    pair_round(state)
    state.apply(ResultReported(round=1, table=2, winner="EW", gained={"EW": 3, "NS": 1}))
    state.apply(ResultConfirmed(round=1, table=2, side="EW"))
    state.apply(ResultReported(round=1, table=2, winner="draw", gained={"EW": 2, "NS": 2}))
    assert state.table(1, 2).status == "awaiting EW and NS"


def test_the_head_corrects_a_confirmed_result_with_a_reason_and_the_journal_keeps_both():
    state = new_event(4)
    pair_round(state)
    play(state, 1, 1, "EW", {"EW": 5, "NS": 2})
    with pytest.raises(EventActionError, match="reason"):
        state.apply(ResultCorrected(round=1, table=1, winner="NS", gained={"EW": 2, "NS": 5}, reason=" "))
    state.apply(ResultCorrected(by="chief", round=1, table=1, winner="NS", gained={"EW": 2, "NS": 5}, reason="sheet"))
    assert state.scores(1)[2].points == 2 and state.scores(1)[1].points == 0
    kinds = [a.KIND for a in state.journal]
    assert kinds.count("result_reported") == 1 and kinds[-1] == "result_corrected"


@pytest.mark.parametrize(
    ("winner", "gained", "message"),
    [("draw", {"EW": 3, "NS": 2}, "a draw needs equal"), ("EW", {"EW": 1, "NS": 2}, "fewer levels"),
     ("both", {"EW": 1, "NS": 1}, "winner must be"), ("EW", {"EW": -1, "NS": 0}, "whole numbers")],
)  # fmt: skip
def test_an_impossible_result_is_refused_with_the_rule(winner, gained, message):
    state = new_event(4)
    pair_round(state)
    with pytest.raises(EventActionError, match=message):
        state.apply(ResultReported(round=1, table=1, winner=winner, gained=gained))


def test_a_forfeit_and_a_bye_give_two_points_and_seventeen():
    state = new_event(5)
    pairing = pair_round(state)
    assert pairing.bye == 5
    state.apply(RoundStarted(at=100.0, round=1))
    state.apply(Forfeited(at=1000.0, round=1, pair=4, reason="late 15 minutes"))
    scores = state.scores(1)
    assert scores[5] == RoundScore(Outcome.BYE, 2, 17, 0, 0)
    assert scores[3] == RoundScore(Outcome.FORFEIT_WON, 2, 17, 0, 0)
    assert scores[4] == RoundScore(Outcome.FORFEITED, 0, 0, 0, 0)


def test_the_next_round_waits_for_every_table():
    state = new_event(6)
    pair_round(state)
    play(state, 1, 1, "EW", {"EW": 4, "NS": 0})
    with pytest.raises(EventActionError, match="round 1 is not complete: no counted result at table 2, table 3"):
        next_pairing(state)


def test_the_round_clock_is_started_and_called_once():
    state = new_event(4)
    pair_round(state)
    with pytest.raises(EventActionError, match="has not started"):
        state.apply(TimeCalled(at=5.0, round=1))
    state.apply(RoundStarted(at=10.0, round=1))
    state.apply(TimeCalled(at=3000.0, round=1))
    assert state.round(1).clock.call_time == 3000.0
    with pytest.raises(EventActionError, match="already called"):
        state.apply(TimeCalled(at=3100.0, round=1))


def test_the_stored_journal_replays_to_the_same_state_and_a_refused_action_stores_nothing(tmp_path):
    path = tmp_path / "event.db"
    state = new_event(6, seed=4)
    with EventStore(path, create=True) as store:
        for action in state.journal:
            store.record(action)
        store.record(RoundPaired(at=5.0, pairing=next_pairing(store.state)))
        store.record(ResultReported(round=1, table=1, winner="NS", gained={"EW": 0, "NS": 13}))
        before = len(store.actions())
        with pytest.raises(EventActionError):
            store.record(ResultConfirmed(round=1, table=9, side="EW"))
        assert len(store.actions()) == before
    with EventStore(path) as again:
        replayed = EventState.replay(again.actions())
        assert [a.to_json() for a in replayed.journal] == [a.to_json() for a in again.actions()]
        assert again.state.table(1, 1).reported.gained == {"EW": 0, "NS": 13}
        assert [action_from_json(a.to_json()) for a in again.actions()] == again.actions()


def test_a_file_that_is_not_an_event_is_refused_by_name(tmp_path):
    bogus = tmp_path / "pairs.csv"
    bogus.write_text("number,names\n1,A/B\n")
    with pytest.raises(EventStoreError, match=r"pairs\.csv"):
        EventStore(bogus)
    with pytest.raises(EventStoreError, match="no such event file"):
        EventStore(tmp_path / "missing.db")


def test_a_knockout_sends_the_winners_on_and_needs_a_winner_at_every_table():
    state = new_event(6, rules=EventRules(system=System.KNOCKOUT))
    pair_round(state)
    play(state, 1, 1, "NS", {"EW": 1, "NS": 5})  # 2 beats 1
    play(state, 1, 2, "EW", {"EW": 4, "NS": 0})  # 3 beats 4
    play(state, 1, 3, "draw", {"EW": 3, "NS": 3})
    with pytest.raises(EventActionError, match="table 3 is a draw: a knockout needs a winner"):
        next_pairing(state)
    state.apply(ResultCorrected(round=1, table=3, winner="NS", gained={"EW": 3, "NS": 3}, reason="decided by lot"))
    second = pair_round(state)
    assert [t.pairs for t in second.tables] == [(2, 3)] and second.bye == 6
    play(state, 2, 1, "EW", {"EW": 6, "NS": 2})
    final = pair_round(state)
    assert [t.pairs for t in final.tables] == [(2, 6)] and final.bye is None
    play(state, 3, 1, "NS", {"EW": 0, "NS": 2})
    with pytest.raises(EventActionError, match="the knockout is over: pair 6 won"):
        next_pairing(state)
