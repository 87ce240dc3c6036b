"""The demo without a display: the live hall played at ``speed`` in this thread, its timeline
printed as it happens, the flags confirmed automatically (no referee at a terminal: every flag
climbs the ladder, as ``replay --auto-confirm`` does), and a summary per table at the end."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import TextIO

from referee_station.console.models.console import ConsoleModel
from referee_station.console.timeline import timeline_lines
from referee_station.station.live.feed import LiveTable
from referee_station.station.live.hall import LiveHall
from referee_station.station.live.runner import TableRunner

LONGEST_SLEEP = 0.5


def run_headless(
    tables: Sequence[LiveTable], speed: float, out: TextIO | None = None, *, devices: bool = False
) -> ConsoleModel:
    """Play every table to its end; return the console model (alerts, register, record sheets)."""
    out = out or sys.stdout
    model = ConsoleModel(referee="auto")
    runners = [TableRunner(t.name, t.feed, camera=t.camera, devices=devices, auto_confirm=True) for t in tables]
    hall = LiveHall(runners, speed)
    print(f"{len(tables)} tables, speed {'max' if speed <= 0 else f'{speed:g}×'}", file=out, flush=True)
    try:
        while not hall.done:
            for update in hall.due():
                model.apply(update)
                for line in timeline_lines(update):
                    print(line, file=out, flush=True)
                _print_warnings(hall, out)
            time.sleep(min(LONGEST_SLEEP, hall.wait()))
    finally:
        hall.close()
    _print_warnings(hall, out)
    for name in hall.runners:
        table = model.table(name)
        flags = sum(1 for a in model.alerts.answered + model.alerts.pending if a.table == name)
        result = model.sheet.sheet(name).result_line("en") or "match not finished"
        print(f"{name}: {len(table.results)} deals, {flags} flags; {result}", file=out, flush=True)
    return model


def _print_warnings(hall: LiveHall, out: TextIO) -> None:
    """The cameras' warnings (moved, deck mismatch) since the last look, as timeline lines."""
    for table, when, text in hall.warnings():
        print(f"{when:8.1f}s {table:>4}  ⚠ {text}", file=out, flush=True)
