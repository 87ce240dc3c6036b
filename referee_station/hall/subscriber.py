"""The head referee's side of the hall bus: see every table, keep the register, send rulings.

:class:`HeadConsole` subscribes to ``guandan/<hall>/#`` (QoS 1, a persistent session, so what was
published while it was down is delivered when it returns). Records go through one writer thread:

1. drop copies already stored (an in-memory set of ids; the register's ``ON CONFLICT`` is the final
   word, so a restarted head with an empty set still stores each record once),
2. store a batch in one transaction,
3. only then ack the batch's seqs to each station (``.../acks``), so a station forgets a record only
   when it is in PostgreSQL. Copies are acked too: the station that resent is waiting for that ack.

The topic's table is the one the broker authenticated (ACL); a message whose envelope names another
table is dropped. Rulings need a referee logged in (:meth:`login`); each is written to the register's
``rulings`` table under that name before it is sent, and linked to the station's ``ruling`` record
when that arrives (``cause``); one not linked yet is sent again whenever the table comes online
(the station drops a copy it applied already).
"""

from __future__ import annotations

import json
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

from referee_station.hall.auth import LoginError, Session, check_referee
from referee_station.hall.broker_url import BrokerURL, connect, make_client
from referee_station.hall.evidence import Evidence
from referee_station.hall.register import Register
from referee_station.hall.topics import (
    STATION_CHANNELS,
    Envelope,
    RulingCommand,
    TopicError,
    encode_json,
    hall_filter,
    split_topic,
    topic,
)

BATCH_MAX = 500
SEEN_MAX = 2_000_000
"""Ids remembered for dropping copies before the database (about 200 MB at most)."""
RETRY_S = 1.0
LATENCIES_KEPT = 1_000_000


@dataclass
class HeadStats:
    """What the head has seen, for the console and the load benchmark."""

    received: int = 0
    stored: int = 0
    """Records new to the register."""
    duplicates: int = 0
    """Copies dropped: by the in-memory ids or by ``ON CONFLICT (id) DO NOTHING``."""
    dropped: int = 0
    """Messages that were not ours or named another table than their topic."""
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
        on_evidence: Callable[[Evidence], None] | None = None,
    ) -> None:
        self.hall = hall
        self.url = url
        self.register = register
        self.on_record = on_record
        """Called (writer thread) for each newly stored record: the console's view hooks in here."""
        self.on_evidence = on_evidence
        """Called (writer thread) for each flag's camera frame once it is in the register."""
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
        if decision not in ("confirm", "dismiss"):
            raise ValueError(f"decision must be confirm or dismiss, got {decision!r}")
        command = RulingCommand(str(uuid.uuid4()), flag, decision, session.referee, stop_next, time.time())
        self.register.add_ruling(self.hall, table, command)
        self._client.publish(topic(self.hall, table, "rulings"), command.encode(), qos=1)
        return command

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
        try:
            hall, table, channel = split_topic(message.topic)
            if hall != self.hall or channel not in STATION_CHANNELS:
                raise TopicError(f"not a station channel: {message.topic}")
            if channel == "status":
                self._inbox.put(("status", table, message.payload.decode()))
                return
            if channel == "evidence":
                evidence = Evidence.decode(message.payload)
                if evidence.table != table:
                    raise TopicError(f"{message.topic}: evidence names table {evidence.table!r}")
                self._inbox.put(("evidence", table, evidence))
                return
            envelope = Envelope.decode(message.payload)
            if envelope.table != table:
                raise TopicError(f"{message.topic}: envelope names table {envelope.table!r}")
        except (TopicError, UnicodeDecodeError):
            self.stats.dropped += 1
            return
        self.stats.received += 1
        self.stats.arrivals.append(time.time() - envelope.sent_at)
        self._inbox.put(("record", table, envelope))

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
        the stations keep their copies) unless the head is closing."""
        while True:
            try:
                self._store(items)
                return
            except psycopg.Error:
                if self._closing.is_set():
                    return  # not acked: the stations send these again to the next head
                time.sleep(RETRY_S)
                self.register.reconnect()

    def _store(self, items: list[tuple[str, str, Any]]) -> None:
        records: list[Envelope] = []
        for kind, table, payload in items:
            if kind == "status":
                self._store_status(table, payload)
            elif kind == "evidence":
                self._store_evidence(payload)
            else:
                records.append(payload)
        if not records:
            return
        fresh = list({e.id: e for e in records if e.id not in self._seen}.values())
        stored = self.register.store(self.hall, fresh)
        now = time.time()
        for envelope in fresh:
            self._seen[envelope.id] = None
            self.stats.latencies.append(now - envelope.sent_at)
            if self.on_record is not None:
                self.on_record(envelope)
        while len(self._seen) > SEEN_MAX:
            self._seen.popitem(last=False)
        self.stats.stored += stored
        self.stats.duplicates += len(records) - stored
        self._ack(records)

    def _store_status(self, table: str, payload: str) -> None:
        try:
            state = str(json.loads(payload)["state"])
        except (ValueError, KeyError, TypeError):
            self.stats.dropped += 1
            return
        self.statuses[table] = state
        self.register.set_status(self.hall, table, state, payload)
        if state == "online":  # a ruling sent before the station first subscribed would be lost: resend
            for command in self.register.unapplied_rulings(self.hall, table):
                self._client.publish(topic(self.hall, table, "rulings"), command.encode(), qos=1)

    def _store_evidence(self, evidence: Evidence) -> None:
        if self.register.store_evidence(self.hall, evidence) and self.on_evidence is not None:
            self.on_evidence(evidence)

    def _ack(self, records: list[Envelope]) -> None:
        by_log: dict[tuple[str, str], list[int]] = defaultdict(list)
        for envelope in records:
            by_log[envelope.table, envelope.log].append(envelope.seq)
        for (table, log), seqs in by_log.items():
            self._client.publish(topic(self.hall, table, "acks"), encode_json({"log": log, "seqs": seqs}), qos=1)
