"""The card-reader benchmarks' score: exact plays, card precision/recall, phantoms, wrong plays taken."""

from __future__ import annotations

from types import SimpleNamespace

from benchmarks.plays import PlayScore


def seat(status: str, *cards: str) -> SimpleNamespace:
    return SimpleNamespace(status=status, cards=list(cards))


def test_wrong_plays_count_as_taken_only_when_the_reader_called_them_readable():
    score = PlayScore()
    assert score.add(seat("cards", "5s", "5h"), seat("cards", "5s", "5h")) is True
    assert score.add(seat("cards", "8h"), seat("cards", "6h")) is False  # taken: the tracker would use it
    assert score.add(seat("cards", "Th"), seat("unreadable", "9h")) is False  # held back: it waits
    assert score.add(seat("cards", "3c"), seat("occluded", "3s")) is False
    assert score.add(seat("cards", "2c"), seat("unreadable", "2c")) is True  # right cards, any status
    assert score.add(seat("occluded", "Ks"), seat("cards", "Js")) is None  # truly hidden: status only
    assert score.add(seat("empty"), seat("cards", "As")) is None
    assert (score.plays, score.exact, score.taken_wrong) == (5, 2, 1)
    assert (score.phantom, score.empties) == (1, 1)
    assert (score.tp, score.n_true, score.n_pred) == (3, 6, 7)
