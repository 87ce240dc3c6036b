"""The event's paper: pairing sheet, score sheets (计分表, signed by both sides, seed 003 十三)
and standings, as rows for CSV and as HTML for the PDF (``console.qt.event_pdf``)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from html import escape
from typing import TextIO

from referee_station.event.model import EventState
from referee_station.event.standings import standings

PAIRING_HEADER = ("桌号 table", "东西 EW", "东西选手 EW players", "南北 NS", "南北选手 NS players")
STANDINGS_HEADER = ("名次 place", "编号 pair", "选手 players", "单位 unit", "积分 points", "小分 small",
                    "得分 gained", "失分 conceded", "轮 rounds", "签 lot")  # fmt: skip

SCORE_HEADER = ("桌号 table", "东西 EW", "南北 NS", "胜方 winner", "积分 points EW:NS", "小分 small EW:NS",
                "得分 gained EW:NS", "状态 status")  # fmt: skip


def _players(state: EventState, number: int) -> str:
    pair = state.pairs[number]
    return " / ".join(pair.names) + (f" ({pair.unit})" if pair.unit else "")


def pairing_rows(state: EventState, round_no: int) -> list[tuple[str, ...]]:
    """One row per table, then the bye (seats: the lower number East-West, seed 003 八.1)."""
    pairing = state.round(round_no).pairing
    rows = [(str(t.number), str(t.ew), _players(state, t.ew), str(t.ns), _players(state, t.ns)) for t in pairing.tables]
    if pairing.bye is not None:
        rows.append(("轮空 bye", str(pairing.bye), _players(state, pairing.bye), "", ""))
    return rows


def standings_rows(state: EventState, through: int | None = None) -> list[tuple[str, ...]]:
    """One row per pair in ranking order; the lot is starred where it decided a place."""
    rows = []
    for s in standings(state, through):
        totals = (s.totals.points, s.totals.small, s.totals.gained, s.totals.conceded, s.played)
        lot = f"{s.lot}{' *' if s.by_lot else ''}"
        rows.append((str(s.place), str(s.pair.number), " / ".join(s.pair.names), s.pair.unit, *map(str, totals), lot))
    return rows


def score_rows(state: EventState, round_no: int) -> list[tuple[str, ...]]:
    """One row per table of a round: the counted result (blank while it does not count) and its status."""
    scores = state.scores(round_no)
    rows = []
    for number, result in sorted(state.round(round_no).results.items()):
        t = result.table
        if t.ew in scores and t.ns in scores:
            ew, ns = scores[t.ew], scores[t.ns]
            figures = (f"{ew.points}:{ns.points}", f"{ew.small}:{ns.small}", f"{ew.gained}:{ns.gained}")
        else:
            figures = ("", "", "")
        rows.append((str(number), str(t.ew), str(t.ns), result.winner() or "", *figures, result.status))
    return rows


def write_csv(out: TextIO, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], names: frozenset[int] = frozenset()) -> str:
    """An HTML table; the ``names`` columns are kept on one line (a pair's two names)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)

    def cell(i: int, text: str) -> str:
        return f"<td style='white-space: nowrap'>{escape(text)}</td>" if i in names else f"<td>{escape(text)}</td>"

    body = "".join("<tr>" + "".join(cell(i, c) for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table border='1' cellspacing='0' cellpadding='4' width='100%'><tr>{head}</tr>{body}</table>"


def _title(state: EventState, what: str) -> str:
    name = escape(state.created.name if state.created else "")
    return f"<h2>{name} — {escape(what)}</h2>"


def pairing_html(state: EventState, round_no: int) -> str:
    rules = state.rules
    pairing = state.round(round_no).pairing
    note = f"<p>每轮 {rules.round_minutes:g} 分钟，最多 {rules.max_deals} 副 (R-MATCH-1)；小号码坐东西 (seed 003)。</p>"
    rematch = (
        "<p><b>重复对阵 rematch (no pairing avoids it): "
        + escape(", ".join(f"{a}–{b}" for a, b in pairing.rematches))
        + "</b></p>"
        if pairing.rematches
        else ""
    )
    return (
        _title(state, f"第 {round_no} 轮对阵表 pairings, round {round_no}")
        + note
        + rematch
        + _table(PAIRING_HEADER, pairing_rows(state, round_no), frozenset({2, 4}))
    )


def standings_html(state: EventState, through: int | None = None) -> str:
    last = len(state.rounds) if through is None else through
    note = "<p>排名：积分、小分、得分、失分少、抽签 (R-MATCH-3)。* 抽签决定 decided by lot.</p>"
    return (
        _title(state, f"第 {last} 轮后成绩 standings after round {last}")
        + note
        + _table(STANDINGS_HEADER, standings_rows(state, through), frozenset({2}))
    )


def score_sheet_html(state: EventState, round_no: int, table: int) -> str:
    """One table's score sheet: deals 1…max, the result, and the signature lines of both sides."""
    result = state.table(round_no, table)
    t = result.table
    scores = state.scores(round_no)
    deals = [(str(i), "", "", "") for i in range(1, state.rules.max_deals + 1)]
    head = ("副 deal", f"东西 EW {t.ew} 级 level", f"南北 NS {t.ns} 级 level", "备注 note")
    if t.ew in scores and t.ns in scores:
        ew, ns = scores[t.ew], scores[t.ns]
        outcome = (f"EW {ew.outcome} · 积分 {ew.points}:{ns.points} · 小分 {ew.small}:{ns.small} · "
                   f"得分 {ew.gained}:{ns.gained}")  # fmt: skip
    else:
        outcome = f"结果 result: {result.status}"
    sign = (
        "<p>东西方签名 EW signature: ______________________ &nbsp; 南北方签名 NS signature: ______________________</p>"
        "<p>裁判员 referee: ______________________</p>"
    )
    title = _title(state, f"计分表 score sheet · 第 {round_no} 轮 round · 第 {table} 桌 table")
    players = f"<p>东西 EW {escape(_players(state, t.ew))} &nbsp; 南北 NS {escape(_players(state, t.ns))}</p>"
    return title + players + _table(head, deals) + f"<p><b>{escape(outcome)}</b></p>" + sign


def score_sheets_html(state: EventState, round_no: int) -> list[str]:
    """Every table's score sheet of a round, one page each."""
    return [score_sheet_html(state, round_no, n) for n in sorted(state.round(round_no).results)]
