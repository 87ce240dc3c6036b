"""The station side of the hall bus: send every record of the table's log, apply the head's rulings.

The station keeps refereeing with or without the network: it writes its SQLite log as always, and
:class:`StationLink` sends what the head has not yet confirmed (``Outbox``) whenever a connection is
up. Guarantees, and why:

- QoS 1 for every message; the broker may deliver one twice, so each carries its record id
  (``topics.Envelope``) and receivers drop copies.
- A record counts as delivered only when the head's ack says it is in the register, not when the
  broker took it: a broker restarted before it passed a message on cannot lose it. Records not
  acked are sent again after every reconnect, and after ``resend_after`` seconds without an ack
  (doubling while none comes).
- At most ``window`` records are in flight (sent, not acked); the next ones go as acks free room,
  and a resend sends only the overdue records themselves. So a head that was down for an hour
  gets each station's backlog once, a window at a time, not every copy of it that a resend of
  "everything after the oldest overdue" would have queued at the broker.
- A flag's camera frame is kept in the outbox too and sent like a record: again after every
  reconnect and when its ack is overdue, until the head's ack says it is in the register. A station
  killed before it could send a frame sends it after its restart.
- A retained ``status`` says online; the last will (retained) says offline when the connection dies.
- The round clock arrives retained on the hall's ``round`` topic (``hall.rounds``); the link keeps
  the latest (:attr:`StationLink.round_call`) for the station's round gate and console.
- Rulings arrive from the head on the table's ``rulings`` topic, and pauses / added time on its
  ``timer`` topic (a ruling pending: the countdowns stop on the timer). The link only queues them; the
  station's own thread applies them (:meth:`StationLink.apply`), so the referee and the log keep one
  writer. A command applied once is never applied again (``Outbox.applied``).

Threads: paho's network thread runs the callbacks; :meth:`flush` sends new records from the
station's thread; a sender thread sends the backlog after a (re)connect, resends once a second what
is overdue, and takes over a flush that finds it busy. ``_send_lock`` lets one of them send at a time.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from referee_station.core.queues import drain
from referee_station.hall.broker_url import BrokerURL, connect, make_client
from referee_station.hall.evidence import Evidence
from referee_station.hall.outbox import Outbox, Pending, PendingFrame
from referee_station.hall.rounds import RoundCall, RoundCallError, round_topic
from referee_station.hall.topics import (
    Envelope,
    RulingCommand,
    TimerCommand,
    TopicError,
    channel_of,
    encode_json,
    record_id,
    topic,
)
from referee_station.table.events import Record

RESEND_AFTER_S = 10.0
"""A record sent but not acked this long is sent again (the head or the broker lost it)."""
RESEND_MAX_S = 300.0
"""The wait doubles after each resend without an ack, up to this: a head down for an hour is not
flooded by every station's backlog every ten seconds. An ack brings it back to ``resend_after``."""
TICK_S = 1.0
WINDOW = 500
"""Records in flight per station at most: enough to cover the ack's round trip at full rate."""


class StationLink:
    """One table's connection to the hall: its log out, the head's rulings in."""

    def __init__(
        self,
        url: BrokerURL,
        hall: str,
        table: str,
        log_path: str | Path,
        *,
        resend_after: float = RESEND_AFTER_S,
        window: int = WINDOW,
    ) -> None:
        if window < 1:
            raise ValueError(f"window must be at least 1 record, got {window}")
        self.hall = hall
        self.table = table
        self.url = url
        self.resend_after = resend_after
        self.window = window
        self.sent = 0
        """Records published for the first time on a connection (a reconnect starts over)."""
        self.resent = 0
        """Records published again because their ack was overdue."""
        self.outbox = Outbox(log_path, table)
        self.refused: str | None = None
        """Why the broker refused the login, if it did (wrong user or password)."""
        self.denied: list[str] = []
        """Reason codes of publishes the broker refused (ACL)."""
        self.round_call: RoundCall | None = None
        """The latest round the head announced (retained topic), read by ``station.round_gate``."""
        self.round_error: str | None = None
        """Why the last round message was refused; the last good one stays."""
        self._rulings: queue.Queue[RulingCommand | TimerCommand] = queue.Queue()
        self._connected = threading.Event()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._send_lock = threading.Lock()
        self._reset = False
        self._sent_upto = 0
        self._sent_at: dict[int, float] = {}
        self._frames_sent_at: dict[int, float] = {}
        """Flags whose frame went out on this connection, and when."""
        self._frames_due = True
        """A frame was kept (or the connection is new) since the outbox's frames were last read."""
        self._resend_wait = resend_after
        self._asked_at: float | None = None
        """Wall time of the first ``flush`` not yet served: the new records' ``sent_at``."""
        self._client = make_client(url, client_id=f"station-{hall}-{table}")
        self._client.will_set(topic(hall, table, "status"), self._status("offline"), qos=1, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_publish = self._on_publish
        self._client.on_message = self._on_message
        self._sender = threading.Thread(target=self._send_loop, name=f"hall-send-{table}", daemon=True)

    # ------------------------------------------------------------------ the station's side

    def start(self) -> StationLink:
        connect(self._client, self.url)
        self._sender.start()
        return self

    def flush(self) -> None:
        """New records are in the log: send them now, from the caller's thread when the sender is
        idle (one thread hop less on the way to the head), else by waking the sender.

        The time of the call goes out as the records' ``sent_at``, so the head's latency figure runs
        from the station's log commit. Never blocks on the network: while disconnected it returns."""
        if self._asked_at is None:
            self._asked_at = time.time()
        if self._connected.is_set() and self._send_lock.acquire(blocking=False):
            try:
                self._send_pending()
            finally:
                self._send_lock.release()
        else:
            self._wake.set()

    def take_rulings(self) -> list[RulingCommand | TimerCommand]:
        """Ruling and timer commands received from the head and not applied yet, oldest first."""
        return drain(self._rulings)

    def apply(self, command: RulingCommand | TimerCommand, t: float, submit: Callable[[Record], Any]) -> bool:
        """Feed a head ruling to the station as an EVENTS.md ``ruling`` (or the ``settle`` / ``reverse``
        it carries; a timer command as a ``timer``) at table time ``t``.

        ``submit`` is the station's own (it feeds the referee and logs atomically). Returns False for
        a copy of a command already applied. The record is tied to the command (``cause``) before
        the sender can see it, so the head learns which ruling it applied."""
        with self._send_lock:
            if self.outbox.applied(command.id):
                return False
            record = command.record(t)
            submit(record)
            self.outbox.mark_applied(command.id, self.outbox.last_seq(record.TYPE))
        self.flush()
        return True

    def publish_evidence(self, flag_id: int, t: float, jpeg: bytes) -> None:
        """Send the camera frame of flag ``flag_id`` (a JPEG, ``evidence.frame_jpeg``) taken at table
        time ``t``: kept in the outbox first, then sent as records are (and again until acked).
        Raises ``EvidenceError`` for bytes that are not a JPEG or are too large."""
        evidence = Evidence(self.table, self.outbox.log, flag_id, t, jpeg, time.time())  # checks the bytes
        self.outbox.keep_frame(PendingFrame(flag_id, t, jpeg, evidence.sent_at))
        self._frames_due = True
        self.flush()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def wait_acked(self, timeout: float) -> bool:
        """Until every record of the log is in the register (or ``timeout``)."""
        deadline = time.monotonic() + timeout
        while self.outbox.unacked():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def close(self) -> None:
        """Say offline (retained), disconnect cleanly, stop the threads. Safe to call twice."""
        if self._stop.is_set():
            return
        self._stop.set()
        self._wake.set()
        if self._sender.is_alive():
            self._sender.join()
        if self._connected.is_set():
            info = self._client.publish(
                topic(self.hall, self.table, "status"), self._status("offline"), qos=1, retain=True
            )
            info.wait_for_publish(timeout=2.0)
            self._client.disconnect()
        self._client.loop_stop()
        self.outbox.close()

    def __enter__(self) -> StationLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ sending

    def _send_loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(TICK_S)
            self._wake.clear()
            if self._connected.is_set() and not self._stop.is_set():
                with self._send_lock:
                    self._send_pending()

    def _send_pending(self) -> None:
        now = time.monotonic()
        asked, self._asked_at = self._asked_at, None
        if self._reset:
            self._reset = False
            self._sent_upto = 0
            self._sent_at.clear()
            self._frames_sent_at.clear()
            self._frames_due = True
        if not self._send_frames(now):
            return
        overdue = [seq for seq, at in list(self._sent_at.items()) if now - at > self._resend_wait]
        if overdue:
            self._resend_wait = min(self._resend_wait * 2, RESEND_MAX_S)
            still = self.outbox.pending_of(overdue)
            for seq in set(overdue) - {record.seq for record in still}:
                self._sent_at.pop(seq, None)  # acked meanwhile
            for record in still:
                if not self._publish(record, None, now):
                    return
                self.resent += 1
        while (room := self.window - len(self._sent_at)) > 0:
            batch = self.outbox.pending(after=self._sent_upto, limit=min(room, 1000))
            if not batch:
                return
            for record in batch:
                if not self._publish(record, asked, now):
                    return
                self.sent += 1
                self._sent_upto = record.seq

    def _send_frames(self, now: float) -> bool:
        """Frames not sent on this connection, or whose ack is overdue; False if the connection
        dropped meanwhile. The outbox is read only when a frame was kept or a wait ran out."""
        overdue = any(now - at > self._resend_wait for at in self._frames_sent_at.values())
        if not (self._frames_due or overdue):
            return True
        self._frames_due = False
        for frame in self.outbox.pending_frames():
            sent = self._frames_sent_at.get(frame.flag)
            if sent is not None and now - sent <= self._resend_wait:
                continue
            evidence = Evidence(self.table, self.outbox.log, frame.flag, frame.t, frame.jpeg, frame.at)
            info = self._client.publish(topic(self.hall, self.table, "evidence"), evidence.encode(), qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                self._reset = True
                return False
            self._frames_sent_at[frame.flag] = now
        return True

    def _publish(self, record: Pending, asked_at: float | None, now: float) -> bool:
        info = self._client.publish(*self._message(record, asked_at), qos=1)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            self._reset = True  # connection lost mid-batch: start over after the reconnect
            return False
        self._sent_at[record.seq] = now
        return True

    def _message(self, record: Pending, asked_at: float | None) -> tuple[str, bytes]:
        envelope = Envelope(
            id=record_id(self.table, self.outbox.log, record.seq),
            table=self.table,
            log=self.outbox.log,
            seq=record.seq,
            t=record.t,
            type=record.type,
            is_input=record.is_input,
            body=record.body,
            sent_at=asked_at or time.time(),
            cause=record.cause,
        )
        return topic(self.hall, self.table, channel_of(record.type)), envelope.encode()

    def _status(self, state: str) -> bytes:
        return encode_json({"table": self.table, "state": state, "log": self.outbox.log, "at": time.time()})

    # ------------------------------------------------------------------ paho callbacks (network thread)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
            client.disconnect()  # a wrong login does not get better by retrying
            return
        self.refused = None
        client.subscribe([(topic(self.hall, self.table, "rulings"), 1), (topic(self.hall, self.table, "timer"), 1),
                          (topic(self.hall, self.table, "acks"), 1), (round_topic(self.hall), 1)])  # fmt: skip
        client.publish(topic(self.hall, self.table, "status"), self._status("online"), qos=1, retain=True)
        self._reset = True
        self._connected.set()
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self._connected.clear()

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.denied.append(str(reason))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        channel = message.topic.rsplit("/", 1)[-1]
        try:
            if channel == "acks":
                self._on_ack(message.payload)
            elif message.topic == round_topic(self.hall):
                self.round_call, self.round_error = RoundCall.decode(message.payload), None
            elif channel in ("rulings", "timer"):
                decode = RulingCommand.decode if channel == "rulings" else TimerCommand.decode
                command = decode(message.payload)
                if not self.outbox.applied(command.id):
                    self._rulings.put(command)
        except RoundCallError as err:
            self.round_error = str(err)
        except (TopicError, ValueError, KeyError, TypeError, AttributeError, OverflowError):
            return  # not ours to act on; the head logs what it sends

    def _on_ack(self, payload: bytes) -> None:
        """``{"log", "seqs"}`` for records, ``{"log", "frames"}`` for flags' frames, in the register."""
        obj = json.loads(payload)
        if obj.get("log") != self.outbox.log:
            return  # acks for an earlier log file of this table
        if "frames" in obj:
            flags = [int(flag) for flag in obj["frames"]]
            self.outbox.frames_acked(flags)
            for flag in flags:
                self._frames_sent_at.pop(flag, None)
            return
        seqs = [int(seq) for seq in obj["seqs"]]
        self.outbox.ack(seqs)
        self._resend_wait = self.resend_after
        for seq in seqs:
            self._sent_at.pop(seq, None)
        self._wake.set()  # room in the window: the sender sends the next records
