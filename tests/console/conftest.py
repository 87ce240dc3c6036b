"""Qt runs offscreen in these tests, and a test fails when it leaves a top-level widget behind
(napari's leak check): every view must be registered with ``qtbot.addWidget`` or closed."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest


@pytest.fixture(autouse=True)
def no_leaked_widgets(request):
    """Runs after pytest-qt closed the test's widgets; anything still alive is a leak."""
    if "qtbot" not in request.fixturenames:
        yield
        return
    from PySide6.QtCore import QCoreApplication, QEvent
    from PySide6.QtWidgets import QApplication

    before = set(QApplication.topLevelWidgets())
    yield
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    leaked = [w for w in QApplication.topLevelWidgets() if w not in before]
    if leaked:
        for widget in leaked:
            widget.close()
            widget.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        pytest.fail(f"test left top-level widgets behind: {[type(w).__name__ for w in leaked]}")
