"""The pairing sheet, score sheets and standings as PDF (Qt's layout, CJK font), read back with
pypdf, and rendered to PNG with pdftoppm for the documentation (``docs/event-*.png``)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee_station.cli import main
from referee_station.event.actions import Created, PairsImported
from referee_station.event.model import EventState
from referee_station.event.pairs import Pair
from referee_station.event.store import EventStore
from tests.event.helpers import pair_round, play

DOCS = Path(__file__).resolve().parents[2] / "docs"
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰"


def event_file(path: Path) -> None:
    """Twelve pairs, three rounds of seeded results, the fourth round paired."""
    rng = random.Random(28)
    state = EventState()
    state.apply(Created(at=0.0, by="chief", name="南通师专教工掼蛋赛", seed=28))
    pairs = tuple(
        Pair(i, (SURNAMES[2 * i - 2] + GIVEN[i], SURNAMES[2 * i - 1] + GIVEN[i + 1]), f"工会{(i - 1) % 4 + 1}组")
        for i in range(1, 13)
    )
    state.apply(PairsImported(at=1.0, pairs=pairs))
    for round_no in range(1, 4):
        for table in pair_round(state).tables:
            low, high = sorted((rng.randint(0, 6), rng.randint(0, 13)))
            winner = "draw" if low == high else rng.choice(["EW", "NS"])
            loser = "NS" if winner == "EW" else "EW"
            gained = {"EW": low, "NS": low} if winner == "draw" else {winner: high, loser: low}
            play(state, round_no, table.number, winner, gained)
    pair_round(state)
    with EventStore(path, create=True) as store:
        for action in state.journal:
            store.record(action)


def text(pdf: Path) -> str:
    """The PDF's text without white space (pypdf breaks CJK runs at every font change)."""
    return "".join("".join(page.extract_text() for page in PdfReader(pdf).pages).split())


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) is not installed")
def test_the_sheets_as_pdf_and_their_pictures(tmp_path, qapp):
    db = tmp_path / "event.db"
    event_file(db)
    pairings, standings, scores = tmp_path / "pairings.pdf", tmp_path / "standings.pdf", tmp_path / "scores.pdf"
    assert main(["event", "export", str(db), "pairings", "-o", str(pairings)]) == 0
    assert main(["event", "export", str(db), "standings", "--round", "3", "-o", str(standings)]) == 0
    assert main(["event", "export", str(db), "scoresheets", "--round", "4", "-o", str(scores)]) == 0
    with EventStore(db) as store:
        state = store.state
        leader = next(iter(state.pairs.values()))
        first_table = state.round(4).pairing.tables[0]
    assert "第4轮对阵表" in text(pairings) and state.pairs[first_table.ew].names[0] in text(pairings)
    assert "R-MATCH-3" in text(standings) and leader.names[0] in text(standings)
    assert len(PdfReader(scores).pages) == 6, "one score sheet a table"
    assert "东西方签名" in text(scores) and "南北方签名" in text(scores)
    DOCS.mkdir(exist_ok=True)
    for pdf, name in ((pairings, "event-pairings"), (standings, "event-standings")):
        prefix = tmp_path / name
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-singlefile", str(pdf), str(prefix)], check=True, timeout=60)
        png = prefix.with_suffix(".png")
        assert png.stat().st_size > 10_000
        shutil.copyfile(png, DOCS / f"{name}.png")
