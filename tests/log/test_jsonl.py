"""JSON Lines: write and read back; malformed lines reported with their number, never fatal."""

from referee_station.log.jsonl import LineError, read_jsonl, write_jsonl
from referee_station.log.store import is_sqlite
from referee_station.sim.match import simulate


def test_round_trip(tmp_path):
    events = simulate(4, 1, 0.05).events
    path = tmp_path / "match.jsonl"
    assert write_jsonl(path, events) == len(events)
    records, errors = read_jsonl(path)
    assert errors == []
    assert [r.record for r in records] == events
    assert [r.line for r in records] == list(range(1, len(events) + 1))
    assert not is_sqlite(path)


def test_malformed_lines_are_numbered_and_skipped(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        "\n".join(
            [
                '{"t":0,"type":"match","sides":{"EW":"a","NS":"b"}}',
                "{not json",
                '{"t":1,"type":"deal","first_leader":"E"}',
                "",
                '{"t":2,"type":"play","seat":"X","cards":["3s"]}',
                '{"t":3,"type":"bogus"}',
                '{"t":4,"type":"pass","seat":"E"}',
            ]
        ),
        encoding="utf-8",
    )
    records, errors = read_jsonl(path)
    assert [r.line for r in records] == [1, 3, 7]
    assert [e.line for e in errors] == [2, 5, 6]
    assert "seat" in errors[1].message and "bogus" in errors[2].message
    assert str(LineError(5, "x")) == "line 5: x"
