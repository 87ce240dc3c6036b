"""A flag's camera frame at full size, so a referee can judge it (issue #29: a 135 px thumbnail
cannot be read). The cards the flag names (as the camera read them or the entry gave them) are
drawn on the image in a labelled band, so what was read and what the frame shows sit side by side.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QDialog, QLabel, QScrollArea, QVBoxLayout, QWidget

from referee_station.console.models.alerts import Alert
from referee_station.console.models.cards import card_text
from referee_station.console.models.i18n import tr
from referee_station.console.qt.style import frame_image

BAND_PX = 36
"""Height of the band drawn under the frame with the read cards."""


def evidence_pixmap(alert: Alert, lang: str) -> QPixmap | None:
    """The alert's frame at its own size with a band below naming the flag and the cards read."""
    image = frame_image(alert.frame)
    if image is None:
        return None
    pixmap = QPixmap(image.width(), image.height() + BAND_PX)
    pixmap.fill(QColor("#263238"))
    painter = QPainter(pixmap)
    painter.drawImage(0, 0, image)
    font = QFont()
    font.setPixelSize(BAND_PX // 2)
    painter.setFont(font)
    painter.setPen(QColor("white"))
    flag = alert.flag
    cards = card_text(flag.cards, lang) if flag.cards else "—"
    text = f"{alert.table} #{flag.id} {flag.rule} · {tr('flag_cards', lang)}: {cards}"
    band = QRect(8, image.height(), image.width() - 16, BAND_PX)
    painter.drawText(band, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)
    painter.end()
    return pixmap


class EvidenceDialog(QDialog):
    """A non-modal window with the selected alert's frame, scrollable when larger than the screen."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignCenter)
        scroll = QScrollArea()
        scroll.setWidget(self.image)
        scroll.setWidgetResizable(True)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll)

    def show_alert(self, alert: Alert, lang: str) -> None:
        pixmap = evidence_pixmap(alert, lang)
        if pixmap is None:
            return
        self.image.setPixmap(pixmap)
        self.setWindowTitle(f"{tr('evidence', lang)} — {alert.table} #{alert.flag.id}")
        screen = self.screen().availableGeometry()
        self.resize(min(pixmap.width() + 40, screen.width()), min(pixmap.height() + 40, screen.height()))
        self.show()
        self.raise_()
