"""A digest of the simulator's 1,193-deal check (issue #26: behaviour unchanged by a refactoring).

    python -m benchmarks.digest

Simulates the matches of ``tests/sim/test_against_referee.py::test_a_thousand_deals`` (seeds
1000-1299, 4 deals each, violations at 1 %) and hashes their event lines, the outputs of the plain
referee (auto-confirmed and with flags left open) and of the correcting referee, and the snapshot after
every event (enums as their values). Equal digests before and after a change: the same behaviour.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import time
from typing import Any

from referee_station.sim.match import simulate
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import parse_line
from referee_station.table.referee import TableReferee

SEEDS = range(1000, 1300)


def plain(value: Any) -> Any:
    """The snapshot as JSON-able data, the same for the frozen view and the dictionary it replaced
    (which left out ``deal`` before the first deal, and ``pending`` outside the correcting referee)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if not (k in ("deal", "pending") and not v)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def main() -> None:
    digests = {name: hashlib.sha256() for name in ("events", "auto", "open", "correcting", "snapshots")}
    deals, start = 0, time.perf_counter()
    for seed in SEEDS:
        result = simulate(seed, 4, 0.01)
        deals += result.deals
        lines = [event.to_line() for event in result.events]
        digests["events"].update("".join(line + "\n" for line in lines).encode())
        referees = {
            "auto": TableReferee(auto_confirm=True),
            "open": TableReferee(),
            "correcting": CorrectingReferee(auto_confirm=True),
        }
        for name, referee in referees.items():
            for line in lines:
                for out in referee.feed(parse_line(line)):
                    digests[name].update(out.to_line().encode() + b"\n")
                if name != "open":
                    digests["snapshots"].update(json.dumps(plain(referee.snapshot()), sort_keys=True).encode() + b"\n")
    print(f"deals {deals} in {time.perf_counter() - start:.0f} s")
    for name, digest in digests.items():
        print(f"{name:11} {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
