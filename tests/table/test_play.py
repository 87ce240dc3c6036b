"""Scenario tests: turn order, tricks, 接风, end of a deal, upgrades (R-SEAT, R-PLAY, R-UP, R-LVL)."""

from tests.table.helpers import Table, east_west_sweep, eight


def test_r_seat_2_turn_order_and_first_lead_clock() -> None:
    table = Table()
    out = table.deal("E")
    assert out == [{"t": 1.0, "type": "countdown", "seat": "E", "action": "lead", "limit": 40.0, "deadline": 41.0}]
    table.play("E", "3s")
    state = table.state().deal
    assert state.to_act == "N" and state.counts["E"] == 26 and state.last.cards == ("3s",)
    assert table.outputs[-1] == {
        "t": 2.0,
        "type": "countdown",
        "seat": "N",
        "action": "follow",
        "limit": 20.0,
        "deadline": 22.0,
    }
    table.play("N", "5s")
    assert table.state().deal.to_act == "W"
    table.pass_("W")
    assert table.state().deal.to_act == "S"


def test_r_play_1_out_of_turn_play_is_void_and_flagged() -> None:
    table = Table()
    table.deal("E")
    before = table.state()
    out = table.play("S", "4s")
    assert table.flags(out) == [("S", "out_of_turn_play", "infraction")]
    assert out[0]["rule"] == "R-PLAY-1" and out[0]["cards"] == ["4s"]
    after = table.state()
    assert after.deal == before.deal  # taken back, order restored
    assert after.ladder["NS"]["infraction"] == 1


def test_r_play_1_out_of_turn_pass_and_leader_cannot_pass() -> None:
    table = Table()
    table.deal("E")
    assert table.flags(table.pass_("W")) == [("W", "out_of_turn_pass", "warning")]
    assert table.flags(table.pass_("E")) == [("E", "out_of_turn_pass", "warning")]
    assert table.state().deal.to_act == "E"


def test_r_pat_and_r_cmp_wrong_plays_are_taken_back_same_player_to_act() -> None:
    table = Table()
    table.deal("E")
    out = table.play("E", "3s 4d")
    assert table.flags(out) == [("E", "illegal_pattern", "infraction")]
    assert table.state().deal.to_act == "E" and table.state().deal.counts["E"] == 27
    table.play("E", "9s")
    out = table.play("N", "8d")
    assert table.flags(out) == [("N", "does_not_beat", "infraction")]
    assert table.state().deal.to_act == "N" and table.state().deal.last.cards == ("9s",)
    assert table.flags(table.play("N", "Td")) == []


def test_r_play_2_trick_ends_when_the_others_pass_and_winner_leads() -> None:
    table = Table()
    table.deal("E")
    table.play("E", "3s")
    table.play("N", "5s")
    table.pass_("W", "S", "E")
    state = table.state().deal
    assert state.last is None and state.to_act == "N"
    assert table.outputs[-1]["action"] == "lead" and table.outputs[-1]["limit"] == 20.0


def test_r_play_2_jiefeng_partner_leads_and_r_play_3_deal_ends_double_down() -> None:
    table = Table()
    table.deal("E")
    east_west_sweep(table, "E")
    ends = table.of_type("deal_end")
    assert ends == [
        {
            "t": table.t,
            "type": "deal_end",
            "deal": 1,
            "order": ["E", "W", None, None],
            "side_up": "EW",
            "levels_up": 3,
            "levels": {"EW": "5", "NS": "2"},
            "next_level": "5",
            "foul": False,
        }
    ]
    assert table.flags() == []
    # 接风: after E went out and all passed, W led
    leads = [o for o in table.outputs if o["type"] == "countdown" and o["action"] == "lead"]
    assert leads[-1]["seat"] == "W"


def test_r_up_1_partner_third_and_fourth() -> None:
    table = Table()
    table.deal("N")
    # N goes out first, then E, then S: NS 1st and 3rd -> +2
    for rank in "345":
        table.play("N", eight(rank))
        if rank == "5":
            table.report("N", 3)
        table.pass_("W", "S", "E")
    table.play("N", "6s 6s 6h")
    table.pass_("W", "S", "E")  # 接风: S leads
    assert table.state().deal.to_act == "S"
    table.play("S", "7s")
    table.play("E", eight("8"))
    table.pass_("W", "S")
    for rank in "9T":
        table.play("E", eight(rank))
        if rank == "T":
            table.report("E", 3)
        table.pass_("W", "S")
    table.play("E", "Js Js Jh")  # E out: 2nd
    table.pass_("W", "S")
    assert table.state().deal.to_act == "W"  # 接风: E's partner leads
    table.play("W", "6c")
    for rank in "QKA":
        table.play("S", eight(rank))
        if rank == "A":
            table.report("S", 2)
        table.pass_("W")
    table.play("S", "6d 6d")
    end = table.of_type("deal_end")[-1]
    assert end["order"] == ["N", "E", "S", "W"] and end["side_up"] == "NS" and end["levels_up"] == 2
    assert end["levels"] == {"EW": "2", "NS": "4"} and end["next_level"] == "4"


def test_r_lvl_2_next_deal_played_at_the_winners_level() -> None:
    table = Table()
    table.deal("E")
    east_west_sweep(table, "E")
    table.feed({"type": "deal"})
    assert table.state().deal.level == "5"
