"""kill -9 at any moment loses nothing acknowledged (issue 3): a real station process writing a
simulated match into SQLite is killed with SIGKILL while writing, restarted, and must end with
every acknowledged event exactly once, in order, and the same log as an uninterrupted run."""

import os
import signal
import subprocess
import sys
from pathlib import Path

from referee_station.log.jsonl import write_jsonl
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate
from referee_station.table.referee import TableReferee

ROOT = Path(__file__).resolve().parents[2]
KILL_AFTER = (37, 150, 290)
"""Acknowledged events after which each run is killed."""


def start(db: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.log.station_writer", str(db), str(log), "T7"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )


def test_kill_9_while_writing_then_restart(tmp_path):
    events = simulate(13, 2, 0.05).events[:900]
    assert len(events) > max(KILL_AFTER) + 500  # the writer cannot finish before the kill lands
    log, db = tmp_path / "match.jsonl", tmp_path / "station.db"
    write_jsonl(log, events)
    for kill_after in KILL_AFTER:
        with start(db, log) as proc:
            assert proc.stdout is not None
            acked = 0
            while acked < kill_after:
                acked = int(proc.stdout.readline())
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        with EventStore(db) as store:
            stored = [record.to_line() for record in store.inputs("T7")]
        assert len(stored) >= acked, "an acknowledged event was lost"
        assert stored == [event.to_line() for event in events[: len(stored)]], "lost, duplicated or reordered"
    with start(db, log) as proc:
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert int(out.split()[-1]) == len(events)
    with EventStore(db) as store:
        stored = [line for line, _ in store.rows("T7")]
    assert stored == uninterrupted(events)


def uninterrupted(events) -> list[str]:
    """The log of a station that never crashed: each input line followed by its outputs."""
    referee = TableReferee(auto_confirm=True)
    lines = []
    for event in events:
        lines += [event.to_line()] + [out.to_line() for out in referee.feed(event)]
    return lines
