"""Where the data shipped with the station lies: the card reader's ONNX models and the cloth's files.

They are package data (``referee_station/models/*.onnx``, ``referee_station/calibration/cloth.json``,
``referee_station/calibration/markers.png``) found through ``importlib.resources``, so a checkout, an
editable install and an installed wheel read the same files, wherever the packages were installed.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def package_folder(package: str) -> Path:
    """The folder of an installed package's data files (a wheel installs as plain files, never zipped)."""
    folder = files(package)
    if not isinstance(folder, Path):
        raise RuntimeError(f"package {package!r} is not installed as plain files ({folder!r}): reinstall it unzipped")
    return folder


MODELS_DIR = package_folder("referee_station.models")
"""The shipped ONNX models of the card reader (``referee_station/models/MODEL_CARD.md``)."""
CALIBRATION_DIR = package_folder("referee_station.calibration")
"""The cloth layout (``cloth.json``) and its printable marker sheet (``markers.png``)."""
