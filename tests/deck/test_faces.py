"""Know the 54 faces (#24): registration keeps each card's face, the guided capture gives the same
profile, and comparing a row's visible card parts with the faces reads rows the classifiers misread."""

from __future__ import annotations

import dataclasses
import json
import random
import zipfile

import cv2
import numpy as np
import pytest
from threadpoolctl import threadpool_info

from referee_station.deck.crops import CODES
from referee_station.deck.guided import ORDER, GuidedRegistration
from referee_station.deck.mismatch import DeckCheck, DeckVerdict, MismatchMeasure
from referee_station.deck.photos import SHARP_PHOTO_PX_PER_CM
from referee_station.deck.profile import FACES_FILE, DeckProfile, fitted_reader, reader_for
from referee_station.deck.register import DECK_PEAK, load_faces, register
from referee_station.render.artwork import CARD_PX
from referee_station.render.drawn import draw_face, registration_photos
from referee_station.render.drawn_sans import FONT as SANS_FONT
from referee_station.render.drawn_sans import draw_sans_face
from referee_station.render.render import render
from referee_station.render.scene import Camera, Look, Scene, SeatScene, random_row, random_scene
from referee_station.resources import MODELS_DIR
from referee_station.vision.faces import FACE_SIZE, INDEX_MIN_DETAIL, FaceBank, Faces, strip_faces
from referee_station.vision.reader import (
    CLASSES,
    CLASSIFIER_FILES,
    FrameReading,
    SeatReading,
    Thresholds,
    doubt_where_faces_differ,
    redivide,
    refine_by_index,
)
from referee_station.vision.strips import detail, locator_input, rectify


@pytest.fixture(scope="module")
def photos(tmp_path_factory, drawn_design):
    folder = tmp_path_factory.mktemp("photos")
    registration_photos(folder, drawn_design, seed=3)
    return folder


@pytest.fixture(scope="module")
def photos_4k(tmp_path_factory, drawn_design):
    folder = tmp_path_factory.mktemp("photos_4k")
    registration_photos(folder, drawn_design, seed=3, size=(3840, 2160))
    return folder


@pytest.fixture(scope="module")
def registration(photos, drawn_design, models) -> tuple[DeckProfile, list[str]]:
    """The drawn design registered from its faces alone, and the registration's log: no torch, no
    fine-tuning (one calibration frame per design to keep the test short)."""
    log: list[str] = []
    profile = register(
        photos, drawn_design, finetune=False, per_card=10, calibration_frames=1, detail_frames=4, log=log.append
    )
    return profile, log


@pytest.fixture(scope="module")
def profile(registration) -> DeckProfile:
    return registration[0]


def trusted(profile: DeckProfile) -> DeckProfile:
    """The profile read as if every camera gave its deck the detail it needs (``CardReader.needs``)."""
    return dataclasses.replace(profile, meta=dataclasses.replace(profile.meta, needs_px_per_cm=None))


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a.astype(np.float32) - a.mean(), b.astype(np.float32) - b.mean()
    return float((a * b).sum() / np.sqrt((a * a).sum() * (b * b).sum()))


def test_registration_keeps_the_54_faces_in_deck_order(profile, tmp_path):
    assert profile.classifier is None and profile.classifiers == []  # nothing fine-tuned
    assert profile.faces.shape == (54, FACE_SIZE[1], FACE_SIZE[0], 3) and profile.faces.dtype == np.uint8
    artwork = strip_faces({code: draw_face(code) for code in CODES}, CODES)
    for i, code in enumerate(CODES):  # each kept face is its own card's, as photographed
        scores = [_ncc(profile.faces[i], art) for art in artwork]
        assert int(np.argmax(scores)) == i, code
        assert scores[i] > 0.75, code  # a photo at the camera's 10 px/cm, cut back to 20
    profile.save(tmp_path / "faces.deck")
    loaded = DeckProfile.load(tmp_path / "faces.deck")
    assert np.array_equal(loaded.faces, profile.faces) and loaded.classifier is None
    assert loaded.meta.seconds < 600
    assert loaded.meta == profile.meta  # the detail the deck needs, measured on 4 frames, kept
    assert profile.meta.needs_reached is False or 4 < profile.meta.needs_px_per_cm < 12


def _index_ncc(faces: np.ndarray, artwork: np.ndarray) -> float:
    """Mean NCC over the 54 cards of each face's index (the top 2 × 1.5 cm) with its artwork's."""
    corner = np.s_[: FACE_SIZE[1] * 2 // 9, : FACE_SIZE[0] // 4]
    return float(np.mean([_ncc(face[corner], art[corner]) for face, art in zip(faces, artwork, strict=True)]))


def test_photos_at_4k_keep_the_index_marks_that_1080p_photos_blur(registration, photos, photos_4k):
    """A face is no sharper than its photo: registration measures each photo's detail, keeps the least in
    the profile and, under ``SHARP_PHOTO_PX_PER_CM``, warns and names the remedy (a 4K shoot)."""
    coarse, sharp = load_faces(photos), load_faces(photos_4k)
    assert max(coarse.px_per_cm.values()) < SHARP_PHOTO_PX_PER_CM <= min(sharp.px_per_cm.values())
    assert len(coarse.coarse()) == 54 and sharp.coarse() == []
    assert sharp.warning() is None
    artwork = strip_faces({code: draw_face(code) for code in CODES}, CODES)
    blurred = _index_ncc(strip_faces(coarse.faces, CODES), artwork)
    kept = _index_ncc(strip_faces(sharp.faces, CODES), artwork)
    assert kept > blurred + 0.05, (kept, blurred)  # measured 0.86 and 0.77

    profile, log = registration  # registered from the 1080p photos
    assert profile.meta.photos_px_per_cm == round(min(coarse.px_per_cm.values()), 2)
    warning = next(line for line in log if line.startswith("warning: 54 photos"))
    assert f"under {SHARP_PHOTO_PX_PER_CM:.0f} px/cm" in warning and "--resolution 3840x2160" in warning


def test_guided_capture_gives_the_same_faces(photos, tmp_path):
    """The live capture saves what it took; registering from that folder keeps the same faces."""
    corners = np.asarray(json.loads((photos / "corners.json").read_text())["corners"])
    guided = GuidedRegistration(corners, stable_frames=2)
    empty = np.zeros((1080, 1920, 3), np.uint8)
    for code in ORDER:
        frame = cv2.imread(str(photos / f"{code}.jpg"))
        assert [guided.feed(frame).state for _ in range(2)] == ["settling", "captured"]
        guided.feed(empty)
    guided.save(tmp_path / "guided")
    live = strip_faces(load_faces(tmp_path / "guided").faces, CODES)
    shot = strip_faces(load_faces(photos).faces, CODES)
    assert live.shape == shot.shape
    assert np.abs(live.astype(int) - shot.astype(int)).mean() < 3  # the same faces, re-encoded once more


def test_a_profile_with_bad_faces_is_refused_by_name(profile, tmp_path):
    path = tmp_path / "bad.deck"
    profile.save(path)
    with zipfile.ZipFile(path) as z:
        files = {name: z.read(name) for name in z.namelist()}
    files[FACES_FILE] = b"not an npz"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    with pytest.raises(ValueError, match=FACES_FILE):
        DeckProfile.load(path)
    with pytest.raises(ValueError, match="54 cards"):
        DeckProfile(profile.meta, None, faces=profile.faces[:53])
    with pytest.raises(ValueError, match="without a fitted classifier"):
        DeckProfile(profile.meta, None)


@pytest.mark.parametrize(("seed", "codes"), [(1, ["4d", "6h", "8c", "Js"]), (2, ["3c", "5s", "6c", "8h", "Qs"])])
def test_faces_read_a_row_the_classifiers_misread(profile, drawn_design, seed, codes):
    """A row of the drawn design at 1080p: the generic classifiers misread its Hershey ranks and court
    suits; with the registered faces the same networks read every card (suit from the big pips, rank
    from the index and the pip layout together). A card left in doubt (Q♠/Q♣ differ in a few index
    pixels, 6♥/8♥ in one pip column) is torn between two readings, both named in its alternatives."""
    rng = random.Random(seed)
    scene = Scene(drawn_design, {"S": SeatScene(play=random_row(rng, codes))}, Camera(), Look(seed=seed))
    frame = render(scene)
    plain = fitted_reader([], None, None, DECK_PEAK).read(frame.image, frame.corners).seats["S"]
    assert reader_for(profile).needs.more  # 4 detail frames: too few cards to assure a need
    faced = reader_for(trusted(profile)).read(frame.image, frame.corners).seats["S"]
    assert plain.cards != codes
    assert faced.cards == codes
    sure = Thresholds().confident
    doubtful = [alts for alts, c in zip(faced.alternatives, faced.confidences, strict=True) if c < sure]
    assert (faced.status == "cards") == (not doubtful)
    assert all(a[0][1] + a[1][1] > 0.9 for a in doubtful)
    for card, alts in zip(faced.cards, faced.alternatives, strict=True):
        assert alts[0][0] == card and len(alts) == 3
        assert [p for _, p in alts] == sorted((p for _, p in alts), reverse=True)


def test_fitted_classifiers_keep_their_readings_and_the_faces_only_match(profile, drawn_design):
    """A profile whose classifiers were fitted to its deck reads with them alone (the drawn design's
    119 plays all right so, 93 % with the faces weighed in: docs/deck.md); its faces still give each
    card's match for the deck check. The shipped networks stand in for fitted ones here."""
    rng = random.Random(1)
    codes = ["4d", "6h", "8c", "Js"]
    scene = Scene(drawn_design, {"S": SeatScene(play=random_row(rng, codes))}, Camera(), Look(seed=1))
    frame = render(scene)
    networks = ([(MODELS_DIR / CLASSIFIER_FILES[0]).read_bytes()], None, None, DECK_PEAK)
    faces = Faces.from_faces(CODES, profile.faces)

    def read(reader) -> SeatReading:
        return reader.read(frame.image, frame.corners).seats["S"]

    alone = read(fitted_reader(*networks))
    matched = read(fitted_reader(*networks, faces=faces))
    weighed = read(fitted_reader(*networks, faces=faces, weigh_by_faces=True))
    assert matched.cards == alone.cards and weighed.cards == codes and alone.cards != codes
    sure = Thresholds().confident
    for i, (read, seen) in enumerate(zip(alone.cards, weighed.cards, strict=True)):
        if read == seen:  # the faces agree: the classifiers' confidence stands
            assert matched.confidences[i] == alone.confidences[i]
        else:  # they differ: the read stays, doubtful, with the faces' card next
            assert matched.confidences[i] < sure and matched.alternatives[i][1][0] == seen
    assert alone.matches == [] and len(matched.matches) == len(matched.cards) and min(matched.matches) > 0.8


def test_a_card_the_faces_read_otherwise_keeps_its_reading_in_doubt():
    read = np.full((3, len(CLASSES)), 0.001)
    read[0, 5], read[1, 7], read[2, -1] = 0.95, 0.9, 0.97  # two cards, then "none"
    weighed = read.copy()
    weighed[0, 5], weighed[0, 9] = 0.1, 0.85  # the faces see card 9 in the first; agree on the second
    weighed[2, -1], weighed[2, 3] = 0.0, 0.9  # and a card where the classifiers saw none
    out = doubt_where_faces_differ(read, weighed)
    assert int(out[0].argmax()) == 5 and out[0, 9] == pytest.approx(0.98 * out[0, 5]) and out[0, 5] < 0.6
    assert np.allclose(out[0].sum(), 1) and (out[1:] == read[1:]).all()


def test_face_scores_prefer_the_cards_own_face(profile):
    """A face laid alone on a strip scores highest against itself among the 54."""
    bank = FaceBank.from_faces(CODES, profile.faces)
    loc = np.full((200, 400, 3), 40, np.uint8)
    for i in (0, 20, 40, 53):
        small = cv2.resize(profile.faces[i], (FACE_SIZE[0] // 2, FACE_SIZE[1] // 2), interpolation=cv2.INTER_AREA)
        canvas = loc.copy()
        canvas[50 : 50 + small.shape[0], 100 : 100 + small.shape[1]] = small
        scores = bank.scores(canvas, (100 + 8) * 2, (50 + 16) * 2, 6.3)
        assert int(scores.argmax()) == i, CODES[i]


def test_alternatives_come_one_per_card_or_not_at_all():
    SeatReading(["Ah"], [0.9], "cards", [(1.0, 2.0)], [(("Ah", 0.9), ("Ad", 0.05))])
    SeatReading(["Ah"], [0.9], "cards", [(1.0, 2.0)])  # a reader that gives none
    with pytest.raises(ValueError, match="one entry per card"):
        SeatReading(["Ah", "2s"], [0.9, 0.9], "cards", [(1.0, 2.0), (3.0, 2.0)], [(("Ah", 0.9),)])


@pytest.mark.skipif(not SANS_FONT.exists(), reason="fonts-wqy-microhei is not installed (scripts/setup.sh)")
def test_the_second_drawn_design_has_54_distinct_faces_with_chinese_jokers():
    faces = {code: draw_sans_face(code) for code in CODES}
    assert all(f.shape == (*CARD_PX[::-1], 4) for f in faces.values())
    flat = np.stack([f[..., :3].reshape(-1).astype(np.int16) for f in faces.values()])
    distance = np.abs(flat[:, None] - flat[None]).mean(2) + np.eye(len(CODES)) * 1e9
    assert distance.min() > 0.1  # every card differs from every other (♠ and ♣ pips least: 0.23)
    index = (slice(0, 60), slice(0, 45))  # the index column: 大王 red, 小王 black
    big, small = faces["BJ"][index][..., :3].astype(int), faces["SJ"][index][..., :3].astype(int)
    assert (big[..., 2] - big[..., 1]).max() > 100 and (small[..., 2] - small[..., 1]).max() < 40


def _row_frame(design: str, codes: list[str], seed: int, camera: Camera | None = None):
    rng = random.Random(seed)
    return render(Scene(design, {"S": SeatScene(play=random_row(rng, codes))}, camera or Camera(), Look(seed=seed)))


@pytest.mark.parametrize(("seed", "codes"), [(5, ["Jc", "Qc", "Qs", "Js", "7d"]), (7, ["5c", "8s", "Td", "Kh", "Jd"])])
def test_the_index_comparison_tells_a_suit_within_its_colour(profile, drawn_design, seed, codes):
    """Each card of a rendered 1080p row (real faces, the real detector's anchors) against the same rank
    in the other suit of its colour: the whole visible part prefers the wrong one for some cards (what
    the readings share outweighs a few index pixels), the index at the strip's scale prefers the true
    one for every card; handed even readings of the two, ``refine_by_index`` puts the true card first
    and moves only the candidates' share."""
    frame = _row_frame(drawn_design, codes, seed)
    reader = reader_for(profile)
    strip = rectify(frame.image, frame.corners)["S"]
    assert detail(frame.corners)["S"] >= INDEX_MIN_DETAIL
    anchors = reader.read(frame.image, frame.corners).seats["S"].anchors
    assert len(anchors) == len(codes)
    twin = {"c": "s", "s": "c", "d": "h", "h": "d"}
    us = [u for u, _ in anchors]
    whole_wrong = 0
    for k, ((u, v), code) in enumerate(zip(anchors, codes, strict=True)):
        pair = np.array([CODES.index(code), CODES.index(code[0] + twin[code[1]])])
        width = (us[k + 1] - u) / 20 if k + 1 < len(us) else 6.3
        index = reader.faces.index.scores(strip, u, v, width, pair)
        whole = reader.faces.whole.scores(locator_input(strip), u, v, width, pair)
        assert index[0] > index[1], code
        whole_wrong += whole[0] <= whole[1]
        p = np.zeros(len(CLASSES), np.float32)
        p[CLASSES.index(CODES[pair[1]])] = p[CLASSES.index(code)] = 0.4
        p[CLASSES.index("As")], p[-1] = 0.1, 0.1
        out = refine_by_index(p, reader.faces, strip, u, v, width)
        assert CLASSES[int(out[:-1].argmax())] == code
        assert out[:-1].sum() == pytest.approx(0.9, abs=1e-5) and out[-1] == pytest.approx(0.1)
    assert whole_wrong >= 1


def test_a_few_faces_score_as_they_do_among_all_54_on_one_blas_thread(profile, drawn_design):
    """Comparing a card with a few faces (``among``, as ``refine_by_index`` does) gives those faces the
    scores they get among all 54, in both views and for parts of any width; the comparison leaves the
    process's BLAS on one thread (``one_blas_thread``), which the station's reading threads rely on."""
    frame = _row_frame(drawn_design, ["Jc", "Qs", "7d", "Kh"], 3)
    reader = reader_for(profile)
    strip = rectify(frame.image, frame.corners)["S"]
    anchors = reader.read(frame.image, frame.corners).seats["S"].anchors
    assert len(anchors) == 4
    among = np.array([CODES.index("Qs"), CODES.index("Qc"), CODES.index("7d"), CODES.index("BJ")])
    for (u, v), width in zip(anchors, (2.5, 1.2, 4.0, 6.3), strict=True):
        for bank, image in ((reader.faces.whole, locator_input(strip)), (reader.faces.index, strip)):
            every = bank.scores(image, u, v, width)
            assert every.shape == (len(CODES),) and every.max() <= 1 + 1e-5
            np.testing.assert_allclose(bank.scores(image, u, v, width, among), every[among], atol=1e-5)
    numpy_blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas" and "numpy" in pool["filepath"]]
    assert numpy_blas and {pool["num_threads"] for pool in numpy_blas} == {1}


def test_the_camera_detail_decides_where_the_index_is_compared_again(drawn_design):
    """1080p cameras give 8–11 frame px per cm of cloth, 720p ones 6–7, a 4K one twice the 1080p: the
    index comparison runs where the strip holds more than resampled blur (``INDEX_MIN_DETAIL``)."""
    full = detail(_row_frame(drawn_design, ["2c"], 1).corners)
    small = detail(_row_frame(drawn_design, ["2c"], 1, Camera(size=(1280, 720), span_px=600)).corners)
    four_k = detail(_row_frame(drawn_design, ["2c"], 1, Camera(size=(3840, 2160), span_px=1800)).corners)
    for seat in full:
        assert small[seat] < INDEX_MIN_DETAIL <= full[seat]
        assert four_k[seat] == pytest.approx(2 * full[seat], rel=0.02)


def test_a_faces_profile_warns_on_another_design_not_on_its_own(profile, drawn_design):
    """The deck check of a faces-only profile rests on the face match (the index comparison makes any
    design's readings sure, so confidence no longer tells them apart): its own rendered frames do not
    warn, another design's do."""
    assert profile.meta.mismatch_on is MismatchMeasure.FACE_MATCH
    reader = reader_for(profile)

    def verdict(design: str) -> DeckVerdict:
        check = DeckCheck(profile.meta.mismatch_below, profile.meta.mismatch_on)
        rng = random.Random(21)
        for _ in range(2):
            shot = render(random_scene(rng, design))
            check.add(reader.read(shot.image, shot.corners))
        return check.verdict()

    own, other = verdict(drawn_design), verdict("tigullio")
    assert own.cards >= 12 and other.cards >= 12
    assert not own.mismatch, own
    assert other.mismatch, other
    assert other.mean_confidence < profile.meta.mismatch_below < own.mean_confidence


def test_the_check_on_face_matches_refuses_a_reader_without_faces():
    seat = SeatReading(["Ah"], [0.9], "cards", [(1.0, 2.0)])
    with pytest.raises(ValueError, match="compared no faces"):
        DeckCheck(0.8, MismatchMeasure.FACE_MATCH).add(FrameReading({"S": seat}, {}))
    with pytest.raises(ValueError, match="matches must have one entry per card"):
        SeatReading(["Ah"], [0.9], "cards", [(1.0, 2.0)], matches=[0.9, 0.8])


def _probs(**cards: float) -> np.ndarray:
    p = np.full(len(CLASSES), 1e-4)
    for code, value in cards.items():
        p[CLASSES.index(code.replace("_", ""))] = value
    p[-1] = 0.01
    return p / p.sum()


def test_an_index_that_overturns_a_sure_reading_leaves_the_card_doubtful():
    """The whole part says Q♠ (0.9), the index clearly Q♣: the product's order stands (Q♣ first, Q♠ its
    alternative) but Q♣ is not reported sure, since only the index, already part of the whole part,
    speaks for it; "none" and the total keep their shares."""
    p = _probs(Qs=0.9, Qc=0.08, Kc=0.01)
    among = np.array([CLASSES.index(c) for c in ("Qs", "Qc", "Kc")])
    out = redivide(p, among, np.array([0.80, 0.92, 0.70]))
    order = np.argsort(-out[:-1])
    assert [CLASSES[i] for i in order[:2]] == ["Qc", "Qs"]
    assert out[CLASSES.index("Qc")] < Thresholds().confident
    assert out[-1] == pytest.approx(p[-1]) and out.sum() == pytest.approx(1.0)


def test_an_index_that_agrees_keeps_a_sure_card_sure():
    p = _probs(Qs=0.9, Qc=0.08, Kc=0.01)
    among = np.array([CLASSES.index(c) for c in ("Qs", "Qc", "Kc")])
    out = redivide(p, among, np.array([0.92, 0.80, 0.70]))
    assert int(out[:-1].argmax()) == CLASSES.index("Qs")
    assert out[CLASSES.index("Qs")] >= 0.9
