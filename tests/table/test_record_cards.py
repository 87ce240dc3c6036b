"""The log's records carry :class:`Card` values (#26): a card code given in code becomes its card at
construction, a bad code is that record's :class:`EventError` naming the field and the code (R-CARD-1),
and the log lines written are the codes, byte for byte as before."""

from __future__ import annotations

import pytest

from referee_station.rules import Card
from referee_station.table.events import (
    DealStart,
    EventError,
    Exchange,
    Flag,
    PlayCards,
    Reading,
    Return,
    Settle,
    Tribute,
    parse_line,
)

LINES = [
    '{"t":1.0,"type":"deal","first_leader":"E","hands":{"E":["2s","Th","BJ"],"N":["SJ","Ac"]}}',
    '{"t":2.0,"type":"tribute","seat":"S","card":"BJ"}',
    '{"t":3.0,"type":"return","seat":"E","card":"3c"}',
    '{"t":4.0,"type":"play","seat":"E","cards":["5s","5h"],"as":{"kind":"pair","key":"5"},"confidence":0.4,'
    '"alternatives":[[["5s",0.9],["5c",0.1]],[["5h",0.6],["6h",0.4]]]}',
    '{"t":5.0,"type":"settle","at":4.0,"seat":"E","cards":["5s","6h"],"reason":"looked"}',
    '{"t":6.0,"type":"flag","id":1,"seat":"E","side":"EW","offence":"duplicate_card","rule":"R-CARD-1",'
    '"penalty":"anomaly","detail":"x","detail_zh":"y","cards":["Qd","Qd"]}',
    '{"t":7.0,"type":"reading","seat":"E","cards":["3s","3h","4s","4h","5s","5h"],"status":"open",'
    '"readings":[{"kind":"pair_run","key":"5"}]}',
]


def test_codes_given_in_code_become_cards() -> None:
    play = PlayCards(1.0, "E", ("5s", "10h"), alternatives=((("5s", 0.9), ("5c", 0.1)), (("Th", 1.0),)))
    assert play.cards == (Card("5s"), Card("Th")) and all(type(card) is Card for card in play.cards)
    assert play.alternatives == (((Card("5s"), 0.9), (Card("5c"), 0.1)), ((Card("Th"), 1.0),))
    assert Tribute(2.0, "S", "BJ").card is Card("BJ") and Return(3.0, "E", "3c").card is Card("3c")
    deal = DealStart(0.0, "E", {"E": ["2s", "SJ"]})
    assert deal.hands == {"E": (Card("2s"), Card("SJ"))}
    assert Settle(4.0, 1.0, "E", "5s 6h").cards == (Card("5s"), Card("6h"))  # as a log line may give them
    assert Flag(5.0, id=1, cards=("Qd",)).cards == (Card("Qd"),) and Flag(5.0, id=2).cards is None
    assert Reading(6.0, cards=["3s"]).cards == (Card("3s"),)


def test_an_exchange_holds_a_real_card_by_default() -> None:
    assert type(Exchange(0.0).card) is Card and Tribute(0.0).card in Card.ALL


def test_a_record_built_from_codes_equals_one_built_from_cards() -> None:
    codes = PlayCards(1.0, "E", ("5s", "5h"), alternatives=((("5s", 0.9),), (("5h", 0.8), ("6h", 0.2))))
    cards = PlayCards(
        1.0, "E", (Card("5s"), Card("5h")), alternatives=(((Card("5s"), 0.9),), ((Card("5h"), 0.8), (Card("6h"), 0.2)))
    )
    assert codes == cards and hash(codes.cards) == hash(cards.cards) and codes.to_line() == cards.to_line()
    assert Tribute(2.0, "S", "BJ") == Tribute(2.0, "S", Card("BJ"))
    assert DealStart(0.0, "E", {"E": ("2s",)}) == DealStart(0.0, "E", {"E": (Card("2s"),)})


@pytest.mark.parametrize("line", LINES)
def test_a_line_reads_into_cards_and_writes_back_byte_identical(line: str) -> None:
    record = parse_line(line)
    assert record.to_line() == line
    assert parse_line(record.to_line()) == record


def test_a_record_built_in_code_writes_the_codes() -> None:
    play = PlayCards(4.0, "E", ("5s", "5h"), {"kind": "pair", "key": "5"}, 0.4, ((("5s", 0.9), ("5c", 0.1)),) * 2)
    assert play.to_json()["cards"] == ["5s", "5h"] and play.to_json()["alternatives"][0] == [["5s", 0.9], ["5c", 0.1]]
    assert Tribute(2.0, "S", "BJ").to_line() == LINES[1]
    assert DealStart(1.0, "E", {"E": ("2s", "10h", "BJ"), "N": ("SJ", "Ac")}).to_line() == LINES[0]


@pytest.mark.parametrize(
    ("build", "where", "code"),
    [
        (lambda: PlayCards(1.0, "E", ("5s", "Zz")), "play: field 'cards'", "'Zz'"),
        (lambda: Tribute(1.0, "S", "1s"), "tribute: field 'card'", "'1s'"),
        (lambda: Return(1.0, "S", ""), "return: field 'card'", "''"),
        (lambda: DealStart(1.0, "E", {"W": ("2s", "Qx")}), "deal: field 'hands.W'", "'Qx'"),
        (lambda: PlayCards(1.0, "E", ("5s",), alternatives=((("5q", 1.0),),)), "play: field 'alternatives'", "'5q'"),
        (lambda: Settle(1.0, 0.5, "E", ("Kk",)), "settle: field 'cards'", "'Kk'"),
        (lambda: Flag(1.0, id=1, cards=("BB",)), "flag: field 'cards'", "'BB'"),
        (lambda: Reading(1.0, cards=("S J",)), "reading: field 'cards'", "'S J'"),
    ],
)
def test_r_card_1_a_bad_code_built_in_code_is_the_records_error_naming_field_and_code(build, where, code) -> None:
    with pytest.raises(EventError) as err:
        build()
    assert str(err.value).startswith(f"{where}: unknown card code {code}") and "(R-CARD-1)" in str(err.value)


def test_r_card_1_a_card_that_is_no_code_at_all_is_named_too() -> None:
    with pytest.raises(EventError, match=r"play: field 'cards': a card code is a string, got 5 \(R-CARD-1\)"):
        PlayCards(1.0, "E", (5,))


def test_reading_a_line_keeps_its_precise_messages() -> None:
    with pytest.raises(EventError, match=r"^play: field 'alternatives\[1\]': unknown card code 'Xx'"):
        parse_line('{"t":1,"type":"play","seat":"E","cards":["5s","5h"],"alternatives":[[["5s",1]],[["Xx",1]]]}')
    with pytest.raises(EventError, match=r"^deal: field 'hands.N': unknown card code '9z'"):
        parse_line('{"t":1,"type":"deal","hands":{"N":["9z"]}}')
    with pytest.raises(EventError, match=r"^flag: field 'cards' must be a list of a card code or null, got \['Qz'\]"):
        parse_line(LINES[5].replace('"Qd","Qd"', '"Qz"'))
