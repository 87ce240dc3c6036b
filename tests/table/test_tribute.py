"""Scenario tests for tribute and return (R-TRIB-1..4, R-TIME-1)."""

from tests.table.helpers import Table, east_west_go_out, east_west_sweep, hands_with


def after_ew_double_down() -> Table:
    table = Table()
    table.deal("E")
    east_west_sweep(table, "E")  # E 1st, W 2nd: NS pay both (R-TRIB-2), next level 5
    return table


def low_hands(fixed: dict[str, list[str]]) -> dict[str, list[str]]:
    """Hands where N and S hold no joker unless ``fixed`` gives them one."""
    jokers = ["SJ", "SJ", "BJ", "BJ"]
    for cards in fixed.values():
        for card in cards:
            if card in jokers:
                jokers.remove(card)
    fixed = {
        **fixed,
        "E": fixed.get("E", []) + jokers[: len(jokers) // 2 + len(jokers) % 2],
        "W": fixed.get("W", []) + jokers[len(jokers) // 2 + len(jokers) % 2 :],
    }
    return hands_with(5, fixed)


def test_r_trib_2_double_down_higher_to_upstream_and_r_time_1_clocks() -> None:
    table = after_ew_double_down()
    hands = low_hands({"N": ["BJ"], "S": ["SJ"]})
    out = table.feed({"type": "deal", "hands": hands})
    assert [(o["seat"], o["action"], o["limit"]) for o in out if o["type"] == "countdown"] == [
        ("S", "tribute", 20.0),
        ("N", "tribute", 20.0),
    ]
    assert table.state().deal.phase == "tribute" and table.state().deal.level == "5"
    table.feed({"type": "tribute", "seat": "S", "card": "SJ"})
    out = table.feed({"type": "tribute", "seat": "N", "card": "BJ"})
    assert [(o["seat"], o["action"], o["limit"]) for o in out] == [("E", "return", 40.0), ("W", "return", 40.0)]
    low_e = next(c for c in hands["E"] if c[0] in "234" and c != "5h")
    low_w = next(c for c in hands["W"] if c[0] in "234" and c != "5h")
    table.feed({"type": "return", "seat": "E", "card": low_e})
    out = table.feed({"type": "return", "seat": "W", "card": low_w})
    assert out[-1]["seat"] == "N" and out[-1]["action"] == "lead" and out[-1]["limit"] == 40.0  # paid the 上游
    assert table.flags() == []
    table.play("N", low_e)  # the returned card is in N's hand now
    assert table.flags() == []


def test_r_trib_2a_equal_tributes_go_clockwise() -> None:
    table = after_ew_double_down()
    table.feed({"type": "deal", "hands": low_hands({"N": ["SJ"], "S": ["SJ"]})})
    table.feed({"type": "tribute", "seat": "N", "card": "SJ"})
    out = table.feed({"type": "tribute", "seat": "S", "card": "SJ"})
    # clockwise: N pays E (the seat before N in play order), S pays W
    assert table.state().deal.tributes == {"N": "SJ", "S": "SJ"}
    assert {o["seat"] for o in out} == {"E", "W"}
    assert table.referee.deal.paid_to == {"N": "E", "S": "W"}


def test_r_trib_3_resisting_tribute_upstream_leads() -> None:
    table = after_ew_double_down()
    out = table.feed({"type": "deal", "hands": low_hands({"N": ["BJ"], "S": ["BJ"]})})
    assert [(o["seat"], o["action"]) for o in out] == [("E", "lead")]
    assert table.state().deal.resisted is True and table.state().deal.phase == "play"


def test_r_trib_4_wrong_tribute_before_play_is_a_warning_and_replaced() -> None:
    table = after_ew_double_down()
    hands = low_hands({"N": ["BJ", "4c"], "S": ["SJ"]})
    table.feed({"type": "deal", "hands": hands})
    out = table.feed({"type": "tribute", "seat": "N", "card": "4c"})
    assert table.flags(out) == [("N", "wrong_tribute", "warning")]
    assert "BJ" in out[0]["detail"]
    table.feed({"type": "tribute", "seat": "N", "card": "BJ"})  # replaces the wrong one
    table.feed({"type": "tribute", "seat": "S", "card": "SJ"})
    assert table.referee.deal.paid_to == {"N": "E", "S": "W"}
    high_e = next(c for c in hands["E"] if c[0] in "KA")
    out = table.feed({"type": "return", "seat": "E", "card": high_e})
    assert table.flags(out) == [("E", "wrong_return", "warning")]


def test_r_trib_4_wrong_tribute_found_at_the_end_is_a_foul() -> None:
    table = after_ew_double_down()
    table.feed({"type": "deal"})  # hands unknown: checked from the cards seen
    table.feed({"type": "tribute", "seat": "N", "card": "Ks"})
    table.feed({"type": "tribute", "seat": "S", "card": "3s"})
    table.feed({"type": "return", "seat": "E", "card": "2c"})
    table.feed({"type": "return", "seat": "W", "card": "2d"})
    assert table.state().deal.to_act == "N"  # N paid the 上游 E
    table.play("N", "As")  # N held an A: the K was not the highest card
    table.pass_("W", "S")
    east_west_go_out(table)
    flags = table.flags()
    assert flags == [("N", "wrong_tribute", "foul")]
    end = table.of_type("deal_end")[-1]
    assert end["foul"] is True and end["side_up"] == "EW" and end["levels"]["EW"] == "8"
    # no tribute after a foul: the next deal needs a named first leader from the non-violating side
    out = table.feed({"type": "deal", "first_leader": "W"})
    assert [(o["seat"], o["action"]) for o in out] == [("W", "lead")]
