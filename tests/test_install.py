"""The wheel as a user installs it: built from the checkout, installed with no extras into a fresh venv
outside the repository, then refereeing from there (issue 26).

To stay offline and quick, the venv reaches this environment's installed dependencies through a ``.pth``
line naming a folder of links to them, leaving out the ``[hall]`` and ``[train]`` extras' distributions and
this project's own (editable) install: what the venv imports of the project is the wheel's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from importlib.metadata import PackageNotFoundError, distribution, requires
from pathlib import Path

import cv2
import pytest
from packaging.requirements import Requirement

from referee_station.extras import DISTRIBUTION
from referee_station.render.render import render
from referee_station.vision.calibrate import Calibration
from tests.vision.helpers import CORNERS, homography, table_frame
from tests.vision.scenes import PLAYS, scene

REPO = Path(__file__).resolve().parents[1]
EXTRAS = ("hall", "train")
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv*", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "out", "docs"
)
"""Left out of the copy the wheel is built from: environments, caches and a stale ``build/`` that
setuptools would otherwise pack again."""
SHIPPED_DATA = (
    "referee_station/calibration/cloth.json",
    "referee_station/calibration/markers.png",
    "referee_station/models/locator.onnx",
    "referee_station/models/classifier.onnx",
    "referee_station/models/classifier_context.onnx",
)


def extras_top_levels() -> set[str]:
    """Top-level names in site-packages of the installed distributions the extras bring (with theirs)."""
    names: set[str] = set()
    todo = [Requirement(r) for r in requires(DISTRIBUTION) or ()]
    todo = [r for r in todo if r.marker is not None and any(r.marker.evaluate({"extra": e}) for e in EXTRAS)]
    for req in todo:
        try:
            dist = distribution(req.name)
        except PackageNotFoundError:
            continue
        names |= {f.parts[0] for f in dist.files or () if f.parts[0] != ".."}
        for extra_req in (Requirement(r) for r in dist.requires or ()):
            if extra_req.marker is not None and any(extra_req.marker.evaluate({"extra": e}) for e in req.extras):
                todo.append(extra_req)
    return names


def base_dependencies(folder: Path) -> Path:
    """A folder of links to this environment's site-packages, less the extras and the project itself."""
    folder.mkdir()
    site = Path(sysconfig.get_paths()["purelib"])
    left_out = extras_top_levels()
    for entry in site.iterdir():
        name = entry.name
        if name in left_out or name.endswith(".pth") or "guandan_referee_station" in name or "__editable__" in name:
            continue
        (folder / name).symlink_to(entry)
    return folder


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv, outside the repository, with the wheel installed ``--no-deps``: its bin folder."""
    root = tmp_path_factory.mktemp("install")
    assert REPO not in root.parents, "the venv must lie outside the repository"
    wheels, source = root / "wheels", root / "source"
    shutil.copytree(REPO, source, ignore=NOT_SOURCES)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", wheels, source],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    missing = set(SHIPPED_DATA) - set(names)
    assert not missing, f"the wheel lacks its package data: {sorted(missing)}"
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"referee_station"}, f"the wheel installs more than one namespace: {sorted(tops)}"
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    venv_site = Path(
        subprocess.check_output(
            [venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True
        ).strip()
    )
    (venv_site / "base-dependencies.pth").write_text(f"{base_dependencies(root / 'deps')}\n")
    subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel],
        check=True,
        capture_output=True,
    )
    return venv / "bin"


def station(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``referee-station ARGS`` as the installed venv runs it, from ``cwd`` (never the repository)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(
        [bin_dir / "referee-station", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_venv_imports_the_wheel_and_no_extra(installed, tmp_path) -> None:
    code = (
        "import referee_station.vision, referee_station.models, referee_station.calibration;"
        "print(referee_station.vision.__file__, referee_station.models.__file__)"
    )
    where = subprocess.run([installed / "python", "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    assert all(Path(p).is_relative_to(installed.parent) for p in where.stdout.split()), where.stdout
    for module in ("psycopg", "paho", "torch"):
        absent = subprocess.run([installed / "python", "-c", f"import {module}"], cwd=tmp_path, capture_output=True)
        assert absent.returncode != 0, f"{module} should not be importable without its extra"


def test_the_training_package_without_torch_names_its_extra(installed, tmp_path) -> None:
    done = subprocess.run(
        [installed / "python", "-c", "import referee_station.training"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert f"needs the [train] extra (torch is not installed): pip install '{DISTRIBUTION}[train]'" in done.stderr


def test_check_runs_from_the_wheel(installed, tmp_path) -> None:
    done = station(installed, "check", "5s 5h 5d", "--level", "2", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (reading,) = json.loads(done.stdout)["interpretations"]
    assert (reading["kind"], reading["rule"]) == ("triple", "R-PAT-4")


def test_simulate_and_replay_run_from_the_wheel(installed, tmp_path) -> None:
    made = station(installed, "simulate", "--seed", "3", "--deals", "1", "-o", "match.jsonl", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    replayed = station(installed, "replay", "match.jsonl", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "match ends" in replayed.stdout.splitlines()[-1]


def test_read_frame_reads_a_rendered_frame_with_the_shipped_models(installed, tmp_path) -> None:
    """The wheel's ONNX models, found through importlib.resources, read every card of a rendered frame."""
    frame = render(scene(0, seed=1))
    cv2.imwrite(str(tmp_path / "f0.jpg"), frame.image)
    corners = ";".join(f"{x:.1f},{y:.1f}" for x, y in frame.corners)
    done = station(installed, "read-frame", "f0.jpg", "--corners", corners, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (row,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert row["seats"] == {seat: cards for seat, cards in PLAYS[0].items() if cards}


def test_calibrate_writes_the_shipped_marker_sheet(installed, tmp_path) -> None:
    done = station(installed, "calibrate", "--sheet", "markers.png", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    shipped = cv2.imread(str(REPO / "referee_station" / "calibration" / "markers.png"), cv2.IMREAD_GRAYSCALE)
    assert (cv2.imread(str(tmp_path / "markers.png"), cv2.IMREAD_GRAYSCALE) == shipped).all()


def test_calibrate_saves_the_table_in_the_working_folder_not_the_package(installed, tmp_path) -> None:
    """The shipped cloth layout and markers calibrate a frame; the table's file goes to ``calibration/``
    where the station runs, never into the installed package."""
    cv2.imwrite(str(tmp_path / "frame.png"), table_frame(homography()))
    done = station(installed, "calibrate", "--image", "frame.png", "--table", "T9", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert abs(Calibration.load(tmp_path / "calibration" / "T9.json").corners - CORNERS).max() < 2.0
    assert not list(installed.parent.rglob("T9.json"))


@pytest.mark.parametrize(
    ("args", "extra"),
    [(("hall", "export", "--db", "postgresql://nobody@localhost/none"), "hall"), (("train",), "train")],
)
def test_a_command_needing_an_extra_exits_2_naming_it(installed, tmp_path, args, extra) -> None:
    done = station(installed, *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"pip install '{DISTRIBUTION}[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr
