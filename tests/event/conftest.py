"""The PDF tests lay out text with Qt, offscreen."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
