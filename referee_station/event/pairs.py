"""The pairs (对) of an event, read from the organisers' CSV.

The CSV has a header with the columns ``number``, ``names`` and optionally ``unit`` (Chinese
headers 编号, 选手, 单位 are accepted too); the two players' names are separated by ``/`` or ``、``.
The file's row order is the sign-in order (seed 003: round 1 by sign-in order). Files saved by
a spreadsheet in GB 18030 (GBK) are read as well as UTF-8."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

HEADERS = {"number": "number", "编号": "number", "names": "names", "选手": "names", "unit": "unit", "单位": "unit"}
NAME_SEPARATORS = re.compile(r"\s*[/、]\s*")


class PairsError(ValueError):
    """A pairs file that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class Pair:
    """A fixed partnership (seed 003 十二: partners may not change during the event)."""

    number: int
    """The pair number; the lower number of a table sits East-West (seed 003 八.1)."""
    names: tuple[str, str]
    unit: str = ""
    """The team or union group the pair plays for (工会小组)."""

    @property
    def label(self) -> str:
        return f"{self.number} {' / '.join(self.names)}"


def read_pairs_file(path: Path) -> list[Pair]:
    """The pairs of a CSV file in UTF-8 (with or without BOM) or GB 18030."""
    data = path.read_bytes()
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return read_pairs(data.decode(encoding), str(path))
        except UnicodeDecodeError:
            continue
    raise PairsError(f"{path}: neither UTF-8 nor GB 18030 text")


def read_pairs(text: str, name: str = "pairs.csv") -> list[Pair]:
    """Every pair of the file, in its order; the first bad line raises :class:`PairsError`."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows:
        raise PairsError(f"{name}: empty; expected a header line number,names,unit")
    columns = [HEADERS.get(cell.strip().lower()) for cell in rows[0]]
    for needed in ("number", "names"):
        if needed not in columns:
            raise PairsError(f"{name}:1: header {rows[0]!r} has no {needed!r} column (number,names,unit)")
    pairs: list[Pair] = []
    seen: dict[int, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not "".join(row).strip():
            continue
        if len(row) != len(columns):
            raise PairsError(f"{name}:{line}: {len(row)} fields, the header has {len(columns)}: {row!r}")
        cells = {column: cell.strip() for column, cell in zip(columns, row, strict=True) if column}
        try:
            number = int(cells["number"])
        except ValueError:
            raise PairsError(f"{name}:{line}: pair number {cells['number']!r} is not a whole number") from None
        if number < 1:
            raise PairsError(f"{name}:{line}: pair number {number} must be 1 or more")
        if number in seen:
            raise PairsError(f"{name}:{line}: pair number {number} already on line {seen[number]}")
        names = tuple(n for n in NAME_SEPARATORS.split(cells["names"]) if n)
        if len(names) != 2:
            raise PairsError(f"{name}:{line}: pair {number} needs two names separated by '/', got {cells['names']!r}")
        seen[number] = line
        pairs.append(Pair(number, (names[0], names[1]), cells.get("unit", "")))
    if len(pairs) < 2:
        raise PairsError(f"{name}: {len(pairs)} pair(s); an event needs at least 2")
    return pairs
