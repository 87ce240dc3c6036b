"""The import-linter contracts of ``pyproject.toml`` hold over the real import graph of the whole
namespace: the layers (core < rules < table < vision / devices < ... < console < commands, docs/DESIGN.md)
and the Qt-free models, station, referee and rules (STYLE.md, napari's split). CI runs it with the tests."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_contract_is_kept():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert any(c["type"] == "layers" for c in contracts), "the layers contract is missing"
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    counts = re.search(r"Contracts: (\d+) kept, (\d+) broken", result.stdout)
    assert counts is not None, result.stdout
    assert (int(counts[1]), int(counts[2])) == (len(contracts), 0), result.stdout
