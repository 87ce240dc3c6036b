"""``referee-station log export|import``: JSON Lines <-> SQLite round trip, and an imported log that
a station resumes from."""

from referee_station.cli import main
from referee_station.log.jsonl import write_jsonl
from referee_station.log.station import TableStation
from referee_station.log.store import EventStore
from referee_station.sim.match import simulate


def test_import_then_export_gives_the_same_lines(tmp_path, capsys):
    events = simulate(31, 1, 0.03).events
    log, db, back = tmp_path / "in.jsonl", tmp_path / "station.db", tmp_path / "out.jsonl"
    write_jsonl(log, events)
    assert main(["log", "import", str(log), str(db), "--table", "T9"]) == 0
    assert main(["log", "export", str(db), "-o", str(back)]) == 0
    assert back.read_bytes() == log.read_bytes()
    assert "imported" in capsys.readouterr().err


def test_import_with_replay_can_be_resumed_by_a_station(tmp_path):
    events = simulate(32, 1, 0.03).events
    log, db = tmp_path / "in.jsonl", tmp_path / "station.db"
    write_jsonl(log, events)
    assert main(["log", "import", str(log), str(db), "--table", "T1", "--replay", "--auto-confirm"]) == 0
    with EventStore(db) as store:
        station = TableStation.open(store, "T1", auto_confirm=True)
        assert station.inputs == len(events)
        assert len(store.records("T1")) > len(events)


def test_export_of_a_missing_table_exits_2(tmp_path, capsys):
    db = tmp_path / "station.db"
    EventStore(db).close()
    assert main(["log", "export", str(db), "--table", "nope"]) == 2
    assert "--table" in capsys.readouterr().err
