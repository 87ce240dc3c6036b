"""The deck profile (the ``DECK`` file): the card reader's networks adapted to one deck design, and metadata.

A zip (or a folder with the same files) holding ``classifier.onnx`` (the generic classifier's graph with
weights fitted to the deck), optionally ``classifier_2.onnx`` … (the reader's further classifiers, each
fitted the same way and averaged with the first, as the generic reader averages its members), optionally
``locator.onnx`` (the generic locator's graph fitted to rendered rows of the deck: the generic one
misses about one index in twenty of an unseen font), optionally ``classifier_context.onnx`` (the generic
context classifier fitted to the deck's rendered rows, mixed in as the generic reader mixes its own) and
``deck.json``: design name, date, accuracy on held-back augmented crops, the confidence threshold below
which a table's cards are not this deck (``vision.deck.mismatch``), and the locator's peak threshold.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

from vision.reader import (
    CLASSIFIER_FILES,
    CONTEXT_FILE,
    LOCATOR_FILE,
    MODELS_DIR,
    CardReader,
    Thresholds,
    onnx_classifier,
    onnx_ensemble,
    onnx_locator,
)

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
    """Mean top-1 probability on held-back card crops (the classifiers averaged, without the locator)."""
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
    further: tuple[bytes, ...] = ()
    """The further classifiers fitted to the deck (``classifier_2.onnx`` …), averaged with the first.
    A profile written before they existed holds none and reads with the first alone."""
    context: bytes | None = None
    """The context classifier fitted to the deck; None: the profile reads without one (the generic one
    learned the training designs' faces, not this deck's)."""

    def __post_init__(self) -> None:
        if len(self.further) >= len(CLASSIFIER_FILES):
            raise ValueError(f"a deck profile holds at most {len(CLASSIFIER_FILES)} classifiers")

    @property
    def classifiers(self) -> list[bytes]:
        """Every fitted classifier, the first first."""
        return [self.classifier, *self.further]

    def save(self, path: Path) -> None:
        """Write the profile as one zip file."""
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("deck.json", json.dumps(asdict(self.meta), indent=2, ensure_ascii=False) + "\n")
            for name, model in zip(CLASSIFIER_FILES, self.classifiers, strict=False):  # __post_init__ caps the count
                z.writestr(name, model)
            if self.locator is not None:
                z.writestr(LOCATOR_FILE, self.locator)
            if self.context is not None:
                z.writestr(CONTEXT_FILE, self.context)

    @classmethod
    def load(cls, path: Path) -> DeckProfile:
        """Read a profile zip or folder; ValueError when it is not one."""
        path = Path(path)
        try:
            if path.is_dir():
                files = {p.name: p.read_bytes() for p in path.iterdir() if p.is_file()}
            else:
                with zipfile.ZipFile(path) as z:
                    files = {name: z.read(name) for name in z.namelist()}
            fields = json.loads(files["deck.json"].decode())
            model = files[CLASSIFIER_FILES[0]]
        except (OSError, KeyError, zipfile.BadZipFile, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not a deck profile ({err})") from err
        if fields.get("format") != FORMAT:
            raise ValueError(f"{path}: deck profile format {fields.get('format')!r}, this station reads {FORMAT}")
        further = tuple(files[name] for name in CLASSIFIER_FILES[1:] if name in files)
        return cls(DeckMeta(**fields), model, files.get(LOCATOR_FILE), further, files.get(CONTEXT_FILE))


def reader_for(deck: DeckProfile | None, model_dir: Path = MODELS_DIR) -> CardReader:
    """The one way the station builds its card reader (``read-frame``, ``run``, the benchmarks): the
    shipped models in ``model_dir``, or with a deck profile its classifiers and peak threshold in place
    of the generic ones (and its adapted locator when it carries one). ValueError naming the folder
    when its models are missing.

    A profile never reads with the generic context classifier: the card faces it learned are the training
    designs', and on the drawn test design it cut exact plays from 95.13 % to 61.61 %. It mixes in its
    own fitted one when it carries one (docs/deck.md)."""
    model_dir = Path(model_dir)
    missing = [name for name in (LOCATOR_FILE, CLASSIFIER_FILES[0]) if not (model_dir / name).exists()]
    if missing:
        raise ValueError(f"no card reader models ({', '.join(missing)}) in {model_dir}: pass --models")
    if deck is None:
        return CardReader.from_onnx(model_dir)
    return fitted_reader(deck.classifiers, deck.locator, deck.context, deck.meta.peak, model_dir)


def fitted_reader(
    classifiers: list[bytes], locator: bytes | None, context: bytes | None, peak: float, model_dir: Path = MODELS_DIR
) -> CardReader:
    """The reader of a deck's fitted networks (serialised ONNX): its classifiers averaged, its locator
    (None: the generic one in ``model_dir``) at ``peak``, its context classifier mixed in if any.
    ``reader_for`` reads a profile with it, and registration calibrates the mismatch threshold with it,
    so the threshold is measured on the reader the station will run."""
    return CardReader(
        onnx_locator(locator or str(Path(model_dir) / LOCATOR_FILE)),
        onnx_ensemble(classifiers),
        Thresholds(peak=peak),
        context=None if context is None else onnx_classifier(context),
    )
