"""The per-card evidence of a still row (``referee_station.vision.evidence``): looks at the same cards add up, weighted
by how clear each is; another row starts afresh."""

from __future__ import annotations

import pytest

from referee_station.vision.evidence import SAME_CARD_CM, RowEvidence, weight
from referee_station.vision.geometry import STRIP_PX_PER_CM
from tests.vision.scripted import Reading

TORN = (("6h", 0.5), ("5h", 0.45), ("4h", 0.02))
CLEAR = (("5h", 0.95), ("6h", 0.03), ("3h", 0.01))


def look(alternatives, anchors=((40.0, 60.0),), confidences=None) -> Reading:
    confidences = confidences or [alts[0][1] for alts in alternatives]
    return Reading([a[0][0] for a in alternatives], list(confidences), "cards", list(anchors), list(alternatives))


def test_a_torn_look_counts_by_its_lead_and_clear_looks_settle_the_card():
    evidence = RowEvidence()
    assert evidence.add(look([TORN])) is False  # the first look starts the evidence
    assert evidence.cards == ("6h",) and not evidence.sure(0.9)
    wander = 0.1 * STRIP_PX_PER_CM
    assert evidence.add(look([CLEAR], [(40.0 + wander, 60.0 - wander)])) is True
    w_torn, w_clear = weight(TORN), weight(CLEAR)
    expected = (w_torn * 0.45 + w_clear * 0.95) / (w_torn + w_clear)
    assert evidence.cards == ("5h",)
    assert evidence.alternatives[0][0] == ("5h", pytest.approx(expected))
    assert [code for code, _ in evidence.alternatives[0]] == ["5h", "6h", "3h"]  # the torn look weighs little
    evidence.add(look([CLEAR]))
    assert evidence.sure(0.9) and evidence.looks == 3


def test_looks_of_one_torn_picture_stay_torn():
    """Looks of a still row are not independent: repeating a torn look does not make it sure."""
    evidence = RowEvidence()
    for _ in range(6):
        evidence.add(look([TORN]))
    assert evidence.confidences == [pytest.approx(0.5)]


def test_a_moved_or_longer_row_starts_the_evidence_again():
    evidence = RowEvidence()
    evidence.add(look([TORN]))
    shifted = 40.0 + (SAME_CARD_CM + 0.1) * STRIP_PX_PER_CM
    assert evidence.add(look([CLEAR], [(shifted, 60.0)])) is False
    assert evidence.alternatives[0][0] == ("5h", pytest.approx(0.95)) and evidence.looks == 1
    assert evidence.add(look([CLEAR, CLEAR], [(shifted, 60.0), (shifted + 50, 60.0)])) is False
    assert evidence.cards == ("5h", "5h") and evidence.looks == 1


def test_the_confidence_keeps_what_is_not_about_the_face():
    """The reader scales a card's confidence by the locator's score; the evidence keeps that share."""
    evidence = RowEvidence()
    evidence.add(look([CLEAR], confidences=[0.95 * 0.5]))
    assert evidence.confidences == [pytest.approx(0.95 * 0.5)]
    assert not evidence.sure(0.9)


def test_a_reader_without_alternatives_is_its_cards_at_their_confidence():
    evidence = RowEvidence()
    evidence.add(Reading(["Kd"], [0.8], "cards", [(40.0, 60.0)]))
    assert evidence.alternatives == ((("Kd", pytest.approx(0.8)),),)
