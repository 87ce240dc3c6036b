"""Scenario tests for time limits (R-TIME-1..3) and 报牌 (R-REPORT-1, R-REPORT-2)."""

from tests.table.helpers import Table, eight


def test_r_time_2_3_within_limit_grace_then_overtime() -> None:
    table = Table()
    table.deal("E")  # t=1, first lead within 40 s
    out = table.feed({"type": "play", "seat": "E", "cards": ["3s"]}, advance=40.0)  # t=41: exactly on time
    assert [o["type"] for o in out] == ["countdown"]
    out = table.feed({"type": "tick"}, advance=21.0)  # t=62 > 61: grace
    assert out == [{"t": 62.0, "type": "countdown", "seat": "N", "action": "grace", "limit": 10.0, "deadline": 71.0}]
    out = table.feed({"type": "tick"}, advance=5.0)  # within the grace: nothing more
    assert out == []
    out = table.feed({"type": "pass", "seat": "N"}, advance=5.0)  # t=72 > 71: overtime, then the pass
    assert table.flags(out) == [("N", "overtime", "warning")] and out[0]["rule"] == "R-TIME-3"
    assert table.state().deal.to_act == "W"


def test_r_time_action_inside_the_grace_is_no_violation() -> None:
    table = Table()
    table.deal("E")
    table.play("E", "3s")
    out = table.feed({"type": "pass", "seat": "N"}, advance=25.0)
    assert [o["action"] for o in out if o["type"] == "countdown"] == ["grace", "follow"]
    assert table.flags() == []


def report_due(table: Table) -> None:
    """E plays three 8-card bombs: 3 cards left, a report is due (R-REPORT-1)."""
    table.deal("E")
    for i, rank in enumerate("345"):
        table.play("E", eight(rank))
        if i < 2:
            table.pass_("N", "W", "S")


def test_r_report_1_correct_report() -> None:
    table = Table()
    report_due(table)
    assert table.flags(table.report("E", 3)) == []
    assert table.state().deal.reports["E"] == 3
    table.pass_("N", "W", "S")
    assert table.flags() == []


def test_r_report_2_wrong_report_is_a_warning() -> None:
    table = Table()
    report_due(table)
    assert table.flags(table.report("E", 4)) == [("E", "wrong_report", "warning")]


def test_r_report_1_repeated_report_is_a_warning() -> None:
    table = Table()
    report_due(table)
    table.report("E", 3)
    assert table.flags(table.report("E", 3)) == [("E", "repeated_report", "warning")]


def test_r_report_2_late_after_one_action_is_a_warning() -> None:
    table = Table()
    report_due(table)
    assert table.flags(table.pass_("N")) == []
    assert table.flags(table.report("E", 3)) == [("E", "missed_report", "warning")]


def test_r_report_2_no_report_by_the_second_action_is_an_infraction() -> None:
    table = Table()
    report_due(table)
    table.pass_("N")
    out = table.pass_("W")
    assert table.flags(out) == [("E", "missed_report", "infraction")]
    assert table.flags(table.report("E", 3)) == []  # a report after the flag is taken as it is


def test_r_report_2_going_out_before_the_flag_is_taken_back() -> None:
    table = Table()
    table.deal("W")
    for i, rank in enumerate("345"):  # W: three bombs and a triple, out 上游
        table.play("W", eight(rank))
        if i == 2:
            table.report("W", 3)
        table.pass_("S", "E", "N")
    table.play("W", "6s 6s 6h")
    table.pass_("S", "E", "N")
    table.play("E", "7c")  # 接风: E leads
    table.pass_("N")
    for i, rank in enumerate("89T"):  # S: out 二游
        table.play("S", eight(rank))
        if i == 2:
            table.report("S", 3)
        table.pass_("E", "N")
    table.play("S", "Js Js Jh")
    table.pass_("E", "N")
    table.play("N", "6c")  # 接风: N leads; only E and N still hold cards
    table.play("E", eight("Q"))
    table.pass_("N")
    table.play("E", eight("K"))  # 10 left: a report is due, none comes
    table.pass_("N")  # one further action
    out = table.play("E", eight("A") + " 2h 2h")  # a 10-card bomb: E would go out, unreported
    assert table.flags(out) == [("E", "missed_report", "infraction")]
    state = table.state().deal
    assert state.counts["E"] == 10 and state.to_act == "E" and state.order == ("W", "S")


def test_a_missed_report_escalating_to_a_foul_ends_the_deal_before_the_action() -> None:
    table = Table()
    table.deal("E")
    table.play("S", "4s")  # out of turn: infraction for NS
    table.play("E", "3s")
    table.play("N", eight("5"))  # N holds 19, no report due
    table.pass_("W", "S", "E")
    table.play("N", eight("6"))  # 11 left
    table.pass_("W", "S", "E")
    table.play("N", "7s")  # 10 left: a report is due, none comes
    table.pass_("W")
    out = table.pass_("S")  # the second action: missed report, the 2nd infraction -> foul
    assert [o["type"] for o in out] == ["flag", "penalty", "penalty", "deal_end"]
    assert table.state().deal.phase == "over" and table.state().deal.to_act is None
