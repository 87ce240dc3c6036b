"""The live camera benchmark feeds its station what a real table has: the simulator's deals carry every
dealt hand, a table's ``deal`` carries none, so a misread suit is not settled by a hand nobody entered."""

from benchmarks.camera import as_at_a_table
from referee_station.sim.match import simulate
from referee_station.table.events import DealStart


def test_the_benchmark_station_is_fed_deals_without_the_dealt_hands() -> None:
    events = simulate(1, deals=2).events
    deals = [e for e in events if isinstance(e, DealStart)]
    assert deals and all(d.hands for d in deals)  # the simulator knows them
    fed = [as_at_a_table(e) for e in events]
    assert [e.hands for e in fed if isinstance(e, DealStart)] == [None] * len(deals)
    assert [e for e in fed if not isinstance(e, DealStart)] == [e for e in events if not isinstance(e, DealStart)]
    assert [(d.t, d.first_leader) for d in fed if isinstance(d, DealStart)] == [(d.t, d.first_leader) for d in deals]
