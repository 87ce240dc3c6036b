"""The detail a deck needs (#24): measured at registration from rendered frames of the deck read by its
own reader, kept in the profile, and what ``check-camera`` asks of every play area."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
import pytest

from referee_station.cli import main
from referee_station.deck.detail import (
    DETAIL_FRAMES,
    DETAIL_LARGE_FRAMES,
    NEEDS_SHARE,
    CardRead,
    assured,
    monotone_detail,
    need_from,
    share_curve,
)
from referee_station.deck.profile import DeckMeta, DeckProfile, reader_for
from referee_station.deck.threshold import random_scenes
from referee_station.render.render import render
from referee_station.station.camera_step import deck_needs
from referee_station.vision.camera_check import check_camera
from referee_station.vision.reader import CLASSIFIER_FILES, MODELS_DIR
from referee_station.vision.strips import NEEDS_PX_PER_CM, Need, detail
from tests.vision.test_camera_check import GOOD, LOOK, shot


def reads(rng: random.Random, low: float, high: float, n: int, right_share: float) -> list[CardRead]:
    return [CardRead(rng.uniform(low, high), rng.random() < right_share) for _ in range(n)]


def deck_frames(rng: random.Random, crossing: float, frames: int, spread: float = 0.0) -> list[CardRead]:
    """Cards of ``frames`` rendered frames of a deck whose cards read right with a share rising smoothly
    in the detail, ``NEEDS_SHARE`` at ``crossing``: four play areas a frame, each with its own detail and
    15 cards, and each area's light moving its cards' log-odds together by ``spread`` (sd), as a hand or
    glare does."""
    slope, cards = 6.0, []
    for _ in range(frames * 4):
        px = rng.uniform(5.0, 11.0) if rng.random() < 0.6 else rng.uniform(16.0, 22.0)
        area = rng.gauss(0.0, spread)
        logit = math.log(NEEDS_SHARE / (1 - NEEDS_SHARE)) + slope * math.log(px / crossing) + area
        cards += [CardRead(px, rng.random() < 1 / (1 + math.exp(-logit))) for _ in range(15)]
    return cards


def test_the_need_is_where_the_cards_stop_reading_right():
    rng = random.Random(5)
    need = need_from(deck_frames(rng, crossing=8.0, frames=120))
    assert need.reached and abs(need.px_per_cm - 8.0) < 0.5
    assert need.fitted == 120 * 4 * 15 and need.cards < need.fitted
    assert "cards read 97% right from" in need.line()


def test_the_need_does_not_move_with_the_frames_drawn():
    """Every batch of frames from one deck gives about one need, even where each area's light moves its
    cards together: no batch whose few least-detailed cards happened to read right pulls it under the
    deck's. The areas' spread flattens the share over all areas, which reaches 97 % at 9.2 px/cm, not 9.0."""
    batches = [deck_frames(random.Random(seed), 9.0, DETAIL_FRAMES, spread=0.5) for seed in range(8)]
    needs = [need_from(cards) for cards in batches]
    assert all(need.reached for need in needs)
    values = sorted(need.px_per_cm for need in needs)
    assert values[0] > 8.5 and values[-1] < 10.5 and abs(sum(values) / len(values) - 9.2) < 0.4, values


def test_a_deck_that_never_reads_right_needs_more_than_the_finest_detail_measured():
    rng = random.Random(6)
    cards = reads(rng, 5.0, 11.0, 400, 0.9)
    need = need_from(cards)
    assert not need.reached
    assert need.px_per_cm == max(c.px_per_cm for c in cards)
    assert need.share == sum(c.right for c in cards) / 400 and need.cards == 400
    assert "needs more detail" in need.line()


def test_a_deck_read_right_everywhere_needs_the_least_detail_measured_and_a_lucky_few_do_not_pass():
    fine = [CardRead(11.0 - i * 0.01, i != 3) for i in range(200)]  # one miss among the finest cards
    assert need_from(fine).reached and need_from(fine).px_per_cm == pytest.approx(11.0 - 199 * 0.01)
    lucky = [CardRead(10.0 + i * 0.01, True) for i in range(48)] + [CardRead(9.0, i % 5 != 0) for i in range(400)]
    assert not need_from(lucky).reached  # 48 of 48 right assure only 95 %; below them 80 % read right
    few = [CardRead(20.0 - i * 0.01, True) for i in range(88)] + [CardRead(10.0, i % 4 != 0) for i in range(300)]
    assert assured(88, 88) > NEEDS_SHARE and not need_from(few).reached  # 88 cards are fewer than MIN_CARDS
    assert assured(48, 48) == pytest.approx(0.946, abs=0.001) and assured(100, 100) > NEEDS_SHARE
    with pytest.raises(ValueError, match="no card"):
        need_from([])


def test_the_curve_rises_with_detail_and_a_flat_one_names_no_need():
    curve = share_curve(deck_frames(random.Random(7), crossing=8.0, frames=120))
    assert curve.slope > 0 and curve.detail_for(NEEDS_SHARE) == pytest.approx(8.0, abs=0.5)
    assert curve.detail_for(0.5) < curve.detail_for(0.9) < curve.detail_for(NEEDS_SHARE)
    worse = [CardRead(px, True) for px in (6.0, 8.0)] * 50 + [CardRead(6.0, False)] + [CardRead(8.0, False)] * 3
    assert share_curve(worse).detail_for(NEEDS_SHARE) is None  # more detail reads no better
    assert need_from(worse * 10).px_per_cm == 8.0 and not need_from(worse * 10).reached  # 96 % everywhere


def test_sharp_4k_cards_do_not_carry_blurred_ones_that_read_under_the_share():
    """A deck whose 1080p and 720p cards read a flat 95 % and whose 4K cards all read right needs 4K: the
    smooth curve alone, bent by the sharp cards, would cross 97 % among the blurred ones, and every card
    from there up, most of them 4K, would assure it together."""
    rng = random.Random(8)
    blurred = reads(rng, 5.0, 11.0, 1200, 0.95)
    sharp = [CardRead(rng.uniform(16.0, 22.0), True) for _ in range(800)]
    assert share_curve(blurred + sharp).detail_for(NEEDS_SHARE) < 11.0
    assert monotone_detail(blurred + sharp, NEEDS_SHARE) >= 16.0
    need = need_from(blurred + sharp)
    assert need.reached and need.px_per_cm >= 16.0


def test_cards_at_the_need_must_assure_the_share_together():
    """A share read at 98.5 % by 200 cards is no assurance of 97 % (the Wilson bound says 96.3 %); by
    1,000 cards it is (97.7 %)."""
    cards = [CardRead(10.0, i % 200 not in (0, 70, 140)) for i in range(200)]
    assert monotone_detail(cards, NEEDS_SHARE) == 10.0 and assured(197, 200) < NEEDS_SHARE
    assert not need_from(cards).reached
    assert need_from(cards * 5).reached and assured(985, 1000) > NEEDS_SHARE


def test_one_detail_read_under_the_share_or_nowhere_right_is_no_need_and_no_crash():
    for share_right in (0.0, 0.5, 0.96):
        cards = [CardRead(9.0, i < share_right * 300) for i in range(300)]
        need = need_from(cards)
        assert not need.reached and need.px_per_cm == 9.0
    with pytest.raises(ValueError, match="a card read at nan px/cm"):
        need_from([CardRead(9.0, True), CardRead(float("nan"), True)])
    with pytest.raises(ValueError, match=r"a card read at 0\.0 px/cm"):
        need_from([CardRead(0.0, True)])


def _meta(**need) -> DeckMeta:
    return DeckMeta("d", "2026-12-03T00:00:00+00:00", 0.99, 100, 0.9, 0.8, 0.5, 10.0, **need)


def test_check_camera_asks_what_the_deck_needs_unless_told_otherwise():
    assert deck_needs(None, None) == Need(NEEDS_PX_PER_CM, False)
    assert deck_needs(_meta(), None) == Need(NEEDS_PX_PER_CM, False)  # registered before it was measured
    assert deck_needs(_meta(needs_px_per_cm=6.4), None) == Need(6.4, False)
    assert deck_needs(_meta(needs_px_per_cm=11.2, needs_reached=False), None) == Need(11.2, True)
    assert deck_needs(_meta(needs_px_per_cm=11.2, needs_reached=False), 9.0) == Need(9.0, False)


def test_the_reader_and_the_camera_check_share_one_need():
    """What registration measured is one ``Need``: ``check-camera`` fails an area short of it and the
    profile's reader trusts no card read there (``CardReader.needs``); a deck read right at no detail
    measured falls short up to that detail too; a profile from before the measure holds nothing."""
    assert _meta().need is None
    assert _meta(needs_px_per_cm=6.4).need == Need(6.4) and _meta(needs_px_per_cm=6.4).need.short(6.3)
    beyond = _meta(needs_px_per_cm=11.2, needs_reached=False).need
    assert beyond == Need(11.2, more=True) and beyond.short(11.2) and not beyond.short(11.3)
    assert not Need(6.4).short(6.4)
    classifier = (MODELS_DIR / CLASSIFIER_FILES[0]).read_bytes()
    assert reader_for(DeckProfile(_meta(needs_px_per_cm=11.2, needs_reached=False), classifier)).needs == beyond


def test_a_good_camera_fails_a_deck_that_needs_more_than_it_gives():
    image, calib = shot(GOOD, LOOK)
    fine = check_camera([image], calib, needs=Need(6.4))
    assert fine.ok, fine.lines()
    small_index = check_camera([image], calib, needs=Need(11.2, more=True))
    assert not small_index.ok and small_index.to_json()["needs_more"] is True
    for area in small_index.areas:
        problem = area.problems[0]
        assert problem.reason == (
            f"{area.px_per_cm:.1f} px/cm, this deck needs more than 11.2 (its registration read it right at no"
            " detail up to that)"
        )
        assert problem.remedy.startswith("lower the camera or use a 4K camera, and register the deck again")


def test_the_command_takes_the_need_from_the_deck_profile(tmp_path, capsys):
    """``--deck`` alone sets what every area must give; ``--needs`` overrides it."""
    image, calib = shot(GOOD, LOOK)
    cv2.imwrite(str(tmp_path / "frame.png"), image)
    calib.save(tmp_path / "T1.json")
    classifier = (MODELS_DIR / CLASSIFIER_FILES[0]).read_bytes()
    DeckProfile(_meta(needs_px_per_cm=11.2, needs_reached=False), classifier).save(tmp_path / "small.deck")
    base = ["check-camera", "--calibration", str(tmp_path / "T1.json"), str(tmp_path / "frame.png")]
    assert main([*base, "--deck", str(tmp_path / "small.deck")]) == 1
    assert "this deck needs more than 11.2" in capsys.readouterr().out
    assert main([*base, "--deck", str(tmp_path / "small.deck"), "--needs", "6"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "verdict: ready for play"


def test_registration_reads_some_of_its_detail_frames_at_4k():
    """A deck 1080p cannot read is told what it needs (16–22 px/cm) rather than only "more than 11": the
    detail frames' 4K share renders 4K cameras, whose play areas get at least 15 px/cm; the rest are
    the frames the seed always drew."""
    frames = [render(scene) for scene in random_scenes("anglo", 8, 3, "detail", DETAIL_LARGE_FRAMES)]
    usual = [render(scene) for scene in random_scenes("anglo", 8, 3, "detail")]
    large = [f for f in frames if f.image.shape[0] == 2160]
    assert 0 < len(large) < len(frames)
    assert all(min(detail(f.corners).values()) >= 15 for f in large)
    assert all(max(detail(f.corners).values()) <= 11.5 for f in usual)
    for a, b in zip(frames, usual, strict=True):
        assert a.image.shape[0] == 2160 or np.array_equal(a.image, b.image)


def test_the_need_falls_between_two_levels_measured_where_the_share_is_crossed():
    """An area read at 83 % below areas read right: the deck needs more than the first, no more than the
    second."""
    sharp = [CardRead(10.0, True)] * 150
    area = [CardRead(9.0, True)] * 100 + [CardRead(9.0, False)] * 20  # one detail, read 83 % right
    need = need_from(sharp + area)
    assert need.reached and 9.0 < need.px_per_cm <= 10.0
