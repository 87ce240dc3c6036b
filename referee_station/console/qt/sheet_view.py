"""The record sheet of the selected table, deal by deal, with CSV and PDF export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_station.console.models.console import ConsoleModel
from referee_station.console.models.i18n import tr
from referee_station.console.qt.export import sheet_pdf


class SheetView(QWidget):
    """The sheet's rows; ``export_csv`` / ``export_pdf`` write files (the buttons ask where)."""

    def __init__(self, model: ConsoleModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.table: str | None = None
        self.grid = QTableWidget(0, 0)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.verticalHeader().setVisible(False)
        self.result = QLabel()
        self.csv_button = QPushButton()
        self.pdf_button = QPushButton()
        buttons = QHBoxLayout()
        buttons.addWidget(self.result, 1)
        buttons.addWidget(self.csv_button)
        buttons.addWidget(self.pdf_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.grid, 1)
        layout.addLayout(buttons)
        self.csv_button.clicked.connect(lambda: self._ask("csv"))
        self.pdf_button.clicked.connect(lambda: self._ask("pdf"))
        model.sheet.changed.connect(lambda table: self.redraw() if table == self.table else None)
        model.language_changed.connect(self.retranslate)
        self.retranslate(model.lang)

    def set_table(self, table: str) -> None:
        self.table = table
        self.redraw()

    def retranslate(self, lang: str) -> None:
        self.csv_button.setText(tr("export_csv", lang))
        self.pdf_button.setText(tr("export_pdf", lang))
        self.redraw()

    def redraw(self) -> None:
        if self.table is None:
            return
        lang = self.model.lang
        sheet = self.model.sheet.sheet(self.table)
        header = sheet.header(lang)
        self.grid.setColumnCount(len(header))
        self.grid.setHorizontalHeaderLabels(header)
        self.grid.setRowCount(len(sheet.rows))
        for r, row in enumerate(sheet.rows):
            for c, value in enumerate(sheet.cells(row, lang)):
                self.grid.setItem(r, c, QTableWidgetItem(value))
        self.result.setText(sheet.result_line(lang))

    def export_csv(self, path: Path) -> None:
        if self.table is not None:
            path.write_text(self.model.sheet.sheet(self.table).to_csv(self.model.lang), encoding="utf-8-sig")

    def export_pdf(self, path: Path) -> None:
        if self.table is not None:
            sheet_pdf(self.model.sheet.sheet(self.table), path, self.model.lang)

    def _ask(self, kind: str) -> None:
        """Ask where to write, starting in the user's documents with only this kind of file shown."""
        folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        name, _ = QFileDialog.getSaveFileName(
            self,
            tr(f"export_{kind}", self.model.lang),
            str(Path(folder) / f"{self.table}.{kind}"),
            f"{kind.upper()} (*.{kind})",
        )
        if name:
            (self.export_csv if kind == "csv" else self.export_pdf)(Path(name))
