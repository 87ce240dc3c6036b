"""``referee-station``: one entry point, one module per subcommand in ``referee_station.commands``.

Each command module exposes ``add_parser(subparsers)`` that registers itself and sets ``func``;
a command returns the process exit code (0 fine, 1 a finding such as a flag, 2 bad input). Command
modules import their optional extras (``referee_station.extras``) only when they run, so the base install
starts; one that finds its extra missing exits 2 with the line that installs it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from referee_station.commands import COMMANDS
from referee_station.extras import EXIT_MISSING_EXTRA, extra_for, missing_extra_message


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="referee-station", description="Guandan (掼蛋) referee station: rules, table referee, devices, vision."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:  # output piped into head: not an error of ours
        return 0
    except ModuleNotFoundError as err:
        extra = extra_for(err)
        if extra is None:
            raise
        print(missing_extra_message(args.command, extra, str(err.name)), file=sys.stderr)
        return EXIT_MISSING_EXTRA


if __name__ == "__main__":
    sys.exit(main())
