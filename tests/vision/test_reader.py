"""The reader: decisions with fake networks, then the shipped ONNX models on rendered frames."""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest

from referee_station.cli import main
from referee_station.render.render import render
from referee_station.vision.geometry import DRAW_ORDER, STRIP_PX_PER_CM
from referee_station.vision.reader import (
    CLASSES,
    COARSE_CONFIDENCE,
    CONTEXT_FILE,
    MODELS_DIR,
    RECHECK_SHIFTS,
    CardReader,
    Thresholds,
    classifier_paths,
    onnx_classifier,
    onnx_ensemble,
)
from referee_station.vision.strips import (
    GRID_H,
    GRID_W,
    Need,
    crop_context,
    crop_index,
    detail,
    locator_input,
    rectify,
)
from tests.vision.scenes import PLAYS, scene

# a cell well inside the play area, in locator cells
ROW, COLS = 10, (20, 30, 40)


def fake_locate(cells=(), card_cells=(), occluder_cells=()):
    """A locator that reports index anchors at `cells` (row, col) and the given mask cells, for every seat."""

    def locate(x: np.ndarray) -> np.ndarray:
        out = np.full((len(x), 5, GRID_H, GRID_W), -10.0, np.float32)
        out[:, 1:3] = 0.0  # offsets at the cell's middle
        for r, c in cells:
            out[:, 0, r, c] = 10.0
        for r, c in card_cells:
            out[:, 3, r, c] = 10.0
        for r, c in occluder_cells:
            out[:, 4, r, c] = 10.0
        return out

    return locate


def fixed_classify(rows: list[dict[str, float]]):
    """A classifier answering ``rows`` in turn (cycling): class → probability, the rest spread evenly."""

    def classify(x: np.ndarray) -> np.ndarray:
        probs = np.zeros((len(x), len(CLASSES)), np.float32)
        for i in range(len(x)):
            row = rows[i % len(rows)]
            for code, value in row.items():
                probs[i, CLASSES.index(code)] = value
            probs[i, probs[i] == 0] = (1 - sum(row.values())) / (len(CLASSES) - len(row))
        return probs

    return classify


def fake_classify(codes):
    """A classifier that answers `codes` in turn (cycling), each with probability 0.98."""
    return fixed_classify([{code: 0.98} for code in codes])


FRAME = np.zeros((1080, 1920, 3), np.uint8)
CORNERS = np.array([[510.0, 990.0], [1410.0, 990.0], [1410.0, 90.0], [510.0, 90.0]])
BLOCK = [(r, c) for r in range(5, 25) for c in range(10, 30)]
ARM = [(r, c) for r in range(0, 20) for c in range(25, 40)]


@pytest.mark.parametrize(
    ("locate", "codes", "status", "cards"),
    [
        (fake_locate(), ["5s"], "empty", []),
        (fake_locate([(ROW, c) for c in COLS], BLOCK), ["5s", "5h", "5d"], "cards", ["5s", "5h", "5d"]),
        (fake_locate([(ROW, c) for c in COLS], BLOCK), ["5s", "none", "5d"], "cards", ["5s", "5d"]),
        (fake_locate([], BLOCK), ["5s"], "unreadable", []),
        (fake_locate([(ROW, 20)], BLOCK, ARM), ["Th"], "occluded", ["Th"]),
        (fake_locate([], [], [(r, c) for r in range(2, 43) for c in range(3, 40)]), ["5s"], "occluded", []),
    ],
)
def test_decisions(locate, codes, status, cards) -> None:
    reading = CardReader(locate, fake_classify(codes)).read(FRAME, CORNERS)
    for seat in DRAW_ORDER:
        assert reading.seats[seat].status == status
        assert reading.seats[seat].cards == cards
        assert len(reading.seats[seat].confidences) == len(cards)
    assert set(reading.ms) == {"rectify", "locate", "classify", "decide"}


def test_anchors_left_to_right() -> None:
    codes = ["Ac", "2c", "3c"]  # answered in the order the crops are cut, which must be left to right
    locate = fake_locate([(ROW, 40), (ROW, 20), (ROW, 30)], BLOCK)
    reading = CardReader(locate, fake_classify(codes)).read(FRAME, CORNERS)
    assert [u for u, _ in reading.seats["S"].anchors] == sorted(u for u, _ in reading.seats["S"].anchors)
    assert reading.seats["S"].cards == codes


def test_each_card_carries_its_top_three_readings_best_first() -> None:
    """``SeatReading.alternatives``: the classifiers' probabilities of the three likeliest cards ("none"
    left out), the read card first, unscaled by the locator's score; one entry per card read."""
    locate = fake_locate([(ROW, 20), (ROW, 30)], BLOCK)
    classify = fixed_classify([{"5h": 0.62, "6h": 0.3, "none": 0.05}, {"Kd": 0.9, "Kh": 0.06}])
    seat = CardReader(locate, classify, Thresholds(recheck=0.0)).read(FRAME, CORNERS).seats["S"]
    assert seat.cards == ["5h", "Kd"]
    first, second = seat.alternatives
    assert [code for code, _ in first[:2]] == ["5h", "6h"] and len(first) == 3
    assert [p for _, p in first[:2]] == pytest.approx([0.62, 0.3])
    assert first[2][1] == pytest.approx(0.03 / 52, rel=1e-3)  # the rest, spread over the 52 other classes
    assert [code for code, _ in second[:2]] == ["Kd", "Kh"]
    with pytest.raises(ValueError, match="alternatives"):
        type(seat)(["5h"], [0.6], "cards", [(1.0, 2.0)], [first, second])


@pytest.mark.parametrize(
    ("weak", "strong", "anchors"),
    [
        ((ROW, 20), (ROW, 22), 1),  # 0.8 cm apart across the row: one index
        ((ROW + 2, 22), (ROW, 22), 1),  # 0.8 cm apart down the row (a tall JOKER index)
        ((ROW, 19), (ROW, 22), 2),  # 1.2 cm: two cards' indices
    ],
)
def test_peaks_closer_than_the_index_gap_are_one_anchor(weak, strong, anchors) -> None:
    """Locator cells are 0.4 cm; of two maxima closer than ``Thresholds.index_gap`` (1 cm) the stronger stays."""
    out = np.full((5, GRID_H, GRID_W), -10.0, np.float32)
    out[1:3] = 0.0
    out[0][weak], out[0][strong] = 2.0, 6.0
    peaks = CardReader(fake_locate(), fake_classify(["5s"])).peaks(out)
    assert len(peaks) == anchors
    cell = 0.4 * STRIP_PX_PER_CM
    assert ((strong[1] + 0.5) * cell, (strong[0] + 0.5) * cell) in [(u, v) for u, v, _ in peaks]


@pytest.mark.parametrize(
    ("index_width", "cols", "cards", "status"),
    [
        (2.2, (20, 23), ["5s"], "unreadable"),  # 1.2 cm apart: under a 2.2 cm index, no second card
        (2.2, (20, 25), ["5h", "5s"], "cards"),  # 2.0 cm: two cards (the step may fall 0.6 cm short)
        (1.6, (20, 23), ["5h", "5s"], "cards"),  # the generic index: 1.2 cm is two cards
    ],
)
def test_a_peak_closer_than_the_decks_index_width_is_no_card_and_leaves_the_row_in_doubt(
    index_width, cols, cards, status
) -> None:
    """A row shows every card's whole index (CLOTH.md): a weaker peak within the index width less
    ``ROW_SLACK`` of another is no card, and its card probability keeps the row from being sure."""

    def locate(x: np.ndarray) -> np.ndarray:
        out = fake_locate([], BLOCK)(x)
        out[:, 0, ROW, cols[0]], out[:, 0, ROW, cols[1]] = 2.0, 6.0
        return out

    reader = CardReader(locate, fake_classify(["5h", "5s"]), Thresholds(recheck=0.0), index_width=index_width)
    seat = reader.read(FRAME, CORNERS).seats["S"]
    assert (seat.cards, seat.status) == (cards, status)
    assert (max(seat.confidences) < Thresholds().confident) == (status == "unreadable")


def torn_then_sure(calls: list[np.ndarray]):
    """A classifier that, on its first call, is sure of every other crop (5s) and torn on the rest (5h 0.5,
    6h 0.45); on later calls (the rechecks) it reads 6h at 0.9. Records every batch in ``calls``."""

    first = fixed_classify([{"5s": 0.95}, {"5h": 0.5, "6h": 0.45}])
    later = fixed_classify([{"6h": 0.9}])

    def classify(x: np.ndarray) -> np.ndarray:
        calls.append(x.copy())
        return (first if len(calls) == 1 else later)(x)

    return classify


def test_a_doubtful_card_is_read_again_at_the_shifted_crops() -> None:
    """A crop whose top probability is under ``Thresholds.recheck`` is classified again at every
    ``RECHECK_SHIFTS`` offset and the mean decides; a sure crop is read once. Without the recheck the
    torn card reads 5h and its seat unreadable (below ``confident``)."""
    frame = np.random.default_rng(3).integers(0, 256, FRAME.shape, dtype=np.uint8)
    locate = fake_locate([(ROW, 20), (ROW, 30)], BLOCK)
    calls: list[np.ndarray] = []
    reading = CardReader(locate, torn_then_sure(calls)).read(frame, CORNERS)
    assert [len(batch) for batch in calls] == [2 * len(DRAW_ORDER), len(DRAW_ORDER) * len(RECHECK_SHIFTS)]
    for seat in DRAW_ORDER:
        assert reading.seats[seat].cards == ["5s", "6h"]
        assert reading.seats[seat].status == "cards"
        assert reading.seats[seat].confidences[1] == pytest.approx((0.45 + 0.9 * len(RECHECK_SHIFTS)) / 9, abs=0.01)
    first = DRAW_ORDER[0]
    u, v = reading.seats[first].anchors[1]
    strip = rectify(frame, CORNERS)[first]
    for k, (du, dv) in enumerate(RECHECK_SHIFTS):
        assert np.array_equal(calls[1][k], crop_index(strip, u + du, v + dv))

    calls.clear()
    once = CardReader(locate, torn_then_sure(calls), Thresholds(recheck=0.0)).read(frame, CORNERS)
    assert len(calls) == 1
    assert once.seats[first].cards == ["5s", "5h"]
    assert once.seats[first].status == "unreadable"


@pytest.mark.parametrize(
    ("index", "wide", "card", "confidence", "status"),
    [
        ({"5h": 0.5, "6h": 0.45}, {"5h": 0.95}, "5h", 0.725, "cards"),  # torn index, sure wide view: readable
        ({"5h": 0.9}, {"5h": 0.45}, "5h", 0.9, "cards"),  # a wide view that agrees adds no doubt
        ({"5h": 0.7}, {"none": 0.4}, "5h", 0.7, "cards"),  # nor does a vague one leaning elsewhere
        ({"5h": 0.55, "6h": 0.4}, {"6h": 0.95}, "6h", 0.675, "cards"),  # the wide view settles a close call
        ({"5h": 0.9}, {"6h": 0.9}, "5h", 0.45, "unreadable"),  # sure of another card: doubtful
    ],
)
def test_the_context_classifier_reads_each_card_wide_and_takes_its_share(index, wide, card, confidence, status) -> None:
    """With a context classifier every card is also read from ``crop_context`` of the locator input at its
    anchor and the two readings mix half and half (``context_weight``); where the mix keeps the index
    classifiers' top card and the wide view is not sure of another class, that card keeps the higher of
    the two probabilities."""
    frame = np.random.default_rng(4).integers(0, 256, FRAME.shape, dtype=np.uint8)
    locate = fake_locate([(ROW, 20), (ROW, 30)], BLOCK)
    calls: list[np.ndarray] = []

    def context(x: np.ndarray) -> np.ndarray:
        calls.append(x.copy())
        return fixed_classify([wide])(x)

    reader = CardReader(locate, fixed_classify([index]), Thresholds(recheck=0.0), context=context, context_weight=0.5)
    reading = reader.read(frame, CORNERS)
    assert [len(batch) for batch in calls] == [2 * len(DRAW_ORDER)]
    south = reading.seats["S"]
    assert (south.cards, south.status) == ([card, card], status)
    assert south.confidences == pytest.approx([confidence] * 2, abs=2e-3)
    loc = locator_input(rectify(frame, CORNERS)["S"])
    for k, (u, v) in enumerate(south.anchors):
        assert np.array_equal(calls[0][DRAW_ORDER.index("S") * 2 + k], crop_context(loc, u, v))


def test_a_context_weight_outside_0_to_1_is_refused() -> None:
    with pytest.raises(ValueError, match="context_weight"):
        CardReader(fake_locate(), fake_classify(["5s"]), context=fake_classify(["5s"]), context_weight=1.5)


@pytest.mark.parametrize(
    ("dropped", "cap", "status"),
    [({"none": 0.98, "Jc": 0.01}, None, "cards"), ({"none": 0.52, "Jc": 0.45}, 0.55, "unreadable")],
)
def test_a_card_half_seen_as_none_caps_the_seat_confidence(dropped, cap, status) -> None:
    """A crop dropped as "none" that was nearly read as a card leaves the row possibly a card short: the
    seat's confidences fall to 1 − that card's probability (the referee then flags rather than
    penalises, R-PLAY-4); a plain false alarm changes nothing."""
    locate = fake_locate([(ROW, c) for c in COLS], BLOCK)
    sure = {"Jh": 0.95}
    reader = CardReader(locate, fixed_classify([sure, dropped, sure]), Thresholds(recheck=0.0))
    seat = reader.read(FRAME, CORNERS).seats["S"]
    assert seat.cards == ["Jh", "Jh"]
    assert seat.status == status
    want = 0.95 if cap is None else cap
    assert seat.confidences == pytest.approx([want, want], abs=0.01)


def test_a_seat_read_at_less_detail_than_the_deck_needs_keeps_its_cards_but_none_is_sure() -> None:
    """A deck profile's measured need (``CardReader.needs``): where the camera gives a play area less, its
    cards misread too often to be trusted, so the read stands but goes out doubtful (the referee flags,
    never penalises, on it); where the camera gives enough, nothing changes."""
    locate, codes = fake_locate([(ROW, c) for c in COLS], BLOCK), ["5s", "5h", "5d"]
    px_per_cm = detail(CORNERS)  # about 10 px/cm in every area
    enough = CardReader(locate, fake_classify(codes), needs=Need(min(px_per_cm.values()) - 0.5)).read(FRAME, CORNERS)
    short = CardReader(locate, fake_classify(codes), needs=Need(max(px_per_cm.values()) + 0.5)).read(FRAME, CORNERS)
    for seat in DRAW_ORDER:
        assert enough.seats[seat].status == "cards"
        assert enough.seats[seat].confidences == pytest.approx([0.98] * 3)
        assert short.seats[seat].cards == codes
        assert short.seats[seat].status == "unreadable"
        assert short.seats[seat].confidences == pytest.approx([COARSE_CONFIDENCE] * 3)
        assert short.seats[seat].alternatives == enough.seats[seat].alternatives  # the referee's choices stay


def test_the_shipped_classifiers_are_averaged_and_all_but_the_first_are_optional(tmp_path) -> None:
    """``from_onnx`` averages the ``CLASSIFIER_FILES`` a folder has and mixes in its ``CONTEXT_FILE``; a
    folder with the first alone (older models, or a deck's) reads with it alone."""
    frame = render(scene(0))
    crops = np.random.default_rng(0).integers(0, 256, (6, 64, 32, 3), dtype=np.uint8)
    paths = [str(path) for path in classifier_paths(MODELS_DIR)]
    assert len(paths) >= 2, "the shipped reader averages several classifiers"
    members = [onnx_classifier(path)(crops) for path in paths]
    assert np.allclose(onnx_ensemble(paths[:1])(crops), members[0])
    assert np.allclose(onnx_ensemble(paths)(crops), np.mean(members, axis=0), atol=1e-6)
    for i in range(1, len(members)):  # different networks, not copies
        assert not np.allclose(members[i - 1], members[i], atol=1e-3)
    for name in ("locator.onnx", "classifier.onnx"):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    assert CardReader.from_onnx(tmp_path).context is None
    assert CardReader.from_onnx().context is not None, f"the shipped models include {CONTEXT_FILE}"
    alone = CardReader.from_onnx(tmp_path).read(frame.image, frame.corners)
    averaged = CardReader.from_onnx().read(frame.image, frame.corners)
    assert alone.seats["N"].cards == averaged.seats["N"].cards == PLAYS[0]["N"]
    assert alone.seats["N"].confidences != averaged.seats["N"].confidences


@pytest.fixture(scope="module")
def reader() -> CardReader:
    return CardReader.from_onnx()


@pytest.mark.parametrize("index", range(len(PLAYS)))
def test_shipped_model_reads_every_play(reader: CardReader, index: int) -> None:
    frame = render(scene(index))
    reading = reader.read(frame.image, frame.corners)
    for seat in DRAW_ORDER:
        want = PLAYS[index][seat]
        assert reading.seats[seat].cards == want, seat
        assert reading.seats[seat].status == ("cards" if want else "empty"), seat


def test_read_frame_command(tmp_path, capsys) -> None:
    lines = []
    for index in range(2):
        frame = render(scene(index, seed=1))
        cv2.imwrite(str(tmp_path / f"f{index}.jpg"), frame.image)
        lines.append(json.dumps({"image": f"f{index}.jpg", "corners": frame.corners.tolist()}))
    (tmp_path / "frames.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["read-frame", "--manifest", str(tmp_path / "frames.jsonl"), "--json"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for index, row in enumerate(out):
        assert row["image"] == f"f{index}.jpg"
        assert row["seats"] == {seat: cards for seat, cards in PLAYS[index].items() if cards}
        assert row["ms"] > 0


def test_read_frame_bad_input(tmp_path, capsys) -> None:
    assert main(["read-frame", str(tmp_path / "missing.jpg"), "--corners", "1,2;3,4;5,6"]) == 2
    assert main(["read-frame", str(tmp_path / "missing.jpg"), "--corners", "0,0;10,0;10,10;0,10"]) == 2
    assert "cannot read image" in capsys.readouterr().err


def test_a_seat_whose_area_lies_still_keeps_its_reading_and_is_not_read_again() -> None:
    batches: list[int] = []
    locate = fake_locate([(ROW, c) for c in COLS], BLOCK)

    def counting(x: np.ndarray) -> np.ndarray:
        batches.append(len(x))
        return locate(x)

    reader = CardReader(counting, fake_classify(["5s", "5h", "5d"]))
    reader.reuse_still = True
    first = reader.read(FRAME, CORNERS)
    noisy = np.clip(FRAME.astype(np.int16) + np.random.default_rng(3).integers(0, 12, FRAME.shape), 0, 255)
    again = reader.read(noisy.astype(np.uint8), CORNERS)  # camera noise: nothing moved
    laid = FRAME.copy()
    cv2.rectangle(laid, (900, 740), (1000, 820), (255, 255, 255), -1)  # a card laid in one area
    strips, before = rectify(laid, CORNERS), rectify(FRAME, CORNERS)
    [moved] = [s for s in DRAW_ORDER if not np.array_equal(strips[s], before[s])]
    third = reader.read(laid, CORNERS)
    assert batches == [4, 1]  # all four at first, none for noise, then only the area that changed
    assert again.seats == first.seats
    assert all(third.seats[s] is first.seats[s] for s in DRAW_ORDER if s != moved)
    assert third.seats[moved].cards == ["5s", "5h", "5d"]
    plain = CardReader(counting, fake_classify(["5s"]))
    plain.read(FRAME, CORNERS)
    plain.read(FRAME, CORNERS)
    assert batches[2:] == [4, 4]  # without reuse_still every read reads all four areas
