"""The head referee's desk: logins and rulings, done in a worker thread of their own.

Why a thread: a login checks a salted PBKDF2 hash (about 0.3 s) and a ruling is written to the
PostgreSQL register before it is sent (``HeadConsole.rule``), and the register's connection is
shared with the head's writer; none of that may hold up the window. The GUI asks (``login``,
``rule``, ``correct``, ``logout``) and later ``take``s the answers; it never calls the hall itself (STYLE.md).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import psycopg

from referee_station.core.queues import drain
from referee_station.hall.auth import LoginError, Session
from referee_station.hall.topics import RulingCommand, TimerCommand, TopicError
from referee_station.table.events import Reverse, Ruling, Settle, TimerControl


class Head(Protocol):
    """What the desk needs of ``hall.subscriber.HeadConsole``."""

    def login(self, referee: str, password: str) -> Session: ...

    def logout(self, session: Session) -> None: ...

    def rule(
        self, session: Session | None, table: str, flag: int, decision: str, *, stop_next: bool = False
    ) -> RulingCommand: ...

    def timer(
        self, session: Session | None, table: str, action: str, seat: str | None = None, seconds: float | None = None
    ) -> TimerCommand: ...
    def correct(
        self, session: Session | None, table: str, correction: Settle | Reverse, flag: int
    ) -> RulingCommand: ...


@dataclass(frozen=True)
class LoginResult:
    """A login's answer: the referee now logged in, or why not (``None`` after a logout)."""

    referee: str | None
    error: str | None = None


@dataclass(frozen=True)
class RulingResult:
    """A ruling's answer: the command sent (audited in the register), or why it was not."""

    table: str
    flag: int
    command: RulingCommand | None
    error: str | None = None
    kind: str = "ruling"
    """What was sent: a ``ruling``, or a correction (``settle``, ``reverse``)."""


@dataclass(frozen=True)
class TimerResult:
    """A pause, resume or added time: the command sent to the table, or why it was not."""

    table: str
    action: str
    command: TimerCommand | None
    error: str | None = None


DeskResult = LoginResult | RulingResult | TimerResult


class HeadDesk:
    """Logins and rulings of the head console, in order, off the GUI thread."""

    def __init__(self, head: Head) -> None:
        self.head = head
        self._session: Session | None = None
        self._jobs: queue.SimpleQueue[Callable[[], DeskResult] | None] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[DeskResult] = queue.SimpleQueue()
        self._worker = threading.Thread(target=self._run, name="head-desk", daemon=True)
        self._worker.start()

    def login(self, referee: str, password: str) -> None:
        self._jobs.put(lambda: self._login(referee, password))

    def logout(self) -> None:
        self._jobs.put(self._logout)

    def rule(self, table: str, ruling: Ruling) -> None:
        """Send a ruling made on the console (``ConsoleModel.send``) to its table."""
        self._jobs.put(lambda: self._rule(table, ruling))

    def timer(self, table: str, event: TimerControl) -> None:
        """Send a pause, resume or added time made on the console (``ConsoleModel.send``) to its table."""
        self._jobs.put(lambda: self._timer(table, event))

    def correct(self, table: str, correction: Settle | Reverse, flag: int) -> None:
        """Send a settle or a reverse made on the console to its table (``flag``: the alert it was made on)."""
        self._jobs.put(lambda: self._correct(table, correction, flag))

    def take(self) -> list[DeskResult]:
        return drain(self._results)

    def close(self) -> None:
        """Finish the jobs asked for, then stop (safe to call twice)."""
        if self._worker.is_alive():
            self._jobs.put(None)
            self._worker.join()

    # ------------------------------------------------------------------ worker thread

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            self._results.put(job())

    def _login(self, referee: str, password: str) -> LoginResult:
        try:
            self._session = self.head.login(referee, password)
        except LoginError as err:
            return LoginResult(None if self._session is None else self._session.referee, str(err))
        return LoginResult(referee)

    def _logout(self) -> LoginResult:
        if self._session is not None:
            self.head.logout(self._session)
            self._session = None
        return LoginResult(None)

    def _rule(self, table: str, ruling: Ruling) -> RulingResult:
        try:
            command = self.head.rule(self._session, table, ruling.flag, ruling.decision, stop_next=ruling.stop_next)
        except (LoginError, ValueError, TopicError) as err:
            return RulingResult(table, ruling.flag, None, str(err))
        except psycopg.Error as err:  # the register unreachable: nothing is sent, the GUI says so
            return RulingResult(table, ruling.flag, None, f"the register: {err}")
        return RulingResult(table, ruling.flag, command)

    def _timer(self, table: str, event: TimerControl) -> TimerResult:
        try:
            command = self.head.timer(self._session, table, event.action, event.seat, event.seconds)
        except (LoginError, TopicError) as err:
            return TimerResult(table, event.action, None, str(err))
        return TimerResult(table, event.action, command)

    def _correct(self, table: str, correction: Settle | Reverse, flag: int) -> RulingResult:
        try:
            command = self.head.correct(self._session, table, correction, flag)
        except (LoginError, ValueError, TopicError) as err:
            return RulingResult(table, flag, None, str(err), correction.TYPE)
        except psycopg.Error as err:
            return RulingResult(table, flag, None, f"the register: {err}", correction.TYPE)
        return RulingResult(table, flag, command, kind=correction.TYPE)
