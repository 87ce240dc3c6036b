"""Walk every visible text of a window, to find words of the other language (issue #29: one language
at a time). Allowed in Chinese: rule ids (R-PLAY-1), table names (T1), card codes as drawn (10♠, BJ),
keys (Enter, Del, Ctrl+R), units (s), numbers; in English: no Han character at all."""

from __future__ import annotations

import re

from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMainWindow,
    QTableWidget,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from referee_station.table.offences import OFFENCES

TAG = re.compile(r"<[^>]+>")
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
HAN = re.compile(r"[\u3400-\u9fff]")
ALLOWED_IN_ZH = frozenset(
    {"Enter", "Del", "Space", "Ctrl", "Shift", "PgUp", "PgDown", "CSV", "PDF", "BJ", "SJ", "English", "JPEG", "ms"}
)
"""ASCII words a Chinese screen may show: keys, file types, the jokers' codes, the language switch."""
CODE = re.compile(r"^(R|V)-[A-Z0-9-]+$|^T\d+$")
RULE_IDS = frozenset(spec.rule for spec in OFFENCES.values())
"""Rule ids not of the R- form (``EVENTS``: a record that breaks the event contract)."""
QUOTED = re.compile(r"'[^']*'|「[^」]*」")
"""What the referee typed, echoed back: theirs, in whatever language."""
SWITCH = "中文"
"""The language switch names the other language, by design."""


def visible_texts(window: QWidget) -> list[tuple[str, str]]:
    """(where, text) of every visible widget text under ``window``, HTML tags stripped."""
    out: list[tuple[str, str]] = [("title", window.windowTitle())]
    for widget in [window, *window.findChildren(QWidget)]:
        if not widget.isVisibleTo(window) and widget is not window:
            continue
        name = type(widget).__name__
        if isinstance(widget, QLabel):
            out.append((name, TAG.sub(" ", widget.text())))
        elif isinstance(widget, QAbstractButton):
            out.append((name, widget.text()))
        elif isinstance(widget, QLineEdit):
            out.append((name, widget.placeholderText()))
        elif isinstance(widget, QGroupBox):
            out.append((name, widget.title()))
        elif isinstance(widget, QComboBox):
            out += [(name, widget.itemText(i)) for i in range(widget.count())]
        elif isinstance(widget, QTabWidget):
            out += [(name, widget.tabText(i)) for i in range(widget.count())]
        elif isinstance(widget, QListWidget):
            out += [(name, TAG.sub(" ", widget.item(i).text())) for i in range(widget.count())]
        elif isinstance(widget, QTreeWidget):
            header = widget.headerItem()
            out += [(name, header.text(c)) for c in range(widget.columnCount()) if not widget.isHeaderHidden()]
            items: list[QTreeWidgetItem] = [widget.topLevelItem(i) for i in range(widget.topLevelItemCount())]
            while items:
                item = items.pop()
                out += [(name, TAG.sub(" ", item.text(c))) for c in range(widget.columnCount())]
                items += [item.child(i) for i in range(item.childCount())]
        elif isinstance(widget, QTableWidget):
            for col in range(widget.columnCount()):
                header = widget.horizontalHeaderItem(col)
                out.append((name, header.text() if header else ""))
                for row in range(widget.rowCount()):
                    item = widget.item(row, col)
                    out.append((name, item.text() if item else ""))
    if isinstance(window, QMainWindow):
        out.append(("status", window.statusBar().currentMessage()))
    return [(where, text) for where, text in out if text.strip()]


def foreign(window: QWidget, lang: str) -> list[tuple[str, str, str]]:
    """(where, word, text) of each word on screen that is not in ``lang``."""
    found = []
    for where, text in visible_texts(window):
        text = QUOTED.sub(" ", text)
        if lang == "en":
            text = text.replace(SWITCH, " ")
            found += [(where, m.group(), text) for m in HAN.finditer(text)]
            continue
        for token in re.split(r"[\s,;:()（），；：、·/|\[\]{}]+", text):
            for m in WORD.finditer(token):
                if m.group() not in ALLOWED_IN_ZH | RULE_IDS and not CODE.match(token.strip(".:")):
                    found.append((where, m.group(), text))
    return found
