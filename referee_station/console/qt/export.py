"""The record sheet (比赛记录表) as a PDF, with Qt's own text layout and PDF writer (no extra
dependency). CJK text needs a CJK font on the machine (``fonts-wqy-microhei`` in setup.sh)."""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtGui import QPageSize, QPdfWriter, QTextDocument

from referee_station.console.models.i18n import tr
from referee_station.console.models.sheet import MatchSheet


def sheet_html(sheet: MatchSheet, lang: str = "zh") -> str:
    """The sheet as an HTML table: title, sides, one row per deal, the match result."""
    head = "".join(f"<th>{escape(h)}</th>" for h in sheet.header(lang))
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape(c)}</td>" for c in sheet.cells(row, lang)) + "</tr>" for row in sheet.rows
    )
    sides = f"EW: {escape(sheet.sides.get('EW', 'EW'))} &nbsp; NS: {escape(sheet.sides.get('NS', 'NS'))}"
    return (
        f"<h2>{tr('sheet', lang)} — {escape(sheet.table)}</h2><p>{sides}</p>"
        f"<table border='1' cellspacing='0' cellpadding='3'><tr>{head}</tr>{rows}</table>"
        f"<p><b>{escape(sheet.result_line(lang))}</b></p>"
    )


def sheet_pdf(sheet: MatchSheet, path: Path, lang: str = "zh") -> None:
    """Write the sheet to ``path`` as an A4 PDF."""
    writer = QPdfWriter(str(path))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setTitle(f"{tr('sheet', lang)} {sheet.table}")
    document = QTextDocument()
    document.setHtml(sheet_html(sheet, lang))
    document.print_(writer)
