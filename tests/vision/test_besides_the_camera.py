"""What a camera station gets of a simulated match from elsewhere (the demo's tables, the live camera
benchmark): a real table's inputs. The simulator's deals carry every dealt hand, a table's ``deal``
carries none, so a misread suit is not settled by a hand nobody entered."""

from referee_station.sim.match import simulate
from referee_station.table.events import DealStart
from referee_station.vision.pipeline import besides_the_camera, seen_by_camera


def test_a_camera_station_gets_the_deals_without_the_dealt_hands_and_not_the_cameras_events() -> None:
    events = simulate(1, deals=2).events
    deals = [e for e in events if isinstance(e, DealStart)]
    assert deals and all(d.hands for d in deals)  # the simulator knows them
    others = besides_the_camera(events)
    assert [e.hands for e in others if isinstance(e, DealStart)] == [None] * len(deals)
    assert [(d.t, d.first_leader) for d in others if isinstance(d, DealStart)] == [(d.t, d.first_leader) for d in deals]
    kept = [e for e in events if not seen_by_camera(e) and not isinstance(e, DealStart)]
    assert [e for e in others if not isinstance(e, DealStart)] == kept
    assert len(kept) < len(events) - len(deals)  # the camera's own events are left out
