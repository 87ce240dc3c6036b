"""Every flag detail the table layer writes, as a named English template (issue #29).

The log keeps a flag's ``detail`` in stable English (docs/EVENTS.md); the console writes it in its own
language by finding the template a text was made from (``console/models/messages.py``), so each text
is made here and only here; the three the rules layer raises (it sits below this one) are made in
``rules/details.py`` and listed here with the rest. A field holding another template's text (``err``,
``why``…) is nested: the console translates it in turn. Field names say what a value is (``seat``,
``play``, ``cards``…), which is how the console knows to write a seat or a pattern's name in its language.
"""

from __future__ import annotations

from referee_station.core.details import Detail
from referee_station.rules.details import BAD_DECLARED_KEY as BAD_DECLARED_KEY
from referee_station.rules.details import BAD_DECLARED_KIND as BAD_DECLARED_KIND
from referee_station.rules.details import COPIES as COPIES

FLAG = Detail("flag", "{offence}: {detail} ({rule})")
"""The whole ``detail`` of a flag: the offence's English name, the detail below, the rule it cites."""

# -- the referee's input ----------------------------------------------------------------------------
NOT_INPUT = Detail("not_input", "'{type}' is not an input event")
TIME_BACKWARDS = Detail("time_backwards", "time went backwards: {t:.3f} after {now:.3f}")
NOT_APPLIED = Detail("not_applied", "{type} could not be applied: {err}")
FAULT = Detail("fault", "{type} could not be applied (a fault): {err}")

# -- time (R-TIME) ----------------------------------------------------------------------------------
OVERTIME = Detail("overtime", "{action} {late:.1f} s past the limit, grace {grace:g} s")
PAUSED_ALREADY = Detail("paused_already", "the clocks are paused already")
NOT_PAUSED = Detail("not_paused", "resume, but the clocks are not paused")
NO_CLOCK = Detail("no_clock", "time added to {seat}, whose clock is not running")

# -- the match and its deals ------------------------------------------------------------------------
SECOND_MATCH = Detail("second_match", "a second match line in one log")
DEAL_BEFORE_MATCH = Detail("deal_before_match", "deal before the match line; playing on default rules")
DEAL_AFTER_MATCH = Detail("deal_after_match", "deal after the end of the match")
DEAL_OVERLAP = Detail("deal_overlap", "deal {next} began before deal {number} ended")
NO_LEADER_AFTER_FOUL = Detail("no_leader_after_foul", "after a foul the referee names the first leader; none given")
NO_FIRST_LEADER = Detail("no_first_leader", "the first deal needs a first_leader")
LEADER_FROM_VIOLATOR = Detail("leader_from_violator", "after a foul the first leader comes from the non-violating side")
DEALT_SHORT = Detail("dealt_short", "dealt {got}, a hand is {size} (R-CARD-1)")
NO_HAND = Detail("no_hand", "no hand")
N_CARDS = Detail("n_cards", "{n} cards")
DEALT_COPIES = Detail("dealt_copies", "dealt three or more copies of {cards}")
NO_DEAL = Detail("no_deal", "{type} with no deal in progress")

# -- tribute and return (R-TRIB) --------------------------------------------------------------------
OWES_NO_TRIBUTE = Detail("owes_no_tribute", "{seat} owes no tribute now")
OWES_NO_RETURN = Detail("owes_no_return", "{seat} owes no return now")
TRIBUTE_NOT_DEALT = Detail("tribute_not_dealt", "tribute {card} is not in the dealt hand")
RETURN_NOT_HELD = Detail("return_not_held", "return {card} is not in the hand")
EXCHANGE_AGAIN = Detail("exchange_again", "{error}; exchange again")
HEART_LEVEL_TRIBUTE = Detail("heart_level_tribute", "{card} is a ♥ level card, which is never paid as tribute")
NOT_HIGHEST = Detail("not_highest", "{card} paid while holding the higher {best}")
RETURN_NOT_LOW = Detail("return_not_low", "{card} returned while holding {low} (10 or lower)")
RETURN_NOT_LOWEST = Detail("return_not_lowest", "{card} returned while holding the lower {lower}")
RESISTED_BIG_JOKER = Detail("resisted_big_joker", "抗贡 claimed but a 大王 was played by another seat")

# -- plays and passes (R-PLAY, R-PAT, R-CMP, R-WILD) ------------------------------------------------
PLAYED_OUT_OF_TURN = Detail("played_out_of_turn", "{seat} played out of turn, {why}; taken back")
PASSED_OUT_OF_TURN = Detail("passed_out_of_turn", "{seat} passed out of turn, {why}; void")
MUST_LEAD = Detail("must_lead", "{seat} must lead and cannot pass; void")
TO_ACT = Detail("to_act", "{to_act} is to act")
PHASE_NOT_FINISHED = Detail("phase_not_finished", "the {phase} is not finished")
NOT_A_PATTERN = Detail("not_a_pattern", "{cards} is not a legal pattern (R-PAT)")
DOES_NOT_BEAT = Detail("does_not_beat", "{play} does not beat {prev} at level {level} (R-CMP)")
BEATS_NONE = Detail(
    "beats_none", "{play} beats none of the lead's readings, {readings}, at level {level} (R-CMP, R-WILD-3)"
)
TAKEN_BACK = Detail("taken_back", "{err}; taken back, {seat} to act")
LOW_CONFIDENCE = Detail("low_confidence", "read with confidence {confidence:.2f}: {err}")
DECLARED = Detail("declared", "declared {declared}")
DECLARATION_MISMATCH = Detail(
    "declaration_mismatch", "{problem}, but the cards read only as {readings}; read as undeclared"
)

# -- the cards a seat holds (R-CARD-1) --------------------------------------------------------------
OVERFLOW = Detail("overflow", "{n} cards played with {left} left")
NOT_IN_HAND = Detail("not_in_hand", "{cards} not in {seat}'s hand")
THIRD_COPY = Detail("third_copy", "a third copy of {cards} was played")

# -- reports (R-REPORT) -----------------------------------------------------------------------------
OUT_UNREPORTED_UPSTREAM = Detail("out_unreported_upstream", "went out 上游 without reporting")
OUT_UNREPORTED = Detail("out_unreported", "went out without reporting; play taken back")
NO_REPORT = Detail("no_report", "no report of {count} cards by the second action")
REPEATED_REPORT = Detail("repeated_report", "reported {count} again")
REPORT_NONE_DUE = Detail("report_none_due", "report of {count} with {left} cards left, none due")
REPORTED_LATE = Detail("reported_late", "reported after one further action{extra}")
AND_WRONG = Detail("and_wrong", " and wrong ({count}, holds {left})")
WRONG_REPORT = Detail("wrong_report", "reported {count}, holds {left}")

# -- rulings (R-PEN) --------------------------------------------------------------------------------
NO_SUCH_FLAG = Detail("no_such_flag", "ruling on flag {flag}, which does not exist")
RULED_ALREADY = Detail("ruled_already", "flag {flag} was already ruled ({decision})")
LATE_RULING = Detail("late_ruling", "flag {flag} ruled after its deal ended; recorded, not counted")

# -- doubtful reads and corrections (docs/corrections.md) -------------------------------------------
SEEN_AGAIN = Detail("seen_again", "{seat}'s {cards} seen again where they lie; not taken as a new play")
EXCHANGE_OWED = Detail(
    "exchange_owed",
    "{seat} played {cards} while the {phase} is owed: the camera may have missed the tribute and return; "
    "judged both ways until they are entered or seen (R-TRIB)",
)
READ_IN_DOUBT = Detail(
    "read_in_doubt", "read {cards}{confidence}; judged under every close reading until settled: {reads}"
)
AT_CONFIDENCE = Detail("at_confidence", " at confidence {confidence:.2f}")
NOT_READ = Detail("not_read", "(not read)")
NO_RULING_TO_REVERSE = Detail("no_ruling_to_reverse", "reverse: flag {flag} has no ruling to reverse (R-PEN)")
NOTHING_TO_SETTLE = Detail("nothing_to_settle", "settle: no play, tribute or return by {seat} at t={at:.3f}")
ONE_CARD = Detail("one_card", "settle: a {type} is one card, got {cards}")


def templates() -> tuple[Detail, ...]:
    """Every template of this module, the rules layer's three included (the console's catalogue is checked
    against them all)."""
    return tuple(value for value in globals().values() if isinstance(value, Detail))
