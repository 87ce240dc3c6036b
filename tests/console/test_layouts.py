"""The consoles at the two screen sizes referees have (1366×768 laptops, 1920×1080 monitors): every
column of every table in sight and wide enough for what it holds (issue #29: the 名次 column hid
behind a scrollbar, plays were cut). The pictures in ``docs/`` are these windows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QTableWidget

from referee_station.console.qt.head_window import HeadWindow
from referee_station.console.qt.window import ConsoleWindow
from tests.console.helpers import RecordingTable, Wired, one_deal_with_flags, two_warnings
from tests.table.helpers import east_west_sweep

DOCS = Path(__file__).resolve().parents[2] / "docs"
SIZES = ((1366, 768), (1920, 1080))


def _finished() -> list:
    table = RecordingTable(rules={"length_deals": 1})
    table.deal("E")
    table.play("S", "3h 3d")  # out of turn (R-PLAY-1)
    east_west_sweep(table)
    return table.records


def clipped(table: QTableWidget) -> list[str]:
    """Columns narrower than their contents, or outside the table's viewport."""
    header = table.horizontalHeader()
    wrapping = table.wordWrap()
    out = []
    for column in range(table.columnCount()):
        needed = max(table.sizeHintForColumn(column), header.sectionSizeHint(column))
        wide = header.sectionResizeMode(column) == header.ResizeMode.Stretch and wrapping
        if header.sectionSize(column) < (min(needed, 80) if wide else needed) - 1:
            out.append(
                f"{header.model().headerData(column, header.orientation())} {header.sectionSize(column)}<{needed}"
            )
    if header.length() > table.viewport().width() + 1:
        out.append(f"{header.length()} px of columns in {table.viewport().width()} px")
    return out


@pytest.mark.parametrize("head", [False, True], ids=["station", "head"])
def test_the_consoles_fit_both_screens_without_clipped_columns(qtbot, head):
    wired = Wired({"T1": one_deal_with_flags(), "T2": two_warnings(), "T3": _finished(), "T4": two_warnings()[:4]})
    window = (HeadWindow if head else ConsoleWindow)(wired.model)
    qtbot.addWidget(window)
    window.show()
    wired.run()
    window.select("T1")
    for width, height in SIZES:
        window.resize(width, height)
        qtbot.wait(20)
        assert (window.width(), window.height()) == (width, height), window.minimumSizeHint()
        for lang in ("en", "zh"):
            wired.model.set_language(lang)
            window.hall.refresh()
            window.register.redraw()
            window.table_view.redraw()
            qtbot.wait(20)
            for table in window.findChildren(QTableWidget):
                if table.isVisible():
                    assert clipped(table) == [], f"{width}×{height} {lang}"
        image = window.grab().toImage()
        assert (image.width(), image.height()) == (width, height)
        assert image.save(str(DOCS / f"{'head' if head else 'station'}-{width}x{height}.png"))
