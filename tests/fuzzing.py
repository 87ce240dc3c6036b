"""The two fuzzers of issue 25: log lines (EVENTS.md) and hall envelopes, shared by the CI tests
(hypothesis, a bounded number of examples) and ``benchmarks/fuzz.py`` (many more).

Inputs start from real records (a seeded simulated match, its outputs included) and are broken the
ways a crashing source, a hand edit or a hostile station would: a field's value replaced by any JSON
value (huge and non-finite numbers, deep nesting, lone surrogates included), a field dropped or
added, the text cut or spliced. The checks say what must hold for every input:

- a log line is read into a record that writes back to the same record as valid UTF-8, or refused
  with :class:`EventError`; a referee fed what was read raises nothing but ``EventError``;
- an envelope decodes into one whose id is ``<topic's table>:<log>:<seq>`` and whose body is the
  record it claims, or is refused with :class:`EnvelopeError`.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from hypothesis import strategies as st

from referee_station.hall.topics import Envelope, EnvelopeError, record_id
from referee_station.log.jsonl import LineError, NumberedRecord, iter_lines
from referee_station.log.replay import replay
from referee_station.sim.match import simulate
from referee_station.table.events import EventError, Record, parse_line
from referee_station.table.referee import TableReferee

TABLE = "T01"
LOG = "ab12cd34"


@cache
def base_records() -> tuple[Record, ...]:
    """One seeded match with violations, the referee's outputs after each input: every record type."""
    referee = TableReferee(auto_confirm=True)
    out: list[Record] = []
    for event in simulate(25, 1, 0.2).events:
        out += [event, *referee.feed(event)]
    return tuple(out)


@cache
def base_lines() -> tuple[str, ...]:
    return tuple(record.to_line() for record in base_records())


def envelope_of(seq: int, record: Record, table: str = TABLE) -> dict[str, Any]:
    """The envelope a station of ``table`` sends for its ``seq``-th record."""
    id_ = record_id(table, LOG, seq)
    return Envelope(id_, table, LOG, seq, record.t, record.TYPE, record.IS_INPUT, record.to_line(), 1.0).__dict__


# ---------------------------------------------------------------------------------------------- strategies

_odd_numbers = st.sampled_from([10**400, -(10**30), 2**63, 2**64 + 1, 1e308, -0.0, 5e-324, True, False])
_odd_text = st.sampled_from(["", "\ud800", "\udfff x", "\x00", "E" * 5000, "3s 3s 3s", "SJ BJ", "../#", "NaN"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | _odd_numbers | _odd_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
"""Any JSON value, and the numbers and strings that broke readers before (issue 25 item 6)."""


@st.composite
def mutated_objects(draw: st.DrawFn, base: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """A base object with one to three fields replaced, dropped or added."""
    obj = dict(draw(st.sampled_from(base)))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["replace", "drop", "add"]))
        names = sorted(obj)
        if how == "replace" and names:
            obj[draw(st.sampled_from(names))] = draw(json_values)
        elif how == "drop" and names:
            obj.pop(draw(st.sampled_from(names)))
        else:
            obj[draw(st.text(max_size=8))] = draw(json_values)
    return obj


@st.composite
def spliced_text(draw: st.DrawFn, base: tuple[str, ...]) -> str:
    """A base line cut short, or with characters inserted or removed somewhere."""
    line = draw(st.sampled_from(base))
    at = draw(st.integers(0, len(line)))
    how = draw(st.sampled_from(["cut", "insert", "delete"]))
    if how == "cut":
        return line[:at]
    if how == "insert":
        return line[:at] + draw(st.text(max_size=6)) + line[at:]
    return line[:at] + line[at + draw(st.integers(1, 8)) :]


def log_lines() -> st.SearchStrategy[str]:
    objects = tuple(json.loads(line) for line in base_lines())
    return st.one_of(
        st.sampled_from(base_lines()),
        mutated_objects(objects).map(lambda obj: json.dumps(obj, ensure_ascii=False)),
        mutated_objects(objects).map(json.dumps),  # \\u escapes: how a lone surrogate gets in
        spliced_text(base_lines()),
        st.sampled_from(["[" * 50_000 + "]" * 50_000, '{"t":' + "9" * 5000 + ',"type":"tick"}', "NaN", "{}"]),
    )


def envelope_payloads() -> st.SearchStrategy[bytes]:
    envelopes = tuple(envelope_of(seq, record) for seq, record in enumerate(base_records()[:60], start=1))
    body_mutations = st.tuples(st.sampled_from(envelopes), log_lines()).map(lambda p: p[0] | {"body": p[1]})
    return st.one_of(
        st.sampled_from(envelopes).map(lambda e: json.dumps(e).encode()),
        mutated_objects(envelopes).map(lambda e: json.dumps(e).encode()),
        body_mutations.map(lambda e: json.dumps(e).encode()),
        spliced_text(tuple(json.dumps(e) for e in envelopes)).map(lambda s: s.encode("utf-8", "surrogatepass")),
        st.binary(max_size=200),
    )


# ---------------------------------------------------------------------------------------------- seeded mutators


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """What ``json_values`` draws, from a plain seeded generator (the broker test and the benchmark)."""
    pick = rng.randrange(9 if depth < 3 else 6)
    if pick == 0:
        return rng.choice([None, True, False, 0, -1, 1.5, float("inf"), float("nan")])
    if pick == 1:
        return rng.choice([10**400, -(10**30), 2**63, 2**64 + 1, 1e308])
    if pick == 2:
        return rng.choice(["", "\ud800", "\x00", "E" * 5000, "3s 3s 3s", "SJ", "../#", "Th"])
    if pick == 3:
        return rng.randint(-(10**12), 10**12)
    if pick == 4:
        return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(8)))
    if pick == 5:
        return rng.uniform(-1e6, 1e6)
    if pick == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick == 7:
        return {f"k{rng.randrange(5)}": random_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return [[[random_value(rng, 3)]]]


def random_mutation(rng: random.Random, obj: dict[str, Any]) -> dict[str, Any]:
    obj = dict(obj)
    for _ in range(rng.randint(1, 3)):
        names = sorted(obj)
        how = rng.randrange(3)
        if how == 0 and names:
            obj[rng.choice(names)] = random_value(rng)
        elif how == 1 and names:
            obj.pop(rng.choice(names))
        else:
            obj[rng.choice(["x", "cards", "seat", "t", "type", "deal", "extra"])] = random_value(rng)
    return obj


def random_log_line(rng: random.Random) -> str:
    line = rng.choice(base_lines())
    how = rng.randrange(4)
    if how == 0:
        return line
    if how == 1:
        return json.dumps(random_mutation(rng, json.loads(line)), ensure_ascii=rng.random() < 0.5)
    at = rng.randrange(len(line) + 1)
    if how == 2:
        return line[:at]
    return line[:at] + chr(rng.randrange(0x20, 0x7F)) + line[at + rng.randrange(3) :]


def random_log_file(rng: random.Random, broken: int = 20) -> list[str]:
    """The base log with ``broken`` of its lines replaced by mutated ones."""
    lines = list(base_lines())
    for at in rng.sample(range(len(lines)), broken):
        lines[at] = random_log_line(rng)
    return lines


def random_envelope(rng: random.Random, table: str = TABLE) -> bytes:
    seq = rng.randrange(1, 61)
    envelope = envelope_of(seq, base_records()[seq - 1], table)
    how = rng.randrange(4)
    if how == 0:
        return json.dumps(envelope).encode()
    if how == 1:
        return json.dumps(random_mutation(rng, envelope)).encode()
    if how == 2:
        return json.dumps(envelope | {"body": random_log_line(rng)}).encode()
    return rng.randbytes(rng.randrange(100))


# ---------------------------------------------------------------------------------------------- checks


def check_log_line(line: str) -> str:
    """ "read" or "refused"; any other exception, or a record that does not write back, is a bug."""
    try:
        record = parse_line(line)
    except EventError as err:
        assert str(err)
        return "refused"
    again = record.to_line()
    again.encode("utf-8")  # a lone surrogate would fail here, as in the SQLite log or a file
    assert parse_line(again) == record, (line, again)
    try:
        TableReferee(auto_confirm=True).feed(record)
    except EventError:
        return "refused"
    return "read"


def check_log_file(lines: list[str]) -> tuple[int, int]:
    """A whole log with broken lines in it, as ``replay`` and ``log import`` read it: one record or one
    numbered error per non-blank line, and the inputs replay through a referee without an exception.
    Returns (records, errors)."""
    items = list(iter_lines(lines))
    assert len(items) == sum(1 for line in lines if line.strip())
    errors = [item for item in items if isinstance(item, LineError)]
    assert all(1 <= error.line <= len(lines) and error.message for error in errors)
    records = [item for item in items if isinstance(item, NumberedRecord)]
    for _ in replay([item for item in records if item.record.IS_INPUT], auto_confirm=True):
        pass
    return len(records), len(errors)


def check_envelope(payload: bytes, table: str = TABLE) -> str:
    """ "stored" or "quarantined"; an envelope accepted must be consistent with its topic and body."""
    try:
        envelope = Envelope.decode(payload, table)
    except EnvelopeError as err:
        assert str(err)
        return "quarantined"
    assert envelope.table == table and envelope.id == record_id(table, envelope.log, envelope.seq)
    record = parse_line(envelope.body)
    assert (record.TYPE, record.IS_INPUT, record.t) == (envelope.type, envelope.is_input, envelope.t)
    return "stored"
