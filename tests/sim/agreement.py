"""Replay simulated matches through the referee (auto-confirm) and compare its flags with the
simulator's ground truth: the same offences by the same seats, in the same order, flagged no
earlier than injected and at most one tick later (overtime is seen at the next tick)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee_station.sim.match import SimResult, simulate
from referee_station.table.events import DealEnd, Flag, MatchEnd, Output, parse_line
from referee_station.table.referee import TableReferee


@dataclass
class Agreement:
    deals: int = 0
    events: int = 0
    fouls: int = 0
    match_losses: int = 0
    injected: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def referee_outputs(lines: list[str]) -> list[Output]:
    referee = TableReferee(auto_confirm=True)
    return [out for line in lines for out in referee.feed(parse_line(line))]


def check_match(result: SimResult, outputs: list[Output], seed: int) -> list[str]:
    """Every difference between the referee's reading of one simulated match and the truth."""
    problems = []
    flags = [o for o in outputs if isinstance(o, Flag)]
    got = [(f.seat, f.offence) for f in flags]
    want = [(i.seat, i.offence) for i in result.truth]
    if got != want:
        extra, missing = Counter(got) - Counter(want), Counter(want) - Counter(got)
        problems.append(f"seed {seed}: flags differ; extra {dict(extra)}, missing {dict(missing)}")
        problems += [f"  {f.to_line()}" for f in flags if (f.seat, f.offence) in extra]
    else:
        for flag, item in zip(flags, result.truth, strict=True):
            if not 0.0 <= flag.t - item.t <= 1.01:
                problems.append(f"seed {seed}: {item} flagged at {flag.t}")
    ends = [o for o in outputs if isinstance(o, DealEnd)]
    completed = result.deals - (result.match_loss is not None)
    if len(ends) != completed:
        problems.append(f"seed {seed}: {len(ends)} deal_end outputs for {completed} deals")
    for i, end in enumerate(ends[:completed]):
        if end.foul != (result.fouls[i] is not None):
            problems.append(f"seed {seed}: deal {i + 1} foul {end.foul}, simulator {result.fouls[i]}")
        if i + 1 < result.deals and end.next_level != result.deal_levels[i + 1]:
            problems.append(
                f"seed {seed}: after deal {i + 1} level {end.next_level}, simulator {result.deal_levels[i + 1]}"
            )
    if ends and ends[-1].levels != result.levels:
        problems.append(f"seed {seed}: final levels {ends[-1].levels}, simulator {result.levels}")
    match_ends = [o for o in outputs if isinstance(o, MatchEnd)]
    if len(match_ends) != 1 or outputs[-1] is not match_ends[0]:
        problems.append(f"seed {seed}: the match does not end exactly once, at the end")
    elif match_ends[0].winner != result.winner:
        problems.append(f"seed {seed}: winner {match_ends[0].winner}, simulator {result.winner}")
    return problems


def agree(seeds: range, deals: int, rate: float, offences: frozenset[str] | None = None) -> Agreement:
    """Simulate one match per seed and compare; ``problems`` lists every disagreement."""
    total = Agreement()
    for seed in seeds:
        result = simulate(seed, deals, rate, offences)
        lines = [event.to_line() for event in result.events]
        outputs = referee_outputs(lines)
        total.deals += result.deals
        total.events += len(lines)
        total.injected.update(item.offence for item in result.truth)
        total.fouls += sum(side is not None for side in result.fouls)
        total.match_losses += result.match_loss is not None
        total.problems += check_match(result, outputs, seed)
    return total
