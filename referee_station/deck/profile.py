"""The deck profile (the ``DECK`` file): the card reader's networks adapted to one deck design, and metadata.

A zip (or a folder with the same files) holding ``classifier.onnx`` (the generic classifier's graph with
weights fitted to the deck), optionally ``classifier_2.onnx`` … (the reader's further classifiers, each
fitted the same way and averaged with the first, as the generic reader averages its members), optionally
``locator.onnx`` (the generic locator's graph fitted to rendered rows of the deck: the generic one
misses about one index in twenty of an unseen font), optionally ``classifier_context.onnx`` (the generic
context classifier fitted to the deck's rendered rows, mixed in as the generic reader mixes its own) and
``faces.npz`` (the 54 faces as photographed, upright at the strip's scale, in ``DECK`` order: the
reader compares each card's visible part with them, ``referee_station.vision.faces``; a profile of faces alone, without
a fitted ``classifier.onnx``, reads with the generic networks and its faces) and
``deck.json``: design name, date, accuracy on held-back augmented crops, the confidence threshold below
which a table's cards are not this deck (``referee_station.deck.mismatch``), the locator's peak threshold,
and the frame detail the deck needs (``referee_station.deck.detail``: what ``check-camera`` asks of a camera).

A profile comes from outside the station, so :meth:`DeckProfile.load` checks it before reading
anything whole: only the files above, each within :data:`FILE_MAX` bytes as stored and as
unpacked (a zip bomb is refused by its headers), ``deck.json`` against the :class:`DeckMeta`
schema (no unknown field, every value of its type), and every network a self-contained ONNX model
(``referee_station.deck.onnx_check``: no external data naming a file outside the profile).
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from referee_station.deck.crops import CODES
from referee_station.deck.mismatch import MismatchMeasure
from referee_station.deck.onnx_check import check_onnx
from referee_station.vision.faces import FACE_SIZE, Faces
from referee_station.vision.geometry import INDEX_CROP
from referee_station.vision.index_width import MAX_INDEX_WIDTH
from referee_station.vision.reader import (
    CLASSIFIER_FILES,
    CONTEXT_FILE,
    LOCATOR_FILE,
    MODELS_DIR,
    CardReader,
    Thresholds,
    classifier_paths,
    onnx_classifier,
    onnx_ensemble,
    onnx_locator,
)
from referee_station.vision.strips import Need

FORMAT = 1
FILE_MAX = 64 * 2**20
"""Bytes one network of a profile may take (the shipped ones are under 1 MiB)."""
META_MAX = 64 * 2**10
"""Bytes ``deck.json`` may take."""
FACES_FILE = "faces.npz"
PROFILE_FILES = frozenset({"deck.json", *CLASSIFIER_FILES, LOCATOR_FILE, CONTEXT_FILE, FACES_FILE})
"""Every file a profile may hold."""


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
    """A table whose cards' mean ``mismatch_on`` falls below this is not playing this deck: halfway between
    the profile's reader on rendered frames of this deck and of other designs (``referee_station.deck.threshold``)."""
    peak: float
    """Locator heat threshold for this deck's indices (the generic one is tuned on the training designs)."""
    seconds: float
    """Registration time on the machine that ran it."""
    mismatch_on: MismatchMeasure = MismatchMeasure.CONFIDENCE
    """What ``mismatch_below`` was measured on: the face match for every profile registered with its faces
    since 2026-12-02; a ``deck.json`` without the field was calibrated on the cards' confidence."""
    needs_px_per_cm: float | None = None
    """Frame px per cm from which registration's fits put this deck's cards read right at ``NEEDS_SHARE``
    (``referee_station.deck.detail``); None in profiles registered before it was measured."""
    needs_reached: bool = True
    """False: no detail registration rendered read that share; the deck needs more than ``needs_px_per_cm``."""
    index_width: float = INDEX_CROP[0]
    """cm of each card, from its left edge, that the index crops take (``referee_station.vision.index_width``):
    wider than the generic crop where the deck's suit stands beside its rank; the generic width in
    profiles registered before it was measured."""
    photos_px_per_cm: float | None = None
    """The least frame px per cm a registration photo gave its card (``SHARP_PHOTO_PX_PER_CM``: under it the
    faces blur small marks); None in profiles registered before it was kept."""
    format: int = FORMAT

    def __post_init__(self) -> None:
        object.__setattr__(self, "mismatch_on", MismatchMeasure(self.mismatch_on))

    @property
    def need(self) -> Need | None:
        """The detail this deck needs of a play area (``check-camera``; the reader trusts no card read
        under it); None in profiles registered before it was measured."""
        return None if self.needs_px_per_cm is None else Need(self.needs_px_per_cm, not self.needs_reached)


@dataclass(frozen=True)
class DeckProfile:
    meta: DeckMeta
    classifier: bytes | None
    """The fitted ONNX model, serialised; None: a profile of faces alone (the generic classifiers read)."""
    locator: bytes | None = None
    """The adapted locator's ONNX model; None: the generic locator reads this deck."""
    further: tuple[bytes, ...] = ()
    """The further classifiers fitted to the deck (``classifier_2.onnx`` …), averaged with the first.
    A profile written before they existed holds none and reads with the first alone."""
    context: bytes | None = None
    """The context classifier fitted to the deck; None: the profile reads without one (the generic one
    learned the training designs' faces, not this deck's)."""
    faces: np.ndarray | None = field(default=None, compare=False)
    """(54, h, w, 3) uint8 BGR at the strip's scale (``referee_station.vision.faces.FACE_SIZE``), in ``CODES`` order:
    each card's face as photographed at registration; None in profiles from before the faces."""

    def __post_init__(self) -> None:
        if len(self.further) >= len(CLASSIFIER_FILES):
            raise ValueError(f"a deck profile holds at most {len(CLASSIFIER_FILES)} classifiers")
        if self.classifier is None and (self.further or self.faces is None):
            raise ValueError("a deck profile without a fitted classifier must hold the faces and no other classifier")
        if self.classifier is None and self.meta.index_width != INDEX_CROP[0]:
            raise ValueError(
                f"a deck profile without a fitted classifier reads with the generic ones, whose index crop is "
                f"{INDEX_CROP[0]} cm wide: index_width {self.meta.index_width} cannot be read"
            )
        if self.faces is not None:
            _check_faces(self.faces, "faces")

    @property
    def classifiers(self) -> list[bytes]:
        """Every fitted classifier, the first first (none in a profile of faces alone)."""
        return [] if self.classifier is None else [self.classifier, *self.further]

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
            if self.faces is not None:
                buf = io.BytesIO()
                np.savez_compressed(buf, faces=self.faces)
                z.writestr(FACES_FILE, buf.getvalue())

    @classmethod
    def load(cls, path: Path) -> DeckProfile:
        """Read a profile zip or folder; ValueError naming the file and the fault when it is not one."""
        path = Path(path)
        try:
            files = _read_folder(path) if path.is_dir() else _read_zip(path)
        except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as err:
            raise ValueError(f"{path}: not a deck profile ({err})") from err
        if "deck.json" not in files or (CLASSIFIER_FILES[0] not in files and FACES_FILE not in files):
            missing = "deck.json" if "deck.json" not in files else f"{CLASSIFIER_FILES[0]} nor {FACES_FILE}"
            raise ValueError(f"{path}: not a deck profile (no {missing})")
        meta = _meta(files["deck.json"], path)
        for name, data in files.items():
            if name not in ("deck.json", FACES_FILE):
                check_onnx(data, f"{path}: {name}")
        faces = _faces(files[FACES_FILE], f"{path}: {FACES_FILE}") if FACES_FILE in files else None
        further = tuple(files[name] for name in CLASSIFIER_FILES[1:] if name in files)
        try:
            return cls(
                meta,
                files.get(CLASSIFIER_FILES[0]),
                files.get(LOCATOR_FILE),
                further,
                files.get(CONTEXT_FILE),
                faces,
            )
        except ValueError as err:
            raise ValueError(f"{path}: {err}") from err


def _check_faces(faces: np.ndarray, where: str) -> None:
    """ValueError naming ``where`` unless ``faces`` is (54, h, w, 3) uint8 at ``FACE_SIZE``."""
    want = (len(CODES), FACE_SIZE[1], FACE_SIZE[0], 3)
    if not isinstance(faces, np.ndarray) or faces.dtype != np.uint8 or faces.shape != want:
        got = f"{faces.dtype} {faces.shape}" if isinstance(faces, np.ndarray) else type(faces).__name__
        raise ValueError(f"{where}: the faces must be uint8 {want} (54 cards at the strip's scale), got {got}")


def _faces(data: bytes, where: str) -> np.ndarray:
    """The faces array of ``faces.npz``, read without pickles and checked (``_check_faces``)."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            names = sorted(npz.files)
            faces = npz["faces"] if names == ["faces"] else None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as err:  # not an npz, or pickles in it
        raise ValueError(f"{where}: not a faces file ({err})") from err
    if faces is None:
        raise ValueError(f"{where}: holds {names}, expected only 'faces'")
    _check_faces(faces, where)
    return faces


def _limit(name: str) -> int:
    return META_MAX if name == "deck.json" else FILE_MAX


def _read_zip(path: Path) -> dict[str, bytes]:
    """The profile's files from a zip, each checked by name and size before it is unpacked."""
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            if info.filename not in PROFILE_FILES:
                raise ValueError(f"{path}: unexpected file {info.filename!r} in a deck profile")
            if info.filename in files:
                raise ValueError(f"{path}: {info.filename} appears twice")
            limit = _limit(info.filename)
            if info.file_size > limit or info.compress_size > limit:
                raise ValueError(f"{path}: {info.filename} unpacks to {info.file_size} bytes, over {limit}")
            with z.open(info) as entry:
                data = entry.read(limit + 1)  # never more than the limit, whatever the header said
            if len(data) > limit:
                raise ValueError(f"{path}: {info.filename} is over {limit} bytes")
            files[info.filename] = data
    return files


def _read_folder(path: Path) -> dict[str, bytes]:
    """The profile's files from a folder: only its own regular files (no links out of it), sizes checked."""
    files: dict[str, bytes] = {}
    for name in sorted(PROFILE_FILES):
        file = path / name
        if not file.exists() and not file.is_symlink():
            continue
        if file.is_symlink() or not file.is_file():
            raise ValueError(f"{file}: a deck profile's file must be a regular file inside its folder")
        if file.stat().st_size > _limit(name):
            raise ValueError(f"{file}: {file.stat().st_size} bytes, over {_limit(name)}")
        files[name] = file.read_bytes()
    return files


def _meta(data: bytes, path: Path) -> DeckMeta:
    """``deck.json`` checked against :class:`DeckMeta`: its fields only, each of its type and range."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise ValueError(f"{path}: deck.json is not JSON ({err})") from err
    if not isinstance(obj, dict):
        raise ValueError(f"{path}: deck.json must be a JSON object, got {type(obj).__name__}")
    if obj.get("format") != FORMAT:
        raise ValueError(f"{path}: deck profile format {obj.get('format')!r}, this station reads {FORMAT}")
    known = {f.name for f in fields(DeckMeta)}
    if unknown := sorted(set(obj) - known):
        raise ValueError(f"{path}: deck.json has unknown field {unknown[0]!r}")
    if missing := sorted(known - set(obj) - _META_OPTIONAL):
        raise ValueError(f"{path}: deck.json lacks field {missing[0]!r}")
    for name, check in _META_CHECKS.items():
        if name in obj and not check(obj[name]):
            raise ValueError(f"{path}: deck.json field {name!r} is {obj[name]!r}: {_META_WANTED[name]}")
    floats = (*_SHARES, "seconds", "needs_px_per_cm", "index_width", "photos_px_per_cm")
    return DeckMeta(**{name: float(v) if name in floats and v is not None else v for name, v in obj.items()})


def _number(value: Any, low: float, high: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high  # NaN fails


_SHARES = ("accuracy", "confidence", "mismatch_below", "peak")
_META_OPTIONAL = {"format", "mismatch_on", "needs_px_per_cm", "needs_reached", "index_width", "photos_px_per_cm"}
"""Fields a ``deck.json`` written before them lacks."""
_META_CHECKS = {
    "design": lambda v: isinstance(v, str) and 0 < len(v) <= 200,
    "created": lambda v: isinstance(v, str) and len(v) <= 64,
    "held_back_crops": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10**9,
    "seconds": lambda v: _number(v, 0.0, 1e9),
    "mismatch_on": lambda v: v in tuple(MismatchMeasure),
    "needs_px_per_cm": lambda v: v is None or _number(v, 0.1, 1000.0),
    "photos_px_per_cm": lambda v: v is None or _number(v, 0.1, 1000.0),
    "needs_reached": lambda v: isinstance(v, bool),
    "index_width": lambda v: _number(v, INDEX_CROP[0], MAX_INDEX_WIDTH),
    **{name: (lambda v: _number(v, 0.0, 1.0)) for name in _SHARES},
}
_META_WANTED = {
    "design": "a name of 1-200 characters",
    "created": "an ISO 8601 time",
    "held_back_crops": "a count",
    "seconds": "a number of seconds",
    "mismatch_on": " or ".join(repr(m.value) for m in MismatchMeasure),
    "needs_px_per_cm": "a number of px per cm, or null",
    "photos_px_per_cm": "a number of px per cm, or null",
    "needs_reached": "true or false",
    "index_width": f"a width in cm, {INDEX_CROP[0]}..{MAX_INDEX_WIDTH}",
    **{name: "a number 0..1" for name in _SHARES},
}


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
    from onnxruntime.capi.onnxruntime_pybind11_state import (
        Fail,
        InvalidArgument,
        InvalidGraph,
        InvalidProtobuf,
        NoSuchFile,
        RuntimeException,
    )

    try:
        faces = None if deck.faces is None else Faces.from_faces(CODES, deck.faces)
        networks = (deck.classifiers, deck.locator, deck.context)
        m = deck.meta
        return fitted_reader(*networks, m.peak, model_dir, faces, index_width=m.index_width, needs=m.need)
    except (Fail, InvalidArgument, InvalidGraph, InvalidProtobuf, NoSuchFile, RuntimeException) as err:
        raise ValueError(f"deck profile {deck.meta.design!r}: its networks do not load ({err})") from err


def fitted_reader(
    classifiers: list[bytes],
    locator: bytes | None,
    context: bytes | None,
    peak: float,
    model_dir: Path = MODELS_DIR,
    faces: Faces | None = None,
    weigh_by_faces: bool | None = None,
    index_width: float = INDEX_CROP[0],
    needs: Need | None = None,
) -> CardReader:
    """The reader of a deck's fitted networks (serialised ONNX): its classifiers averaged (none: the
    generic ones in ``model_dir``), its locator (None: the generic one) at ``peak``, its context
    classifier mixed in if any, its registered ``faces`` compared if any, its index crops ``index_width``
    cm wide, its cards doubtful where a camera gives less detail than it ``needs``. The faces weigh
    the readings (``weigh_by_faces``, by default) only where no classifier was
    fitted to the deck: fitted classifiers read the drawn design's 883 plays 99.55 % right alone and
    92.19 % with the faces weighed in (docs/deck.md), so with them the faces serve the deck check and a
    second opinion that marks doubt. ``reader_for`` reads a profile with it, and registration calibrates
    the mismatch threshold with it, so the threshold is measured on the reader the station will run."""
    return CardReader(
        onnx_locator(locator or str(Path(model_dir) / LOCATOR_FILE)),
        onnx_ensemble(classifiers or [str(path) for path in classifier_paths(Path(model_dir))]),
        Thresholds(peak=peak),
        context=None if context is None else onnx_classifier(context),
        faces=faces,
        weigh_by_faces=not classifiers if weigh_by_faces is None else weigh_by_faces,
        index_width=index_width,
        needs=needs,
    )
