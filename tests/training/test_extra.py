"""The training package is importable only with the ``[train]`` extra: without torch it raises at once,
naming the extra, and the CLI's mapping from a missing module to its extra knows the error."""

from __future__ import annotations

import importlib
import sys

import pytest

from referee_station.extras import DISTRIBUTION, extra_for


def test_importing_training_without_torch_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # as if torch were not installed
    for name in [n for n in sys.modules if n.startswith("referee_station.training")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(ModuleNotFoundError) as raised:
        importlib.import_module("referee_station.training.train")
    assert f"needs the [train] extra (torch is not installed): pip install '{DISTRIBUTION}[train]'" in str(raised.value)
    assert extra_for(raised.value) == "train"
