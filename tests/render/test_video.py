import itertools

from referee_station.render.video import arms_at, choreograph, truth_reading
from referee_station.table.events import Clear, DealStart, PlayCards

EVENTS = [
    DealStart(1.0, "E"),
    PlayCards(5.0, "E", ("4s",)),
    PlayCards(8.0, "S", ("9h",)),
    PlayCards(11.0, "E", ("Ks",)),
    Clear(16.0),
    PlayCards(19.0, "E", ("3s", "3d")),
]


def test_choreography_follows_the_log():
    choreo = choreograph(EVENTS, seed=1)
    assert choreo.truth == EVENTS[1:]
    assert [s.t for s in choreo.stills] == [0.0, 1.0, 5.0, 8.0, 11.0, 16.0, 19.0]
    at = {s.t: s.seats for s in choreo.stills}
    assert len(at[11.0]["E"].discard) == 1  # E's beaten 4s went to its discard area as it laid the K
    assert [c.code for c in at[11.0]["E"].play] == ["Ks"]
    assert not any(seats.play for seats in at[16.0].values())  # the sweep
    assert len(at[16.0]["S"].discard) == 1


def test_hands_reach_in_let_go_and_leave():
    choreo = choreograph(EVENTS, seed=1)
    assert [seat for seat, _ in arms_at(choreo, 4.8)] == ["E"]
    assert arms_at(choreo, 7.0) == []  # a pause: nothing moves
    reach = next(m for m in choreo.arms if m.seat == "E" and m.t1 == 5.0)
    assert 0.5 <= 5.0 - reach.t0 <= 0.9
    assert truth_reading(choreo, 4.9).seats["E"].status == "occluded"
    assert truth_reading(choreo, 7.0).seats["E"].cards == ["4s"]
    assert truth_reading(choreo, 7.0).seats["S"].status == "empty"


def test_a_wide_index_deck_is_laid_with_its_rows_stepped_past_its_index():
    """``min_step`` (``row_step`` of the design shown) lays the video's rows as ``random_scene`` lays its
    own: the same cards, further apart."""
    plays = [DealStart(1.0, "E"), *(PlayCards(5.0 + 4 * i, "E", ("3s", "4d", "5h", "6c", "7s")) for i in range(20))]
    narrow, wide = choreograph(plays, seed=2), choreograph(plays, seed=2, min_step=3.0)

    def steps(choreo) -> list[float]:
        rows = [s.seats["E"].play for s in choreo.stills if s.seats["E"].play]
        return [b.x - a.x for row in rows for a, b in itertools.pairwise(row)]

    assert min(steps(wide)) > 2.5 > min(steps(narrow))
    assert [c.code for c in wide.stills[-1].seats["E"].play] == ["3s", "4d", "5h", "6c", "7s"]
