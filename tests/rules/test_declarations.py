"""Declared readings and the readings a lead leaves open (R-WILD-3, R-PAT-11, R-PLAY-4)."""

import pytest

from referee_station.rules import (
    Declaration,
    DeclarationError,
    IllegalPatternError,
    Kind,
    choose,
    classify,
    follow_reading,
    lead_readings,
)


@pytest.mark.parametrize(
    ("declared", "kind", "key"),
    [
        ({"kind": "straight", "key": "10"}, Kind.STRAIGHT, "T"),
        ({"kind": "Straight Flush", "key": "t"}, Kind.STRAIGHT_FLUSH, "T"),
        ({"kind": "straight-flush", "key": 10}, Kind.STRAIGHT_FLUSH, "T"),
        ({"kind": "full house", "key": "q"}, Kind.FULL_HOUSE, "Q"),
        ({"kind": "三带对", "key": "A"}, Kind.FULL_HOUSE, "A"),
        ({"kind": "pair", "key": "sj"}, Kind.PAIR, "SJ"),
        ({"kind": "single", "key": "大王"}, Kind.SINGLE, "BJ"),
        ({"kind": "tube"}, Kind.TUBE, None),
        ({"kind": "joker_bomb", "key": None}, Kind.JOKER_BOMB, None),
    ],
)
def test_a_declaration_is_normalised(declared: dict, kind: Kind, key: str | None) -> None:
    assert Declaration.parse(declared) == Declaration(kind, key)


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ({"kind": "flush"}, "'flush' is not a pattern"),
        ({}, "declared kind 'None' is not a pattern"),
        ({"kind": "pair", "key": "1"}, "declared key '1' is not a rank"),
    ],
)
def test_a_declaration_naming_nothing_is_an_error_that_says_why(declared: dict, message: str) -> None:
    with pytest.raises(DeclarationError, match=message):
        Declaration.parse(declared)


@pytest.mark.parametrize(
    ("cards", "declared", "named"),
    [
        ("5s 5c 6s 6c 7h 7h", {"kind": "tube", "key": "7"}, [("tube", "7")]),
        ("5s 5c 6s 6c 7h 7h", {"kind": "tube", "key": "5"}, [("tube", "7")]),  # by its lowest rank
        ("5s 5c 6s 6c 7h 7h", {"kind": "tube", "key": "4"}, [("tube", "6")]),
        ("5s 5c 6s 6c 7h 7h", {"kind": "tube"}, [("tube", "6"), ("tube", "7")]),
        ("5s 5c 6s 6c 7h 7h", {"kind": "plate", "key": "5"}, [("plate", "6")]),
        ("5s 5c 6s 6c 7h 7h", {"kind": "plate", "key": "7"}, []),
        ("As 2d 3c 4s 7h", {"kind": "straight", "key": "A"}, [("straight", "5")]),  # A-2-3-4-5, A low
        ("Ts Jd Qc Ks 7h", {"kind": "straight", "key": "10"}, [("straight", "A")]),
        ("Ts Jd Qc Ks 7h", {"kind": "straight", "key": "9"}, [("straight", "K")]),
        ("3s 3d Th Td 7h", {"kind": "full_house", "key": "3"}, [("full_house", "3")]),
        ("3s 3d Th Td 7h", {"kind": "full_house", "key": "5"}, []),  # lowest rank: runs only
    ],
)
def test_a_declaration_names_readings_by_key_or_a_run_by_its_lowest_rank(
    cards: str, declared: dict, named: list
) -> None:
    readings = Declaration.parse(declared).readings(classify(cards, "7"))
    assert [(p.kind.value, p.key) for p in readings] == named


@pytest.mark.parametrize(
    ("cards", "open_readings"),
    [
        ("5s 5c 6s 6c 7h 7h", [("tube", "7"), ("plate", "6")]),
        ("3s 4s 5s 6s 7h", [("straight", "7"), ("straight_flush", "7")]),
        ("3s 4s 5s 7h 7h", [("straight", "7"), ("straight_flush", "7")]),
        ("9s 9d 9c 7h 7h", [("full_house", "9"), ("bomb", "9")]),
        ("5s 6d 8c 7h 7h", [("straight", "9")]),  # one kind: the highest, R-WILD-3
        ("3s 3d Th Td 7h", [("full_house", "T")]),
        ("9s 9d", [("pair", "9")]),
    ],
)
def test_a_lead_leaves_open_the_highest_reading_of_each_kind(cards: str, open_readings: list) -> None:
    assert [(p.kind.value, p.key) for p in lead_readings(classify(cards, "7"), "7")] == open_readings


def test_a_follow_reads_against_the_strongest_reading_it_beats() -> None:
    trick = lead_readings(classify("5s 5c 6s 6c 7h 7h", "7"), "7")  # tube 7, plate 6
    follow = classify("6d 6d 7s 7s 8s 8s", "7")
    assert [(p.kind.value, p.key) for p in follow_reading(follow, trick, "7")] == [("tube", "8"), ("tube", "7")]
    bomb = classify("9s 9s 9d 9d", "7")
    assert [(p.kind.value, p.key) for p in follow_reading(bomb, trick, "7")] == [("bomb", "9"), ("plate", "6")]
    assert follow_reading(classify("5d 5d 6d 6d 7s 7s", "7"), trick, "7") is None


def test_choose_reads_a_normalised_declaration() -> None:
    assert choose("Ts Jd Qc Ks 7h", "7", declared={"kind": "straight", "key": "10"}).key == "A"
    with pytest.raises(IllegalPatternError, match="cannot be read as plate 7"):
        choose("5s 5c 6s 6c 7h 7h", "7", declared={"kind": "plate", "key": "7"})
    with pytest.raises(DeclarationError):
        choose("5s 5c 6s 6c 7h 7h", "7", declared={"kind": "snake"})
