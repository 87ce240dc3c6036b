"""Scripted tables for console tests: EVENTS.md input records with known flags, and a console
model wired to a live hall the way the application wires it (entries go back through runners)."""

from __future__ import annotations

import time
from typing import Any

from referee_station.console.models.console import ConsoleModel
from referee_station.hall.topics import Envelope, record_id
from referee_station.station.live.hall import LiveHall
from referee_station.station.live.runner import TableRunner
from referee_station.table.events import Record, parse_record
from referee_station.table.referee import TableReferee
from tests.table.helpers import Table, east_west_sweep


class RecordingTable(Table):
    """The scenario helper of the table tests, keeping the input records it fed."""

    def __init__(self, **match: Any) -> None:
        self.records: list[Record] = []
        super().__init__(auto_confirm=False, **match)

    def feed(self, line: dict[str, Any], advance: float | None = None) -> list[dict[str, Any]]:
        out = super().feed(line, advance)
        self.records.append(parse_record({"t": self.t, **line}))
        return out


def one_deal_with_flags() -> list[Record]:
    """Deal 1: S plays out of turn (R-PLAY-1, infraction), N passes out of turn (warning), then E
    and W sweep the deal (EW 1st and 2nd, up 3 levels)."""
    table = RecordingTable()
    table.deal("E")
    table.play("S", "3h")
    table.pass_("N")
    east_west_sweep(table)
    return table.records


def two_warnings() -> list[Record]:
    """Two out-of-turn passes by N (R-PLAY-1, warnings): confirmed, they make an infraction."""
    table = RecordingTable()
    table.deal("E")
    table.pass_("N", "N")
    return table.records


def wrong_plays() -> list[Record]:
    """E leads 5s; N follows 3h, which does not beat it (R-CMP); S plays 4h while N is to act (R-PLAY-1)."""
    table = RecordingTable()
    table.deal("E")
    table.play("E", "5s")
    table.play("N", "3h")
    table.play("S", "4h")
    return table.records


def shown_active(qtbot, widget) -> None:
    """Show ``widget`` as the active window: the ruling keys act only where the focus can be."""
    qtbot.addWidget(widget)
    widget.show()
    widget.windowHandle().requestActivate()
    qtbot.waitUntil(widget.isActiveWindow)


class Wired:
    """A console model fed by a live hall of scripted tables, unpaced."""

    def __init__(self, tables: dict[str, list[Record]]) -> None:
        self.model = ConsoleModel(referee="张裁判")
        self.hall = LiveHall([TableRunner(name, records) for name, records in tables.items()], speed=0)
        self.model.send.connect(lambda table, event, who: self.hall.runners[table].submit(event, who))

    def run(self) -> None:
        """Feed everything due (entries first) until nothing is left."""
        while True:
            updates = self.hall.due()
            if not updates:
                return
            for update in updates:
                self.model.apply(update)


def envelopes(
    table: str, inputs: list[Record], log: str = "abcd", cause: dict[int, str] | None = None
) -> list[Envelope]:
    """The records a station logs for ``inputs`` (each input, then its outputs), as sent."""
    referee = TableReferee()
    out: list[Envelope] = []
    for event in inputs:
        outputs = referee.feed(event)
        for record in (event, *outputs):
            seq = len(out) + 1
            body, cause_id = record.to_line(), (cause or {}).get(seq)
            envelope = Envelope(
                record_id(table, log, seq),
                table,
                log,
                seq,
                record.t,
                record.TYPE,
                record.IS_INPUT,
                body,
                time.time(),
                cause_id,
            )
            out.append(envelope)
    return out
