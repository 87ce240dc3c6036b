"""The headless demo's terminal timeline: the flags, ladder steps and results of every table,
one line each, in Chinese and English, as they happen (the same things the console shows)."""

from __future__ import annotations

from referee_station.console.models.i18n import tr
from referee_station.station.live.update import TableUpdate
from referee_station.table.events import DealEnd, Flag, MatchEnd, Penalty


def _both(key: str) -> str:
    return f"{tr(key, 'zh')} {tr(key, 'en')}"


def timeline_lines(update: TableUpdate) -> list[str]:
    """The timeline lines of one update (none for an ordinary action)."""
    lines = []
    head = f"{update.event.t:8.1f}s {update.table:>4}"
    for out in update.outputs:
        if isinstance(out, Flag):
            seat = out.seat or "-"
            lines.append(f"{head}  ⚑ #{out.id} {seat} {out.detail_zh} → {_both(out.penalty)} | {out.detail}")
        elif isinstance(out, Penalty):
            lines.append(f"{head}  ▲ {out.side} {_both(out.penalty)} ({out.reason}; flags {list(out.flags)})")
        elif isinstance(out, DealEnd):
            order = " ".join(s or "-" for s in out.order)
            up = f"{out.side_up} +{out.levels_up}" if out.side_up else "-"
            foul = " 犯规 foul" if out.foul else ""
            lines.append(
                f"{head}  ■ {tr('deal', 'zh', n=out.deal)} deal {out.deal}: {order}, {up}{foul} → "
                f"EW {out.levels.get('EW')} NS {out.levels.get('NS')}"
            )
        elif isinstance(out, MatchEnd):
            lines.append(
                f"{head}  ★ {tr('winner', 'zh')} winner {out.winner}: "
                f"EW {out.levels.get('EW')} NS {out.levels.get('NS')}, "
                f"points EW {out.points.get('EW')} NS {out.points.get('NS')} ({out.reason})"
            )
    return lines
