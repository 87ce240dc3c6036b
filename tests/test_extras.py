"""The base install starts: commands import their extras only when they run, and name the one missing."""

from __future__ import annotations

import importlib
import sys
from importlib.metadata import PackageNotFoundError, distribution, requires

import pytest
from packaging.requirements import Requirement

from referee_station.extras import DISTRIBUTION, EXTRA_OF_MODULE

HALL_MODULES = ("paho", "psycopg")
OURS = ("referee_station",)


@pytest.fixture
def without_hall():
    """This process as if the ``[hall]`` extra were not installed: its modules cannot be imported, and the
    project's modules are imported afresh so that none is already holding them. Afterwards ``sys.modules``
    is as it was, so later tests see the modules (and classes) they imported before."""
    saved = dict(sys.modules)
    replaced = [name for name in sys.modules if name.partition(".")[0] in (*HALL_MODULES, *OURS)]
    for name in replaced:
        del sys.modules[name]
    for name in HALL_MODULES:
        sys.modules[name] = None  # type: ignore[assignment]  # import raises ModuleNotFoundError
    try:
        yield importlib.import_module("referee_station.cli")
    finally:
        for name in [n for n in sys.modules if n.partition(".")[0] in (*HALL_MODULES, *OURS)]:
            del sys.modules[name]
        sys.modules.update({name: saved[name] for name in replaced})


def test_the_cli_and_the_station_commands_start_without_the_hall(without_hall, capsys) -> None:
    assert without_hall.main(["check", "5s 5h 5d", "--level", "2"]) == 0
    assert "R-PAT-4" in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        without_hall.main(["run", "--help"])
    assert done.value.code == 0
    assert "--broker" in capsys.readouterr().out


def test_the_hall_command_without_its_extra_exits_2_naming_it(without_hall, capsys) -> None:
    assert without_hall.main(["hall", "export", "--db", "postgresql://nobody@localhost/none"]) == 2
    err = capsys.readouterr().err
    assert f"pip install '{DISTRIBUTION}[hall]'" in err
    assert "psycopg is not installed" in err or "paho is not installed" in err


def test_a_module_of_no_extra_still_raises(without_hall, monkeypatch) -> None:
    """Only the extras' modules become a message: a module the base install lacks is a bug, and shows."""
    check = importlib.import_module("referee_station.commands.check")
    monkeypatch.setattr(check, "run", lambda args: importlib.import_module("no_such_module"))
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        without_hall.main(["check", "5s", "--level", "2"])


def test_every_installed_extra_distribution_is_mapped_to_its_extra() -> None:
    """``EXTRA_OF_MODULE`` names the import name of each distribution the extras list in ``pyproject.toml``."""
    for line in requires(DISTRIBUTION) or ():
        req = Requirement(line)
        extras = [e for e in ("hall", "train") if req.marker is not None and req.marker.evaluate({"extra": e})]
        extra = extras[0] if extras else None
        if extra is None:
            continue
        try:
            dist = distribution(req.name)
        except PackageNotFoundError:
            continue  # not installed here (torch): nothing to learn its import name from
        tops = {f.parts[0] for f in dist.files or () if f.suffix == ".py" and len(f.parts) > 1 and f.parts[0] != ".."}
        assert tops, req.name
        for top in tops:
            assert EXTRA_OF_MODULE.get(top) == extra, f"{req.name} installs {top}: EXTRA_OF_MODULE lacks it"
