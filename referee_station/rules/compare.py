"""Comparing plays (RULES.md section 4) and choosing among a play's interpretations (R-WILD-3).

``beats`` knows the table: it compares a play with the last play of the trick at the deal's level.
``choose`` applies R-WILD-3 when a play has several interpretations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from referee_station.rules.cards import Card
from referee_station.rules.errors import DoesNotBeatError, IllegalPatternError
from referee_station.rules.patterns import _LEVEL_ORDER, _TIER, Kind, Play, as_level, classify, key_order


def beats(play: Play, prev: Play | None, level: str | int) -> bool:
    """Whether ``play`` beats ``prev`` at ``level`` (R-CMP-1..4); anything beats no play.

    Non-bombs beat only the same kind and size with a higher key (R-CMP-1); bombs climb the
    ladder of R-CMP-2 and compare keys inside one rung (R-CMP-3); the joker bomb is unbeatable
    (R-CMP-4). Equal keys never beat.
    """
    if prev is None:
        return True
    kind, prev_kind = play.kind, prev.kind
    tier = play.size * 10 if kind is Kind.BOMB else _TIER[kind]
    prev_tier = prev.size * 10 if prev_kind is Kind.BOMB else _TIER[prev_kind]
    if tier or prev_tier:
        if tier != prev_tier:
            return tier > prev_tier
        if kind is Kind.JOKER_BOMB:
            return False
    elif kind is not prev_kind or play.size != prev.size:
        return False
    level = level if level in _LEVEL_ORDER else as_level(level)
    return key_order(kind, play.key, level) > key_order(prev_kind, prev.key, level)


def choose(
    cards: str | Iterable[str | Card],
    level: str | int,
    prev: Play | None = None,
    declared: Mapping[str, object] | None = None,
) -> Play:
    """The interpretation the station takes for a play (R-WILD-3).

    With a declaration (``{"kind", "key"}``, EVENTS.md ``as``) that interpretation; otherwise, for a
    play that follows ``prev``, the lowest interpretation that beats it, and for a lead the highest.
    Raises :class:`IllegalPatternError` when the cards form no pattern (or not the declared one)
    and :class:`DoesNotBeatError` when no interpretation beats ``prev``.
    """
    level = as_level(level)
    plays = classify(cards, level)
    if not plays:
        raise IllegalPatternError(f"{' '.join(_codes(cards))} is not a legal pattern (R-PAT)")
    if declared:
        kind, key = str(declared.get("kind", "")), declared.get("key")
        plays = [p for p in plays if p.kind == kind and (key is None or p.key == str(key))]
        if not plays:
            raise IllegalPatternError(f"{' '.join(_codes(cards))} cannot be read as {kind} {key} (R-WILD-3)")
    if prev is None:
        return plays[-1]
    for play in plays:
        if beats(play, prev, level):
            return play
    raise DoesNotBeatError(f"{plays[-1].describe()} does not beat {prev.describe()} at level {level} (R-CMP)")


def _codes(cards: str | Iterable[str | Card]) -> list[str]:
    if isinstance(cards, str):
        return cards.split()
    return [str(card) for card in cards]
