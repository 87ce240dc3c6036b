"""``referee-station emulate-devices`` as the demo uses it: a separate process, the port path on the
first line, a script file, then commands typed on stdin."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

from devices.link import LinkStatus
from devices.table_devices import TableDevices
from tests.devices.conftest import FAST, Recorder, TableClock


def read_line(proc: subprocess.Popen[str], timeout: float = 5.0) -> str:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "emulate-devices printed nothing"
    return proc.stdout.readline().strip()


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
    try:
        assert read_line(proc) == str(link)
        with TableDevices(str(link), table_clock, recorder.event, recorder.status, config=FAST) as devices:
            assert devices.wait_connected(5.0), devices.status_detail
            assert "GD-T7-T-" in devices.status_detail
            recorder.wait_for(lambda: len(recorder.events) == 2, timeout=5.0)
            assert [(e["type"], e["seat"]) for e in recorder.events] == [("pass", "E"), ("report", "S")]
            assert proc.stdin is not None
            proc.stdin.write("pass W\nunplug 0.3\n")
            proc.stdin.flush()
            recorder.wait_for(lambda: len(recorder.events) == 3, timeout=5.0)
            recorder.wait_for(lambda: LinkStatus.RECONNECTING in [s for s, _ in recorder.statuses], timeout=5.0)
            recorder.wait_for(lambda: devices.status is LinkStatus.CONNECTED, timeout=5.0)
            devices.show("OK")
            proc.stdin.write("quit\n")
            proc.stdin.flush()
        assert proc.wait(timeout=5.0) == 0
        assert proc.stdout is not None
        output = proc.stdout.read()
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
    try:
        assert read_line(proc) == str(tmp_path / "tty")
        assert (tmp_path / "tty").is_symlink()
        proc.terminate()
        assert proc.wait(timeout=5.0) == 0
        assert not (tmp_path / "tty").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def test_missing_script_is_exit_code_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "referee_station.cli", "emulate-devices", "--script", str(tmp_path / "none.txt")],
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert done.returncode == 2 and "none.txt" in done.stderr
