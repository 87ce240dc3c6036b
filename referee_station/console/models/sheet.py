"""The record sheet (比赛记录表) of each table's match, deal by deal, and its CSV export.

One row per ``deal_end`` (R-PLAY-3 finishing order, R-UP-1/2 levels), with the penalties
confirmed during that deal (RULES.md section 9) and, at the end, the match result
(R-MATCH-1/2). The heading names the event, round, table, sides and players, and the sheet ends
with the lines both sides and the referee sign (seed 003 十三). Everything is written in one
language, the console's. The PDF export lays the same rows out with Qt (``console.qt.export``).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from referee_station.console.models.cards import level_text
from referee_station.console.models.i18n import tr
from referee_station.console.models.signal import Signal
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import DealEnd, DealStart, MatchEnd, MatchStart, Penalty, Withdrawn


@dataclass
class SheetRow:
    """One deal of the match."""

    deal: int
    level: str
    started: float
    ended: float | None = None
    order: tuple[str | None, ...] = ()
    side_up: str | None = None
    levels_up: int = 0
    levels: dict[str, str] = field(default_factory=dict)
    foul: bool = False
    penalties: list[tuple[str, str]] = field(default_factory=list)
    """(side, penalty) of each ladder step confirmed during the deal."""


def reason_text(reason: str, lang: str = "zh") -> str:
    """Why the match ended (the referee's ``match_end`` reason) in the sheet's language."""
    played = re.fullmatch(r"(\d+) deals played", reason)
    if played:
        return tr("reason_deals", lang, n=int(played.group(1)))
    key = {"passed A": "reason_passed_a", "time called": "reason_time", "match loss (two fouls)": "reason_match_loss"}
    return tr(key[reason], lang) if reason in key else reason


@dataclass
class MatchSheet:
    """The sheet of one table's match."""

    table: str
    sides: dict[str, str] = field(default_factory=dict)
    rows: list[SheetRow] = field(default_factory=list)
    result: MatchEnd | None = None
    event: str | None = None
    round: int | None = None
    players: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def side_line(self, side: str, lang: str = "zh") -> str:
        """``东西: 红队 (张三 / 李四)``: the side, its name, its players."""
        players = " / ".join(self.players.get(side, ()))
        return f"{tr(side, lang)}: {self.sides.get(side, side)}" + (f" ({players})" if players else "")

    def heading(self, lang: str = "zh") -> list[str]:
        """The sheet's heading lines: event and round, table, both sides with their players."""
        event = " · ".join(
            part
            for part in (
                f"{tr('sheet_event', lang)}: {self.event}" if self.event else "",
                tr("sheet_round", lang, n=self.round) if self.round else "",
                f"{tr('table', lang)}: {self.table}",
            )
            if part
        )
        return [event, self.side_line("EW", lang), self.side_line("NS", lang)]

    def signatures(self, lang: str = "zh") -> list[str]:
        """The labels of the signature lines: each side, then the referee (seed 003 十三)."""
        sides = [tr("signature", lang, side=f"{tr(side, lang)} {self.sides.get(side, side)}") for side in ("EW", "NS")]
        return [*sides, tr("referee_signature", lang)]

    def header(self, lang: str = "zh") -> list[str]:
        keys = ("sheet_deal", "level", "order", "up", "EW", "NS", "penalty", "foul", "sheet_time")
        return [tr(k, lang) for k in keys]

    def cells(self, row: SheetRow, lang: str = "zh") -> list[str]:
        order = " ".join(tr(s, lang) if s else "—" for s in row.order)
        up = f"{tr(row.side_up, lang)} +{row.levels_up}" if row.side_up else ""
        pens = "; ".join(f"{tr(side, lang)} {tr(penalty, lang)}" for side, penalty in row.penalties)
        duration = "" if row.ended is None else f"{row.started:.0f}–{row.ended:.0f}"
        ew, ns = level_text(row.levels.get("EW")), level_text(row.levels.get("NS"))
        return [str(row.deal), level_text(row.level), order, up, ew, ns, pens, "✓" if row.foul else "", duration]

    def result_line(self, lang: str = "zh") -> str:
        if self.result is None:
            return ""
        r = self.result
        winner = tr(r.winner, lang)  # EW, NS or draw
        ew, ns = tr("EW", lang), tr("NS", lang)
        return (
            f"{tr('winner', lang)}: {winner}  "
            f"{tr('levels', lang)}: {ew} {level_text(r.levels.get('EW'))} {ns} {level_text(r.levels.get('NS'))}  "
            f"{tr('points', lang)}: {ew} {r.points.get('EW')} {ns} {r.points.get('NS')}  "
            f"({reason_text(r.reason, lang)})"
        )

    def to_csv(self, lang: str = "zh") -> str:
        """The sheet as CSV text: the heading lines, the header, one line per deal, the result, the signatures."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([tr("sheet", lang), *self.heading(lang)])
        writer.writerow(self.header(lang))
        for row in self.rows:
            writer.writerow(self.cells(row, lang))
        if self.result is not None:
            writer.writerow([self.result_line(lang)])
        writer.writerow([f"{label}: " for label in self.signatures(lang)])
        return out.getvalue()


class RecordSheet:
    """The sheets of every table. Signal: ``changed(table)``."""

    def __init__(self) -> None:
        self.sheets: dict[str, MatchSheet] = {}
        self.changed = Signal()

    def sheet(self, table: str) -> MatchSheet:
        return self.sheets.setdefault(table, MatchSheet(table))

    @staticmethod
    def _withdraw(sheet: MatchSheet, out: Withdrawn) -> None:
        """A penalty or the result a correction took back (docs/corrections.md); a deal's changed
        result comes as its ``deal_end`` again."""
        if out.what == "match_end":
            sheet.result = None
            return
        step = (out.record.get("side"), out.record.get("penalty"))
        row = next((r for r in reversed(sheet.rows) if step in r.penalties), None)
        if row is not None:
            row.penalties.remove(step)

    def apply(self, update: TableUpdate) -> None:
        sheet = self.sheet(update.table)
        ev = update.event
        touched = False
        if isinstance(ev, MatchStart):
            sheet.sides = dict(ev.sides)
            sheet.event, sheet.round, sheet.players = ev.event, ev.round, dict(ev.players or {})
            touched = True
        elif isinstance(ev, DealStart):
            deal = update.snapshot.deal
            number, level = (len(sheet.rows) + 1, "") if deal is None else (deal.number, deal.level)
            sheet.rows.append(SheetRow(number, level, ev.t))
            touched = True
        for out in update.outputs:
            if isinstance(out, Penalty) and sheet.rows:
                sheet.rows[-1].penalties.append((out.side, out.penalty))
            elif isinstance(out, DealEnd):
                row = next((r for r in sheet.rows if r.deal == out.deal), None)
                if row is None:
                    row = SheetRow(out.deal, "", out.t)
                    sheet.rows.append(row)
                row.ended, row.order, row.side_up = out.t, out.order, out.side_up
                row.levels_up, row.levels, row.foul = out.levels_up, dict(out.levels), out.foul
            elif isinstance(out, MatchEnd):
                sheet.result = out
            elif isinstance(out, Withdrawn) and out.what in ("penalty", "match_end"):
                self._withdraw(sheet, out)
            else:
                continue
            touched = True
        if touched:
            self.changed.emit(update.table)
