"""The log-line fuzzer in CI (issue 25): hypothesis, a bounded number of examples; ``python -m
benchmarks.fuzz`` runs the same checks on many more."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzzing import base_lines, check_log_file, check_log_line, log_lines

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(log_lines())
def test_every_line_is_read_or_refused_with_an_event_error(line: str) -> None:
    check_log_line(line)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(base_lines()) - 1), log_lines()), min_size=1, max_size=12))
def test_a_log_with_broken_lines_replays_the_rest(broken: list[tuple[int, str]]) -> None:
    lines = list(base_lines())
    for at, line in broken:
        lines[at] = line
    records, errors = check_log_file(lines)
    assert records + errors == len([line for line in lines if line.strip()])
