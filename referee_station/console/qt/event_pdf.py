"""The event's sheets (pairings, score sheets, standings) as PDF, laid out by Qt from the HTML
of ``referee_station.event.sheets`` (the event core stays Qt-free). Chinese text needs a CJK font
on the machine (``fonts-wqy-microhei`` in setup.sh)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtGui import QPageSize, QPdfWriter, QTextDocument

STYLE = "th { background-color: #dddddd; } td, th { padding: 4px; }"


def html_pdf(pages: Sequence[str], path: Path, title: str) -> None:
    """Write the HTML pages into one A4 PDF, each starting on a new sheet."""
    writer = QPdfWriter(str(path))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setTitle(title)
    document = QTextDocument()
    document.setDefaultStyleSheet(STYLE)
    breaks = (f"<div style='page-break-before: always'>{p}</div>" if i else p for i, p in enumerate(pages))
    document.setHtml("".join(breaks))
    document.print_(writer)
