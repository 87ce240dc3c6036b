"""The head console's view of the hall: what the subscriber stores, turned into the console models'
updates (``TableUpdate``), so the head referee's window is the same console as a table's.

Why a shadow referee per table: the console models are built from the referee's ``snapshot()`` (the
deal, the clocks, the open flags, the ladder), and the bus carries only the log. The referee is a
pure state machine whose outputs are a function of its inputs (DESIGN.md), so feeding each table's
input records, in log order, to a ``CorrectingReferee`` of our own gives the station's state and its
outputs at once, with no wait for the outputs' own messages. Those messages are still checked
against what the shadow produced: a difference (another rules configuration at the station, a
record missing) is reported as a ``FeedWarning``, never hidden.

Threads: ``record`` and ``status`` are called by the head's viewer thread as messages arrive
(``HeadConsole``'s ``on_received`` / ``on_status``: the screen does not wait for the register
commit), ``evidence`` by its register writer (``on_evidence``), all three by ``load`` at start-up;
``take`` is called by the GUI thread.
Everything in between is guarded by one lock, and only plain frozen values cross to the GUI.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from referee_station.console.models.messages import Message
from referee_station.core.queues import drain
from referee_station.hall.evidence import Evidence, jpeg_frame
from referee_station.hall.topics import Envelope
from referee_station.station.live.update import TableUpdate
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import EventError, Flag, Ruling, parse_line

TABLE = "table"
"""``who`` of a table's own records (its camera, seat units and its own referee's entries)."""


@dataclass(frozen=True)
class EvidenceUpdate:
    """A flag's camera frame, arrived after its flag (``frame`` is an RGB array)."""

    table: str
    flag: int
    frame: Any


@dataclass(frozen=True)
class StatusUpdate:
    """A station's connection as its retained ``status`` says: online, or offline (its last will
    when the connection died), shown on its tile at once."""

    table: str
    online: bool


@dataclass(frozen=True)
class FeedWarning:
    """Something the head referee should know about a table's feed (``t``: table time)."""

    table: str
    t: float
    message: Message
    """Shown in the console's language (``console/models/messages.py``)."""


FeedItem = TableUpdate | EvidenceUpdate | StatusUpdate | FeedWarning


class StoredHall(Protocol):
    """What ``load`` reads of the register (``hall.register.Register``)."""

    def envelopes(self, hall: str) -> list[Envelope]: ...

    def evidence(self, hall: str) -> list[Evidence]: ...


@dataclass
class _Shadow:
    """One table's log as the head has followed it."""

    log: str
    referee: CorrectingReferee
    last_seq: int = 0
    seen: set[int] = field(default_factory=set)
    expected: deque[str] = field(default_factory=deque)
    """The shadow's outputs whose own messages have not arrived yet, in order."""
    flags: set[int] = field(default_factory=set)


class HallFeed:
    """Envelopes and evidence in, ``FeedItem``s out (``take``)."""

    def __init__(self, referee_of: Callable[[str], str | None] = lambda command_id: None) -> None:
        self.referee_of = referee_of
        """Who issued a head ruling command, by its id (the register's ``rulings`` audit)."""
        self._lock = threading.Lock()
        self._out: queue.SimpleQueue[FeedItem] = queue.SimpleQueue()
        self._shadows: dict[str, _Shadow] = {}
        self._frames: dict[tuple[str, str, int], Any] = {}
        """Frames that arrived before their flag: (table, log, flag) -> RGB array."""
        self.followed: dict[str, int] = {}
        """Records followed per table (copies and late ones not counted)."""

    # ------------------------------------------------------------------ in (writer thread, or load)

    def load(self, register: StoredHall, hall: str) -> int:
        """Replay what the register holds (a head console started mid-event); returns the records."""
        for evidence in register.evidence(hall):
            self.evidence(evidence)
        envelopes = register.envelopes(hall)
        for envelope in envelopes:
            self.record(envelope)
        return len(envelopes)

    def record(self, envelope: Envelope) -> None:
        """One stored record of a table's log."""
        with self._lock:
            shadow = self._shadow(envelope.table, envelope.log, envelope.t)
            if envelope.seq in shadow.seen:
                return  # a copy (the register replay and the live bus overlap at start-up)
            shadow.seen.add(envelope.seq)
            if envelope.seq < shadow.last_seq:
                self._warn(envelope.table, envelope.t, Message("feed_late", {"id": envelope.id}))
                return
            shadow.last_seq = envelope.seq
            try:
                record = parse_line(envelope.body)
            except (EventError, ValueError) as err:
                self._warn(envelope.table, envelope.t, Message("feed_unreadable", {"id": envelope.id, "error": err}))
                return
            self.followed[envelope.table] = self.followed.get(envelope.table, 0) + 1
            try:
                if envelope.is_input:
                    self._input(envelope, record, shadow)
                else:
                    self._output(envelope, shadow)
            except Exception as err:  # one table's odd record must not stop the head's writer (every table)
                self._warn(
                    envelope.table, envelope.t, Message("feed_not_followed", {"id": envelope.id, "error": repr(err)})
                )

    def status(self, table: str, state: str) -> None:
        """A station's status message (``online`` / ``offline``)."""
        self._out.put(StatusUpdate(table, state == "online"))

    def evidence(self, evidence: Evidence) -> None:
        """A flag's camera frame (JPEG), stored by the head."""
        frame = jpeg_frame(evidence.jpeg)
        with self._lock:
            if frame is None:
                self._warn(evidence.table, evidence.t, Message("feed_bad_frame", {"flag": evidence.flag}))
                return
            shadow = self._shadows.get(evidence.table)
            if shadow is not None and shadow.log == evidence.log and evidence.flag in shadow.flags:
                self._out.put(EvidenceUpdate(evidence.table, evidence.flag, frame))
            else:
                self._frames[evidence.table, evidence.log, evidence.flag] = frame

    # ------------------------------------------------------------------ out (GUI thread)

    def take(self) -> list[FeedItem]:
        """Everything produced since the last call, in order."""
        return drain(self._out)

    # ------------------------------------------------------------------ inside

    def _shadow(self, table: str, log: str, t: float) -> _Shadow:
        shadow = self._shadows.get(table)
        if shadow is None or shadow.log != log:
            if shadow is not None:
                self._warn(table, t, Message("feed_new_log", {"log": log, "was": shadow.log}))
            shadow = self._shadows[table] = _Shadow(log, CorrectingReferee())
        return shadow

    def _input(self, envelope: Envelope, record: Any, shadow: _Shadow) -> None:
        if shadow.expected:
            n = len(shadow.expected)
            self._warn(envelope.table, envelope.t, Message("feed_missing_outputs", {"n": n, "seq": envelope.seq}))
            shadow.expected.clear()
        outputs = tuple(shadow.referee.feed(record))
        shadow.expected.extend(out.to_line() for out in outputs)
        frame = None
        for out in outputs:
            if isinstance(out, Flag):
                shadow.flags.add(out.id)
                frame = self._frames.pop((envelope.table, envelope.log, out.id), frame)
        who = TABLE
        if isinstance(record, Ruling) and envelope.cause:
            who = self.referee_of(envelope.cause) or TABLE
        age = max(0.0, time.time() - envelope.sent_at)
        self._out.put(
            TableUpdate(
                table=envelope.table,
                event=record,
                outputs=outputs,
                snapshot=shadow.referee.snapshot(),
                who=who,
                produced=time.monotonic() - age,
                frame=frame,
            )
        )

    def _output(self, envelope: Envelope, shadow: _Shadow) -> None:
        expected = shadow.expected.popleft() if shadow.expected else None
        if expected is None or json.loads(expected) != json.loads(envelope.body):
            self._warn(
                envelope.table, envelope.t, Message("feed_differs", {"seq": envelope.seq, "type": envelope.type})
            )

    def _warn(self, table: str, t: float, message: Message) -> None:
        self._out.put(FeedWarning(table, t, message))
