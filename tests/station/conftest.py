"""Rendered matches the station tests read through the real camera pipeline (shipped card reader)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # the station console's tests

import json
from pathlib import Path

import pytest

from referee_station.cli import main

MATCH_SEED = 5
"""A two-deal match (1,157 s, one deal with tribute and return) with no injected violation."""
FPS = "5"


def render(folder: Path, seed: int, deals: int, until: float | None = None) -> tuple[Path, Path]:
    log, video = folder / "match.jsonl", folder / "match.mp4"
    assert main(["simulate", "--seed", str(seed), "--deals", str(deals), "--violations", "0", "-o", str(log)]) == 0
    extra = ["--until", str(until)] if until is not None else []
    assert main(["render-video", str(log), "-o", str(video), "--fps", FPS, "--design", "anglo", *extra]) == 0
    return log, video


def setup_of(log: Path, path: Path) -> Path:
    """The setup a referee would enter for the simulated match: its sides, rules and first leader."""
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    match = next(line for line in lines if line["type"] == "match")
    deal = next(line for line in lines if line["type"] == "deal")
    setup = {"sides": match["sides"], "rules": match.get("rules", {}), "leader": deal["first_leader"]}
    path.write_text(json.dumps(setup), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def whole_match(tmp_path_factory):
    """(log, video, setup file) of a whole two-deal match rendered as the overhead camera sees it."""
    folder = tmp_path_factory.mktemp("whole_match")
    log, video = render(folder, MATCH_SEED, 2)
    return log, video, setup_of(log, folder / "setup.json")


@pytest.fixture(scope="session")
def opening(tmp_path_factory):
    """(log, video, setup file) of the first 75 s of play of the same match (a few tricks)."""
    folder = tmp_path_factory.mktemp("opening")
    log, video = render(folder, MATCH_SEED, 2, until=190.0)
    return log, video, setup_of(log, folder / "setup.json")
