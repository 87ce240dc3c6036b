"""Table-driven cases for R-PAT-1..11 and R-WILD-1..3, at levels 2, 7 and A."""

import pytest

from referee_station.rules import DuplicateCardError, InvalidCardError, InvalidLevelError, Kind, classify
from tests.rules.reference import reference_classify

CASES = [
    # rule, level, cards, expected interpretations (kind, key, size)
    ("R-PAT-1", "7", "5s", [("single", "5", 1)]),
    ("R-PAT-1", "7", "BJ", [("single", "BJ", 1)]),
    ("R-PAT-1 wild alone is a level card", "7", "7h", [("single", "7", 1)]),
    ("R-PAT-2", "7", "5s 5d", [("pair", "5", 2)]),
    ("R-PAT-2 jokers", "7", "SJ SJ", [("pair", "SJ", 2)]),
    ("R-PAT-2 big jokers", "7", "BJ BJ", [("pair", "BJ", 2)]),
    ("R-PAT-2 small+big is no pair", "7", "SJ BJ", []),
    ("R-PAT-2 wild makes a pair", "7", "Ks 7h", [("pair", "K", 2)]),
    ("R-WILD-1 wild never a joker", "7", "SJ 7h", []),
    ("R-PAT-11 two wilds are a level pair", "7", "7h 7h", [("pair", "7", 2)]),
    ("R-PAT-2 different ranks", "7", "5s 6s", []),
    ("R-PAT-3 tube", "7", "3s 3d 4s 4d 5c 5h", [("tube", "5", 6)]),
    ("R-PAT-3 A-low tube", "7", "As Ad 2s 2d 3s 3d", [("tube", "3", 6)]),
    ("R-PAT-3 A-high tube", "7", "Qs Qd Ks Kd As Ad", [("tube", "A", 6)]),
    ("R-WILD-2 tube never wraps", "7", "Ks Kd As Ad 2s 2d", []),
    ("R-PAT-3 tube with wild", "7", "3s 3d 4s 7h 5c 5h", [("tube", "5", 6)]),
    ("R-PAT-3 no 4-pair run", "7", "3s 3d 4s 4d 5c 5h 6s 6d", []),
    ("R-PAT-4 triple", "7", "9s 9d 9c", [("triple", "9", 3)]),
    ("R-PAT-4 triple with wild", "7", "9s 9d 7h", [("triple", "9", 3)]),
    ("R-PAT-4 no joker triple", "7", "SJ SJ 7h", []),
    ("R-PAT-5 plate", "7", "8s 8d 8c 9s 9d 9c", [("plate", "9", 6)]),
    ("R-PAT-5 A-low plate", "7", "As Ad Ac 2s 2d 2c", [("plate", "2", 6)]),
    ("R-PAT-5 plate with two wilds", "7", "8s 8d 9s 9d 7h 7h", [("tube", "9", 6), ("tube", "T", 6), ("plate", "9", 6)]),
    ("R-PAT-5 no 3-triple plate", "7", "2s 2d 2c 3s 3d 3c 4s 4d 4c", []),
    ("R-PAT-6 full house", "7", "Js Jd Jc 4s 4d", [("full_house", "J", 5)]),
    ("R-PAT-6 full house with joker pair", "7", "Js Jd Jc BJ BJ", [("full_house", "J", 5)]),
    ("R-PAT-6 small+big joker is no pair", "7", "Js Jd Jc SJ BJ", []),
    ("R-WILD-3 33+TT+wild", "7", "3s 3d Ts Td 7h", [("full_house", "3", 5), ("full_house", "T", 5)]),
    (
        "R-PAT-6 triple and two wilds is full house or bomb",
        "7",
        "8s 8d 8c 7h 7h",
        [("full_house", "8", 5), ("bomb", "8", 5)],
    ),
    ("R-PAT-6 no triple with a single", "7", "Js Jd Jc 4s", []),
    ("R-PAT-7 straight", "7", "3s 4d 5c 6s 7d", [("straight", "7", 5)]),
    ("R-PAT-7 A-low straight keyed 5", "7", "As 2d 3c 4s 5d", [("straight", "5", 5)]),
    ("R-PAT-7 A-high straight", "7", "Ts Jd Qc Ks Ad", [("straight", "A", 5)]),
    ("R-WILD-2 no wrap", "7", "Qs Kd Ac 2s 3d", []),
    ("R-PAT-7 no 6-card straight", "7", "3s 4d 5c 6s 7d 8c", []),
    ("R-PAT-7 no joker in a straight", "7", "SJ 4d 5c 6s 8d", []),
    ("R-WILD-2 level card at its natural rank", "7", "5s 6d 7c 8s 9d", [("straight", "9", 5)]),
    ("R-PAT-8 natural flush run is only a straight flush", "7", "3s 4s 5s 6s 7s", [("straight_flush", "7", 5)]),
    (
        "R-PAT-11 flush run with wild is both",
        "7",
        "3s 4s 5s 6s 7h",
        [("straight", "6", 5), ("straight", "7", 5), ("straight_flush", "6", 5), ("straight_flush", "7", 5)],
    ),
    ("R-PAT-8 A-low straight flush", "7", "Ad 2d 3d 4d 5d", [("straight_flush", "5", 5)]),
    ("R-PAT-9 bomb 4", "7", "Qs Qd Qc Qh", [("bomb", "Q", 4)]),
    ("R-PAT-9 bomb 10 with wilds", "7", "Qs Qd Qc Qh Qs Qd Qc Qh 7h 7h", [("bomb", "Q", 10)]),
    ("R-PAT-9 level bomb", "7", "7s 7d 7c 7h", [("bomb", "7", 4)]),
    ("R-PAT-9 11 cards are nothing", "7", "Qs Qd Qc Qh Qs Qd Qc Qh 7h 7h 2s", []),
    ("R-PAT-10 joker bomb", "7", "SJ SJ BJ BJ", [("joker_bomb", None, 4)]),
    ("R-PAT-10 three jokers and a wild", "7", "SJ SJ BJ 7h", []),
    # level 2: 2 is the level card, wild is 2h
    ("R-WILD-1 level 2", "2", "2h 5s 5d", [("triple", "5", 3)]),
    ("R-WILD-2 level 2 in A-low run", "2", "As 2s 3d 4c 5h", [("straight", "5", 5)]),
    ("R-PAT-7 level 2 wild completes A-low run", "2", "As 3d 4c 5s 2h", [("straight", "5", 5)]),
    ("R-PAT-2 level 2 pair", "2", "2s 2d", [("pair", "2", 2)]),
    # level A: Ah is wild
    ("R-WILD-1 level A", "A", "Ks Kd Ah", [("triple", "K", 3)]),
    (
        "R-WILD-2 level A wild extends a run either way",
        "A",
        "Ts Jd Qc Ks Ah",
        [("straight", "K", 5), ("straight", "A", 5)],
    ),
    ("R-WILD-2 level A wild extends low or high", "A", "Ts Jd Qc Ks Ad", [("straight", "A", 5)]),
    ("R-PAT-1 level A single", "A", "Ah", [("single", "A", 1)]),
]


@pytest.mark.parametrize(("rule", "level", "cards", "expected"), CASES, ids=[c[0] for c in CASES])
def test_classify_table(rule: str, level: str, cards: str, expected: list[tuple[str, str | None, int]]) -> None:
    got = [(p.kind.value, p.key, p.size) for p in classify(cards, level)]
    assert sorted(got, key=str) == sorted(expected, key=str), rule
    # the brute-force reference agrees on every case of the table
    from referee_station.rules import parse_cards

    assert reference_classify(parse_cards(cards), level) == set(expected)


def test_results_are_weakest_first() -> None:
    plays = classify("8s 8d 8c 7h 7h", "7")
    assert [p.kind for p in plays] == [Kind.FULL_HOUSE, Kind.BOMB]
    runs = classify("3s 4s 5s 6s 7h", "7")
    assert [(p.kind.value, p.key) for p in runs] == [
        ("straight", "6"),
        ("straight", "7"),
        ("straight_flush", "6"),
        ("straight_flush", "7"),
    ]


def test_substitutes_say_what_each_wild_stands_for() -> None:
    (low, high) = classify("3s 3d Ts Td 7h", "7")
    assert low.substitutes == ((4, low.substitutes[0][1]),) and low.substitutes[0][1].rank == "3"
    assert high.substitutes[0][1].rank == "T"
    flush = classify("3s 4s 5s 6s 7h", "7")[-1]
    assert flush.kind == Kind.STRAIGHT_FLUSH and flush.substitutes[0][1].code == "7s"
    assert [c.code for c in flush.natural_cards()] == ["3s", "4s", "5s", "6s", "7s"]
    straight = classify("3s 4s 5s 6s 7h", "7")[1]
    assert straight.kind == Kind.STRAIGHT and straight.substitutes[0][1].suit != "s"


def test_play_is_immutable_and_keeps_the_laid_order() -> None:
    play = classify(["5d", "5s"], "7")[0]
    assert play.codes == ["5d", "5s"] and play.size == 2
    with pytest.raises(AttributeError):
        play.kind = Kind.SINGLE  # type: ignore[misc]


def test_empty_and_bad_input() -> None:
    assert classify("", "7") == []
    with pytest.raises(InvalidCardError, match="'Xs'"):
        classify("Xs 5d", "7")
    with pytest.raises(DuplicateCardError, match="7h appears 3 times"):
        classify("7h 7h 7h", "7")
    with pytest.raises(DuplicateCardError, match="Qs appears 3 times"):
        classify("Qs Qs Qs Qd", "7")
    with pytest.raises(InvalidLevelError):
        classify("5s", "1")
