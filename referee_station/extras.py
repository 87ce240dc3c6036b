"""The distribution's optional extras, and the message a command gives when the one it needs is missing.

The base install referees a table; the hall (MQTT, PostgreSQL) and the card reader's training (torch)
are extras that only their commands import, so a missing one is named with the line that installs it
instead of a traceback at start-up.
"""

from __future__ import annotations

DISTRIBUTION = "guandan-referee-station"
EXTRA_OF_MODULE = {"paho": "hall", "psycopg": "hall", "torch": "train", "onnx": "train", "PIL": "train"}
"""Top-level import name → the extra (``pyproject.toml``) that installs it."""
EXIT_MISSING_EXTRA = 2
"""A command that needs an absent extra exits with the code of bad input: the install, not the table."""


def extra_for(error: ModuleNotFoundError) -> str | None:
    """The extra that would have provided the module ``error`` could not find, or None if it is none of ours."""
    return EXTRA_OF_MODULE.get((error.name or "").partition(".")[0])


def missing_extra_message(command: str, extra: str, module: str) -> str:
    """One line naming the command, the absent module and how to install the extra."""
    return (
        f"referee-station {command}: needs the [{extra}] extra ({module} is not installed): "
        f"pip install '{DISTRIBUTION}[{extra}]'"
    )
