import pytest

from referee_station.table.events import Clear, PlayCards
from referee_station.vision.tracker import TrackerConfig
from tests.vision.scripted import Reading, Script, run

PAIR = ("5s", "5h")
STRAIGHT = ("3s", "4h", "5d", "6c", "7s")


def plays(events):
    """The plays sent, their cards as codes."""
    return [(e.seat, tuple(map(str, e.cards))) for e in events if isinstance(e, PlayCards)]


def alternatives(play):
    """A play's alternatives, their cards as codes."""
    return tuple(tuple((str(card), p) for card, p in readings) for readings in play.alternatives)


def test_idle_table_costs_no_read():
    events, tracker = run(Script(), until=5)
    assert events == [] and tracker.reads == 0


def test_a_hand_in_and_out_is_not_a_play():
    events, tracker = run(Script(arms={"S": [(1.0, 2.5, 0.8)]}), until=5)
    assert events == [] and tracker.reads == 0


def test_play_is_timed_when_the_cards_land():
    # the arm brings the cards in (covering the area), lets go at 2.0 and withdraws over 0.3 s
    script = Script(plays={"E": [(2.0, PAIR)]}, arms={"E": [(1.2, 2.0, 1.0), (2.0, 2.3, 0.3)]})
    events, tracker = run(script, until=5)
    assert plays(events) == [("E", PAIR)]
    assert events[0].t == pytest.approx(2.0, abs=0.11)
    assert events[0].confidence == 0.99  # the reader's own confidence travels with the play
    assert tracker.reads <= 3


def test_arm_resting_on_the_cards_is_waited_out():
    script = Script(plays={"N": [(2.0, PAIR)]}, arms={"N": [(1.2, 2.0, 1.0), (2.0, 4.0, 0.7)]})
    events, _ = run(script, until=6)
    assert plays(events) == [("N", PAIR)]
    assert 2.0 <= events[0].t <= 4.1


def test_uncertain_read_carries_its_confidence():
    events, _ = run(Script(plays={"W": [(1.0, STRAIGHT)]}, confidence=0.7), until=3)
    assert plays(events) == [("W", STRAIGHT)] and events[0].confidence == 0.7


def test_reads_that_never_agree_go_out_with_half_confidence():
    events, _ = run(Script(plays={"S": [(1.0, STRAIGHT)]}, flicker=frozenset("S")), until=5)
    assert len(plays(events)) == 1 and events[0].confidence == pytest.approx(0.495)


def test_trick_cleared_to_the_discard_areas():
    script = Script(
        plays={"E": [(1.0, PAIR), (5.0, ())], "S": [(2.5, ("9s", "9d")), (5.2, ())]},
        discards={"E": [5.0], "S": [5.2]},
        arms={"E": [(4.7, 5.3, 1.0)], "S": [(4.9, 5.5, 1.0)]},
    )
    events, _ = run(script, until=8)
    assert [type(e) for e in events] == [PlayCards, PlayCards, Clear]
    assert events[2].t == pytest.approx(5.2, abs=0.35)


def test_two_seats_swept_clear_the_trick_though_the_discard_areas_look_the_same():
    """A plain back dropped on a pile of the same back changes no pixel of the discard patch; two seats'
    cards going at once are still a sweep (one player only takes back their own)."""
    script = Script(
        plays={"E": [(1.0, PAIR), (5.0, ())], "S": [(2.5, ("9s", "9d")), (5.2, ())]},
        arms={"E": [(4.7, 5.3, 1.0)], "S": [(4.9, 5.5, 1.0)]},
    )
    events, _ = run(script, until=8)
    assert [type(e) for e in events] == [PlayCards, PlayCards, Clear]
    assert events[2].t == pytest.approx(5.2, abs=0.35)


def test_cards_taken_back_into_the_hand_are_no_clear():
    script = Script(plays={"E": [(1.0, PAIR), (3.0, ())]}, arms={"E": [(2.8, 3.3, 1.0)]})
    events, _ = run(script, until=6)
    assert plays(events) == [("E", PAIR)] and not any(isinstance(e, Clear) for e in events)


def test_new_lead_over_own_cards_means_the_trick_ended():
    # everybody passed E's pair: E sweeps it and leads again in one motion, never showing an empty area
    script = Script(plays={"E": [(1.0, PAIR), (4.0, STRAIGHT)]}, discards={"E": [3.5]}, arms={"E": [(3.2, 4.2, 1.0)]})
    events, _ = run(script, until=6)
    assert [type(e) for e in events] == [PlayCards, Clear, PlayCards]
    assert plays(events) == [("E", PAIR), ("E", STRAIGHT)]
    assert events[0].t < events[1].t < events[2].t


def test_same_seat_beaten_and_playing_again_in_one_trick():
    script = Script(plays={"E": [(1.0, ("4s",)), (5.0, ("Ks",))], "S": [(3.0, ("9h",))]}, arms={"E": [(4.6, 5.2, 1.0)]})
    events, _ = run(script, until=7)
    assert plays(events) == [("E", ("4s",)), ("S", ("9h",)), ("E", ("Ks",))]
    assert not any(isinstance(e, Clear) for e in events)


def test_events_leave_in_time_order():
    # S lands first but its hand fidgets near the cards; W lands later and is read first
    script = Script(
        plays={"S": [(2.0, PAIR)], "W": [(2.3, ("Ah",))]},
        arms={"S": [(1.5, 2.0, 1.0), (2.0, 3.4, 0.3)], "W": [(2.0, 2.3, 1.0)]},
    )
    events, _ = run(script, until=6)
    assert plays(events) == [("S", PAIR), ("W", ("Ah",))]
    assert events[0].t <= events[1].t


def test_cards_that_stay_unreadable_are_a_notice_not_a_play():
    events, tracker = run(Script(plays={"N": [(1.0, PAIR)]}, face_down=frozenset("N")), until=5)
    assert events == []
    assert [text for _, text in tracker.notices] == ["N: cards in the play area cannot be read"]
    assert tracker.reads == 6  # then the area is accepted as it is: no more reads


class Looks(Script):
    """A script whose seat ``seat`` is read, look after look, as ``looks`` says: per look, per card, the
    reader's alternatives (code, probability) best first; the last look repeats."""

    def __init__(self, seat: str, looks: list[list[tuple[tuple[str, float], ...]]], **kwargs) -> None:
        super().__init__(**kwargs)
        self.seat, self.looks, self.seat_reads = seat, looks, 0

    def reading(self, t: float):
        frame = super().reading(t)
        base = frame.seats[self.seat]
        if base.status != "cards":
            return frame
        look = self.looks[min(self.seat_reads, len(self.looks) - 1)]
        self.seat_reads += 1
        cards = [alts[0][0] for alts in look]
        frame.seats[self.seat] = Reading(cards, [alts[0][1] for alts in look], "cards", base.anchors, look)
        return frame


GLARED = (("6h", 0.55), ("5h", 0.4), ("4h", 0.02))
CLEAR = (("5h", 0.97), ("6h", 0.02), ("3h", 0.01))
SPADE = (("5s", 0.99), ("5c", 0.005), ("3s", 0.002))


def test_a_look_spoiled_by_glare_is_settled_by_the_clear_looks_after_it():
    """The first read takes the 5♥ for a 6♥; later looks see it clearly: the play goes out as the
    evidence says, 5♥, with the 6♥ kept as its alternative (#24 look more than once)."""
    script = Looks("E", [[SPADE, GLARED], [SPADE, CLEAR]], plays={"E": [(1.0, PAIR)]})
    events, tracker = run(script, until=5)
    assert plays(events) == [("E", PAIR)]
    (play,) = events
    assert alternatives(play)[0][0] == ("5s", 0.99)
    (five, p5), (six, p6) = alternatives(play)[1][:2]
    assert (five, six) == ("5h", "6h")
    assert TrackerConfig().sure <= p5 < CLEAR[0][1]  # sure, though the glared look still counts a little
    assert p6 > CLEAR[1][1]
    assert play.confidence == pytest.approx(p5, abs=1e-3)
    assert tracker.reads < TrackerConfig().max_reads  # settled: the reading stopped before its budget


def test_sure_cards_stop_the_reading_and_doubtful_ones_get_every_look():
    """Sure at once: two agreeing reads make the play and end the reading. A card that stays doubtful is looked at
    ``max_reads`` times and goes out with its alternatives, for the referee to weigh (R-PLAY-4)."""
    _, sure = run(Looks("W", [[SPADE, CLEAR]], plays={"W": [(1.0, PAIR)]}), until=5)
    torn = (("5h", 0.6), ("6h", 0.38), ("4h", 0.01))
    events, doubtful = run(Looks("W", [[SPADE, torn]], plays={"W": [(1.0, PAIR)]}), until=5)
    assert sure.reads <= 3  # two agreeing reads `stable` apart, `reread` after each other
    assert doubtful.reads == TrackerConfig().max_reads
    assert plays(events) == [("W", PAIR)]
    assert events[0].confidence == pytest.approx(0.6)
    assert alternatives(events[0])[1] == torn


def test_evidence_outlasts_a_hand_passing_over_the_cards():
    """A look, then a hand over the cards (motion, then "occluded"), then clear looks: the cards did not
    move, so the glared look before the hand still counts in the evidence."""
    script = Looks("N", [[SPADE, GLARED], [SPADE, CLEAR]], plays={"N": [(1.0, PAIR)]}, arms={"N": [(1.5, 2.5, 0.8)]})
    events, _ = run(script, until=6)
    assert plays(events) == [("N", PAIR)]
    (five, p5), (six, p6) = alternatives(events[0])[1][:2]
    assert (five, six) == ("5h", "6h")
    assert p5 < CLEAR[0][1] and p6 > CLEAR[1][1]  # the look before the hand is in the evidence
    assert events[0].t == pytest.approx(1.0, abs=0.11)  # the cards landed before the hand came


def test_a_card_added_to_the_row_starts_the_evidence_afresh():
    """A card laid beside the first changes the row: the play is the three cards, and the 6♥ read of
    the first card while it lay alone is not mixed into the new row's evidence."""
    single = Looks("S", [[GLARED]], plays={"S": [(1.0, ("5h",))]})
    script = Looks(
        "S",
        [[GLARED], [CLEAR, SPADE, SPADE]],
        plays={"S": [(1.0, ("5h",)), (1.5, ("5h", "5s", "5s"))]},
    )
    events, _ = run(script, until=6)
    assert plays(events) == [("S", ("5h", "5s", "5s"))]
    assert alternatives(events[0])[0][0] == CLEAR[0]
    assert plays(run(single, until=6)[0]) == [("S", ("6h",))]  # alone, the glared look is all there is


class Shaded(Looks):
    """A ``Looks`` table where a shadow comes and goes beside the seat's cards every other second from
    3 s: the cards lie still, the picture changes a little (fewer pixels than a change of the area)."""

    def patches(self, t: float):
        out = super().patches(t)
        if t >= 3.0 and int(t) % 2 == 1:
            play = out[(self.seat, "play")].copy()
            play[27:32, 0:6] = 100  # 30 of 1920 pixels: more than motion (1 %), less than a change (2 %)
            out[(self.seat, "play")] = play
        return out


TORN = (("6h", 0.5), ("5h", 0.45), ("4h", 0.05))


def test_a_doubtful_play_lying_still_is_looked_at_again_and_sure_frames_re_read_it():
    """#30 "later, sure frames of the same cards settle it": the 5♥ stays torn for every look that makes
    the play, so it goes out doubtful; the cards lie still, the light on them changes, later looks see it
    clearly, and the tracker says the play at its landing time is, for sure, 5♠ 5♥."""
    looks = [[SPADE, TORN]] * TrackerConfig().max_reads + [[SPADE, CLEAR]]
    events, tracker = run(Shaded("E", looks, plays={"E": [(1.0, PAIR)]}), until=8)
    (play,) = [e for e in events if isinstance(e, PlayCards)]
    assert tuple(map(str, play.cards)) == ("5s", "6h") and play.confidence < TrackerConfig().sure
    (again,) = tracker.rereads
    assert (again.at, again.seat, again.cards) == (play.t, "E", PAIR)
    assert again.confidence >= TrackerConfig().sure and again.t > play.t


def test_no_look_again_at_a_sure_play_nor_at_the_same_picture_and_doubtful_looks_settle_nothing():
    _, sure = run(Shaded("W", [[SPADE, CLEAR]], plays={"W": [(1.0, PAIR)]}), until=8)
    assert sure.rereads == [] and sure.reads <= 3  # no look after the sure play: motion gating holds
    _, still = run(Looks("W", [[SPADE, TORN]], plays={"W": [(1.0, PAIR)]}), until=8)
    assert still.reads == TrackerConfig().max_reads  # the same pixels again: nothing new to read
    _, doubtful = run(Shaded("W", [[SPADE, TORN]], plays={"W": [(1.0, PAIR)]}), until=12)
    assert doubtful.rereads == [] and TrackerConfig().max_reads < doubtful.reads <= 2 * TrackerConfig().max_reads


class Relit(Looks):
    """A ``Looks`` table where, from 4 s, the light on the seat's area changes for good (a lamp moved):
    more than a change of the area, so the cards lying there are read afresh."""

    def patches(self, t: float):
        out = super().patches(t)
        if t >= 4.0:
            play = out[(self.seat, "play")].copy()
            play[26:32, 0:20] = 120  # 120 of 1920 pixels: more than a change of the area (2 %)
            out[(self.seat, "play")] = play
        return out


FLIPPED = (("5h", 0.5), ("6h", 0.45), ("4h", 0.05))
OTHER = (("9c", 0.97), ("9s", 0.02), ("8c", 0.01))


def test_a_tie_that_falls_the_other_way_on_cards_lying_there_is_no_new_play():
    """The live run of the sans deck (2026-12-05): a row sent doubtful, its 6♥/5♥ torn, lay still; a
    change of the light had it read afresh, the tie fell to 5♥, and the same cards went out again as a
    play out of turn. Read again where they lie, torn between the same readings, they are no new play;
    a card no reading named before still is."""
    first = [[SPADE, TORN]] * TrackerConfig().max_reads
    events, _ = run(Relit("E", [*first, [SPADE, FLIPPED]], plays={"E": [(1.0, PAIR)]}), until=8)
    assert plays(events) == [("E", ("5s", "6h"))]
    events, _ = run(Relit("E", [*first, [SPADE, OTHER]], plays={"E": [(1.0, PAIR)]}), until=8)
    assert plays(events) == [("E", ("5s", "6h")), ("E", ("5s", "9c"))]
