"""End to end: the headless demo plays simulated tables with injected violations, and every
injected violation is flagged by the table's referee (same seat, same offence, not before it)."""

from __future__ import annotations

import io
from collections import Counter

from referee_station.cli import main
from referee_station.console.live.headless import run_headless
from referee_station.console.live.simulated import simulated_tables


def test_every_injected_violation_is_flagged():
    tables = simulated_tables(4, seed=7, deals=3, violations=0.05)
    out = io.StringIO()
    model = run_headless([(t.name, t.events) for t in tables], speed=0, out=out)
    assert sum(len(t.truth) for t in tables) >= 8  # enough to mean something
    for table in tables:
        flags = [a.flag for a in model.alerts.answered + model.alerts.pending if a.table == table.name]
        for injected in table.truth:
            match = next((f for f in flags if (f.seat, f.offence) == (injected.seat, injected.offence)), None)
            assert match is not None, f"{table.name}: {injected} was not flagged"
            assert match.t >= injected.t
            flags.remove(match)
        assert [f for f in flags if f.penalty != "anomaly"] == [], f"{table.name}: flags nothing injected"
        assert model.table(table.name).match_end is not None  # 3 deals, or fewer after a match loss
    text = out.getvalue()
    assert text.count("⚑") == sum(len(t.truth) for t in tables)
    assert text.count("★") == 4


def test_demo_command_headless(capsys, tmp_path):
    assert main(["demo", "--headless", "--tables", "2", "--deals", "1", "--speed", "0", "--violations", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2 tables, speed max"
    assert Counter(line.split(":")[0] for line in lines[-2:]) == Counter({"T1": 1, "T2": 1})
    log = tmp_path / "t.jsonl"
    table = simulated_tables(1, seed=3, deals=1, violations=0.1)[0]
    log.write_text("\n".join(e.to_line() for e in table.events) + "\n", encoding="utf-8")
    assert main(["demo", "--headless", "--speed", "0", "--log", str(log)]) == 0
    assert capsys.readouterr().out.count("⚑") == len(table.truth)
