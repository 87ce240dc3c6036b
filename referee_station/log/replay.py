"""Replay: feed a log's input events to a fresh referee and collect its outputs (EVENTS.md).

The referee is a pure state machine, so the same log always replays to the same outputs; a log
is a JSON Lines file or the station's SQLite database (told apart by the file header). Outputs
already in the log are ignored: replay recomputes them, which is how a ruling is audited.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from referee_station.core.state import TableState
from referee_station.log.jsonl import LineError, NumberedRecord, iter_lines, read_jsonl
from referee_station.log.store import EventStore, is_sqlite
from referee_station.table.config import RulesConfig
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Output, Record


@dataclass(frozen=True)
class ReplayedInput:
    """One input fed again: its line, the record, what the referee said and its state after it."""

    line: int
    record: Record
    outputs: tuple[Output, ...]
    snapshot: TableState


class LogNotFound(ValueError):
    """The log cannot be read at all, or the table asked for is not in it."""


@dataclass(frozen=True)
class LoadedLog:
    """A log's input events with their line numbers, and the lines that could not be read."""

    inputs: list[NumberedRecord]
    errors: list[LineError]


def load(path: str | Path, table_id: str | None = None) -> LoadedLog:
    """Read the input events of a JSON Lines log, or of one table of an SQLite log.

    In a database, "line" numbers count the table's stored records from 1. Without ``table_id`` a
    database must hold exactly one table.
    """
    path = Path(path)
    try:
        sqlite = is_sqlite(path)
    except OSError as err:
        raise LogNotFound(f"cannot read {path}: {err.strerror}") from err
    if not sqlite:
        records, errors = read_jsonl(path)
        return LoadedLog([r for r in records if r.record.IS_INPUT], errors)
    with EventStore(path) as store:
        tables = store.tables()
        if table_id is None:
            if len(tables) != 1:
                raise LogNotFound(f"{path} holds tables {', '.join(tables) or '(none)'}; name one with --table")
            table_id = tables[0]
        elif table_id not in tables:
            raise LogNotFound(f"{path} has no table {table_id!r}; it holds {', '.join(tables) or '(none)'}")
        items = list(iter_lines(store.lines(table_id)))
    inputs = [item for item in items if isinstance(item, NumberedRecord) and item.record.IS_INPUT]
    return LoadedLog(inputs, [item for item in items if isinstance(item, LineError)])


def replay(
    inputs: Iterable[NumberedRecord], config: RulesConfig | None = None, *, auto_confirm: bool = False
) -> Iterator[tuple[int, Output]]:
    """Feed the inputs, in order, to a fresh referee; yield each output with the line that caused it."""
    referee = CorrectingReferee(config, auto_confirm=auto_confirm)
    for item in inputs:
        for output in referee.feed(item.record):
            yield item.line, output


def replay_states(inputs: Iterable[NumberedRecord], config: RulesConfig | None = None) -> Iterator[ReplayedInput]:
    """Feed the inputs, in order, to a fresh referee; yield each with its outputs and the state after it.

    What a step-by-step replay of a deal shows (the consoles' replay view): the state comes from the
    log alone, never from what a console remembered.
    """
    referee = CorrectingReferee(config)
    for item in inputs:
        outputs = tuple(referee.feed(item.record))
        yield ReplayedInput(item.line, item.record, outputs, referee.snapshot())
