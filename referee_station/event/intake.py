"""A table's result from its station log: the last ``match_end`` record (EVENTS.md) becomes the
event's report for that table, still to be confirmed by both sides."""

from __future__ import annotations

from collections.abc import Iterable

from referee_station.event.actions import ResultReported
from referee_station.table.events import SIDES, MatchEnd, Record


class IntakeError(ValueError):
    """A log that holds no usable ``match_end`` (the message names the log and the field)."""


def last_match_end(records: Iterable[Record], source: str) -> MatchEnd:
    """The last ``match_end`` of a table's log."""
    ends = [r for r in records if isinstance(r, MatchEnd)]
    if not ends:
        raise IntakeError(f"{source}: no match_end record; the match is not over")
    return ends[-1]


def report_from_match_end(end: MatchEnd, round_no: int, table: int, at: float, by: str, source: str) -> ResultReported:
    """The report a station's ``match_end`` makes: its winner and levels gained (得分/失分); its
    ``level_diff_points`` are kept for the audit, the event's 26-point table gives the 小分."""
    for name in ("levels_gained", "level_diff_points"):
        value = getattr(end, name)
        if set(value) != set(SIDES):
            raise IntakeError(f"{source}: match_end at t={end.t:g} has no {name} for EW and NS: {value!r}")
    return ResultReported(
        at=at,
        by=by,
        round=round_no,
        table=table,
        winner=end.winner,
        gained={s: int(end.levels_gained[s]) for s in SIDES},
        station_small={s: int(end.level_diff_points[s]) for s in SIDES},
        reason=end.reason,
        source=source,
    )
