"""The deck profile (the ``DECK`` file): a classifier adapted to one deck design, and its metadata.

A zip (or a folder with the same two files) holding ``classifier.onnx`` (the generic classifier's graph
with weights fitted to the deck) and ``deck.json``: design name, date, accuracy on held-back augmented
crops, the confidence threshold below which a table's cards are not this deck (``vision.deck.mismatch``),
and the locator's peak threshold calibrated on the deck's photos.
The locator is not part of it: finding index corners does not depend on the design's font.
"""

from __future__ import annotations

import dataclasses
import json
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from vision.reader import MODELS_DIR, CardReader, Classify

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
    """Mean top-1 probability on held-back card crops: what a matching table looks like."""
    mismatch_below: float
    """A table whose mean top-1 confidence on read cards falls below this is not playing this deck."""
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

    def save(self, path: Path) -> None:
        """Write the profile as one zip file."""
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("deck.json", json.dumps(asdict(self.meta), indent=2, ensure_ascii=False) + "\n")
            z.writestr("classifier.onnx", self.classifier)

    @classmethod
    def load(cls, path: Path) -> DeckProfile:
        """Read a profile zip or folder; ValueError when it is not one."""
        path = Path(path)
        try:
            if path.is_dir():
                meta, model = (path / "deck.json").read_text(), (path / "classifier.onnx").read_bytes()
            else:
                with zipfile.ZipFile(path) as z:
                    meta, model = z.read("deck.json").decode(), z.read("classifier.onnx")
            fields = json.loads(meta)
        except (OSError, KeyError, zipfile.BadZipFile, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not a deck profile ({err})") from err
        if fields.get("format") != FORMAT:
            raise ValueError(f"{path}: deck profile format {fields.get('format')!r}, this station reads {FORMAT}")
        return cls(DeckMeta(**fields), model)


def onnx_classifier(model: bytes | str, threads: int = 2) -> Classify:
    """A classifier callable (crops → probabilities) over an ONNX model, as ``CardReader`` expects."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    session = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])

    def classify(x: np.ndarray) -> np.ndarray:
        logits = session.run(None, {"x": np.ascontiguousarray(x.transpose(0, 3, 1, 2), np.float32) / 255})[0]
        e = np.exp(logits - logits.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)

    return classify


def reader_for(deck: DeckProfile | None, model_dir: Path = MODELS_DIR) -> CardReader:
    """The one way the station builds its card reader (``read-frame``, ``run``, the benchmarks): the
    shipped models in ``model_dir``, or with a deck profile its classifier and peak threshold in place
    of the generic ones. ValueError naming the folder when its models are missing."""
    model_dir = Path(model_dir)
    missing = [name for name in ("locator.onnx", "classifier.onnx") if not (model_dir / name).exists()]
    if missing:
        raise ValueError(f"no card reader models ({', '.join(missing)}) in {model_dir}: pass --models")
    generic = CardReader.from_onnx(model_dir)
    if deck is None:
        return generic
    thresholds = dataclasses.replace(generic.thresholds, peak=deck.meta.peak)
    return CardReader(generic.locate, onnx_classifier(deck.classifier), thresholds)
