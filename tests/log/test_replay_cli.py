"""``referee-station replay``: JSON lines only on stdout with --json, a readable bilingual timeline
without, malformed lines reported by number and skipped, JSON Lines and SQLite logs alike."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee_station.cli import main
from referee_station.log.jsonl import write_jsonl
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate
from tests.sim.agreement import referee_outputs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def match():
    result = simulate(17, 1, 0.04)
    assert result.truth, "the fixture needs some violations"
    return result


@pytest.fixture
def log(tmp_path, match):
    path = tmp_path / "match.jsonl"
    write_jsonl(path, match.events)
    return path


def expected(match) -> list[str]:
    return [out.to_line() for out in referee_outputs([e.to_line() for e in match.events])]


def test_json_prints_only_the_outputs(log, match, capsys):
    assert main(["replay", str(log), "--json", "--auto-confirm"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert all(isinstance(json.loads(line), dict) for line in lines)
    assert lines == expected(match)
    assert captured.err == ""


def test_same_log_same_outputs_and_outputs_in_the_log_are_recomputed(tmp_path, log, match, capsys):
    main(["replay", str(log), "--json", "--auto-confirm"])
    first = capsys.readouterr().out
    # a log that already holds outputs (as the station writes it) replays to the same outputs
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(log.read_text(encoding="utf-8") + first, encoding="utf-8")
    main(["replay", str(mixed), "--json", "--auto-confirm"])
    assert capsys.readouterr().out == first


def test_malformed_lines_are_reported_and_skipped(tmp_path, log, match, capsys):
    lines = log.read_text(encoding="utf-8").splitlines()
    broken = [*lines[:3], "{oops", *lines[3:10], '{"t": 9, "type": "play", "seat": "Q", "cards": ["3s"]}', *lines[10:]]
    bad = tmp_path / "broken.jsonl"
    bad.write_text("\n".join(broken) + "\n", encoding="utf-8")
    assert main(["replay", str(bad), "--json", "--auto-confirm"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == expected(match)
    assert f"{bad}:4: skipped: not JSON" in captured.err
    assert f"{bad}:12: skipped: play: field 'seat'" in captured.err


def test_sqlite_log_replays_like_the_jsonl(tmp_path, log, match, capsys):
    db = tmp_path / "station.db"
    with EventStore(db) as store:
        store.append_many("T3", match.events)
    assert main(["replay", str(db), "--json", "--auto-confirm"]) == 0
    assert capsys.readouterr().out.splitlines() == expected(match)
    with EventStore(db) as store:
        store.append_many("T4", match.events[:5])
    assert main(["replay", str(db), "--json"]) == 2
    assert "--table" in capsys.readouterr().err
    assert main(["replay", str(db), "--json", "--auto-confirm", "--table", "T3"]) == 0
    assert capsys.readouterr().out.splitlines() == expected(match)


def test_timeline_names_offences_in_chinese_and_english(log, match, capsys):
    assert main(["replay", str(log), "--auto-confirm"]) == 0
    text = capsys.readouterr().out
    offence = match.truth[0].offence
    assert f"flag #1 {match.truth[0].seat}" in text
    assert {"overtime": "超时 overtime", "out_of_turn_pass": "越序表态 out-of-turn pass"}.get(offence, "") in text
    assert "deal 1 ends" in text and "line" in text


def test_unreadable_log_exits_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_console_script_stdout_is_json_only(log, match):
    run = subprocess.run(
        [sys.executable, "-m", "referee_station.cli", "replay", str(log), "--json", "--auto-confirm"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.splitlines() == expected(match)
