"""``legal_moves``: concrete hands (R-PLAY-1, R-PAT, R-CMP) and the natural-first preference."""

from referee_station.rules import Kind, classify, legal_moves


def kinds(moves):
    return {(m.kind.value, m.key, m.size) for m in moves}


HAND = "3s 3d 4s 4d 5s 5d 5c 6s 7h 9c 9d Qs SJ SJ BJ BJ"


def test_all_leads_of_a_small_hand() -> None:
    moves = legal_moves(HAND, None, "7")
    got = kinds(moves)
    for expected in [
        ("single", "3", 1),
        ("single", "7", 1),
        ("pair", "SJ", 2),
        ("pair", "Q", 2),
        ("triple", "5", 3),
        ("triple", "9", 3),
        ("tube", "5", 6),
        ("tube", "6", 6),
        ("plate", "5", 6),
        ("full_house", "5", 5),
        ("straight", "6", 5),
        ("straight", "7", 5),
        ("straight_flush", "7", 5),
        ("bomb", "5", 4),
        ("joker_bomb", None, 4),
    ]:
        assert expected in got, expected
    assert ("pair", "6", 2) in got  # 6s + wild
    assert ("triple", "3", 3) in got and ("bomb", "3", 4) not in got  # 3s 3d + the one wild
    assert ("pair", "K", 2) not in got  # no K: two wilds alone are only a level pair


def test_natural_cards_are_preferred_over_wilds() -> None:
    pair5 = next(m for m in legal_moves(HAND, None, "7") if (m.kind, m.key) == (Kind.PAIR, "5"))
    assert not pair5.substitutes and {c.rank for c in pair5.cards} == {"5"}
    fh = next(m for m in legal_moves(HAND, None, "7") if (m.kind, m.key) == (Kind.FULL_HOUSE, "5"))
    assert not fh.substitutes  # 555 + 33, the cheapest natural pair


def test_follow_only_beating_plays() -> None:
    prev = classify("8s 8d", "7")[0]
    got = kinds(legal_moves(HAND, prev, "7"))
    pairs = {key for kind, key, _ in got if kind == "pair"}
    assert pairs == {"9", "Q", "SJ", "BJ"}  # Q from Qs + wild; no 7 pair from one wild alone
    assert {kind for kind, _, _ in got} == {"pair", "bomb", "straight_flush", "joker_bomb"}


def test_only_a_flush_straight_with_no_wild_is_not_a_plain_straight() -> None:
    got = kinds(legal_moves("3s 4s 5s 6s 7s", None, "2"))
    assert ("straight_flush", "7", 5) in got and ("straight", "7", 5) not in got
    got = kinds(legal_moves("3s 4s 5s 6s 7s 7d", None, "2"))
    assert ("straight", "7", 5) in got


def test_nothing_beats_the_joker_bomb() -> None:
    assert legal_moves(HAND, classify("SJ SJ BJ BJ", "7")[0], "7") == []
