"""The deck profile (the ``DECK`` file): the card reader's networks adapted to one deck design, and metadata.

A zip (or a folder with the same files) holding ``classifier.onnx`` (the generic classifier's graph with
weights fitted to the deck), optionally ``locator.onnx`` (the generic locator's graph fitted to rendered
rows of the deck: the generic one misses about one index in twenty of an unseen font) and ``deck.json``:
design name, date, accuracy on held-back augmented crops, the confidence threshold below which a
table's cards are not this deck (``vision.deck.mismatch``), and the locator's peak threshold.
"""

from __future__ import annotations

import dataclasses
import json
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from vision.reader import CLASSIFIER_FILES, LOCATOR_FILE, MODELS_DIR, CardReader, onnx_classifier, onnx_locator

FORMAT = 1


@dataclass(frozen=True)
class DeckMeta:
    """What ``deck.json`` says about a profile."""

    design: str
    created: str
    """UTC, ISO 8601."""
    accuracy: float
    """Share of held-back augmented crops of the deck (cards and "none") read right."""
    held_back_crops: int
    confidence: float
    """Mean top-1 probability on held-back card crops (the classifier alone)."""
    mismatch_below: float
    """A table whose mean card confidence falls below this is not playing this deck: halfway between the
    profile's reader on rendered frames of this deck and of other designs (``vision.deck.threshold``)."""
    peak: float
    """Locator heat threshold for this deck's indices (the generic one is tuned on the training designs)."""
    seconds: float
    """Registration time on the machine that ran it."""
    format: int = FORMAT


@dataclass(frozen=True)
class DeckProfile:
    meta: DeckMeta
    classifier: bytes
    """The ONNX model, serialised."""
    locator: bytes | None = None
    """The adapted locator's ONNX model; None: the generic locator reads this deck."""

    def save(self, path: Path) -> None:
        """Write the profile as one zip file."""
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("deck.json", json.dumps(asdict(self.meta), indent=2, ensure_ascii=False) + "\n")
            z.writestr("classifier.onnx", self.classifier)
            if self.locator is not None:
                z.writestr("locator.onnx", self.locator)

    @classmethod
    def load(cls, path: Path) -> DeckProfile:
        """Read a profile zip or folder; ValueError when it is not one."""
        path = Path(path)
        try:
            if path.is_dir():
                meta, model = (path / "deck.json").read_text(), (path / "classifier.onnx").read_bytes()
                locator = (path / "locator.onnx").read_bytes() if (path / "locator.onnx").exists() else None
            else:
                with zipfile.ZipFile(path) as z:
                    meta, model = z.read("deck.json").decode(), z.read("classifier.onnx")
                    locator = z.read("locator.onnx") if "locator.onnx" in z.namelist() else None
            fields = json.loads(meta)
        except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not a deck profile ({err})") from err
        if fields.get("format") != FORMAT:
            raise ValueError(f"{path}: deck profile format {fields.get('format')!r}, this station reads {FORMAT}")
        return cls(DeckMeta(**fields), model, locator)


def reader_for(deck: DeckProfile | None, model_dir: Path = MODELS_DIR) -> CardReader:
    """The one way the station builds its card reader (``read-frame``, ``run``, the benchmarks): the
    shipped models in ``model_dir``, or with a deck profile its classifier and peak threshold in place
    of the generic ones (and its adapted locator when it carries one). ValueError naming the folder
    when its models are missing."""
    model_dir = Path(model_dir)
    missing = [name for name in (LOCATOR_FILE, CLASSIFIER_FILES[0]) if not (model_dir / name).exists()]
    if missing:
        raise ValueError(f"no card reader models ({', '.join(missing)}) in {model_dir}: pass --models")
    generic = CardReader.from_onnx(model_dir)
    if deck is None:
        return generic
    thresholds = dataclasses.replace(generic.thresholds, peak=deck.meta.peak)
    locate = generic.locate if deck.locator is None else onnx_locator(deck.locator)
    return CardReader(locate, onnx_classifier(deck.classifier), thresholds)
