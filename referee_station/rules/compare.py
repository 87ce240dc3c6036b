"""Comparing plays (RULES.md section 4) and choosing among a play's interpretations (R-WILD-3).

``beats`` knows the table: it compares a play with the last play of the trick at the deal's level.
``choose`` applies R-WILD-3 when a play has several interpretations; ``Declaration`` reads what a
player declared, ``lead_readings`` and ``follow_reading`` keep every reading of an undeclared lead
open until a follow beats one (docs/ambiguous-plays.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from referee_station.rules import details as D
from referee_station.rules.cards import BIG_JOKER, RANK_VALUE, SMALL_JOKER, VALUE_RANK, Card, parse_level
from referee_station.rules.errors import DeclarationError, DoesNotBeatError, IllegalPatternError, InvalidLevelError
from referee_station.rules.patterns import (
    KIND_NAMES,
    RUN_KINDS,
    Kind,
    Play,
    _sort,
    as_level,
    bomb_tier,
    classify,
    key_order,
)


def beats(play: Play, prev: Play | None, level: str | int) -> bool:
    """Whether ``play`` beats ``prev`` at ``level`` (R-CMP-1..4); anything beats no play.

    Non-bombs beat only the same kind and size with a higher key (R-CMP-1); bombs climb the
    ladder of R-CMP-2 and compare keys inside one rung (R-CMP-3); the joker bomb is unbeatable
    (R-CMP-4). Equal keys never beat.
    """
    if prev is None:
        return True
    kind, prev_kind = play.kind, prev.kind
    tier, prev_tier = bomb_tier(kind, play.size), bomb_tier(prev_kind, prev.size)
    if tier or prev_tier:
        if tier != prev_tier:
            return tier > prev_tier
        if kind is Kind.JOKER_BOMB:
            return False
    elif kind is not prev_kind or play.size != prev.size:
        return False
    level = as_level(level)
    return key_order(kind, play.key, level) > key_order(prev_kind, prev.key, level)


@dataclass(frozen=True)
class Declaration:
    """A player's declared reading of a play (EVENTS.md ``as``, R-WILD-3, R-PLAY-4), normalised:
    the kind, and the key as a rank code (``10`` -> ``T``), ``None`` when only the kind was said."""

    kind: Kind
    key: str | None

    @classmethod
    def parse(cls, declared: Mapping[str, object]) -> Declaration:
        """Read ``{"kind", "key"}``; kinds by their event name, English or Chinese name
        (``"straight flush"``, ``"同花顺"``); keys as ranks (``10``, ``t``) or ``SJ`` / ``BJ``."""
        text = str(declared.get("kind", "")).strip().lower().replace("-", "_").replace(" ", "_")
        kind = _KIND_SPELLINGS.get(text)
        if kind is None:
            raise DeclarationError(D.BAD_DECLARED_KIND(kind=declared.get("kind")))
        key = declared.get("key")
        if key is None or key == "":
            return cls(kind, None)
        joker = _JOKER_SPELLINGS.get(str(key).strip().upper())
        if joker is not None:
            return cls(kind, joker)
        try:
            return cls(kind, parse_level(key if isinstance(key, int) else str(key)))
        except InvalidLevelError:
            raise DeclarationError(D.BAD_DECLARED_KEY(key=key)) from None

    def readings(self, plays: list[Play]) -> list[Play]:
        """The readings among ``plays`` this declaration names, weakest first. A run is named by
        its key (top rank) or, when no run of the kind tops there, by its lowest rank; no set of
        cards has a run of one kind for both, so the two never disagree."""
        same = [play for play in plays if play.kind == self.kind]
        if self.key is None:
            return same
        by_key = [play for play in same if play.key == self.key]
        if by_key or self.kind not in RUN_KINDS:
            return by_key
        return [play for play in same if lowest_rank(play) == self.key]

    def describe(self) -> str:
        """``"plate 7"``, ``"tube"`` when no key was said."""
        name = KIND_NAMES[self.kind][1]
        return name if self.key is None else f"{name} {self.key}"


_KIND_SPELLINGS: dict[str, Kind] = {
    spelling.lower().replace(" ", "_"): kind for kind in Kind for spelling in (kind.value, *KIND_NAMES[kind])
}
_JOKER_SPELLINGS = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER, "小王": SMALL_JOKER, "大王": BIG_JOKER}
_RUN_WIDTH = {Kind.STRAIGHT: 5, Kind.STRAIGHT_FLUSH: 5, Kind.TUBE: 3, Kind.PLATE: 2}


def lowest_rank(play: Play) -> str:
    """The lowest rank of a run (R-WILD-2: the A of A-2-3-4-5 is low)."""
    return VALUE_RANK[RANK_VALUE[play.key or ""] - _RUN_WIDTH[play.kind] + 1]


def lead_readings(plays: list[Play], level: str) -> list[Play]:
    """The readings an undeclared lead leaves open: the highest of each kind (R-WILD-3), weakest
    first. "Highest" has no meaning across kinds (a tube or a plate, a straight or a straight
    flush), so when the kinds differ a follow may beat any of them (R-PAT-11)."""
    highest: dict[Kind, Play] = {}
    for play in plays:  # weakest first, so the last of each kind stays
        highest[play.kind] = play
    return _sort(list(highest.values()), level)


def follow_reading(plays: list[Play], trick: Sequence[Play], level: str) -> tuple[Play, Play] | None:
    """How a follow reads against the readings ``trick`` leaves open (R-WILD-3): the strongest
    reading of the trick it beats and its own lowest reading that beats it; ``None`` if it beats none."""
    for prev in reversed(trick):
        for play in plays:
            if beats(play, prev, level):
                return play, prev
    return None


def choose(
    cards: str | Iterable[str | Card],
    level: str | int,
    prev: Play | None = None,
    declared: Mapping[str, object] | None = None,
) -> Play:
    """The interpretation the station takes for a play (R-WILD-3).

    With a declaration (``{"kind", "key"}``, EVENTS.md ``as``) that interpretation; otherwise, for a
    play that follows ``prev``, the lowest interpretation that beats it, and for a lead the highest.
    Raises :class:`IllegalPatternError` when the cards form no pattern (or not the declared one),
    :class:`DeclarationError` for a declaration naming no pattern, and :class:`DoesNotBeatError`
    when no interpretation beats ``prev``.
    """
    level = as_level(level)
    plays = classify(cards, level)
    if not plays:
        raise IllegalPatternError(f"{' '.join(_codes(cards))} is not a legal pattern (R-PAT)")
    if declared:
        declaration = Declaration.parse(declared)
        plays = declaration.readings(plays)
        if not plays:
            codes = " ".join(_codes(cards))
            raise IllegalPatternError(f"{codes} cannot be read as {declaration.describe()} (R-WILD-3)")
    if prev is None:
        return plays[-1]
    found = follow_reading(plays, (prev,), level)
    if found is None:
        raise DoesNotBeatError(f"{plays[-1].describe()} does not beat {prev.describe()} at level {level} (R-CMP)")
    return found[0]


def _codes(cards: str | Iterable[str | Card]) -> list[str]:
    if isinstance(cards, str):
        return cards.split()
    return [str(card) for card in cards]
