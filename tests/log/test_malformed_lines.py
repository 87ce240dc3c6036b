"""Issue 25 item 6, on real files and a real SQLite log: every malformed line is skipped with its
line number, and nothing else of the file is refused, by ``log import`` (with and without
``--replay``) and by ``replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee_station.cli import main
from referee_station.log.store import EventStore
from referee_station.rules import Card
from referee_station.table.events import EventError, parse_line
from tests.fuzzing import base_lines

BROKEN = [
    ('{"t":' + "9" * 400 + ',"type":"tick"}', "field 't' must be a non-negative number"),
    ('{"t":1,"type":"tick","x":' + "9" * 5000 + "}", "more than 4300 digits"),
    ("[" * 50_000 + "]" * 50_000, "nested deeper"),
    ('{"t":2,"type":"play","seat":"E","cards":[{}]}', "a card code is a string"),
    ('{"t":2,"type":"play","seat":"E","cards":[["3s"]]}', "a card code is a string"),
    ('{"t":12,"type":"deal_end","deal":1}', "deal_end: missing field 'order'"),
    ('{"t":3,"type":"match","sides":{"EW":"\\ud800","NS":"B"}}', "lone UTF-16 surrogate"),
    ('{"t":4,"type":"match","sides":{"EW":"A","NS":"B"},"rules":{"play_limit":"x"}}', "'play_limit'"),
    ('{"t":5,"type":"flag","id":"one","seat":"E","side":"EW","offence":"x","rule":"R","penalty":"warning",'
     '"detail":"","detail_zh":""}', "flag: field 'id' must be an integer"),
    ('{"t":6,"type":"countdown","seat":"E","action":"follow","limit":1e999,"deadline":1}', "'limit'"),
    ('{"t":7,"type":"play","seat":"E","cards":["3s","4s"],"alternatives":[[["3s",0.9]]]}', "list of 2 lists"),
    ('{"t":7,"type":"play","seat":"E","cards":["3s"],"alternatives":[[["3x",0.9]]]}', "alternatives\\[0\\]"),
    ('{"t":7,"type":"play","seat":"E","cards":["3s"],"alternatives":[[["3s",1.5]]]}', "probability must be"),
]  # fmt: skip


@pytest.mark.parametrize("line, error", BROKEN, ids=[e for _, e in BROKEN])
def test_a_broken_line_is_an_event_error_naming_the_fault(line: str, error: str) -> None:
    with pytest.raises(EventError, match=error):
        parse_line(line)


def test_a_play_with_alternatives_round_trips() -> None:
    line = (
        '{"t":7,"type":"play","seat":"E","cards":["Js","Jd"],"confidence":0.4,'
        '"alternatives":[[["Js",0.55],["Jc",0.4]],[["Jd",0.99]]]}'
    )
    record = parse_line(line)
    assert record.alternatives == (((Card("Js"), 0.55), (Card("Jc"), 0.4)), ((Card("Jd"), 0.99),))
    assert parse_line(record.to_line()) == record


def interleaved(tmp_path: Path) -> tuple[Path, list[str], list[int]]:
    """The base log with a broken line after every 10 good ones; the broken lines' numbers."""
    good = list(base_lines())
    lines, numbers = [], []
    for n, line in enumerate(good):
        lines.append(line)
        if n % 10 == 1 and len(numbers) < len(BROKEN):
            lines.append(BROKEN[len(numbers)][0])
            numbers.append(len(lines))
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, good, numbers


def test_log_import_keeps_every_good_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, good, numbers = interleaved(tmp_path)
    assert len(numbers) == len(BROKEN)
    db = tmp_path / "station.db"
    assert main(["log", "import", str(path), str(db), "--table", "T1"]) == 1
    err = capsys.readouterr().err
    assert [int(line.split(":")[1]) for line in err.splitlines() if "skipped" in line] == numbers
    with EventStore(db) as store:
        assert list(store.lines("T1")) == good
    replayed = tmp_path / "replayed.db"
    assert main(["log", "import", str(path), str(replayed), "--table", "T1", "--replay", "--auto-confirm"]) == 1
    assert f"imported {len(good)} records" in capsys.readouterr().err


def test_replay_reads_past_the_broken_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, good, numbers = interleaved(tmp_path)
    clean = tmp_path / "clean.jsonl"
    clean.write_text("\n".join(good) + "\n", encoding="utf-8")
    assert main(["replay", str(clean), "--json", "--auto-confirm"]) == 0
    expected = capsys.readouterr().out.splitlines()
    assert main(["replay", str(path), "--json", "--auto-confirm"]) == 1
    out, err = capsys.readouterr()
    assert [json.loads(line) for line in out.splitlines()] == [json.loads(line) for line in expected]
    assert [int(line.split(":")[1]) for line in err.splitlines() if "skipped" in line] == numbers
    assert "Traceback" not in err
