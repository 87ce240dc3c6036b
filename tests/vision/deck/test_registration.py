"""Registering a design the generic model never saw lifts its reading to the trained-design level.

Measured with the generic models of 13:22 UTC (README, "Deck registration"): the registered profile
reads the unseen design's cards with the precision the generic reader has on a training design; exact
plays and recall still trail it (the fitted classifier misreads about one index in twenty), so exact
plays are checked for the rise only, and the profile must carry the locator fitted to the deck. On 300
frames the precision gap was 1 point; one 30-frame run of this test measured 93.8 % against 96.8 %.

Slow (a real registration: minutes of fine-tuning on the CPU) and it needs a Python with torch
(``$REFEREE_STATION_TRAIN_PYTHON`` or ``.venv-train``); ``benchmarks/deck.py`` measures the same at scale.
"""

from __future__ import annotations

import pytest

from benchmarks.deck import play_figures, render_frames
from vision.deck.drawn import registration_photos
from vision.deck.profile import reader_for
from vision.deck.register import RegistrationError, register, train_python

FRAMES = 30


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_registered_deck_reads_like_a_trained_design(tmp_path, models, drawn_design):
    try:
        train_python()
    except RegistrationError as err:
        pytest.skip(str(err))
    registration_photos(tmp_path, drawn_design, seed=5)
    profile = register(tmp_path, drawn_design, seed=5)
    assert profile.meta.accuracy > 0.97
    assert profile.locator is not None

    frames = render_frames(drawn_design, FRAMES, seed=21)
    before = play_figures(reader_for(None), frames)
    after = play_figures(reader_for(profile), frames)
    trained = play_figures(reader_for(None), render_frames("anglo", FRAMES, seed=21))
    assert before["exact"] < 0.3  # the unseen design: the generic reader fails most plays
    assert after["exact"] > before["exact"] + 0.4
    assert after["precision"] >= trained["precision"] - 0.05  # 30 frames: a few points of sampling noise
    assert after["phantom"] == 0
