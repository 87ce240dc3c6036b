"""The record sheet (比赛记录表) of each table's match, deal by deal, and its CSV export.

One row per ``deal_end`` (R-PLAY-3 finishing order, R-UP-1/2 levels), with the penalties
confirmed during that deal (RULES.md section 9) and, at the end, the match result
(R-MATCH-1/2). The PDF export lays the same rows out with Qt (``console.qt.export``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from referee_station.console.models.i18n import tr
from referee_station.console.models.signal import Signal
from referee_station.console.models.update import TableUpdate
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
    penalties: list[str] = field(default_factory=list)
    """``side penalty`` of each ladder step confirmed during the deal."""


@dataclass
class MatchSheet:
    """The sheet of one table's match."""

    table: str
    sides: dict[str, str] = field(default_factory=dict)
    rows: list[SheetRow] = field(default_factory=list)
    result: MatchEnd | None = None

    def header(self, lang: str = "zh") -> list[str]:
        keys = ("sheet_deal", "level", "order", "up", "EW", "NS", "penalty", "foul", "sheet_time")
        return [tr(k, lang) for k in keys]

    def cells(self, row: SheetRow, lang: str = "zh") -> list[str]:
        order = " ".join(tr(s, lang) if s else "—" for s in row.order)
        up = f"{tr(row.side_up, lang)} +{row.levels_up}" if row.side_up else ""
        pens = "; ".join(row.penalties)
        duration = "" if row.ended is None else f"{row.started:.0f}–{row.ended:.0f}"
        ew, ns = row.levels.get("EW", ""), row.levels.get("NS", "")
        return [str(row.deal), row.level, order, up, ew, ns, pens, "✓" if row.foul else "", duration]

    def result_line(self, lang: str = "zh") -> str:
        if self.result is None:
            return ""
        r = self.result
        winner = tr(r.winner, lang) if r.winner in ("EW", "NS") else r.winner
        return (
            f"{tr('winner', lang)}: {winner}  {tr('levels', lang)}: EW {r.levels.get('EW')} NS {r.levels.get('NS')}  "
            f"{tr('points', lang)}: EW {r.points.get('EW')} NS {r.points.get('NS')}  ({r.reason})"
        )

    def to_csv(self, lang: str = "zh") -> str:
        """The sheet as CSV text: a title line, the header, one line per deal, the result."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            [tr("sheet", lang), self.table, f"EW={self.sides.get('EW', 'EW')}", f"NS={self.sides.get('NS', 'NS')}"]
        )
        writer.writerow(self.header(lang))
        for row in self.rows:
            writer.writerow(self.cells(row, lang))
        if self.result is not None:
            writer.writerow([self.result_line(lang)])
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
        text = f"{out.record.get('side')} {out.record.get('penalty')}"
        row = next((r for r in reversed(sheet.rows) if text in r.penalties), None)
        if row is not None:
            row.penalties.remove(text)

    def apply(self, update: TableUpdate) -> None:
        sheet = self.sheet(update.table)
        ev = update.event
        touched = False
        if isinstance(ev, MatchStart):
            sheet.sides = dict(ev.sides)
            touched = True
        elif isinstance(ev, DealStart):
            deal = update.snapshot.get("deal", {})
            sheet.rows.append(SheetRow(int(deal.get("number", len(sheet.rows) + 1)), str(deal.get("level", "")), ev.t))
            touched = True
        for out in update.outputs:
            if isinstance(out, Penalty) and sheet.rows:
                sheet.rows[-1].penalties.append(f"{out.side} {out.penalty}")
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
