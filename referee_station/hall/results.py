"""Results per round for the tournament's scoring, from the register (RULES.md 8, R-MATCH-2/3).

One CSV row per pair and match: match points (win 2, draw 1, loss 0), level-difference points
(R-MATCH-2a), levels gained (得分) and levels conceded (失分), as the table's referee wrote them in
its ``match_end`` record; nothing is recomputed here, the register only reports.

Rounds: a table plays one match per round, so a table's matches are numbered 1, 2, … in the order
their ``match`` records reached the register. A match without its ``match_end`` yet is left out.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, TextIO

from referee_station.hall.register import Register
from referee_station.table.events import OTHER_SIDE, SIDES

FIELDS = (
    "round", "table", "side", "pair", "opponent", "result", "match_points",
    "level_diff_points", "levels_gained", "levels_conceded", "level", "reason",
)  # fmt: skip


@dataclass(frozen=True)
class MatchResult:
    round: int
    table: str
    sides: dict[str, str]
    """EW/NS -> pair names from the ``match`` record."""
    end: dict[str, Any]
    """The ``match_end`` record (EVENTS.md)."""

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for side in SIDES:
            other = OTHER_SIDE[side]
            winner = self.end["winner"]
            out.append(
                {
                    "round": self.round,
                    "table": self.table,
                    "side": side,
                    "pair": self.sides.get(side, ""),
                    "opponent": self.sides.get(other, ""),
                    "result": "draw" if winner == "draw" else "win" if winner == side else "loss",
                    "match_points": self.end["points"][side],
                    "level_diff_points": self.end["level_diff_points"][side],
                    "levels_gained": self.end["levels_gained"][side],
                    "levels_conceded": self.end["levels_conceded"][side],
                    "level": self.end["levels"][side],
                    "reason": self.end.get("reason", ""),
                }
            )
        return out


def match_results(register: Register, hall: str) -> list[MatchResult]:
    """Every finished match of the hall, with its round, by table then round."""
    starts: dict[str, list[tuple[Any, str]]] = defaultdict(list)
    ended: dict[str, tuple[str, dict[str, Any]]] = {}
    current: dict[tuple[str, str], tuple[str, dict[str, str]]] = {}
    sides_of: dict[str, dict[str, str]] = {}
    for record_id, table, log, _seq, kind, body, stored_at in register.records(hall, types=("match", "match_end")):
        record = json.loads(body)
        if kind == "match":
            current[table, log] = (record_id, record.get("sides", {}))
            sides_of[record_id] = record.get("sides", {})
            starts[table].append((stored_at, record_id))
        elif (table, log) in current:
            ended[current.pop((table, log))[0]] = (table, record)
    out = []
    for table, matches in sorted(starts.items()):
        for number, (_at, start_id) in enumerate(sorted(matches), start=1):
            if start_id in ended:
                out.append(MatchResult(number, table, sides_of[start_id], ended[start_id][1]))
    return out


def write_csv(results: list[MatchResult], out: TextIO, round_no: int | None = None) -> int:
    """Write the rows of one round (or all); returns the number of matches written."""
    chosen = [r for r in results if round_no is None or r.round == round_no]
    writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
    writer.writeheader()
    for result in chosen:
        writer.writerows(result.rows())
    return len(chosen)
