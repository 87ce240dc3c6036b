"""The flag detail texts the rules layer raises itself, as named templates (``core.details.Detail``).

A rules error's message becomes a flag's ``detail`` as it is, so it is a template like the table
layer's, made here only; ``table.details`` lists these with its own for the console's catalogue.
"""

from __future__ import annotations

from referee_station.core.details import Detail

COPIES = Detail("copies", "{card} appears {n} times; two decks hold only {most} (R-CARD-1)")
"""Raised by ``cards.check_copies``."""
BAD_DECLARED_KIND = Detail("bad_declared_kind", "declared kind '{kind}' is not a pattern (R-PAT, R-WILD-3)")
"""Raised by ``compare.Declaration.parse``."""
BAD_DECLARED_KEY = Detail("bad_declared_key", "declared key '{key}' is not a rank (R-WILD-3)")
"""Raised by ``compare.Declaration.parse``."""
