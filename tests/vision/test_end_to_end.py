"""A short simulated deal rendered to MP4 and refereed by ``run``: the camera's events must be the
simulation's plays and clears (seats, cards, order), each within 0.5 s of when it happened."""

import json

import pytest

from referee_station.cli import main
from referee_station.log.jsonl import write_jsonl
from referee_station.sim.match import simulate
from referee_station.table.events import Clear, DealStart, PlayCards, parse_line
from referee_station.vision.reader import MODELS_DIR
from tests.deck.test_profile import generic_profile

SECONDS = 48.0
"""Of play after the deal: two tricks, a clear, a dozen plays."""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    folder = tmp_path_factory.mktemp("e2e")
    log = folder / "match.jsonl"
    events = simulate(3, deals=2).events
    write_jsonl(log, events)
    until = next(e.t for e in events if isinstance(e, DealStart)) + SECONDS
    video = folder / "match.mp4"
    assert main(["render-video", str(log), "-o", str(video), "--until", str(until)]) == 0
    return folder, log, video, until


def camera_truth(log, until):
    events = [parse_line(line) for line in log.read_text().splitlines()]
    return [e for e in events if e.t <= until and isinstance(e, (PlayCards, Clear))]


def check_events(got, want):
    assert [e.to_json()["type"] for e in got] == [e.to_json()["type"] for e in want]
    for g, w in zip(got, want, strict=True):
        if isinstance(w, PlayCards):
            assert (g.seat, g.cards) == (w.seat, w.cards)
        assert abs(g.t - w.t) <= 0.5, (g, w)


def run_camera(folder, log, video, *extra):
    out = folder / f"camera{len(extra)}.jsonl"
    code = main(
        [
            "run",
            "--video",
            str(video),
            "--table",
            "E2E",
            "--events",
            str(log),
            "--camera-events",
            str(out),
            "-q",
            *extra,
        ]
    )
    return code, [parse_line(line) for line in out.read_text().splitlines()]


def test_tracker_on_rendered_video_with_a_perfect_reader(rendered, capsys):
    folder, log, video, until = rendered
    code, got = run_camera(folder, log, video, "--truth-reader", str(log))
    want = camera_truth(log, until)
    assert len(want) >= 6
    check_events(got, want)
    assert code == 0  # a correct table raises no flag
    summary = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert summary["reads"] < summary["frames"] / 5  # motion gating: most frames cost no read


@pytest.mark.slow
@pytest.mark.skipif(not (MODELS_DIR / "locator.onnx").exists(), reason="no trained card reader shipped yet")
def test_whole_pipeline_with_the_card_reader(rendered):
    folder, log, video, until = rendered
    _, got = run_camera(folder, log, video)
    check_events(got, camera_truth(log, until))


def test_run_refuses_bad_input(rendered, tmp_path, capsys):
    _, log, video, _ = rendered
    assert main(["run", "--video", str(video), "--models", str(tmp_path)]) == 2
    assert "no card reader models" in capsys.readouterr().err
    assert main(["run", "--video", str(tmp_path / "none.mp4"), "--truth-reader", str(log)]) == 2
    args = ["run", "--video", str(video), "--truth-reader", str(log), "--broker", "mqtt://station-T1@localhost:1"]
    assert main(args) == 2
    assert "--broker needs a SQLite --log" in capsys.readouterr().err


@pytest.mark.skipif(not (MODELS_DIR / "locator.onnx").exists(), reason="no trained card reader shipped yet")
@pytest.mark.parametrize("mismatch_below, warned", [(0.3, False), (0.99, True)])
def test_run_with_a_deck_profile_warns_on_a_mismatch(rendered, tmp_path, capsys, mismatch_below, warned):
    """The profile carries the generic classifier, which reads the video's design with a confidence well
    above 0.3 and below 0.99: the same table matches one threshold and mismatches the other."""
    folder, log, video, _ = rendered
    generic_profile(mismatch_below).save(tmp_path / "g.deck")
    code, got = run_camera(folder, log, video, "--deck", str(tmp_path / "g.deck"))
    out, err = capsys.readouterr()
    assert any(isinstance(e, PlayCards) for e in got)
    warnings = [line for line in out.splitlines() if "WARNING deck profile 'generic' does not match" in line]
    assert len(warnings) == int(warned)  # once when it turns, not at every read
    deck = json.loads(err.strip().splitlines()[-1])["deck"]
    assert deck["design"] == "generic" and deck["cards"] >= 12 and deck["mismatch_warnings"] == int(warned)
    assert (code == 1) if warned else (deck["mean_confidence"] > 0.3)


def test_run_refuses_a_bad_deck(rendered, tmp_path, capsys):
    _, log, video, _ = rendered
    (tmp_path / "bad.deck").write_bytes(b"junk")
    assert main(["run", "--video", str(video), "--deck", str(tmp_path / "bad.deck")]) == 2
    assert "not a deck profile" in capsys.readouterr().err
    assert main(["run", "--video", str(video), "--deck", str(tmp_path / "bad.deck"), "--truth-reader", str(log)]) == 2
    assert "--truth-reader reads none" in capsys.readouterr().err
