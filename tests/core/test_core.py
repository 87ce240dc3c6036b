"""The contract core (issue #26): enums equal to the log's strings, the seats' relations (R-SEAT-1/2),
the phase table's invariants, the frozen snapshot, and a core that imports nothing of the project."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import FrozenInstanceError

import pytest

from referee_station.core import (
    LADDER,
    NEXT_SEAT,
    SEATS,
    SIDES,
    TRANSITIONS,
    Decision,
    Penalty,
    Phase,
    PhaseError,
    Seat,
    Side,
    Step,
    advance,
)
from referee_station.table.events import EventError, Flag, Ruling, Sign, parse_line
from referee_station.table.referee import TableReferee

ORDER = (Phase.TRIBUTE, Phase.RETURN, Phase.PLAY, Phase.OVER)


def test_the_enums_hold_the_logs_strings_and_write_them_back():
    assert [*SEATS] == ["E", "S", "W", "N"] and [*SIDES] == ["EW", "NS"]
    assert [*LADDER] == ["warning", "infraction", "foul", "match_loss", "disqualification"]
    assert Penalty.ANOMALY not in LADDER and [*Decision] == ["confirm", "dismiss"]
    line = '{"t":3.0,"type":"ruling","flag":1,"decision":"dismiss","stop_next":false}'
    ruling = parse_line(line)
    assert ruling.decision is Decision.DISMISS and ruling.to_line() == line
    assert json.dumps({Seat.E: Phase.PLAY}) == '{"E": "play"}'


def test_r_seat_2_next_partner_and_side():
    assert [NEXT_SEAT[s] for s in ("E", "N", "W", "S")] == ["N", "W", "S", "E"]  # counterclockwise
    for seat in Seat:
        assert seat.next.prev is seat and seat.partner.partner is seat and seat.partner.side is seat.side
        assert seat.next.side is seat.side.other
    assert Side.EW.seats == (Seat.E, Seat.W) and Side.NS.other is Side.EW


def test_a_record_built_in_code_holds_the_enum_and_a_wrong_string_is_its_error():
    assert Ruling(1.0, 1, "confirm").decision is Decision.CONFIRM
    assert Flag(1.0, seat="N", side="NS", penalty="foul").penalty is Penalty.FOUL
    with pytest.raises(EventError, match=r"sign: field 'side' must be one of EW NS, got 'EN'"):
        Sign(1.0, "EN")


def test_phases_only_move_forward_and_over_is_final():
    for (before, step), after in TRANSITIONS.items():
        if before is None:
            assert step in (Step.DEALT, Step.TRIBUTE_OWED)
            continue
        assert ORDER.index(after) >= ORDER.index(before), (before, step, after)
        if before is Phase.OVER:
            assert step is Step.ENDED and after is Phase.OVER
    assert advance(None, Step.TRIBUTE_OWED) is Phase.TRIBUTE
    assert advance(Phase.TRIBUTE, Step.RESISTED) is Phase.PLAY  # 抗贡 skips the return (R-TRIB-3)


@pytest.mark.parametrize(("phase", "step"), [(Phase.PLAY, Step.RETURNS_MADE), (Phase.OVER, Step.SIDE_OUT)])
def test_a_step_the_table_does_not_list_is_a_phase_error(phase: Phase, step: Step):
    with pytest.raises(PhaseError, match=f"no transition from phase {phase} on {step}"):
        advance(phase, step)


def test_the_snapshot_is_frozen():
    state = TableReferee().snapshot()
    with pytest.raises(FrozenInstanceError):
        state.match_over = True  # type: ignore[misc]
    assert state.levels == {"EW": "2", "NS": "2"} and state.deal is None and state.open_flags == ()


def test_the_core_imports_nothing_of_the_project_but_itself():
    code = (
        "import json, sys, referee_station.core; "
        "print(json.dumps([m for m in sys.modules if m.startswith(('referee_station', 'numpy', 'PySide6', 'cv2'))]))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert all(name == "referee_station" or name.startswith("referee_station.core") for name in json.loads(loaded))
