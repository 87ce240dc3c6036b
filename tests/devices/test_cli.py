"""``referee-station emulate-devices`` as the demo uses it: a separate process, the port path on the
first line, a script file, then commands typed on stdin."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from referee_station.devices.emulator import Emulator
from referee_station.devices.link import LinkStatus
from referee_station.devices.table_devices import TableDevices
from tests.devices.conftest import FAST, Recorder, TableClock


class Lines:
    """Lines of a child's stdout, read on a thread (select on a buffered text pipe misses lines)."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self._lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        assert proc.stdout is not None
        self._stream = proc.stdout
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self._stream:
            self._lines.put(line.rstrip("\n"))

    def next(self, timeout: float = 5.0) -> str:
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("the command printed nothing") from None

    def rest(self) -> str:
        lines = []
        while True:
            try:
                lines.append(self._lines.get(timeout=1.0))
            except queue.Empty:
                return "\n".join(lines)


def test_emulate_devices_serves_a_script_then_the_keyboard(
    tmp_path: Path, recorder: Recorder, table_clock: TableClock
) -> None:
    script = tmp_path / "table.txt"
    script.write_text("# a deal's first actions\npass E\nreport S 8\nfly away\n", encoding="utf-8")
    link = tmp_path / "ttyT7"
    command = [sys.executable, "-m", "referee_station.cli", "emulate-devices", "--table", "T7", "--link", str(link)]
    proc = subprocess.Popen(
        [*command, "--script", str(script)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines = Lines(proc)
    try:
        assert lines.next() == str(link)
        with TableDevices(str(link), table_clock, recorder.event, recorder.status, config=FAST) as devices:
            assert devices.wait_connected(5.0), devices.status_detail
            assert "GD-T7-T-" in devices.status_detail
            recorder.wait_for(lambda: len(recorder.events) == 2, timeout=15.0)
            assert [(e.TYPE, e.seat) for e in recorder.events] == [("pass", "E"), ("report", "S")]
            assert proc.stdin is not None
            proc.stdin.write("pass W\nunplug 0.3\n")
            proc.stdin.flush()
            recorder.wait_for(lambda: len(recorder.events) == 3, timeout=15.0)
            recorder.wait_for(lambda: LinkStatus.RECONNECTING in [s for s, _ in recorder.statuses], timeout=15.0)
            recorder.wait_for(lambda: devices.status is LinkStatus.CONNECTED, timeout=15.0)
            devices.show("OK")
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        assert proc.wait(timeout=15.0) == 0
        output = lines.rest()
        assert "script error: 'fly away'" in output
        assert "timer: show 'OK'" in output and "unplugged for 0.3 s" in output
        assert not link.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()


def test_emulate_devices_stops_on_sigterm(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee_station.cli", "emulate-devices", "--link", str(tmp_path / "tty")],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines = Lines(proc)
    try:
        assert lines.next() == str(tmp_path / "tty")
        assert (tmp_path / "tty").is_symlink()
        proc.terminate()
        assert proc.wait(timeout=15.0) == 0
        assert not (tmp_path / "tty").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.parametrize(
    ("args", "message"), [(["--script", "none.txt"], "none.txt"), (["--clock-offset", "-1"], "clock_offset")]
)
def test_bad_arguments_are_exit_code_2(tmp_path: Path, args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee_station.cli", "emulate-devices", "--link", str(tmp_path / "tty"), *args],
        capture_output=True,
        text=True,
        timeout=10,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and message in done.stderr


def test_watch_devices_prints_events_as_a_log_and_drives_the_timer(emulator: Emulator) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee_station.cli", "watch-devices", emulator.port, "--seconds", "20"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert emulator.station_connected.wait(15.0)
        emulator.press_pass("N")
        emulator.enter_report("E", 5)
        lines = Lines(proc)
        assert json.loads(lines.next())["type"] == "pass"
        second = lines.next()
        assert proc.stdin is not None
        proc.stdin.write("countdown S follow 20\nshow 报 5\nbeep 2\nstop\nfly\nstats\nquit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10.0) == 0
        assert proc.stderr is not None
        errors = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert json.loads(second) | {"t": 0} == {"t": 0, "type": "report", "seat": "E", "count": 5}
    assert "devices connected" in errors and "unknown command 'fly'" in errors and "garbage_bytes=0" in errors
    assert [type(c).__name__ for c in emulator.commands] == ["Countdown", "Show", "Beep", "Stop"]
    assert emulator.timer.text == "报 5" and emulator.timer.beeps == 2
