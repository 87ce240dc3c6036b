"""The simulator on its own: seeded bytes, a well-formed log, legal bots, sane bookkeeping."""

import itertools
import json
from collections import Counter

import pytest

from referee_station.cli import main
from referee_station.rules import Card, parse_cards
from referee_station.sim.bookkeeping import TributeDue, resisted, returnable, score, tribute_card, tribute_due
from referee_station.sim.match import simulate
from referee_station.sim.violations import LadderModel
from referee_station.table.events import SEATS, DealStart, MatchStart, Tick, parse_line
from tests.sim.logcheck import check_clean_log


def lines(seed: int, deals: int, rate: float) -> list[str]:
    return [record.to_line() for record in simulate(seed, deals, rate).events]


def test_same_seed_same_bytes_other_seed_other_bytes():
    assert lines(7, 2, 0.05) == lines(7, 2, 0.05)
    assert lines(7, 2, 0.05) != lines(8, 2, 0.05)


def test_log_parses_and_round_trips():
    result = simulate(3, 3, 0.02)
    text = [record.to_line() for record in result.events]
    assert [parse_line(line).to_line() for line in text] == text
    assert isinstance(result.events[0], MatchStart)
    assert sum(isinstance(e, DealStart) for e in result.events) == result.deals


def test_clean_bots_play_legally_and_beat_the_trick():
    result = simulate(11, 4, 0.0)
    assert result.truth == []
    assert check_clean_log(result.events, result.deal_levels) > 100


def test_time_never_goes_back_and_ticks_fill_every_second():
    events = simulate(5, 2, 0.05).events
    times = [e.t for e in events]
    assert times == sorted(times)
    assert max(b - a for a, b in itertools.pairwise(times)) <= 1.0 + 1e-9
    assert any(isinstance(e, Tick) for e in events)


def test_deal_level_follows_the_upstream_side():
    result = simulate(2, 6, 0.0)
    assert result.deal_levels[0] == "2"
    assert set(result.deal_levels) <= set("23456789TJQKA")


@pytest.mark.parametrize(
    ("order", "levels", "deal_level", "side_up", "new", "passed"),
    [
        (["E", "W", "N", "S"], {"EW": 0, "NS": 0}, "2", "EW", {"EW": 3, "NS": 0}, False),  # R-UP-1 +3
        (["N", "E", "S", "W"], {"EW": 0, "NS": 4}, "6", "NS", {"EW": 0, "NS": 6}, False),  # +2
        (["N", "E", "W", "S"], {"EW": 0, "NS": 4}, "6", "NS", {"EW": 0, "NS": 5}, False),  # +1
        (["E", "W", "N", "S"], {"EW": 10, "NS": 0}, "Q", "EW", {"EW": 12, "NS": 0}, False),  # R-UP-2 stops at A
        (["E", "W", "N", "S"], {"EW": 12, "NS": 0}, "A", "EW", {"EW": 12, "NS": 0}, True),  # passes A
        (["E", "N", "S", "W"], {"EW": 12, "NS": 0}, "A", "EW", {"EW": 12, "NS": 0}, False),  # partner 4th: stays
        (["E", "W", "N", "S"], {"EW": 12, "NS": 3}, "5", "EW", {"EW": 12, "NS": 3}, False),  # not a deal at A
    ],
)
def test_levels(order, levels, deal_level, side_up, new, passed):
    result = score(order, levels, deal_level)
    assert (result.side_up, result.levels, result.passed_ace) == (side_up, new, passed)


def test_tribute_bookkeeping():
    assert tribute_due(["E", "N", "W", "S"]) == TributeDue("E", ("S",), False)  # R-TRIB-1 single down
    assert tribute_due(["E", "W", "N", "S"]) == TributeDue("E", ("S", "N"), True)  # R-TRIB-2 double down
    hand = parse_cards("7h 7h As 3c 5d")
    assert tribute_card(hand, "7") == Card("As")  # never a ♥ level card
    assert returnable(parse_cards("7s Qd Th 3c"), "7") == parse_cards("Th 3c")  # level 7 is not <= 10
    assert returnable(parse_cards("Js Qd 7s"), "7") == [Card("Js")]  # all above 10: the lowest
    hands = {seat: [] for seat in SEATS} | {"S": parse_cards("BJ 3s"), "N": parse_cards("BJ 4s")}
    assert resisted(TributeDue("E", ("S", "N"), True), hands)  # R-TRIB-3 both big jokers


def test_simulate_command_writes_log_and_truth(tmp_path, capsys):
    log, truth = tmp_path / "match.jsonl", tmp_path / "truth.jsonl"
    code = main(
        ["simulate", "--seed", "7", "--deals", "2", "--violations", "0.05", "-o", str(log), "--truth", str(truth)]
    )
    assert code == 0
    records = [parse_line(line) for line in log.read_text(encoding="utf-8").splitlines()]
    injected = [json.loads(line) for line in truth.read_text(encoding="utf-8").splitlines()]
    assert records[0].TYPE == "match"
    assert injected and all(set(item) == {"t", "seat", "offence"} for item in injected)
    assert "violations" in capsys.readouterr().err
    assert Counter(r.TYPE for r in records)["deal"] == 2


def test_ladder_model_escalates_like_r_pen():
    ladder = LadderModel()
    assert [ladder.add("EW", "warning") for _ in range(4)] == ["warning", "infraction", "warning", "foul"]
    assert ladder.reaches("EW", "infraction") == "infraction"
    assert ladder.add("EW", "infraction") == "infraction"
    assert ladder.reaches("EW", "infraction") == "match_loss"
    assert ladder.reaches("NS", "warning") == "warning"
