"""The deck profile file, the mismatch check, and the commands that use a profile."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from referee_station.cli import main
from referee_station.deck.mismatch import (
    COARSE,
    DeckCheck,
    DeckNews,
    DeckVerdict,
    MismatchMeasure,
    NewsUnit,
    WatchedReader,
)
from referee_station.deck.profile import DeckMeta, DeckProfile, reader_for
from referee_station.render.render import render
from referee_station.vision.reader import (
    CONTEXT_FILE,
    MODELS_DIR,
    CardReader,
    FrameReading,
    SeatReading,
    classifier_paths,
)
from referee_station.vision.strips import detail
from tests.vision.scenes import scene

META = DeckMeta("sponsor", "2026-11-30T12:00:00+00:00", 0.998, 2025, 0.88, 0.77, 0.35, 300.0)


def generic_profile(mismatch_below: float) -> DeckProfile:
    """A "profile" that carries the generic classifier: reads the training designs like the generic reader."""
    meta = DeckMeta(**{**META.__dict__, "design": "generic", "mismatch_below": mismatch_below})
    return DeckProfile(meta, (MODELS_DIR / "classifier.onnx").read_bytes())


def stub(name: str) -> bytes:
    """A well-formed ONNX ModelProto (ir_version 8, an empty graph called ``name``): what the profile's
    checks need to pass; the round trip below never runs it."""
    graph = b"\x12" + bytes([len(name)]) + name.encode()  # GraphProto.name is field 2
    return b"\x08\x08\x3a" + bytes([len(graph)]) + graph


def test_zip_and_folder_round_trip(tmp_path):
    profile = DeckProfile(META, stub("onnx"))
    profile.save(tmp_path / "d.deck")
    assert DeckProfile.load(tmp_path / "d.deck") == profile
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "deck.json").write_text(json.dumps(META.__dict__))
    (folder / "classifier.onnx").write_bytes(stub("onnx"))
    assert DeckProfile.load(folder) == profile
    (folder / "locator.onnx").write_bytes(stub("locator"))  # a profile with an adapted locator
    assert DeckProfile.load(folder).locator == stub("locator")
    with_locator = DeckProfile(META, stub("onnx"), stub("locator"))
    with_locator.save(tmp_path / "l.deck")
    assert DeckProfile.load(tmp_path / "l.deck") == with_locator
    (folder / "classifier_2.onnx").write_bytes(stub("second"))  # a profile fitted from a pair of classifiers
    assert DeckProfile.load(folder).classifiers == [stub("onnx"), stub("second")]
    pair = DeckProfile(META, stub("onnx"), stub("locator"), (stub("second"), stub("third")))
    pair.save(tmp_path / "p.deck")
    assert DeckProfile.load(tmp_path / "p.deck") == pair
    with pytest.raises(ValueError, match="at most 3 classifiers"):
        DeckProfile(META, stub("onnx"), None, (b"2", b"3", b"4"))
    (folder / "classifier_context.onnx").write_bytes(stub("context"))  # a profile with a fitted context classifier
    assert DeckProfile.load(folder).context == stub("context")
    full = DeckProfile(META, stub("onnx"), stub("locator"), (stub("second"),), stub("context"))
    full.save(tmp_path / "c.deck")
    assert DeckProfile.load(tmp_path / "c.deck") == full


def test_a_profile_from_before_the_face_match_is_judged_on_confidence(tmp_path):
    """deck.json without ``mismatch_on`` (registered before 2026-12-02) keeps its confidence threshold;
    an unknown measure is refused by name."""
    old = {k: v for k, v in META.__dict__.items() if k != "mismatch_on"}
    (tmp_path / "deck.json").write_text(json.dumps(old))
    (tmp_path / "classifier.onnx").write_bytes(stub("onnx"))
    assert DeckProfile.load(tmp_path).meta.mismatch_on is MismatchMeasure.CONFIDENCE
    (tmp_path / "deck.json").write_text(json.dumps(old | {"mismatch_on": "face_match"}))
    assert DeckProfile.load(tmp_path).meta.mismatch_on is MismatchMeasure.FACE_MATCH
    (tmp_path / "deck.json").write_text(json.dumps(old | {"mismatch_on": "vibes"}))
    with pytest.raises(ValueError, match="field 'mismatch_on' is 'vibes'"):
        DeckProfile.load(tmp_path)


@pytest.mark.parametrize(
    "content, error",
    [(b"not a zip", "not a deck profile"), (None, "not a deck profile"), ("format", "format 99")],
)
def test_bad_profiles_are_refused(tmp_path, content, error):
    path = tmp_path / "bad.deck"
    if content == "format":
        DeckProfile(DeckMeta(**{**META.__dict__, "format": 99}), b"x").save(path)
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(ValueError, match=error):
        DeckProfile.load(path)


def reading(confidences: list[float]) -> FrameReading:
    seat = SeatReading(["As"] * len(confidences), confidences, "cards", [(0.0, 0.0)] * len(confidences))
    return FrameReading({"S": seat}, {})


@pytest.mark.parametrize(
    "frames, mismatch",
    [
        ([[0.9] * 5] * 4, False),  # a matching deck
        ([[0.5] * 5] * 4, True),  # confidence collapsed
        ([[0.5] * 5], False),  # too few cards to judge
        ([[0.5] * 5] * 30 + [[0.95] * 5] * 20, False),  # judged on the recent window only
    ],
)
def test_mismatch_check(frames, mismatch):
    check = DeckCheck(0.77, MismatchMeasure.CONFIDENCE, min_cards=12, window=100)
    for confidences in frames:
        check.add(reading(confidences))
    assert check.verdict().mismatch is mismatch
    assert ("does not match" in check.verdict().message("sponsor")) is mismatch


@pytest.fixture(scope="module")
def frame_file(tmp_path_factory):
    frame = render(scene(0))
    path = tmp_path_factory.mktemp("frames") / "f.jpg"
    cv2.imwrite(str(path), frame.image)
    return path, ";".join(f"{x:.1f},{y:.1f}" for x, y in frame.corners)


def test_a_camera_under_the_decks_need_is_told_once_naming_its_play_areas(models):
    """``run`` and the console print the watched reader's news: a profile whose deck needs more detail
    than a camera gives says so at that camera's first frame, with each short area's px/cm, as a camera
    notice (not a deck mismatch, which the next news still reports from the areas read at the need),
    and not again."""
    shot = render(scene(0))
    px = detail(shot.corners)  # S 8.09 and E 7.97 px/cm under the need; N's four jokers at 8.30
    needs = DeckMeta(**{**META.__dict__, "needs_px_per_cm": 8.2})
    profile = DeckProfile(needs, (MODELS_DIR / "classifier.onnx").read_bytes())
    watched = WatchedReader(reader_for(profile), "sponsor", 0.999)  # no read is that sure: a mismatch too
    assert watched.news() is None  # nothing read yet
    for _ in range(3):
        watched(shot.image, shot.corners)
    first, second = watched.news(), watched.news()
    areas = ", ".join(f"{seat} {v:.1f}" for seat, v in px.items() if v < 8.2)
    assert areas.startswith("S 8.1, E 8.0")
    assert first == DeckNews(NewsUnit.CAMERA, COARSE.format(design="'sponsor'", needs="8.2", areas=areas))
    assert second is not None and second.unit is NewsUnit.DECK and "does not match" in second.text
    assert watched.check.verdict().cards == 12  # N's cards only
    watched(shot.image, shot.corners)
    assert watched.news() is None
    fine = WatchedReader(reader_for(DeckProfile(META, profile.classifier)), "sponsor", 0.0)
    fine(shot.image, shot.corners)
    assert fine.news() is None


def test_cards_read_under_the_need_do_not_make_a_deck_check_on_confidence_find_another_deck(models):
    """The reader caps the confidences of areas under the deck's need at ``COARSE_CONFIDENCE`` (0.5): a
    deck check measured on confidence must not take them for another deck's."""
    shot = render(scene(0))
    needs = DeckMeta(**{**META.__dict__, "needs_px_per_cm": 99.0})
    profile = DeckProfile(needs, (MODELS_DIR / "classifier.onnx").read_bytes())
    reader = reader_for(profile)
    assert max(c for s in reader.read(shot.image, shot.corners).seats.values() for c in s.confidences) <= 0.5
    watched = WatchedReader(reader, "sponsor", 0.6)
    for _ in range(4):
        watched(shot.image, shot.corners)
    assert watched.news().unit is NewsUnit.CAMERA
    assert watched.news() is None
    assert watched.check.verdict() == DeckVerdict(0, 1.0, False)
    trusted = WatchedReader(reader_for(DeckProfile(META, profile.classifier)), "sponsor", 0.6)
    for _ in range(4):
        trusted(shot.image, shot.corners)
    assert trusted.check.verdict().cards == 48 and not trusted.check.verdict().mismatch


@pytest.mark.parametrize("mismatch_below, code", [(0.3, 0), (0.99, 1)])
def test_read_frame_with_a_deck(models, tmp_path, capsys, frame_file, mismatch_below, code):
    image, corners = frame_file
    generic_profile(mismatch_below).save(tmp_path / "g.deck")
    frames = [str(image)] * 3  # 12 cards a frame: enough for a verdict
    assert main(["read-frame", *frames, "--corners", corners, "--deck", str(tmp_path / "g.deck")]) == code
    out, err = capsys.readouterr()
    assert json.loads(out.splitlines()[0])["seats"]["S"] == ["5s", "5h", "5d"]
    assert ("does not match" in err) is bool(code)


def test_read_frame_refuses_a_bad_deck(tmp_path, capsys, frame_file):
    (tmp_path / "bad.deck").write_bytes(b"junk")
    image, corners = frame_file
    assert main(["read-frame", str(image), "--corners", corners, "--deck", str(tmp_path / "bad.deck")]) == 2
    assert "not a deck profile" in capsys.readouterr().err


def test_register_deck_reports_missing_cards(tmp_path, capsys):
    (tmp_path / "corners.json").write_text(json.dumps({"corners": [[0, 100], [100, 100], [100, 0], [0, 0]]}))
    cv2.imwrite(str(tmp_path / "As.jpg"), np.zeros((8, 8, 3), np.uint8))
    assert main(["register-deck", str(tmp_path), "-o", str(tmp_path / "x.deck")]) == 2
    assert "no photo for 2s" in capsys.readouterr().err
    assert not (tmp_path / "x.deck").exists()


def test_reader_for_reads_with_the_profiles_locator(models, frame_file):
    image, corners = frame_file
    frame, corners = cv2.imread(str(image)), np.array([p.split(",") for p in corners.split(";")], float)
    generic = generic_profile(0.5)
    carried = DeckProfile(generic.meta, generic.classifier, (MODELS_DIR / "locator.onnx").read_bytes())
    assert reader_for(carried).read(frame, corners).seats["S"].cards == ["5s", "5h", "5d"]
    wrong = DeckProfile(generic.meta, generic.classifier, generic.classifier)  # not a locator at all
    with pytest.raises(Exception, match=r"(?i)invalid|dimension|shape"):
        reader_for(wrong).read(frame, corners)


def test_reader_for_averages_every_classifier_of_the_profile(models, frame_file):
    image, corners = frame_file
    frame, corners = cv2.imread(str(image)), np.array([p.split(",") for p in corners.split(";")], float)
    members = [path.read_bytes() for path in classifier_paths(MODELS_DIR)]
    if len(members) < 2:
        pytest.skip("one shipped classifier: nothing to average")
    shipped = reader_for(None)
    generic = CardReader(shipped.locate, shipped.classify, shipped.thresholds).read(frame, corners).seats["S"]
    profile = DeckProfile(generic_profile(0.5).meta, members[0], None, tuple(members[1:]))
    assert reader_for(profile).context is None  # the context classifier reads the training designs' faces
    fitted = reader_for(profile).read(frame, corners).seats["S"]
    alone = reader_for(DeckProfile(profile.meta, members[0])).read(frame, corners).seats["S"]
    assert fitted.cards == generic.cards == ["5s", "5h", "5d"]
    assert fitted.confidences == pytest.approx(generic.confidences, abs=1e-5)
    assert alone.confidences != pytest.approx(generic.confidences, abs=1e-5)


def test_reader_for_names_missing_models(tmp_path):
    (tmp_path / "classifier.onnx").write_bytes(b"x")
    with pytest.raises(ValueError, match=r"no card reader models \(locator.onnx\) in"):
        reader_for(None, tmp_path)


def test_reader_for_mixes_in_the_profiles_own_context_classifier(models, frame_file):
    """A profile's fitted context classifier is mixed in exactly as the generic reader mixes its own."""
    image, corners = frame_file
    frame, corners = cv2.imread(str(image)), np.array([p.split(",") for p in corners.split(";")], float)
    members = [path.read_bytes() for path in classifier_paths(MODELS_DIR)]
    context = (MODELS_DIR / CONTEXT_FILE).read_bytes()
    profile = DeckProfile(generic_profile(0.5).meta, members[0], None, tuple(members[1:]), context)
    with_context = reader_for(profile)
    assert with_context.context is not None
    got = with_context.read(frame, corners).seats["S"]
    generic = reader_for(None).read(frame, corners).seats["S"]
    assert got.cards == generic.cards == ["5s", "5h", "5d"]
    assert got.confidences == pytest.approx(generic.confidences, abs=1e-5)
    without = reader_for(DeckProfile(profile.meta, members[0], None, tuple(members[1:]))).read(frame, corners)
    assert without.seats["S"].confidences != pytest.approx(generic.confidences, abs=1e-5)
