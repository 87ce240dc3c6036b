"""One table's station: feed the referee and persist, atomically, every event it accepts.

``submit`` returns only after the input event and the outputs it caused are committed in one
transaction (:meth:`EventStore.append`): that is what "acknowledged" means to a source. A station
killed at any moment therefore loses nothing acknowledged, and ``TableStation.open`` rebuilds the
referee by replaying the stored inputs (the referee is a pure state machine, DESIGN.md), checking
that it regenerates exactly the stored outputs.
"""

from __future__ import annotations

from referee_station.log.store import EventStore
from referee_station.table.config import RulesConfig
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import Output, Record, parse_line


class ReplayMismatch(RuntimeError):
    """Replaying a table's stored inputs did not give its stored outputs: the log or the referee
    changed. The station refuses to go on rather than referee from a state nobody recorded."""


class TableStation:
    """A :class:`CorrectingReferee` whose every fed event is logged before it is acknowledged."""

    def __init__(
        self, store: EventStore, table_id: str, config: RulesConfig | None = None, *, auto_confirm: bool = False
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.referee = CorrectingReferee(config, auto_confirm=auto_confirm)
        self.inputs = 0
        """Input events fed so far (stored and replayed ones included)."""

    @classmethod
    def open(
        cls, store: EventStore, table_id: str, config: RulesConfig | None = None, *, auto_confirm: bool = False
    ) -> TableStation:
        """Rebuild a table's station from its log: replay the stored inputs into a fresh referee
        and check the regenerated outputs against the stored ones (:class:`ReplayMismatch`)."""
        station = cls(store, table_id, config, auto_confirm=auto_confirm)
        stored: list[str] = []
        regenerated: list[str] = []
        for line, is_input in store.rows(table_id):
            if is_input:
                regenerated += [out.to_line() for out in station.referee.feed(parse_line(line))]
                station.inputs += 1
            else:
                stored.append(line)
        if stored != regenerated:
            at = next((i for i, (a, b) in enumerate(zip(stored, regenerated, strict=False)) if a != b), None)
            at = min(len(stored), len(regenerated)) if at is None else at
            raise ReplayMismatch(
                f"table {table_id}: replaying {station.inputs} stored inputs gave {len(regenerated)} outputs, "
                f"{len(stored)} stored; first difference at output {at + 1}"
            )
        return station

    def submit(self, event: Record) -> list[Output]:
        """Feed one input event, store it with its outputs in one transaction, then return the outputs.

        If storing fails the referee has already moved on: the station must be rebuilt with
        :meth:`open` before it takes another event (the exception says so by propagating).
        """
        outputs = self.referee.feed(event)
        self.store.append(self.table_id, event, outputs)
        self.inputs += 1
        return outputs
