"""Cards as the consoles show them to people: ``10♥`` (ten written as 10), 小王 / 大王 (SJ / BJ in
English). Display only: codes in events and logs stay EVENTS.md's (``Th``)."""

from __future__ import annotations

from collections.abc import Iterable

from referee_station.console.models.i18n import tr
from referee_station.rules.cards import Card


def face(code: str | Card, lang: str = "zh") -> str:
    """One card (a code or a :class:`Card`): ``10♥``, ``3♠``, or 小王 / 大王 (SJ / BJ in English)."""
    card = Card.parse(code)
    if card.is_joker:
        return tr(f"joker_{card.code}", lang)
    symbol = card.symbol
    return "10" + symbol[1:] if card.rank == "T" else symbol


def card_text(cards: Iterable[str | Card], lang: str = "zh") -> str:
    """Cards in the order given, separated by spaces; anything not a card code (a reader's ``?``) as it is."""
    return " ".join(_shown(code, lang) for code in cards)


def _shown(code: str | Card, lang: str) -> str:
    try:
        return face(code, lang)
    except ValueError:
        return str(code)


def level_text(level: str | None) -> str:
    """A level (a rank, EVENTS.md) as people say it: ``10`` for ``T``; nothing for ``None``."""
    if level is None:
        return ""
    return "10" if level == "T" else level
