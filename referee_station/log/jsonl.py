"""JSON Lines logs (EVENTS.md): read with line numbers, write one record a line.

Reading never stops at a bad line: a log written by a crashing source or edited by hand still
replays, and every line that could not be read is reported with its number and the reason
(:class:`LineError`), so nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from referee_station.table.events import EventError, Record, parse_line


@dataclass(frozen=True)
class LineError:
    """A log line that is not a record of EVENTS.md; ``line`` counts from 1."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class NumberedRecord:
    """A record and the line it was read from, so later findings can point back at the log."""

    line: int
    record: Record


def iter_lines(lines: Iterable[str]) -> Iterator[NumberedRecord | LineError]:
    """Parse each non-blank line; yield the record, or a :class:`LineError` for a malformed one."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            yield NumberedRecord(number, parse_line(text))
        except EventError as err:
            yield LineError(number, str(err))


def read_jsonl(path: str | Path) -> tuple[list[NumberedRecord], list[LineError]]:
    """Every readable record of a JSON Lines log and the errors of the lines that were not."""
    records: list[NumberedRecord] = []
    errors: list[LineError] = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for item in iter_lines(f):
            (records if isinstance(item, NumberedRecord) else errors).append(item)
    return records, errors


def write_records(out: TextIO, records: Iterable[Record]) -> int:
    """Write records as JSON lines; returns how many."""
    count = 0
    for record in records:
        out.write(record.to_line())
        out.write("\n")
        count += 1
    return count


def write_jsonl(path: str | Path, records: Iterable[Record]) -> int:
    """Write a JSON Lines log file (replacing it); returns the number of lines."""
    with open(path, "w", encoding="utf-8") as f:
        return write_records(f, records)
