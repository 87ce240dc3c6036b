"""Table-driven cases for R-CMP-1..4 and the R-WILD-3 choice of interpretation."""

import pytest

from referee_station.rules import DoesNotBeatError, IllegalPatternError, Kind, beats, choose, classify


def play(cards: str, level: str, kind: str | None = None):
    plays = classify(cards, level)
    if kind:
        plays = [p for p in plays if p.kind == kind]
    return plays[-1]


CASES = [
    # rule, level, play, prev, beats?
    ("R-CMP-1 higher single", "7", "9s", "8d", True),
    ("R-CMP-1 equal single does not beat", "7", "9s", "9d", False),
    ("R-LVL-3 level card beats A", "7", "7c", "Ad", True),
    ("R-LVL-3 small joker beats level card", "7", "SJ", "7c", True),
    ("R-LVL-3 big joker beats small joker", "7", "BJ", "SJ", True),
    ("R-LVL-3 level 2 beats A", "2", "2s", "As", True),
    ("R-LVL-3 level A: A above K", "A", "As", "Ks", True),
    ("R-LVL-3 wild single is a level card", "7", "7h", "Ac", True),
    ("R-CMP-1 pair vs single: different kinds", "7", "9s 9d", "8c", False),
    ("R-CMP-1 higher pair", "7", "Ts Td", "9s 9d", True),
    ("R-CMP-1 joker pairs", "7", "BJ BJ", "SJ SJ", True),
    ("R-CMP-1 level pair beats A pair", "7", "7s 7d", "As Ad", True),
    ("R-CMP-1 full house by triple only", "7", "4s 4d 4c 2s 2d", "3s 3d 3c As Ad", True),
    ("R-CMP-1 full house level triple", "7", "7s 7d 7c 2s 2d", "As Ad Ac Ks Kd", True),
    ("R-CMP-1 straight natural order: A-high top", "7", "Ts Jd Qc Ks Ad", "9s Td Jc Qs Kd", True),
    ("R-CMP-1 straight level card at natural rank", "7", "4s 5d 6c 7s 8d", "3s 4d 5c 6s 7d", True),
    ("R-CMP-1 A-low straight is the lowest", "7", "2s 3d 4c 5s 6d", "As 2d 3c 4s 5d", True),
    ("R-CMP-1 A-low straight below 2-6", "7", "As 2d 3c 4s 5d", "2s 3d 4c 5s 6d", False),
    ("R-CMP-1 tube", "7", "4s 4d 5s 5d 6s 6d", "3s 3d 4c 4h 5c 5h", True),
    ("R-CMP-1 plate", "7", "Ks Kd Kc As Ad Ac", "Qs Qd Qc Ks Kd Kc", True),
    ("R-CMP-1 tube vs straight: different kinds", "7", "4s 4d 5s 5d 6s 6d", "3s 4d 5c 6s 7d", False),
    ("R-CMP-2 any bomb beats a non-bomb", "7", "2s 2d 2c 2h", "Ts Jd Qc Ks Ad", True),
    ("R-CMP-2 5-card bomb beats 4-card bomb", "7", "2s 2d 2c 2h 2s", "As Ad Ac Ah", True),
    ("R-CMP-2 straight flush beats 5-card bomb", "7", "As 2s 3s 4s 5s", "Ks Kd Kc Kh Ks", True),
    ("R-CMP-2 6-card bomb beats straight flush", "7", "2s 2d 2c 2h 2s 2d", "Ts Js Qs Ks As", True),
    ("R-CMP-2 10-card bomb", "7", "2s 2d 2c 2h 2s 2d 2c 2h 7h 7h", "As Ad Ac Ah As Ad Ac Ah 7h", True),
    ("R-CMP-3 equal bombs by rank", "7", "9s 9d 9c 9h", "8s 8d 8c 8h", True),
    ("R-CMP-3 level bomb above A bomb", "7", "7s 7d 7c 7s", "As Ad Ac Ah", True),
    ("R-CMP-3 straight flushes by key", "7", "3d 4d 5d 6d 7d", "2s 3s 4s 5s 6s", True),
    ("R-CMP-3 equal straight flushes do not beat", "7", "2d 3d 4d 5d 6d", "2s 3s 4s 5s 6s", False),
    ("R-CMP-4 joker bomb beats a 10-card bomb", "7", "SJ SJ BJ BJ", "2s 2d 2c 2h 2s 2d 2c 2h 7h 7h", True),
    ("R-CMP-4 nothing beats the joker bomb", "7", "2s 2d 2c 2h 2s 2d 2c 2h 7h 7h", "SJ SJ BJ BJ", False),
]


@pytest.mark.parametrize(("rule", "level", "cards", "prev", "expected"), CASES, ids=[c[0] for c in CASES])
def test_beats_table(rule: str, level: str, cards: str, prev: str, expected: bool) -> None:
    assert beats(play(cards, level), play(prev, level), level) is expected, rule


def test_nothing_to_beat() -> None:
    assert beats(play("2s", "7"), None, "7")


def test_choose_lowest_interpretation_that_beats_r_wild_3() -> None:
    prev = play("2s 2d 2c 9s 9d", "7")
    chosen = choose("3s 3d Ts Td 7h", "7", prev)
    assert (chosen.kind, chosen.key) == (Kind.FULL_HOUSE, "3")
    higher = play("5s 5d 5c 9s 9d", "7")
    assert choose("3s 3d Ts Td 7h", "7", higher).key == "T"


def test_choose_highest_for_a_lead_and_declared_wins() -> None:
    assert choose("3s 3d Ts Td 7h", "7").key == "T"
    assert choose("3s 3d Ts Td 7h", "7", declared={"kind": "full_house", "key": "3"}).key == "3"
    lead = choose("3s 4s 5s 6s 7h", "7")
    assert (lead.kind, lead.key) == (Kind.STRAIGHT_FLUSH, "7")


def test_choose_errors_name_the_rule() -> None:
    with pytest.raises(IllegalPatternError, match="R-PAT"):
        choose("3s 4d", "7")
    with pytest.raises(DoesNotBeatError, match="R-CMP"):
        choose("3s 3d", "7", play("4s 4d", "7"))
    with pytest.raises(IllegalPatternError, match="R-WILD-3"):
        choose("3s 3d Ts Td 7h", "7", declared={"kind": "straight"})
