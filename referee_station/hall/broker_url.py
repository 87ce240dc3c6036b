"""Where the broker is and how to log in: ``mqtt://user:password@host:port`` (plain) or
``mqtts://user:password@host:port?ca=/path/ca.pem`` (TLS), and a paho client set up from it.

Why MQTT v5: a publish the broker's ACL refuses comes back with the reason code "not authorized"
(MQTT 3.1.1 cannot say so and the message would look delivered), and a session survives a
reconnect (``clean_start`` off, a session expiry), so QoS 1 messages queued for a station or the
head while it was away are delivered when it returns.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

PASSWORD_ENV = "REFEREE_STATION_MQTT_PASSWORD"
"""Where the password comes from when the URL has none (keeps it out of ``ps`` and shell history)."""
SESSION_EXPIRY_S = 7 * 24 * 3600
"""Long enough for any event: the broker keeps a station's or the head's queued messages."""
KEEPALIVE_S = 5
"""A dead connection is noticed after 1.5 x this, and the last will published."""


class BrokerURLError(ValueError):
    """A broker address that is not ``mqtt://`` or ``mqtts://`` with a host."""


@dataclass(frozen=True)
class BrokerURL:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: str | None = None
    """CA certificate file for TLS (the hall's own, or the system's when ``None``)."""

    @classmethod
    def parse(cls, url: str) -> BrokerURL:
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise BrokerURLError(f"broker must be mqtt://host:port or mqtts://host:port, got {url!r}")
        tls = parts.scheme == "mqtts"
        query = parse_qs(parts.query)
        password = unquote(parts.password) if parts.password is not None else os.environ.get(PASSWORD_ENV)
        return cls(
            host=parts.hostname,
            port=parts.port or (8883 if tls else 1883),
            username=unquote(parts.username) if parts.username else None,
            password=password,
            tls=tls,
            ca=query.get("ca", [None])[0],
        )

    def with_login(self, username: str, password: str) -> BrokerURL:
        return BrokerURL(self.host, self.port, username, password, self.tls, self.ca)

    def __str__(self) -> str:
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"


def make_client(url: BrokerURL, client_id: str) -> mqtt.Client:
    """A paho client (v2 callbacks, MQTT v5) with the URL's login and TLS, reconnecting by itself."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if url.username:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        client.tls_set(ca_certs=url.ca)
    client.reconnect_delay_set(min_delay=1, max_delay=4)
    client.max_queued_messages_set(0)
    return client


def connect(client: mqtt.Client, url: BrokerURL) -> None:
    """Start connecting in the background (the loop retries until the broker answers)."""
    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = SESSION_EXPIRY_S
    client.connect_async(url.host, url.port, keepalive=KEEPALIVE_S, clean_start=False, properties=props)
    client.loop_start()
