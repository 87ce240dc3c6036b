"""Issue 25 item 8: a deck profile is checked against size limits and a schema before anything of it
is read whole, and its networks may not pull in files from outside it. Every fault is a ValueError
naming the file, and ``read-frame`` exits 2 with it."""

from __future__ import annotations

import json
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from referee_station.cli import main
from referee_station.deck.profile import FILE_MAX, DeckProfile, reader_for
from tests.deck.test_profile import META, stub


def proto(number: int, payload: bytes | int) -> bytes:
    """One protobuf field: a varint for an int, length-delimited for bytes (lengths < 128 here)."""
    if isinstance(payload, int):
        return bytes([number << 3, payload])
    return bytes([number << 3 | 2, len(payload)]) + payload


def external_weights(location: str) -> bytes:
    """A model whose one initializer's data lives in the file ``location`` (ONNX external data)."""
    entry = proto(1, b"location") + proto(2, location.encode())
    tensor = proto(1, 4) + proto(2, 1) + proto(8, b"w") + proto(13, entry) + proto(14, 1)
    return proto(1, 8) + proto(7, proto(2, b"g") + proto(5, tensor))


def meta_json(**changes: object) -> str:
    return json.dumps({**META.__dict__, **changes})


def write_zip(path: Path, files: dict[str, bytes | str]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def test_a_zip_bomb_is_refused_by_its_header(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.deck"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("deck.json", meta_json())
        with z.open("classifier.onnx", "w", force_zip64=True) as entry:
            for _ in range(FILE_MAX // 2**20 + 1):
                entry.write(bytes(2**20))
    assert bomb.stat().st_size < FILE_MAX // 100
    tracemalloc.start()
    with pytest.raises(ValueError, match=r"classifier.onnx unpacks to \d+ bytes, over"):
        DeckProfile.load(bomb)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 2**20, f"{peak} bytes allocated to refuse a zip bomb"


@pytest.mark.parametrize(
    "files, error",
    [
        ({"deck.json": meta_json(), "classifier.onnx": stub("c"), "notes.txt": "hi"}, "unexpected file 'notes.txt'"),
        ({"deck.json": meta_json(colour="red"), "classifier.onnx": stub("c")}, "unknown field 'colour'"),
        ({"deck.json": "[1, 2]", "classifier.onnx": stub("c")}, "must be a JSON object"),
        ({"deck.json": meta_json(peak="0.35"), "classifier.onnx": stub("c")}, "field 'peak' is '0.35'"),
        ({"deck.json": meta_json(peak=float("nan")), "classifier.onnx": stub("c")}, "field 'peak'"),
        ({"deck.json": meta_json(held_back_crops=True), "classifier.onnx": stub("c")}, "'held_back_crops'"),
        ({"deck.json": meta_json(design=["a"]), "classifier.onnx": stub("c")}, "'design'"),
        ({"deck.json": meta_json(photos_px_per_cm=-3), "classifier.onnx": stub("c")},
         "field 'photos_px_per_cm' is -3: a number of px per cm, or null"),
        ({"deck.json": "[" * 50_000, "classifier.onnx": stub("c")}, "deck.json is not JSON"),
        ({"deck.json": " " * 70_000, "classifier.onnx": stub("c")}, "deck.json unpacks to 70000 bytes"),
        ({"deck.json": b"\xff\xfe", "classifier.onnx": stub("c")}, "deck.json is not JSON"),
        ({"deck.json": json.dumps({k: v for k, v in META.__dict__.items() if k != "peak"}),
          "classifier.onnx": stub("c")}, "lacks field 'peak'"),
        ({"deck.json": meta_json(), "classifier.onnx": b"garbage \x00\xff"}, "classifier.onnx is not a self-contained"),
        ({"deck.json": meta_json(), "classifier.onnx": stub("c"), "locator.onnx": b""}, "locator.onnx is not"),
        ({"deck.json": meta_json(), "classifier.onnx": external_weights("secret.bin")}, "external data"),
        ({"deck.json": meta_json()}, "no classifier.onnx"),
    ],
)  # fmt: skip
def test_a_bad_profile_is_a_clear_error(tmp_path: Path, files: dict[str, bytes | str], error: str) -> None:
    with pytest.raises(ValueError, match=error):
        DeckProfile.load(write_zip(tmp_path / "bad.deck", files))


def test_a_folder_profile_reads_only_its_own_files(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.onnx"
    outside.write_bytes(stub("outside"))
    folder = tmp_path / "deck"
    folder.mkdir()
    (folder / "deck.json").write_text(meta_json())
    (folder / "classifier.onnx").symlink_to(outside)
    with pytest.raises(ValueError, match="regular file inside its folder"):
        DeckProfile.load(folder)
    (folder / "classifier.onnx").unlink()
    (folder / "classifier.onnx").write_bytes(bytes(FILE_MAX + 1))
    with pytest.raises(ValueError, match="over"):
        DeckProfile.load(folder)


def test_networks_that_onnxruntime_refuses_are_a_value_error() -> None:
    with pytest.raises(ValueError, match="networks do not load"):
        reader_for(DeckProfile(META, stub("empty")))


def test_read_frame_exits_2_on_a_bad_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = write_zip(tmp_path / "bad.deck", {"deck.json": meta_json(peak="high"), "classifier.onnx": stub("c")})
    assert main(["read-frame", str(tmp_path / "x.png"), "--corners", "0,0;1,0;1,1;0,1", "--deck", str(deck)]) == 2
    assert "field 'peak'" in capsys.readouterr().err
    empty = tmp_path / "empty.deck"
    DeckProfile(META, stub("empty")).save(empty)
    assert main(["read-frame", str(tmp_path / "x.png"), "--corners", "0,0;1,0;1,1;0,1", "--deck", str(empty)]) == 2
    assert "networks do not load" in capsys.readouterr().err
