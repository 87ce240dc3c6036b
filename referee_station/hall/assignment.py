"""A table's assignment from the hall: which sides play at it, so the station's match setup need not
be typed (issue #23). The head publishes it retained on ``guandan/<hall>/<table>/assignment``, so a
station that connects later, or again, still gets the latest one at once.

The station reads it before its match starts, while the setup dialog is open and before its
``StationLink`` exists (that link is opened with the log, once the setup is accepted), with
:class:`AssignmentWatcher`. The broker gives every login one client id, so the watcher uses the
station's session: it keeps the session (``clean_start`` off) and is closed before the link
connects. A ruling or an ack the broker hands the watcher meanwhile is not lost: the head sends
unapplied rulings again when the station says it is online, and the link resends every record not
acked after it connects.
"""

from __future__ import annotations

import json
import queue
import time
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from referee_station.core.queues import drain
from referee_station.hall.broker_url import BrokerURL, connect, make_client
from referee_station.hall.topics import TopicError, check_name, encode_json, topic
from referee_station.table.events import SIDES

NAME_MAX = 80
"""The longest side name an assignment may carry (a team's name, not a text)."""


class AssignmentError(TopicError):
    """An assignment message that is not a table name and the names of both sides."""


@dataclass(frozen=True)
class Assignment:
    """The sides assigned to a table: ``sides`` maps EW and NS to their names."""

    table: str
    sides: dict[str, str]

    def __post_init__(self) -> None:
        check_name(self.table, "table")
        if set(self.sides) != set(SIDES):
            raise AssignmentError(f"assignment of {self.table}: sides must be EW and NS, got {sorted(self.sides)}")
        for side, name in self.sides.items():
            if not isinstance(name, str) or not name.strip() or len(name) > NAME_MAX:
                raise AssignmentError(
                    f"assignment of {self.table}: side {side} must be a name of 1-{NAME_MAX} characters, got {name!r}"
                )

    def encode(self) -> bytes:
        return encode_json({"table": self.table, "sides": dict(self.sides), "at": time.time()})

    @classmethod
    def decode(cls, payload: bytes, table: str) -> Assignment:
        """Read an assignment on ``table``'s topic; :class:`AssignmentError` says what is wrong."""
        try:
            obj: Any = json.loads(payload.decode("utf-8"))
        except (ValueError, RecursionError) as err:
            raise AssignmentError(f"assignment of {table}: not JSON: {str(err)[:80]}") from err
        if not isinstance(obj, dict) or not isinstance(obj.get("sides"), dict):
            raise AssignmentError(f'assignment of {table}: expected {{"table", "sides": {{EW, NS}}}}')
        if obj.get("table") != table:
            raise AssignmentError(f"assignment on {table}'s topic names table {obj.get('table')!r}")
        return cls(table, {str(k): v for k, v in obj["sides"].items()})


def publish_assignment(client: mqtt.Client, hall: str, assignment: Assignment) -> mqtt.MQTTMessageInfo:
    """The head's side: the assignment, retained, on its table's topic."""
    return client.publish(topic(hall, assignment.table, "assignment"), assignment.encode(), qos=1, retain=True)


class AssignmentWatcher:
    """The station's side: the latest assignment of its table while the setup is open (``latest``)."""

    def __init__(self, url: BrokerURL, hall: str, table: str) -> None:
        self.table = table
        self.topic = topic(hall, table, "assignment")
        self.errors: list[str] = []
        """Why each message on the topic was not an assignment (and a refused login); the dialog
        keeps its names then, for the referee to type."""
        self._latest: queue.SimpleQueue[Assignment] = queue.SimpleQueue()
        self._url = url
        self._client = make_client(url, client_id=f"station-{hall}-{table}")
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._started = False

    def start(self) -> AssignmentWatcher:
        connect(self._client, self._url)
        self._started = True
        return self

    def latest(self) -> Assignment | None:
        """The newest assignment received since the last call, or ``None``."""
        received = drain(self._latest)
        return received[-1] if received else None

    def close(self) -> None:
        """Disconnect and stop (safe to call twice): the station's link takes the session over."""
        if not self._started:
            return
        self._started = False
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.errors.append(f"the hall refused the login: {reason}")
            client.disconnect()
            return
        client.subscribe(self.topic, qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic != self.topic or not message.payload:
            return  # the session's rulings and acks (see the module's docstring), or an assignment cleared
        try:
            self._latest.put(Assignment.decode(message.payload, self.table))
        except AssignmentError as err:
            self.errors.append(str(err))
