"""End to end: the headless demo plays simulated tables with injected violations, and every
injected violation is flagged by the table's referee (same seat, same offence, not before it)."""

from __future__ import annotations

import argparse
import io
from collections import Counter

from referee_station.cli import main
from referee_station.console.headless import run_headless
from referee_station.station.live.feed import LiveTable
from referee_station.station.live.simulated import simulated_tables


def assert_flags_match_injected(model, table) -> None:
    """Every injected violation flagged (same seat and offence, not before it), and nothing else."""
    flags = [a.flag for a in model.alerts.answered + model.alerts.pending if a.table == table.name]
    for injected in table.truth:
        match = next((f for f in flags if (f.seat, f.offence) == (injected.seat, injected.offence)), None)
        assert match is not None, f"{table.name}: {injected} was not flagged"
        assert match.t >= injected.t
        flags.remove(match)
    assert [f for f in flags if f.penalty != "anomaly"] == [], f"{table.name}: flags nothing injected"


def test_every_injected_violation_is_flagged():
    tables = simulated_tables(4, seed=7, deals=3, violations=0.05)
    out = io.StringIO()
    model = run_headless([LiveTable(t.name, t.events) for t in tables], speed=0, out=out)
    assert sum(len(t.truth) for t in tables) >= 8  # enough to mean something
    for table in tables:
        assert_flags_match_injected(model, table)
        assert model.table(table.name).match_end is not None  # 3 deals, or fewer after a match loss
    text = out.getvalue()
    assert text.count("⚑") == sum(len(t.truth) for t in tables)
    assert text.count("★") == 4


def test_demo_command_headless(capsys, tmp_path):
    quick = ["--headless", "--no-camera", "--speed", "0"]
    assert main(["demo", *quick, "--tables", "2", "--deals", "1", "--violations", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2 tables, speed max"
    assert Counter(line.split(":")[0] for line in lines[-2:]) == Counter({"T1": 1, "T2": 1})
    log = tmp_path / "t.jsonl"
    table = simulated_tables(1, seed=3, deals=1, violations=0.1)[0]
    log.write_text("\n".join(e.to_line() for e in table.events) + "\n", encoding="utf-8")
    assert main(["demo", *quick, "--log", str(log)]) == 0
    assert capsys.readouterr().out.count("⚑") == len(table.truth)


def _what(event) -> tuple:
    return event.TYPE, getattr(event, "seat", None), getattr(event, "cards", None)


def test_demo_tables_are_seen_through_the_camera():
    """A deal rendered as video, read by the shipped card reader and tracked: the referee gets the
    camera's plays (not the simulator's), they are the simulator's plays, and every injected violation
    is still flagged; the console's image of a play is the rectified table with those cards on it."""
    from referee_station.commands.demo import add_parser, tables_of
    from referee_station.vision.pipeline import seen_by_camera

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    args = parser.parse_args(["demo", "--tables", "1", "--deals", "1", "--seed", "4", "--violations", "0.05"])
    (live,) = tables_of(args)
    (table,) = simulated_tables(1, seed=4, deals=1, violations=0.05)
    assert len(table.truth) >= 2  # the seed injects violations worth checking
    model = run_headless([live], speed=0, out=io.StringIO())
    camera = live.camera
    assert camera.pipeline.stats.reads > 0  # the card reader really ran
    truth = [e for e in table.events if seen_by_camera(e)]
    assert [_what(e) for e in camera.camera_events] == [_what(e) for e in truth]
    lag = [abs(a.t - b.t) for a, b in zip(camera.camera_events, truth, strict=True)]
    assert max(lag) < 0.5  # the camera times a play by when the cards landed
    assert_flags_match_injected(model, table)
    anomalies = [a.flag for a in model.alerts.answered + model.alerts.pending if a.flag.penalty == "anomaly"]
    assert anomalies == []  # e.g. no input fed out of time order around the camera's plays
    image = model.table("T1").frame
    assert image is not None and image.shape == (540, 540, 3)
    assert image[100:440, 100:440].std() > 10  # the cloth with cards and markers, not an empty image


def test_demo_names_missing_artwork(capsys):
    assert main(["demo", "--headless", "--tables", "1", "--deals", "1", "--design", "no_such_deck"]) == 2
    assert "no_such_deck" in capsys.readouterr().err


def test_demo_reads_with_a_deck_profile_and_reports_a_mismatch(tmp_path, capsys):
    """``--deck``: the tables are read with the profile's classifier; a profile that does not fit the cards
    on the table (here: one demanding a mean confidence no reader reaches) is reported while they play,
    by each table's own deck check, to that table."""
    from tests.deck.test_profile import generic_profile

    generic_profile(0.99).save(tmp_path / "g.deck")
    (table,) = simulated_tables(1, seed=3, deals=1, violations=0.0)
    log = tmp_path / "t.jsonl"
    log.write_text("\n".join(e.to_line() for e in table.events if e.t <= 150) + "\n", encoding="utf-8")
    deck = ["--deck", str(tmp_path / "g.deck")]
    assert main(["demo", "--headless", "--speed", "0", "--log", str(log), "--log", str(log), *deck]) == 0
    warnings = [line for line in capsys.readouterr().out.splitlines() if "⚠" in line]
    assert len(warnings) == 2 and all("deck profile 'generic' does not match" in line for line in warnings)
    assert sorted(line.split()[1] for line in warnings) == ["T1", "T2"]
    generic_profile(0.3).save(tmp_path / "fits.deck")
    assert main(["demo", "--headless", "--speed", "0", "--log", str(log), "--deck", str(tmp_path / "fits.deck")]) == 0
    assert "⚠" not in capsys.readouterr().out
    (tmp_path / "bad.deck").write_bytes(b"junk")
    assert main(["demo", "--headless", "--log", str(log), "--deck", str(tmp_path / "bad.deck")]) == 2
    assert "not a deck profile" in capsys.readouterr().err
