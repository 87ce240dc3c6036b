"""A readable timeline of referee outputs, for people at the table: Chinese and English names,
rule ids, and the log line that caused each output (so a ruling can be checked against the log)."""

from __future__ import annotations

from referee_station.table.events import Countdown, DealEnd, Flag, MatchEnd, Output, Penalty, Reading, Withdrawn
from referee_station.table.offences import OFFENCES, PENALTY_NAMES

ACTION_NAMES: dict[str, str] = {
    "tribute": "贡牌 tribute",
    "return": "还牌 return",
    "lead": "领出 lead",
    "follow": "跟牌 follow",
    "grace": "读秒 grace",
}


def _penalty(code: str) -> str:
    zh, en = PENALTY_NAMES.get(code, (code, code))
    return f"{zh} {en}"


def describe(output: Output) -> str:
    """One line of text for one output (EVENTS.md outputs)."""
    if isinstance(output, Flag):
        spec = OFFENCES.get(output.offence)
        name = f"{spec.zh} {spec.en}" if spec else output.offence
        who = f"{output.seat} ({output.side})" if output.seat else "table"
        cards = f" [{' '.join(map(str, output.cards))}]" if output.cards else ""
        return f"flag #{output.id} {who}: {name} — {_penalty(output.penalty)} ({output.rule}){cards}: {output.detail}"
    if isinstance(output, Penalty):
        ids = ", ".join(f"#{i}" for i in output.flags)
        return f"penalty {output.side}: {_penalty(output.penalty)} ({output.reason}; flag {ids})"
    if isinstance(output, Countdown):
        action = ACTION_NAMES.get(output.action, output.action)
        return f"countdown {output.seat}: {action} {output.limit:g} s, until {output.deadline:.2f}"
    if isinstance(output, DealEnd):
        order = " ".join(seat or "-" for seat in output.order)
        levels = " ".join(f"{side} {level}" for side, level in output.levels.items())
        foul = " 犯规 foul," if output.foul else ""
        return (
            f"deal {output.deal} ends:{foul} order {order}; {output.side_up} +{output.levels_up} (R-UP-1); "
            f"levels {levels}; next deal at {output.next_level}"
        )
    if isinstance(output, MatchEnd):
        levels = " ".join(f"{side} {level}" for side, level in output.levels.items())
        points = " ".join(f"{side} {p}" for side, p in output.points.items())
        return f"match ends: winner {output.winner} ({output.reason}); levels {levels}; points {points} (R-MATCH-2)"
    if isinstance(output, Reading):
        readings = " / ".join(f"{r['kind']} {r['key']}" for r in output.readings)
        if output.status == "fixed":
            fixed = f"{output.kind} {output.key}"
            return f"reading {output.seat}: {readings} fixed as {fixed} by {output.by}'s follow (R-WILD-3)"
        return f"reading {output.seat}: undeclared, reads as {readings}; a follow may beat any (R-WILD-3, R-PAT-11)"
    if isinstance(output, Withdrawn):
        which = f" #{output.flag}" if output.flag is not None else ""
        return f"撤回 withdrawn {output.what}{which} (t={output.record.get('t', 0):.2f}): {output.reason}"
    return output.to_line()


def timeline_line(line: int, output: Output) -> str:
    """``t``, the log line number and the description, aligned for reading."""
    return f"{output.t:9.2f}  line {line:>6}  {describe(output)}"
