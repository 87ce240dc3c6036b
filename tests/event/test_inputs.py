"""Reading what organisers hand in: the pairs CSV, the 26-point table, the event rules; a bad
file is refused with its name and line."""

from __future__ import annotations

import re
from contextlib import nullcontext as does_not_raise

import pytest

from referee_station.event.pairs import Pair, PairsError, read_pairs, read_pairs_file
from referee_station.event.rules import EventConfigError, EventRules, FirstRound, System
from referee_station.event.scoring import DiffTable, Outcome, match_scores


def test_a_spreadsheet_s_gbk_file_reads_like_utf8(tmp_path):
    text = "编号,选手,单位\n1,张三/李四,工会一组\n2,王五/赵六,工会二组\n"
    (tmp_path / "gbk.csv").write_bytes(text.encode("gb18030"))
    (tmp_path / "utf8.csv").write_bytes(text.encode("utf-8-sig"))
    assert read_pairs_file(tmp_path / "gbk.csv") == read_pairs_file(tmp_path / "utf8.csv") == read_pairs(text)
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00\x81\x30")
    with pytest.raises(PairsError, match=r"binary\.csv"):
        read_pairs_file(tmp_path / "binary.csv")


def test_pairs_are_read_in_sign_in_order_with_chinese_headers():
    text = "\ufeff编号,选手,单位\n3,张三、李四,工会一组\n1,王五 / 赵六,工会二组\n\n"
    assert read_pairs(text) == [Pair(3, ("张三", "李四"), "工会一组"), Pair(1, ("王五", "赵六"), "工会二组")]


@pytest.mark.parametrize(
    ("text", "expectation", "message"),
    [
        ("number,names\n1,A/B\n2,C/D\n", does_not_raise(), ""),
        ("number,unit\n1,x\n", pytest.raises(PairsError), "pairs.csv:1: header"),
        ("number,names,unit\n1,A/B,u\nx,C/D,u\n", pytest.raises(PairsError), "pairs.csv:3: pair number 'x'"),
        ("number,names,unit\n1,A/B,u\n1,C/D,u\n", pytest.raises(PairsError), "pairs.csv:3: pair number 1 already"),
        ("number,names\n1,A/B\n2,Cindy\n", pytest.raises(PairsError), "pairs.csv:3: pair 2 needs two names"),
        ("number,names\n1,A/B,extra\n", pytest.raises(PairsError), "pairs.csv:2: 3 fields"),
        ("number,names\n1,A/B\n", pytest.raises(PairsError), "at least 2"),
        ("", pytest.raises(PairsError), "empty"),
    ],
)
def test_a_bad_pairs_file_names_the_line(text, expectation, message):
    with expectation as raised:
        read_pairs(text)
    if message:
        assert message in str(raised.value)


def test_the_default_26_point_table_and_a_replacement_from_csv():
    assert DiffTable().points(0) == (13, 13)
    assert DiffTable().points(5) == (18, 8)
    assert DiffTable().points(20) == (26, 0)
    rows = "".join(f"{d},{14 + d if d else 13},{12 - d if d else 13}\n" for d in range(14))
    official = "difference,winner,loser\n" + rows
    table = DiffTable.from_csv(official)
    assert table.points(3) == (17, 9)
    scores = match_scores("NS", {"EW": 1, "NS": 4}, table)
    assert scores["NS"].outcome == Outcome.WIN and (scores["NS"].small, scores["EW"].small) == (17, 9)
    assert (scores["NS"].gained, scores["NS"].conceded) == (4, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0,13,13\n", "no row for difference(s) 1"),
        ("0,13,13\n0,13,13\n", ":2: difference 0"),
        ("0,13\n", ":1: expected difference,winner,loser"),
        ("0,13,x\n", ":1: not a number"),
    ],
)
def test_a_bad_26_point_table_names_the_line(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        DiffTable.from_csv(text, "official.csv")


def test_event_rules_round_trip_and_refuse_unknown_settings():
    rules = EventRules.from_json({"system": "knockout", "first_round": "drawn", "late_forfeit_minutes": 10})
    assert (rules.system, rules.first_round, rules.late_forfeit_minutes) == (System.KNOCKOUT, FirstRound.DRAWN, 10.0)
    assert EventRules.from_json(rules.to_json()) == rules
    with pytest.raises(EventConfigError, match="unknown setting"):
        EventRules.from_json({"rounds_count": 4})
    with pytest.raises(EventConfigError, match="swiss"):
        EventRules.from_json({"system": "round robin"})
