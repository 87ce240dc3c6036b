"""The table's units whose health the station watches (EVENTS.md ``health.unit``) and whether each is up now.

``Health`` is what the station hands its listeners after every step and what a hall tile shows: one
bool per unit, so a unit that is not one of the table's cannot be set or read by a misspelt key.
``to_json`` / ``from_json`` give the plain mapping a boundary (a test, a wire) writes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Unit(StrEnum):
    """A source of the table that can go away: a ``StrEnum`` holding the log's value."""

    CAMERA = "camera"
    TIMER = "timer"
    SEATS = "seats"
    """The seat units' buttons."""


@dataclass(frozen=True)
class Health:
    """Each unit up (``True``) or not; a fresh table's are all up."""

    camera: bool = True
    timer: bool = True
    seats: bool = True

    def ok(self, unit: Unit) -> bool:
        return bool(getattr(self, Unit(unit).value))

    def replace(self, unit: Unit, ok: bool) -> Health:
        """This health with ``unit`` up or not."""
        return dataclasses.replace(self, **{Unit(unit).value: ok})

    @property
    def all_ok(self) -> bool:
        return all(self.ok(unit) for unit in Unit)

    def to_json(self) -> dict[str, bool]:
        """``{"camera": true, "timer": true, "seats": true}``, units in ``Unit``'s order."""
        return {unit.value: self.ok(unit) for unit in Unit}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Health:
        """The health ``to_json`` wrote; a unit missing or unknown, or a value that is not a bool, is a
        ``ValueError`` naming it."""
        if not isinstance(obj, Mapping):
            raise ValueError(f"health must map each of {' '.join(Unit)} to true or false, got {obj!r}")
        for key in obj:
            if key not in tuple(Unit):
                raise ValueError(f"health: unknown unit {key!r} (one of {' '.join(Unit)})")
        for unit in Unit:
            if unit.value not in obj:
                raise ValueError(f"health: missing unit {unit.value!r}")
            if not isinstance(obj[unit.value], bool):
                raise ValueError(f"health: unit {unit.value!r} must be true or false, got {obj[unit.value]!r}")
        return cls(**{unit.value: obj[unit.value] for unit in Unit})
