"""Shared fixtures: the drawn test design installed for the renderer, and the shipped models present."""

from __future__ import annotations

import pytest

from referee_station.render.drawn import install_drawn_design
from referee_station.vision.reader import MODELS_DIR


@pytest.fixture(scope="session")
def drawn_design() -> str:
    return install_drawn_design()


@pytest.fixture(scope="session")
def models() -> None:
    if not (MODELS_DIR / "classifier.onnx").exists() or not (MODELS_DIR / "locator.onnx").exists():
        pytest.skip("the shipped card-reader models are not in referee_station/models/ yet")
