"""The record sheet (比赛记录表) as a PDF: HTML laid out and written by the event package's PDF code
(``console.qt.event_pdf``), so every sheet of the station and the event is printed the same way.
CJK text needs a CJK font on the machine (``fonts-wqy-microhei`` in setup.sh)."""

from __future__ import annotations

from datetime import date
from html import escape
from pathlib import Path

from referee_station.console.models.i18n import tr
from referee_station.console.models.sheet import MatchSheet
from referee_station.console.qt.event_pdf import html_pdf

SIGNATURE_LINE = "_" * 28


def sheet_html(sheet: MatchSheet, lang: str = "zh", day: date | None = None) -> str:
    """The sheet as HTML: title, event / round / table, sides and players, date, one row per deal,
    the match result, and the signature lines of both sides and the referee (seed 003 十三)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in sheet.header(lang))
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in sheet.cells(row, lang)) + "</tr>" for row in sheet.rows
    )
    event, *sides = sheet.heading(lang)
    when = (day or date.today()).isoformat()
    signatures = "".join(f"<p>{escape(label)}: {SIGNATURE_LINE}</p>" for label in sheet.signatures(lang))
    return (
        f"<h2>{tr('sheet', lang)} — {escape(sheet.table)}</h2>"
        f"<p>{escape(event)} · {tr('sheet_date', lang)}: {when}</p>"
        + "".join(f"<p>{escape(line)}</p>" for line in sides)
        + f"<table border='1' cellspacing='0' cellpadding='3' width='100%'><tr>{head}</tr>{rows}</table>"
        f"<p><b>{escape(sheet.result_line(lang))}</b></p>{signatures}"
    )


def sheet_pdf(sheet: MatchSheet, path: Path, lang: str = "zh", day: date | None = None) -> None:
    """Write the sheet to ``path`` as an A4 PDF."""
    html_pdf([sheet_html(sheet, lang, day)], path, f"{tr('sheet', lang)} {sheet.table}")
