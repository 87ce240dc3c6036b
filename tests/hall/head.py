"""The head console as the hall tests open it: the real ``HeadApp`` on the test hall's broker, over
the real register, with one referee who can log in (password ``secret-<name>``)."""

from __future__ import annotations

from referee_station.console.qt.head_app import HeadApp
from referee_station.hall.auth import hash_referee
from referee_station.hall.broker_url import BrokerURL
from referee_station.hall.register import Register
from tests.hall.conftest import HALL, Hall


def started_head(qtbot, hall: Hall, register: Register, referee: str) -> HeadApp:
    """The head console started and shown, ``referee`` registered; the caller stops it (``app.stop``)."""
    register.add_referee(hash_referee(referee, f"secret-{referee}", iterations=1000))
    app = HeadApp(BrokerURL.parse(hall.head_url()), HALL, register)
    qtbot.addWidget(app.window)
    app.start()
    return app
