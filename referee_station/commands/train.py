"""``referee-station train``: render data, train the card reader's networks, export them to ``referee_station/models/``.

Training needs torch (the ``[train]`` extra), which the station itself never imports; this command runs
``python -m referee_station.training.train`` with the interpreter given by ``--python`` (default: a ``.venv-train``
next to the project if there is one, else the current one) and passes the remaining options through.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

from referee_station.extras import EXIT_MISSING_EXTRA, missing_extra_message

ROOT = Path(__file__).resolve().parents[2]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train", help="train the card reader (needs the [train] extra; see referee_station/models/MODEL_CARD.md)"
    )
    parser.add_argument("--python", type=Path, help="interpreter with torch installed")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="passed to python -m referee_station.training.train")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    python = args.python
    if python is None:
        venv = ROOT / ".venv-train" / "bin" / "python"
        python = venv if venv.exists() else Path(sys.executable)
    if python == Path(sys.executable) and importlib.util.find_spec("torch") is None:
        print(missing_extra_message("train", "train", "torch"), file=sys.stderr)
        return EXIT_MISSING_EXTRA
    options = [o for o in args.options if o != "--"]
    return subprocess.call([str(python), "-m", "referee_station.training.train", *options], cwd=ROOT)
