"""Doubtful reads (#30, #24 "know the game"): a play read below ``min_confidence``, or whose best reading
is not legal while a close one is, is held pending and the events after it are judged under every
reading; a flag goes out only where it holds under all of them (R-PLAY-4, R-PAT, R-CMP, R-CARD-1)."""

from typing import Any

from referee_station.core import PendingRead
from tests.table.helpers import Table


def doubtful(read: str, *alternatives: list[list[Any]], confidence: float = 0.3) -> dict[str, Any]:
    """The extra fields of a camera play: its confidence and, per card, its readings best first."""
    return {"confidence": confidence, "alternatives": [list(card) for card in alternatives]}


def table() -> Table:
    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    return t


def test_r_cmp_a_misread_lead_gives_no_penalty_while_pending_and_the_read_is_offered() -> None:
    t = table()
    out = t.play("E", "Kh", **doubtful("Kh", [["Kh", 0.5], ["3h", 0.4]]))
    assert t.flags(out) == []  # the read is legal: nothing to look at while the readings agree
    pending = t.state().pending
    assert pending == (PendingRead(flag=None, t=2.0, seat="E", cards=("Kh",), readings=(("Kh",), ("3h",))),)
    # N's 5h does not beat Kh but beats 3h: the does_not_beat holds under one reading only (R-CMP)
    out = t.play("N", "5h")
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")] and "Kh | 3h" in out[0]["detail"]
    assert out[0]["t"] == 2.0 and t.state().pending[0].flag == out[0]["id"]
    out = t.play("W", "9d")
    out += t.pass_("S")
    assert t.flags(out) == []
    assert t.flags() == [("E", "uncertain_read", "anomaly")]
    assert t.state().open_flags == () and t.state().deal.to_act == "E"


def test_r_play_4_a_doubtful_read_whose_only_legal_close_reading_is_itself_is_never_asked_about() -> None:
    t = table()
    out = t.play("E", "6d 6d", **doubtful("6d 6d", [["6d", 0.9]], [["6d", 0.5], ["7d", 0.45]], confidence=0.5))
    assert t.flags(out) == []  # 6d 7d is close but no pattern: held as read, for sure frames to settle
    assert t.state().pending[0].readings == (("6d", "6d"),)
    close = [["Kh", 0.5], ["Qh", 0.45]]
    t.play("N", "Kh Kh", **doubtful("Kh Kh", close, close))  # Kh Kh or Qh Qh: both beat 6d 6d
    out = t.play("W", "Ks Ks")  # beats Qh Qh, not Kh Kh: the readings disagree
    assert t.flags(out) == [("N", "uncertain_read", "anomaly")] and "Kh Kh | Qh Qh" in out[0]["detail"]
    assert [(p.seat, p.flag is None) for p in t.state().pending] == [("E", True), ("N", False)]


def test_r_play_4_a_read_whose_close_readings_are_too_many_to_judge_is_asked_about_at_once() -> None:
    t = table()
    t.play("E", "5h", **doubtful("5h", [["5h", 0.4], ["6h", 0.35], ["7h", 0.3]]))
    t.play("N", "8h", **doubtful("8h", [["8h", 0.4], ["9h", 0.35], ["Th", 0.3]]))  # 9 worlds
    out = t.play("W", "Qh", **doubtful("Qh", [["Qh", 0.5], ["Jh", 0.45]]))  # judged as Qh alone
    assert t.flags(out) == [("W", "uncertain_read", "anomaly")]
    assert t.state().pending[-1].readings == (("Qh",),)


def test_r_play_1_a_flag_that_holds_under_every_reading_still_goes_out() -> None:
    t = table()
    t.play("E", "Kh", **doubtful("Kh", [["Kh", 0.5], ["3h", 0.4]]))
    out = t.play("W", "9d")  # W is not next under either reading: out of turn whatever E laid
    assert t.flags(out) == [("W", "out_of_turn_play", "infraction")]


def test_r_pat_a_doubtful_card_whose_alternative_makes_the_play_legal_is_an_uncertain_read_naming_it() -> None:
    t = table()
    extra = doubtful(
        "9d 9d Jd Qd Kd",
        [["9d", 0.95]],
        [["9d", 0.5], ["Td", 0.45]],
        [["Jd", 0.9]],
        [["Qd", 0.9]],
        [["Kd", 0.9]],
        confidence=0.95,
    )
    out = t.play("E", "9d 9d Jd Qd Kd", **extra)
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")]
    assert "9d Td Jd Qd Kd" in out[0]["detail"]
    assert t.state().pending[0].readings == (("9d", "Td", "Jd", "Qd", "Kd"),)
    assert t.state().deal.last.kind == "straight_flush" and t.state().deal.to_act == "N"


def test_r_pat_a_truly_illegal_play_read_with_confidence_is_still_a_wrong_play() -> None:
    t = table()
    out = t.play("E", "3s 9h", **doubtful("3s 9h", [["3s", 0.9], ["4s", 0.05]], [["9h", 0.97]], confidence=0.95))
    assert t.flags(out) == [("E", "illegal_pattern", "infraction")]
    out = t.play("E", "3s 9h")  # no alternatives, no confidence: judged as read
    assert t.flags(out) == [("E", "illegal_pattern", "infraction")]
    assert t.state().pending == ()


def test_r_pat_no_close_reading_legal_read_below_confidence_is_laid_unread_not_a_penalty() -> None:
    t = table()
    out = t.play("E", "3s 9h", **doubtful("3s 9h", [["3s", 0.9]], [["9h", 0.97]], confidence=0.4))
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")] and "(not read)" in out[0]["detail"]
    assert t.state().pending[0].readings == ((), ("3s", "9h"))  # some legal play, or the wrong play read
    deal = t.state().deal
    assert deal.to_act == "N" and deal.counts["E"] == 25
    # the next follow is judged as a lead would be (the unread play beats nothing we know), then play goes on
    out = t.play("N", "4d 4c") + t.play("W", "9s 9s") + t.pass_("S", "E", "N")
    assert t.flags(out) == [] and t.state().deal.to_act == "W"


def test_r_card_1_the_ledger_refuses_a_third_copy_when_an_alternative_avoids_it() -> None:
    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    t.play("E", "Ah Ah")
    t.pass_("N", "W", "S")
    out = t.play("E", "Ah", **doubtful("Ah", [["Ah", 0.55], ["Ad", 0.4]], confidence=0.95))
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")]
    assert t.state().pending[0].readings == (("Ad",),)
    assert t.state().deal.last.cards == ("Ad",)


def test_r_card_1_the_ledger_never_hides_a_third_copy_read_for_sure() -> None:
    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    t.play("E", "Ah Ah")
    t.pass_("N", "W", "S")
    out = t.play("E", "Ah", **doubtful("Ah", [["Ah", 0.99], ["Ad", 0.01]], confidence=0.99))
    assert t.flags(out) == [("E", "duplicate_card", "anomaly")]


def test_r_cmp_confidence_alone_is_every_card_doubtful_the_read_or_a_legal_play_nobody_read() -> None:
    t = table()
    out = t.play("E", "Kc", confidence=0.2)
    assert t.flags(out) == []
    assert t.state().pending[0].readings == (
        ("Kc",),
        (),
    )
    assert t.state().deal.to_act == "N"
    out = t.play("N", "Ah")  # beats Kc and whatever E laid: both readings stand
    assert t.flags(out) == [] and len(t.referee.judge.worlds) == 2
    t.pass_("W", "S", "E")  # the trick is over the same way under both readings: one world again
    assert len(t.referee.judge.worlds) == 1 and t.state().deal.to_act == "N"


def test_r_cmp_a_reading_the_table_did_not_play_by_is_dropped_and_settling_it_brings_its_flag_back() -> None:
    t = table()
    t.play("E", "Kc", confidence=0.2)
    out = t.play("N", "5h")  # does not beat Kc, but the card may not be Kc: no penalty from the read
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")] and len(t.referee.judge.worlds) == 1
    assert t.state().deal.to_act == "W" and t.state().pending[0].readings == (
        ("Kc",),
        (),
    )
    out = t.pass_("W")
    assert t.flags(out) == []
    out = t.feed({"type": "settle", "at": 2.0, "seat": "E", "cards": ["Kc"], "reason": "looked"})
    assert ("N", "does_not_beat", "infraction") in t.flags(out)


def test_r_play_4_a_play_read_below_confidence_that_no_reading_makes_legal_does_not_stop_the_table() -> None:
    t = table()
    t.play("E", "3s 9h", confidence=0.1)  # no alternative known: some legal play nobody read
    out = t.play("N", "Kd Kh") + t.pass_("W", "S", "E")
    assert t.flags(out) == [] and t.state().deal.to_act == "N"


def test_strange_events_while_a_read_is_pending_name_it_as_their_cause() -> None:
    t = table()
    t.play("E", "3s 9h", confidence=0.1)  # not a pattern: laid unread, the referee told at once
    out = t.feed({"type": "return", "seat": "N", "card": "5s"})  # strange whatever E laid
    read = t.state().pending[0].flag
    assert [(o["offence"], o.get("cause")) for o in out if o["type"] == "flag"] == [("strange_event", read)]


def test_worlds_that_agree_on_the_match_become_one_at_the_next_deal() -> None:
    from tests.table.helpers import east_west_sweep

    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    east_west_sweep(t)
    t.deal(None)
    t.feed({"type": "tribute", "seat": "N", "card": "BJ"})
    assert len(t.referee.judge.worlds) == 1  # nothing pending: one world
    t2 = table()
    t2.play("E", "Kh", **doubtful("Kh", [["Kh", 0.5], ["Qh", 0.4]]))
    assert len(t2.referee.judge.worlds) == 2
    t2.pass_("N", "W", "S")
    t2.deal("E")  # a second deal line while one is in progress: the worlds disagree on nothing else
    assert len(t2.referee.judge.worlds) == 1 and t2.state().pending == ()


def test_r_play_1_a_doubtful_read_out_of_turn_is_judged_as_read_the_turn_does_not_depend_on_the_cards() -> None:
    t = table()
    out = t.play("S", "Kh", **doubtful("Kh", [["Kh", 0.5], ["3h", 0.4]]))
    assert t.flags(out) == [("S", "out_of_turn_play", "infraction")]
    assert t.state().pending == ()


def test_a_pending_read_is_no_longer_pending_at_the_next_deal() -> None:
    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    t.play("E", "3c 5d", confidence=0.5)
    t.pass_("N", "W", "S")
    assert len(t.state().pending) == 1
    out = t.feed({"type": "return", "seat": "W", "card": "4s"})
    assert [o.get("cause") for o in out] == [t.state().pending[0].flag]
    t.feed({"type": "deal", "first_leader": "E"})  # strange: the deal is not over; the read is past
    assert t.state().pending == ()
    out = t.feed({"type": "return", "seat": "W", "card": "4s"})
    assert [o.get("cause") for o in out] == [None]


def test_close_readings_are_within_the_margin_the_read_first_the_same_cards_once() -> None:
    from referee_station.table.doubt import MAX_READINGS, candidates
    from referee_station.table.events import PlayCards

    play = PlayCards(
        1.0, "E", ("Jh", "Jd"), alternatives=((("Jh", 0.6), ("Jd", 0.35), ("Qh", 0.05)), (("Jd", 0.9), ("Jh", 0.1)))
    )
    codes = [" ".join(map(str, c.cards)) for c in candidates(play, 0.5)]
    assert codes == ["Jh Jd", "Jd Jd"]  # Jd Jh is Jh Jd again
    assert [" ".join(map(str, c.cards)) for c in candidates(play, 0.1)] == ["Jh Jd"]
    wide = PlayCards(1.0, "E", ("3s",) * 5, alternatives=((("3s", 0.4), ("3c", 0.35), ("5s", 0.25)),) * 5)
    readings = candidates(wide, 0.5)
    assert readings[0].cards == wide.cards and len(readings) == MAX_READINGS
    assert [c.p for c in readings[1:]] == sorted((c.p for c in readings[1:]), reverse=True)


def _follow_read_4c() -> Table:
    """E leads Kh (sure); N's follow is read 4c below confidence, no close reading legal (R-CMP): it is
    some legal play nobody read, or the 4c read, which does not beat Kh; the penalty waits."""
    t = table()
    t.play("E", "Kh")
    out = t.play("N", "4c", **doubtful("4c", [["4c", 0.78], ["4s", 0.1]], confidence=0.78))
    assert t.flags(out) == [("N", "uncertain_read", "anomaly")]
    assert t.state().pending[0].readings == ((), ("4c",))
    return t


def test_r_cmp_a_misread_follow_the_table_took_back_is_the_wrong_play_it_was_read_as() -> None:
    """The benchmark's missed does_not_beat (seed 3, t=341): N then passes, which is void unless the 4c
    was laid and taken back; the reading left is the read, and its held-back penalty goes out."""
    t = _follow_read_4c()
    out = t.pass_("N")
    assert t.flags(out) == [("N", "does_not_beat", "infraction")]
    assert t.state().deal.to_act == "W" and t.state().deal.counts["N"] == 27  # the 4c came back


def test_r_cmp_a_misread_follow_the_table_played_on_from_gives_no_penalty_and_no_wrong_count() -> None:
    """The benchmark's missed and wrong reports (seed 3, t=350, 430): the other way, W follows, so the
    play was laid; N's count is one less under the reading left, never the read's count."""
    t = _follow_read_4c()
    out = t.play("W", "Ah") + t.pass_("S", "E", "N")
    assert t.flags(out) == [] and t.state().deal.to_act == "W"
    assert t.state().deal.counts["N"] == 26


def test_r_play_1_cards_lying_there_read_again_out_of_turn_are_not_a_new_play() -> None:
    """The benchmark's out-of-turn plays (seed 3, t=88.6 and 203.2): the seat's own cards, still lying
    there, read again (a hand passing over them) a little differently and below confidence."""
    t = table()
    t.play("E", "3h 3h")
    out = t.play("E", "3h 3d", **doubtful("3h 3d", [["3h", 0.6]], [["3d", 0.5], ["3h", 0.4]], confidence=0.5))
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")]
    assert t.state().pending[0].readings == (("3h", "3h"), ("3h", "3d"))
    out = t.play("N", "5s 5s") + t.pass_("W", "S", "E")
    assert t.flags(out) == [] and t.state().deal.to_act == "N"


def test_r_play_1_a_sure_play_out_of_turn_is_flagged_and_the_same_cards_seen_again_are_an_anomaly() -> None:
    t = table()
    t.play("E", "3h 3h")
    out = t.play("E", "3h 3d")  # read for sure: a new play out of turn (R-PLAY-1), never hidden
    assert t.flags(out) == [("E", "out_of_turn_play", "infraction")]
    out = t.play("E", "3d 3d", confidence=0.5)  # doubtful, but not the cards lying there: out of turn
    assert t.flags(out) == [("E", "out_of_turn_play", "infraction")]
    out = t.play("E", "3h 3h")  # exactly the cards lying there: seen again, for the referee's look
    assert t.flags(out) == [("E", "strange_event", "anomaly")] and "seen again" in out[0]["detail"]


def _owing_tribute() -> Table:
    """Deal 2 after East-West went out 1st and 2nd: N and S owe tribute (R-TRIB-1), nothing seen yet."""
    from tests.table.helpers import east_west_sweep

    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    east_west_sweep(t)
    t.deal(None)
    assert t.state().deal.phase == "tribute"
    return t


def test_r_trib_a_doubtful_lead_while_tribute_is_owed_may_follow_an_exchange_the_camera_missed() -> None:
    """The benchmark's last three (seed 3, t=590-598): the camera saw none of the tribute and return
    cards, then E, N and W played, each read below confidence."""
    t = _owing_tribute()
    out = t.play("E", "4s 4d 4c", confidence=0.7)
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")] and "missed the tribute" in out[0]["detail"]
    out = t.play("N", "Jh Jd Jd", confidence=0.4) + t.play("W", "Kd Kc Kc", confidence=0.35)
    assert [f for f in t.flags(out) if f[2] != "anomaly"] == []
    assert t.state().deal.phase == "play" and t.state().deal.to_act == "S"


def test_r_trib_a_tribute_seen_after_it_means_the_play_was_out_of_turn_and_a_sure_one_always_is() -> None:
    t = _owing_tribute()
    t.play("W", "4s 4d 4c", confidence=0.7)
    out = t.feed({"type": "tribute", "seat": "N", "card": "BJ"})  # the exchange was not over after all
    assert t.flags(out) == [("W", "out_of_turn_play", "infraction")]
    assert t.state().deal.phase == "tribute"
    t = _owing_tribute()
    out = t.play("W", "4s 4d 4c")  # read for sure: out of turn before the exchange (R-PLAY-1)
    assert t.flags(out) == [("W", "out_of_turn_play", "infraction")]


def test_r_trib_a_return_seen_after_a_doubtful_lead_means_the_lead_was_out_of_turn() -> None:
    """The tributes were seen, the returns not yet: a doubtful lead may follow returns the camera missed.
    A return seen after it is void where the exchange was taken as unseen, so that world goes, and the
    lead was out of turn (R-TRIB-2, R-PLAY-1)."""
    t = _owing_tribute()
    t.feed({"type": "tribute", "seat": "N", "card": "BJ"})
    t.feed({"type": "tribute", "seat": "S", "card": "SJ"})
    assert t.state().deal.phase == "return"
    out = t.play("W", "4s 4d 4c", confidence=0.7)
    assert t.flags(out) == [("W", "uncertain_read", "anomaly")]
    out = t.feed({"type": "return", "seat": "E", "card": "3h"})
    assert t.flags(out) == [("W", "out_of_turn_play", "infraction")]
    assert t.state().deal.phase == "return"


def test_r_pat_a_misread_whose_close_reading_is_legal_may_still_be_the_wrong_play_read() -> None:
    """The benchmark's missed illegal pattern (seed 5, t=118): W laid 2s As, read 3s As below confidence
    with As As a close, legal reading. W then plays again: void unless the first play was taken back,
    so the reading left is the read, and its held-back penalty goes out (R-PAT)."""
    t = table()
    out = t.play("E", "3s As", **doubtful("3s As", [["3s", 0.4], ["As", 0.3]], [["As", 0.9]]))
    assert t.flags(out) == [("E", "uncertain_read", "anomaly")]
    assert t.state().pending[0].readings == (("As", "As"), ("3s", "As"))
    out = t.play("E", "Ks Kh")
    assert t.flags(out) == [("E", "illegal_pattern", "infraction")]
    assert t.state().deal.last.cards == ("Ks", "Kh") and t.state().deal.to_act == "N"


def _tribute_with_hands(fixed: dict[str, list[str]]) -> Table:
    """Deal 2 after East-West's sweep (level 5, N and S pay), the hands known (checked as paid)."""
    from tests.table.helpers import east_west_sweep
    from tests.table.test_tribute import low_hands

    t = Table(correcting=True, auto_confirm=False)
    t.deal("E")
    east_west_sweep(t)
    t.feed({"type": "deal", "hands": low_hands(fixed)})
    assert t.state().deal.phase == "tribute" and t.state().deal.level == "5"
    return t


def test_r_trib_4_a_doubtful_tribute_whose_close_reading_is_right_is_asked_about_not_penalised() -> None:
    """The live benchmark's return read 2♣ where 2♠ was given (sans deck, 4K, seed 4): a tribute or return
    read below confidence is judged under its close readings like a play. N holds 5♥ and 5♦ (level 5)
    and no joker: 5♦ is a right tribute, 5♥ never is (R-TRIB-1/4). Read 5♥ at 0.48, 5♦ at 0.47: a look,
    not a penalty; settled as the heart, the wrong tribute comes back."""
    t = _tribute_with_hands({"N": ["5h", "5d"]})
    read = {"type": "tribute", "seat": "N", "card": "5h"}
    out = t.feed(read | doubtful("5h", [["5h", 0.48], ["5d", 0.47]], confidence=0.48))
    assert t.flags(out) == [("N", "uncertain_read", "anomaly")] and "5h | 5d" in out[0]["detail"]
    assert t.state().pending[0].readings == (("5h",), ("5d",))
    out = t.feed({"type": "settle", "at": out[0]["t"], "seat": "N", "cards": ["5h"], "reason": "the video"})
    assert ("N", "wrong_tribute", "warning") in t.flags(out)


def test_r_trib_4_a_wrong_tribute_read_for_sure_or_with_no_right_reading_is_still_flagged() -> None:
    t = _tribute_with_hands({"N": ["5h", "5d"]})
    out = t.feed({"type": "tribute", "seat": "N", "card": "5h"})
    assert t.flags(out) == [("N", "wrong_tribute", "warning")]
    t = _tribute_with_hands({"N": ["5h", "5d"]})
    out = t.feed({"type": "tribute", "seat": "N", "card": "5h"} | doubtful("5h", [["5h", 0.48]], confidence=0.48))
    assert t.flags(out) == [("N", "wrong_tribute", "warning")]  # no other reading: judged as read


def test_r_trib_4_a_doubtful_tribute_with_the_hands_unknown_is_asked_about_at_the_deals_end() -> None:
    """At a real table the hands are unknown: a tribute is judged at the deal's end from the cards its
    payer was seen to play (R-TRIB-4). N's tribute read K♠ at 0.48 (A♠ 0.47), then N plays an A: a foul
    under the read, none under A♠. The worlds stay apart through the exchange and the deal, and the
    referee is asked instead of a foul proposed from the read."""
    from tests.table.helpers import east_west_go_out, east_west_sweep

    t = Table(correcting=True, auto_confirm=True)
    t.deal("E")
    east_west_sweep(t)
    t.feed({"type": "deal"})
    read = {"type": "tribute", "seat": "N", "card": "Ks"}
    assert t.flags(t.feed(read | doubtful("Ks", [["Ks", 0.48], ["As", 0.47]], confidence=0.48))) == []
    at = t.state().pending[0].t
    t.feed({"type": "tribute", "seat": "S", "card": "3s"})
    t.feed({"type": "return", "seat": "E", "card": "2c"})
    t.feed({"type": "return", "seat": "W", "card": "2d"})
    t.play("N", "As")
    t.pass_("W", "S")
    east_west_go_out(t)
    assert t.flags() == [("N", "uncertain_read", "anomaly")]  # not the foul of the read
    out = t.feed({"type": "settle", "at": at, "seat": "N", "cards": ["Ks"], "reason": "the video shows K♠"})
    assert ("N", "wrong_tribute", "foul") in t.flags(out)


def test_r_trib_4_a_doubtful_return_is_judged_apart_only_where_the_rules_judge_its_readings_apart() -> None:
    """The live benchmark's return: 2♠ read 2♣ at 0.48 (2♠ 0.47, 4♠ 0.002). Every reading is of rank 10
    or lower, a right return whichever it is (R-TRIB-1): nothing to ask, and no worlds kept apart to the
    deal's end. Read K♣ with 2♣ close, the K is a wrong return where the 2 is not: a look."""

    def owing_return() -> tuple[Table, str]:
        low = ["2c", "2s", "4s", "Kc"]
        t = _tribute_with_hands({"N": ["5h", "5d"], "S": ["5s", "5c"], "E": low, "W": low})
        t.feed({"type": "tribute", "seat": "N", "card": "5d"})
        t.feed({"type": "tribute", "seat": "S", "card": "5c"})
        deal = t.state().deal
        assert deal.phase == "return"
        seat = next(s for s, clock in deal.clocks.items() if clock.action == "return")
        return t, seat

    t, seat = owing_return()
    read = {"type": "return", "seat": seat, "card": "2c"}
    out = t.feed(read | doubtful("2c", [["2c", 0.485], ["2s", 0.475], ["4s", 0.002]], confidence=0.48))
    assert t.flags(out) == [] and t.state().pending == ()
    t, seat = owing_return()
    read = {"type": "return", "seat": seat, "card": "Kc"}
    out = t.feed(read | doubtful("Kc", [["Kc", 0.48], ["2c", 0.47]], confidence=0.48))
    assert t.flags(out) == [(seat, "uncertain_read", "anomaly")] and "Kc | 2c" in out[0]["detail"]
