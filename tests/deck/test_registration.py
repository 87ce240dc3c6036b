"""Registering a design the generic model never saw lifts its reading to the trained-design level.

Measured with the generic models of 13:22 UTC (docs/vision-history.md, deck registration notes): the registered profile
reads the unseen design's cards with the precision the generic reader has on a training design; exact
plays and recall still trail it (the fitted classifier misreads about one index in twenty), so exact
plays are checked for the rise only, and the profile must carry the locator fitted to the deck. On 300
frames the precision gap was 1 point; one 30-frame run of this test measured 93.8 % against 96.8 %.

``run --deck`` with that profile referees a rendered deal of the drawn design like the simulation
played it, and warns on the same deal drawn with another design. Slow (a real registration: minutes of
rendering and fine-tuning on the CPU) and it needs a Python with torch
(``$REFEREE_STATION_TRAIN_PYTHON`` or ``.venv-train``); ``benchmarks/deck.py`` measures the same at scale.
"""

from __future__ import annotations

import pytest

from benchmarks.deck import play_figures, render_frames
from referee_station.cli import main
from referee_station.deck.profile import DeckProfile, reader_for
from referee_station.deck.register import RegistrationError, register, train_python
from referee_station.log.jsonl import write_jsonl
from referee_station.render.drawn import DRAWN_DESIGN, registration_photos
from referee_station.sim.match import simulate
from referee_station.table.events import DealStart
from referee_station.vision.reader import MODELS_DIR, classifier_paths
from tests.vision.test_end_to_end import SECONDS, camera_truth, check_events, run_camera

FRAMES = 30


@pytest.fixture(scope="module")
def registered(tmp_path_factory, models, drawn_design) -> DeckProfile:
    """The drawn design registered from its rendered photos (minutes: one registration for the module)."""
    try:
        train_python()
    except RegistrationError as err:
        pytest.skip(str(err))
    photos = tmp_path_factory.mktemp("photos")
    registration_photos(photos, drawn_design, seed=5)
    return register(photos, drawn_design, seed=5, threads=1)  # one core: tests share the machine


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_registered_deck_reads_like_a_trained_design(registered, drawn_design):
    profile = registered
    assert profile.meta.accuracy > 0.97
    assert profile.locator is not None
    assert len(profile.classifiers) == len(classifier_paths(MODELS_DIR))  # every member fitted
    assert profile.context is not None  # and the context classifier

    frames = render_frames(drawn_design, FRAMES, seed=21)
    before = play_figures(reader_for(None), frames)
    after = play_figures(reader_for(profile), frames)
    trained = play_figures(reader_for(None), render_frames("anglo", FRAMES, seed=21))
    assert before["exact"] < 0.5  # the unseen design: the generic reader fails most plays
    assert after["exact"] > before["exact"] + 0.4
    assert after["precision"] >= trained["precision"] - 0.05  # 30 frames: a few points of sampling noise
    assert after["phantom"] == 0


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_run_referees_the_registered_deck_and_warns_on_another(registered, drawn_design, tmp_path, capsys):
    """``run --deck`` on 48 s of a simulated deal: the drawn design's video gives the simulation's plays
    and clears, no warning; the same deal drawn with another design raises the mismatch warning."""
    registered.save(tmp_path / "drawn.deck")
    log = tmp_path / "match.jsonl"
    events = simulate(3, deals=2).events
    write_jsonl(log, events)
    until = next(e.t for e in events if isinstance(e, DealStart)) + SECONDS
    for design in (drawn_design, "tigullio"):
        video = tmp_path / f"{design}.mp4"
        assert main(["render-video", str(log), "-o", str(video), "--until", str(until), "--design", design]) == 0
        capsys.readouterr()
        code, got = run_camera(tmp_path, log, video, "--deck", str(tmp_path / "drawn.deck"))
        warned = f"WARNING deck profile '{DRAWN_DESIGN}' does not match" in capsys.readouterr().out
        if design == drawn_design:
            check_events(got, camera_truth(log, until))
            assert (code, warned) == (0, False)
        else:
            assert (code, warned) == (1, True)
