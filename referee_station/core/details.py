"""A named English template for the stable text of a flag's ``detail`` (issue #29, docs/EVENTS.md).

The log keeps a detail in English; the console writes it in its own language by finding the template
the text was made from. The rules layer raises some of these texts and the table layer the rest, so
the template type sits below both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Detail:
    """A named English template; ``Detail(...)(**values)`` formats it (``{name}`` / ``{name:spec}``)."""

    name: str
    text: str

    def __call__(self, **values: Any) -> str:
        return self.text.format(**values)
