"""The deal director: deals start at the first play after a result, tribute and return cards become
tributes and returns, and without seat units the passes are inferred (R-DEAL-1, R-TRIB, R-PLAY-1/2)."""

from __future__ import annotations

from dataclasses import replace

from referee_station.core import ClockView, LastPlay, Phase, TableState
from referee_station.station.director import DealDirector
from referee_station.station.orchestrator import Source, Station
from referee_station.station.setup import MatchSetup
from referee_station.table.events import DealEnd, DealStart, MatchStart, Pass, PlayCards, Return, Tribute
from referee_station.table.referee import TableReferee

SETUP = MatchSetup({"EW": "Nanjing", "NS": "Suzhou"}, "E")


def dealt() -> TableState:
    """A real referee's state just after the first deal began (E to lead)."""
    referee = TableReferee()
    referee.feed(MatchStart(0.0, {"EW": "Nanjing", "NS": "Suzhou"}))
    referee.feed(DealStart(1.0, "E"))
    return referee.snapshot()


def feed_camera(station: Station, *plays: PlayCards):
    """Camera plays through the orchestrator as a finished recording would give them."""
    for play in plays:
        station._later(play, Source.CAMERA, "camera")
    return station.finish(plays[-1].t)


def test_the_first_play_starts_the_first_deal_with_the_setup_leader():
    director = DealDirector("W")
    state = TableReferee().snapshot()
    assert director.prelude(PlayCards(5.0, "W", ("3s",)), state) == DealStart(5.0, "W")


def test_after_a_deal_end_the_next_play_starts_a_deal_whose_leader_the_tribute_decides():
    director = DealDirector("W")
    base = dealt()
    state = replace(base, deals_played=1, deal=replace(base.deal, phase=Phase.OVER))
    assert director.prelude(PlayCards(700.0, "S", ("5d",)), state) == DealStart(700.0, None)
    director.observe([DealEnd(699.0, 1, ("E", None, None, None), "EW", 3, {"EW": "5", "NS": "2"}, "5", True)])
    assert director.prelude(PlayCards(700.0, "S", ("5d",)), state) == DealStart(700.0, "S")  # after a foul
    assert director.prelude(PlayCards(700.0, "S", ("5d",)), replace(state, match_over=True)) is None


def test_a_one_card_play_owed_as_tribute_or_return_becomes_one():
    director = DealDirector("W")
    base = dealt()
    deal = replace(base.deal, phase=Phase.TRIBUTE, clocks={"S": ClockView("tribute", 61.0)}, tributes={}, returns={})
    state = replace(base, deal=deal)
    assert director.convert(PlayCards(1.0, "S", ("5d",)), state) == Tribute(1.0, "S", "5d")
    assert director.convert(PlayCards(1.0, "S", ("5d", "5h")), state) == PlayCards(1.0, "S", ("5d", "5h"))
    assert director.convert(PlayCards(1.0, "E", ("5d",)), state).TYPE == "play"  # E owes nothing
    deal = replace(base.deal, phase=Phase.RETURN, clocks={"E": ClockView("return", 62.0)}, tributes={"S": "5d"})
    assert director.convert(PlayCards(2.0, "E", ("2s",)), replace(base, deal=deal)) == Return(2.0, "E", "2s")
    doubtful = PlayCards(2.0, "E", ("2c",), confidence=0.48, alternatives=((("2c", 0.48), ("2s", 0.47)),))
    returned = director.convert(doubtful, replace(base, deal=deal))  # the read's doubt goes with it
    assert returned == Return(2.0, "E", "2c", 0.48, ((("2c", 0.48), ("2s", 0.47)),))


def test_without_seat_units_a_later_seat_playing_means_the_seats_between_passed():
    station = Station(TableReferee(), setup=SETUP, infer_passes=True)
    step = feed_camera(station, PlayCards(10.0, "E", ("3s",)), PlayCards(20.0, "W", ("5s",)))
    fed = [(f.event.TYPE, getattr(f.event, "seat", None), f.source) for f in step.fed]
    assert fed == [
        ("match", None, Source.STATION),
        ("deal", None, Source.STATION),
        ("play", "E", Source.CAMERA),
        ("pass", "N", Source.STATION),  # E -> N -> W (R-SEAT-2): N passed
        ("play", "W", Source.CAMERA),
    ]
    assert step.flags == []


def test_with_seat_units_a_play_out_of_turn_is_flagged_not_explained_away():
    station = Station(TableReferee(), setup=SETUP, infer_passes=False)
    step = feed_camera(station, PlayCards(10.0, "E", ("3s",)), PlayCards(20.0, "W", ("5s",)))
    assert [(f.offence, f.seat) for f in step.flags] == [("out_of_turn_play", "W")]


def test_the_partners_lead_after_jiefeng_is_the_whole_table_passing():
    """E goes out with its last card; nobody beats it, and E's partner W leads (接风, R-PLAY-2): W's lead
    does not beat E's play, so the station infers N, W and S passed, rather than a wrong follow by W."""
    director = DealDirector("E", infer_passes=True)
    base = dealt()
    last = LastPlay("E", ("As",), "single", "A", ({"kind": "single", "key": "A"},))
    deal = replace(base.deal, to_act="W", last=last, counts={"E": 0, "S": 5, "W": 5, "N": 5})
    state = replace(base, deal=deal)
    assert director.prelude(PlayCards(30.0, "W", ("4h",)), state) == Pass(30.0, "W")
    assert director.prelude(PlayCards(30.0, "W", ("BJ",)), state) is None  # a follow that beats
