"""The simulator's ground truth against the referee (issue 3): every injected violation flagged with
the right offence and seat, nothing else (precision and recall 1.0), and the same levels and deal
results; replaying the written log gives the same outputs again."""

import pytest

from referee_station.log.jsonl import write_jsonl
from referee_station.log.replay import load, replay
from referee_station.sim.match import simulate
from tests.sim.agreement import agree, referee_outputs


def test_clean_matches_raise_no_flag():
    total = agree(range(100, 103), deals=3, rate=0.0)
    assert total.problems == []
    assert total.injected == {}


def test_injected_violations_are_flagged_exactly():
    total = agree(range(20), deals=2, rate=0.02)
    assert total.problems == []
    assert sum(total.injected.values()) >= 40
    assert len(total.injected) >= 5


def test_fouls_end_the_deal_and_match_losses_the_match_where_the_referee_says():
    # R-PEN: two infractions make a foul (deal over, no tribute next deal), two fouls a match loss
    total = agree(range(40, 60), deals=4, rate=0.05)
    assert total.problems == []
    assert total.fouls >= 10
    assert total.match_losses >= 3


def test_tribute_and_return_violations():
    # only these forms, at every tribute and return: deal 1 has none, so matches of 3 deals
    total = agree(range(200, 210), deals=3, rate=1.0, offences=frozenset({"wrong_tribute", "wrong_return"}))
    assert total.problems == []
    assert total.injected["wrong_tribute"] >= 5
    assert total.injected["wrong_return"] >= 5


def test_replaying_the_written_log_gives_the_same_outputs(tmp_path):
    result = simulate(9, 2, 0.03)
    path = tmp_path / "match.jsonl"
    write_jsonl(path, result.events)
    first = [out.to_line() for _, out in replay(load(path).inputs, auto_confirm=True)]
    second = [out.to_line() for _, out in replay(load(path).inputs, auto_confirm=True)]
    direct = [out.to_line() for out in referee_outputs([e.to_line() for e in result.events])]
    assert first == second == direct
    assert any(line.startswith('{"t"') and '"flag"' in line for line in first)


@pytest.mark.slow
def test_a_thousand_deals():
    total = agree(range(1000, 1300), deals=4, rate=0.01)
    assert total.deals >= 1000
    assert total.problems == []
    print(total.deals, total.events, total.fouls, total.match_losses, dict(total.injected))
