"""The referee console (issue #7): Qt-free models (``models``), the live table engine that feeds
the referee off the GUI thread (``live``), and the PySide6 views (``qt``).

Models never import Qt (an import-linter contract in ``pyproject.toml`` checks it), so the
headless demo, the tests and the hall bus can use them without a display.
"""
