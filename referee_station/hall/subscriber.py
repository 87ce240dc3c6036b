"""The head referee's side of the hall bus: see every table, keep the register, send rulings.

:class:`HeadConsole` subscribes to ``guandan/<hall>/#`` (QoS 1, a persistent session, so what was
published while it was down is delivered when it returns). Records go through one writer thread:

1. drop copies already stored (an in-memory set of ids; the register's ``ON CONFLICT`` is the final
   word, so a restarted head with an empty set still stores each record once),
2. store a batch in one transaction,
3. only then ack the batch's seqs to each station (``.../acks``), so a station forgets a record only
   when it is in PostgreSQL. Copies are acked too: the station that resent is waiting for that ack.
   A flag's camera frame is acked the same way once stored (``{"log", "frames"}``).

A console does not wait for PostgreSQL: each checked record, and each table's online/offline status
(a station's last will included), also goes at once to a viewer thread (``on_received``,
``on_status``), so a flag reaches the screen however long a register commit takes. The view may see
a copy twice (the feed drops it by seq) and, rarely, a record the register then quarantines.

The topic's table is the one the broker authenticated (ACL, client id bound to the login). Every
message is checked before it reaches the writer (``Envelope.decode``: field types, the id equal to
``<topic's table>:<log>:<seq>``, the body the record it claims to be); one that fails is quarantined:
kept in the register's ``quarantine`` table and shown as an alarm of that table (:attr:`alarms`,
``on_alarm``), never stored as a record and never acked. A record the database still refuses is
quarantined alone and the rest of its batch stored, so no station's message can stop the writer
or another table's records.

Rulings need a referee logged in (:meth:`login`); a ruling is checked whole (table name, flag,
decision) before it is written to the register's ``rulings`` table under that name and sent, and
linked to the station's ``ruling`` record when that arrives (``cause``); one not linked yet is sent
again whenever the table comes online (the station drops a copy it applied already).
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
import uuid
from collections import OrderedDict, defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
import psycopg
from paho.mqtt.subscribeoptions import SubscribeOptions

from referee_station.core import DECISIONS
from referee_station.hall.assignment import Assignment, publish_assignment
from referee_station.hall.auth import LoginError, Session, check_referee
from referee_station.hall.broker_url import BrokerURL, connect, make_client
from referee_station.hall.evidence import Evidence
from referee_station.hall.register import Register
from referee_station.hall.rounds import RoundCall, round_topic
from referee_station.hall.topics import (
    HEAD_CHANNELS,
    STATION_CHANNELS,
    Envelope,
    Quarantined,
    RulingCommand,
    TimerCommand,
    TopicError,
    channel_of,
    check_name,
    decode_status,
    encode_json,
    hall_filter,
    split_topic,
    topic,
)
from referee_station.table.events import Reverse, Settle

log = logging.getLogger(__name__)

BATCH_MAX = 500
SEEN_MAX = 2_000_000
"""Ids remembered for dropping copies before the database (about 200 MB at most)."""
RETRY_S = 1.0
LATENCIES_KEPT = 1_000_000
ALARMS_KEPT = 100
"""Latest quarantined messages shown per table; the register keeps them all."""
FLAG_MAX = 10**9
"""The largest flag id a ``ruling`` may name (EVENTS.md)."""
TRANSIENT = (psycopg.OperationalError, psycopg.InterfaceError)
"""Register errors that mean the server or the connection is gone: retry the batch. Any other
error is about a record, which is then quarantined alone."""


@dataclass
class HeadStats:
    """What the head has seen, for the console and the load benchmark."""

    received: int = 0
    stored: int = 0
    """Records new to the register."""
    duplicates: int = 0
    """Copies dropped: by the in-memory ids or by ``ON CONFLICT (id) DO NOTHING``."""
    dropped: int = 0
    """Messages outside the station channels of this hall (not ours)."""
    quarantined: int = 0
    """Messages on a station's channel refused by the checks or by the database (alarms)."""
    writer_errors: int = 0
    """Batches the writer failed on for a reason of its own (a bug): logged, not acked, resent later."""
    latencies: deque[float] = field(default_factory=lambda: deque(maxlen=LATENCIES_KEPT))
    """Seconds from the station's log commit to the register commit, per stored record (the latest)."""
    arrivals: deque[float] = field(default_factory=lambda: deque(maxlen=LATENCIES_KEPT))
    """Seconds from the station's log commit to the head receiving it: the bus's share."""


class HeadConsole:
    """The hall's head console: subscriber, register writer, ruling sender."""

    def __init__(
        self,
        url: BrokerURL,
        hall: str,
        register: Register,
        *,
        on_record: Callable[[Envelope], None] | None = None,
        on_alarm: Callable[[Quarantined], None] | None = None,
        on_evidence: Callable[[Evidence], None] | None = None,
        on_received: Callable[[Envelope], None] | None = None,
        on_status: Callable[[str, str], None] | None = None,
    ) -> None:
        self.hall = hall
        self.url = url
        self.register = register
        self.on_record = on_record
        """Called (writer thread) for each newly stored record: the console's view hooks in here."""
        self.on_alarm = on_alarm
        """Called (writer thread) for each quarantined message, after it is in the register."""
        self.alarms: dict[str, deque[Quarantined]] = defaultdict(lambda: deque(maxlen=ALARMS_KEPT))
        """The latest quarantined messages of each table (topic's table)."""
        self.on_evidence = on_evidence
        """Called (writer thread) for each flag's camera frame once it is in the register."""
        self.on_received = on_received
        """Called (viewer thread) for each checked record as it arrives, before the register commit."""
        self.on_status = on_status
        """Called (viewer thread) with (table, "online" | "offline") as a station's status arrives."""
        self._views: queue.SimpleQueue[tuple[str, Any] | None] = queue.SimpleQueue()
        self._viewer = threading.Thread(target=self._view_loop, name="hall-view", daemon=True)
        self.stats = HeadStats()
        self.statuses: dict[str, str] = {}
        self.refused: str | None = None
        self._inbox: queue.Queue[tuple[str, str, Any] | None] = queue.Queue()
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._sessions: dict[str, Session] = {}
        self._connected = threading.Event()
        self._closing = threading.Event()
        self._client = make_client(url, client_id=f"head-{hall}")
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._writer = threading.Thread(target=self._write_loop, name="hall-register", daemon=True)

    def start(self) -> HeadConsole:
        self._writer.start()
        self._viewer.start()
        connect(self._client, self.url)
        return self

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def close(self) -> None:
        """Store what was received, then disconnect. Safe to call twice."""
        if not self._writer.is_alive():
            return
        self._closing.set()
        self._client.disconnect()
        self._client.loop_stop()
        self._inbox.put(None)
        self._writer.join()
        self._views.put(None)
        self._viewer.join()

    def __enter__(self) -> HeadConsole:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ rulings

    def login(self, referee: str, password: str) -> Session:
        """A referee's login, required before any ruling (LoginError on a wrong name or password)."""
        if not check_referee(self.register.referee(referee), password):
            raise LoginError(f"wrong referee name or password for {referee!r}")
        session = Session(referee, secrets.token_hex(16))
        self._sessions[session.token] = session
        return session

    def logout(self, session: Session) -> None:
        self._sessions.pop(session.token, None)

    def rule(
        self, session: Session | None, table: str, flag: int, decision: str, *, stop_next: bool = False
    ) -> RulingCommand:
        """Send a ruling on a table's flag; it reaches the station, which applies and logs it."""
        if session is None or self._sessions.get(session.token) != session:
            raise LoginError("log in as a referee before ruling")
        topic(self.hall, table, "rulings")  # TopicError on a table name that is no topic level
        if decision not in DECISIONS:
            raise ValueError(f"decision must be confirm or dismiss, got {decision!r}")
        if isinstance(flag, bool) or not isinstance(flag, int) or not 1 <= flag <= FLAG_MAX:
            raise ValueError(f"flag must be a flag id 1..{FLAG_MAX}, got {flag!r}")
        command = RulingCommand(str(uuid.uuid4()), flag, decision, session.referee, stop_next, time.time())
        return self._send_command(table, command)

    def correct(self, session: Session | None, table: str, correction: Settle | Reverse, flag: int) -> RulingCommand:
        """Send a correction to a table (docs/corrections.md): a ``settle`` of a doubtful read (``flag``
        its ``uncertain_read``) or a ``reverse`` of a ruling; the station logs and replays it, and its
        ``withdrawn`` records come back like any other."""
        if session is None or self._sessions.get(session.token) != session:
            raise LoginError("log in as a referee before correcting")
        if not isinstance(correction, (Settle, Reverse)):
            raise ValueError(f"a correction is a settle or a reverse, got {correction.TYPE}")
        if isinstance(flag, bool) or not isinstance(flag, int) or not 0 <= flag <= FLAG_MAX:
            raise ValueError(f"flag must be a flag id 0..{FLAG_MAX}, got {flag!r}")
        line = correction.to_line()
        command = RulingCommand(
            str(uuid.uuid4()), flag, correction.TYPE, session.referee, False, time.time(), correction=line
        )
        command.record(0.0)  # the line is the correction it says (TopicError otherwise)
        return self._send_command(table, command)

    def _send_command(self, table: str, command: RulingCommand) -> RulingCommand:
        name = topic(self.hall, table, "rulings")  # TopicError on a table name that is no topic level
        self.register.add_ruling(self.hall, table, command)  # audited only once nothing can refuse it
        self._client.publish(name, command.encode(), qos=1)
        return command

    def timer(
        self, session: Session | None, table: str, action: str, seat: str | None = None, seconds: float | None = None
    ) -> TimerCommand:
        """Pause or resume a table's clocks, or give a seat more time (EVENTS.md ``timer``): the station
        feeds it to its referee, which stops the countdowns on the table's timer (``Pause``, 0x14).
        Not kept in the register: the station's logged ``timer`` record is the audit, and a command
        for a station that is offline is lost (a pause matters while the table plays)."""
        if session is None or self._sessions.get(session.token) != session:
            raise LoginError("log in as a referee before pausing a table or adding time")
        name = topic(self.hall, table, "timer")  # TopicError on a table name that is no topic level
        command = TimerCommand(str(uuid.uuid4()), action, session.referee, seat, seconds, time.time())
        self._client.publish(name, command.encode(), qos=1)
        return command

    def publish_round(self, call: RoundCall) -> None:
        """Announce a round's clock to every station of the hall (retained: a station that starts or
        reconnects later gets the latest); the event's journal has recorded it before."""
        self._client.publish(round_topic(self.hall), call.encode(), qos=1, retain=True)

    def assign(self, table: str, sides: dict[str, str]) -> Assignment:
        """Publish which sides play at ``table`` (retained): its station's setup is filled with them.
        ``AssignmentError`` or ``TopicError`` for a table or names that cannot be one."""
        assignment = Assignment(table, dict(sides))
        publish_assignment(self._client, self.hall, assignment)
        return assignment

    # ------------------------------------------------------------------ paho callbacks (network thread)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            client.disconnect()
            return
        # noLocal: the head's own rulings and acks are not delivered back to it
        client.subscribe(hall_filter(self.hall), options=SubscribeOptions(qos=1, noLocal=True))
        self._connected.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.clear()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.retain and message.topic == round_topic(self.hall):
            return  # its own retained round clock (``hall.rounds``), handed back on subscribing
        try:
            hall, table, channel = split_topic(message.topic)
            if hall == self.hall and channel in HEAD_CHANNELS and message.retain:
                return  # its own retained assignment, handed back on subscribing (noLocal spares only live ones)
            if hall != self.hall or channel not in STATION_CHANNELS:
                raise TopicError(f"not a station channel: {message.topic}")
            check_name(table, "table")
        except TopicError:
            self.stats.dropped += 1
            return
        try:
            if channel == "status":
                state = decode_status(message.payload, table)
                self._inbox.put(("status", table, (state, message.payload.decode())))
                self._views.put(("status", (table, state)))
                return
            if channel == "evidence":
                evidence = Evidence.decode(message.payload)
                if evidence.table != table:
                    raise TopicError(f"{message.topic}: evidence names table {evidence.table!r}")
                self._inbox.put(("evidence", table, evidence))
                return
            envelope = Envelope.decode(message.payload, table)
        except TopicError as err:  # EnvelopeError, EvidenceError, and anything else the checks refuse
            self._inbox.put(("alarm", table, self._alarm(table, message.topic, str(err), message.payload)))
            return
        self.stats.received += 1
        self.stats.arrivals.append(time.time() - envelope.sent_at)
        self._inbox.put(("record", table, envelope))
        self._views.put(("record", envelope))

    # ------------------------------------------------------------------ viewer

    def _view_loop(self) -> None:
        """Hand records and statuses to the console as they arrive; a failing hook is logged and
        the register, which has every record, is untouched."""
        while (item := self._views.get()) is not None:
            kind, payload = item
            try:
                if kind == "record" and self.on_received is not None:
                    self.on_received(payload)
                elif kind == "status" and self.on_status is not None:
                    self.on_status(*payload)
            except Exception:  # a view's bug must not stop the view of every other table
                log.exception("hall %s: the console's %s hook failed", self.hall, kind)

    # ------------------------------------------------------------------ register writer

    def _write_loop(self) -> None:
        while True:
            item = self._inbox.get()
            if item is None:
                return
            items = [item]
            while len(items) < BATCH_MAX:
                try:
                    nxt = self._inbox.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._write(items)
                    return
                items.append(nxt)
            self._write(items)

    def _write(self, items: list[tuple[str, str, Any]]) -> None:
        """Store a batch; while the register is unreachable, retry (nothing is acked meanwhile, so
        the stations keep their copies) unless the head is closing. Any other failure is logged and
        the batch left unacked: the writer lives on for every table."""
        while True:
            try:
                self._store(items)
                return
            except Exception as err:
                if not isinstance(err, TRANSIENT):
                    self.stats.writer_errors += 1
                    log.exception("hall %s: a batch of %d messages was not stored", self.hall, len(items))
                    return
                if self._closing.is_set():
                    return  # not acked: the stations send these again to the next head
                time.sleep(RETRY_S)
                self.register.reconnect()

    def _store(self, items: list[tuple[str, str, Any]]) -> None:
        records: list[Envelope] = []
        alarms: list[Quarantined] = []
        for kind, table, payload in items:
            if kind == "status":
                self._store_status(table, *payload)
            elif kind == "alarm":
                alarms.append(payload)
            elif kind == "evidence":
                self._store_evidence(payload)
            else:
                records.append(payload)
        fresh = list({e.id: e for e in records if e.id not in self._seen}.values())
        stored, refused = self._store_records(fresh)
        alarms += [
            self._alarm(e.table, topic(self.hall, e.table, channel_of(e.type)), f"the register refused it: {why}",
                        e.encode())
            for e, why in refused.values()
        ]  # fmt: skip
        self._keep_alarms(alarms)
        accepted = [e for e in records if e.id not in refused]
        now = time.time()
        for envelope in fresh:
            if envelope.id in refused:
                continue
            self._seen[envelope.id] = None
            self.stats.latencies.append(now - envelope.sent_at)
            self._hook(self.on_record, envelope)
        while len(self._seen) > SEEN_MAX:
            self._seen.popitem(last=False)
        self.stats.stored += stored
        self.stats.duplicates += len(accepted) - stored
        self._ack(accepted)

    def _store_records(self, fresh: list[Envelope]) -> tuple[int, dict[str, tuple[Envelope, str]]]:
        """Store the batch in one transaction; if the database refuses it for its content, store the
        records one by one and return those it refuses (id -> record, reason) to be quarantined."""
        try:
            return self.register.store(self.hall, fresh), {}
        except TRANSIENT:
            raise
        except psycopg.Error:
            pass
        stored, refused = 0, {}
        for envelope in fresh:
            try:
                stored += self.register.store(self.hall, [envelope])
            except TRANSIENT:
                raise
            except psycopg.Error as err:
                refused[envelope.id] = (envelope, str(err).splitlines()[0])
        return stored, refused

    def _alarm(self, table: str, name: str, reason: str, payload: bytes) -> Quarantined:
        return Quarantined(table, name, reason, bytes(payload[: Quarantined.PAYLOAD_KEPT]), time.time())

    def _keep_alarms(self, alarms: list[Quarantined]) -> None:
        """Into the register first (evidence), then on the table's alarm list and to the console."""
        if not alarms:
            return
        self.register.quarantine(self.hall, alarms)
        for alarm in alarms:
            self.alarms[alarm.table].append(alarm)
            self.stats.quarantined += 1
            self._hook(self.on_alarm, alarm)

    def _hook(self, hook: Callable[[Any], None] | None, item: Envelope | Quarantined) -> None:
        """A console callback that fails is an alarm of the item's table, not the end of the writer."""
        if hook is None:
            return
        try:
            hook(item)
        except Exception as err:  # the register must outlive any view's bug
            if hook is not self.on_alarm:  # a failed alarm display: the alarm itself is kept
                self._keep_alarms([self._alarm(item.table, "console", f"console hook failed: {err!r}", b"")])

    def _store_status(self, table: str, state: str, payload: str) -> None:
        self.statuses[table] = state
        self.register.set_status(self.hall, table, state, payload)
        if state == "online":  # a ruling sent before the station first subscribed would be lost: resend
            for command in self.register.unapplied_rulings(self.hall, table):
                self._client.publish(topic(self.hall, table, "rulings"), command.encode(), qos=1)

    def _store_evidence(self, evidence: Evidence) -> None:
        """Store a flag's frame, then ack it (a copy too: its station is waiting for that ack)."""
        if self.register.store_evidence(self.hall, evidence) and self.on_evidence is not None:
            self.on_evidence(evidence)
        ack = encode_json({"log": evidence.log, "frames": [evidence.flag]})
        self._client.publish(topic(self.hall, evidence.table, "acks"), ack, qos=1)

    def _ack(self, records: list[Envelope]) -> None:
        by_log: dict[tuple[str, str], list[int]] = defaultdict(list)
        for envelope in records:
            by_log[envelope.table, envelope.log].append(envelope.seq)
        for (table, log), seqs in by_log.items():
            self._client.publish(topic(self.hall, table, "acks"), encode_json({"log": log, "seqs": seqs}), qos=1)
