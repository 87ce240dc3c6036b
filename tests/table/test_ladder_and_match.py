"""Scenario tests for rulings and the penalty ladder (R-PEN, section 9) and match results (R-UP-2, R-MATCH)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from referee_station.table.events import EventError, parse_record
from referee_station.table.referee import TableReferee
from tests.table.helpers import Table, east_west_sweep


def test_only_confirmed_flags_count_and_two_warnings_make_an_infraction() -> None:
    table = Table(auto_confirm=False)
    table.deal("E")
    first = table.pass_("W")[0]
    assert first["type"] == "flag" and table.state().open_flags == (1,)
    assert table.of_type("penalty") == []
    table.feed({"type": "ruling", "flag": 1, "decision": "confirm"})
    second = table.pass_("W")[0]
    table.feed({"type": "ruling", "flag": second["id"], "decision": "confirm"})
    assert [(p["penalty"], p["reason"], p["flags"]) for p in table.of_type("penalty")] == [
        ("warning", "confirmed", [1]),
        ("warning", "confirmed", [2]),
        ("infraction", "two warnings", [2]),
    ]
    assert table.state().ladder["EW"]["infraction"] == 1 and table.state().open_flags == ()


def test_dismissed_flags_do_not_count() -> None:
    table = Table(auto_confirm=False)
    table.deal("E")
    table.pass_("W")
    table.feed({"type": "ruling", "flag": 1, "decision": "dismiss"})
    assert table.of_type("penalty") == [] and table.state().ladder["EW"]["warning"] == 0


def test_stop_next_skips_the_violators_next_turn() -> None:
    table = Table(auto_confirm=False)
    table.deal("E")
    table.play("E", "3s")
    table.play("S", "4s")  # out of turn: infraction for S
    table.feed({"type": "ruling", "flag": 1, "decision": "confirm", "stop_next": True})  # E (下家 of S) stops S
    table.play("N", "5s")
    table.play("W", "6s")
    # S is stopped: the turn goes straight to E
    state = table.state().deal
    assert state.to_act == "E" and state.passes == 1 and state.stopped == ()


def test_two_infractions_make_a_foul_which_ends_the_deal_double_down() -> None:
    table = Table()
    table.deal("E")
    table.play("S", "4s")
    out = table.play("S", "5s")
    assert [(o["penalty"], o["reason"]) for o in out if o["type"] == "penalty"] == [
        ("infraction", "confirmed"),
        ("foul", "two infractions"),
    ]
    end = table.of_type("deal_end")[-1]
    assert end["foul"] and end["side_up"] == "EW" and end["levels_up"] == 3 and end["order"] == [None] * 4
    assert table.state().deal.phase == "over"


def test_two_fouls_are_a_match_loss_recorded_plus_four() -> None:
    table = Table()
    for _ in range(2):
        table.deal("E")
        table.play("S", "4s")
        table.play("S", "5s")
    end = table.of_type("match_end")[-1]
    assert end["winner"] == "EW" and end["points"] == {"EW": 2, "NS": 0}
    assert end["levels"] == {"EW": "6", "NS": "2"} and end["reason"] == "match loss (two fouls)"
    assert end["level_diff_points"] == {"EW": 17, "NS": 9}
    assert table.flags(table.deal("E")) == [(None, "strange_event", "anomaly")]


def test_r_pen_2_a_ruling_after_the_deal_is_late() -> None:
    table = Table(auto_confirm=False)
    table.deal("E")
    table.pass_("W")
    east_west_sweep(table, "E")
    out = table.feed({"type": "ruling", "flag": 1, "decision": "confirm"})
    assert table.flags(out) == [("W", "late_ruling", "anomaly")] and table.of_type("penalty") == []


def test_r_match_1_fixed_number_of_deals_and_r_match_2_points() -> None:
    table = Table(rules={"length_deals": 1})
    table.deal("E")
    east_west_sweep(table, "E")
    end = table.of_type("match_end")[-1]
    assert end["winner"] == "EW" and end["levels"] == {"EW": "5", "NS": "2"}
    assert end["points"] == {"EW": 2, "NS": 0} and end["level_diff_points"] == {"EW": 16, "NS": 10}
    assert end["levels_gained"] == {"EW": 3, "NS": 0} and end["levels_conceded"] == {"EW": 0, "NS": 3}


def test_r_up_2_no_jump_past_a() -> None:
    table = Table(levels={"EW": "Q", "NS": "2"}, level="Q")
    table.deal("E")
    east_west_sweep(table, "E")
    assert table.of_type("deal_end")[-1]["levels"] == {"EW": "A", "NS": "2"}
    assert table.of_type("match_end") == []


def test_r_up_2_passing_a_wins_the_game() -> None:
    table = Table(levels={"EW": "A", "NS": "K"}, level="A")
    table.deal("E")
    east_west_sweep(table, "E")
    end = table.of_type("match_end")[-1]
    assert end["winner"] == "EW" and end["reason"] == "passed A" and end["level_diff_points"]["EW"] == 15


def test_v3_variant_time_limits_from_the_match_line() -> None:
    table = Table(rules={"variants": ["V-3"]})
    table.deal("E")
    out = table.play("E", "3s")
    assert out[-1]["limit"] == 30.0


def test_anomalies_third_copy_and_overflow() -> None:
    table = Table()
    table.deal("E")
    table.play("E", "9s 9s")
    out = table.play("N", "Ts Ts")
    assert table.flags(out) == []
    table.pass_("W", "S", "E")
    out = table.play("N", "9s")
    assert table.flags(out) == [("N", "duplicate_card", "anomaly")]


def test_strange_events_are_flagged_never_raised() -> None:
    referee = TableReferee()
    out = referee.feed(parse_record({"t": 1, "type": "play", "seat": "E", "cards": ["3s"]}))
    assert [o.offence for o in out] == ["strange_event"]
    out = referee.feed(parse_record({"t": 2, "type": "ruling", "flag": 99, "decision": "confirm"}))
    assert [o.offence for o in out] == ["strange_event"]


EVENT = st.fixed_dictionaries(
    {"type": st.sampled_from(["deal", "play", "pass", "report", "tribute", "return", "tick", "ruling", "clear"])},
    optional={
        "seat": st.sampled_from("ESWN"),
        "cards": st.lists(st.sampled_from(["3s", "3s", "4d", "7h", "SJ", "BJ", "As", "2h"]), min_size=1, max_size=6),
        "card": st.sampled_from(["3s", "BJ", "Ah"]),
        "count": st.integers(0, 27),
        "flag": st.integers(1, 5),
        "decision": st.sampled_from(["confirm", "dismiss"]),
        "first_leader": st.sampled_from("ESWN"),
    },
)


@settings(max_examples=200, deadline=None)
@given(st.lists(EVENT, max_size=40), st.booleans())
def test_random_event_streams_never_crash_and_replay_identically(events, auto) -> None:
    records = []
    for i, obj in enumerate(events):
        try:
            records.append(parse_record({"t": float(i), **obj}))
        except EventError:
            continue
    first, second = TableReferee(auto_confirm=auto), TableReferee(auto_confirm=auto)
    out1 = [o.to_json() for r in records for o in first.feed(r)]
    out2 = [o.to_json() for r in records for o in second.feed(r)]
    assert out1 == out2
    assert not [o for o in out1 if o["type"] == "flag" and "could not be applied" in o["detail"]]
