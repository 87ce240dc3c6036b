"""Card codes and levels (R-CARD-1, R-LVL-1): parsing, round trips, and clear errors."""

import pickle

import pytest

from referee_station.rules import (
    DECK,
    Card,
    DuplicateCardError,
    InvalidCardError,
    InvalidLevelError,
    parse_cards,
    parse_level,
    single_order,
)


@pytest.mark.parametrize(
    ("token", "code"),
    [
        ("Th", "Th"),
        ("10h", "Th"),
        ("10♥", "Th"),
        ("T♥", "Th"),
        ("5s", "5s"),
        ("5♠", "5s"),
        ("Ad", "Ad"),
        ("a♦", "Ad"),
        ("Qc", "Qc"),
        ("Q♣", "Qc"),
        ("SJ", "SJ"),
        ("BJ", "BJ"),
        ("sj", "SJ"),
        (" 9d ", "9d"),
    ],
)
def test_codes_and_aliases_read_as_one_card(token: str, code: str) -> None:
    assert Card.parse(token) is Card(code)
    assert Card.parse(token).code == code


def test_deck_has_54_faces_and_reprs_round_trip() -> None:
    assert len(DECK) == 54 and len({c.code for c in DECK}) == 54
    assert [c.index for c in DECK] == list(range(54))
    for card in DECK:
        assert eval(repr(card), {"Card": Card}) is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Card("Th").rank = "J"  # type: ignore[misc]


@pytest.mark.parametrize("token", ["1h", "Tx", "11s", "Joker", "", "h", "5", "XJ"])
def test_bad_codes_name_the_token(token: str) -> None:
    with pytest.raises(InvalidCardError, match=repr(token)):
        Card.parse(token)


def test_parse_cards_forms_and_order() -> None:
    assert [c.code for c in parse_cards("Th 5s,5d")] == ["Th", "5s", "5d"]
    assert parse_cards(["Th", Card("5s")]) == [Card("Th"), Card("5s")]
    with pytest.raises(InvalidCardError, match="'Zz'"):
        parse_cards("Th Zz 5s")


def test_third_copy_of_a_card_is_an_error_naming_it() -> None:
    assert len(parse_cards("5s 5s")) == 2
    with pytest.raises(DuplicateCardError, match="5s appears 3 times"):
        parse_cards("5s 6d 5s 5s")


@pytest.mark.parametrize(
    ("level", "rank"), [("2", "2"), ("10", "T"), ("T", "T"), ("t", "T"), ("A", "A"), (14, "A"), (7, "7")]
)
def test_levels(level: str | int, rank: str) -> None:
    assert parse_level(level) == rank


@pytest.mark.parametrize("level", ["1", "B", "SJ", 15, 1, None, "22"])
def test_bad_levels(level: object) -> None:
    with pytest.raises(InvalidLevelError, match="bad level"):
        parse_level(level)  # type: ignore[arg-type]


def test_single_order_r_lvl_3() -> None:
    # 大王 > 小王 > level card > A > K > ... > 2, suits never matter
    order = ["BJ", "SJ", "7s", "Ah", "Kd", "Qc", "Js", "Th", "9d", "8c", "6s", "5h", "4d", "3c", "2s"]
    values = [single_order(Card(code), "7") for code in order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert single_order(Card("7s"), "7") == single_order(Card("7h"), "7")
    assert single_order(Card("2c"), "2") > single_order(Card("Ac"), "2")


def test_reading_accepts_any_iterable_and_names_a_bad_token_of_any_type() -> None:
    assert parse_cards(code for code in ("Th", " 9d ", "10♣")) == [Card("Th"), Card("9d"), Card("Tc")]
    with pytest.raises(InvalidCardError, match=r"not a card code: \['Th'\]"):
        parse_cards([["Th"]])  # type: ignore[list-item]
    with pytest.raises(InvalidCardError, match="not a card code: 5"):
        parse_cards([5])  # type: ignore[list-item]


def test_cards_hash_by_index_so_sets_of_cards_iterate_alike_every_run() -> None:
    assert [hash(card) for card in DECK] == list(range(54))
    assert list({Card("BJ"), Card("2s"), Card("Ah")}) == [Card("2s"), Card("Ah"), Card("BJ")]
    assert Card("Th") == Card("10h") and Card("Th") != "Th"
