"""``referee-station hall console``: the head console's window opens on a real hall, in Chinese by
default, and bad arguments are refused with a message naming what was wrong."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from referee_station.cli import build_parser
from referee_station.commands import hall as command
from referee_station.console.qt.head_window import HeadWindow
from tests.hall.conftest import HALL, Hall


def parse(*argv: str) -> object:
    return build_parser().parse_args(["hall", *argv])


def test_hall_console_opens_the_head_window(qapp, hall: Hall, register_dsn: str) -> None:
    seen: list[tuple[str, str]] = []

    def look_then_close() -> None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, HeadWindow):
                seen.append((widget.windowTitle(), widget.who.text()))
                widget.close()

    QTimer.singleShot(1500, look_then_close)
    args = parse("console", "--broker", hall.head_url(), "--db", register_dsn, "--hall", HALL)
    assert command.run(args) == 0
    assert seen == [("掼蛋总裁判台", "未登录")]


def test_hall_console_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], register_dsn: str) -> None:
    assert command.run(parse("console", "--db", register_dsn)) == 2
    assert "--broker is required" in capsys.readouterr().err
    assert command.run(parse("console", "--broker", "http://x", "--db", register_dsn)) == 2
    assert "broker must be mqtt://" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse("console", "--lang", "fr")
