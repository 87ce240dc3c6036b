"""Cards, ranks and levels (RULES.md section 1-2).

A card is one of the 54 faces of a deck: 52 suited cards and the two jokers. Two decks are played,
so every face exists exactly twice (R-CARD-1); a :class:`Card` names the face, not the physical copy.

Cards are interned: ``Card("Th") is Card.parse("10♥")``. That keeps parsing a dictionary lookup and
lets the hot paths of the rules core compare cards by identity.

Codes (EVENTS.md): rank then suit, ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` accepted), suits
``s h d c`` (``♠ ♥ ♦ ♣`` accepted); jokers ``SJ`` (小王) and ``BJ`` (大王).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import attrgetter, eq
from typing import ClassVar

from referee_station.rules import details as D
from referee_station.rules.errors import DuplicateCardError, InvalidCardError, InvalidLevelError

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
"""Natural ranks low to high; the value of ``RANKS[i]`` is ``i + 2`` (A = 14)."""
SUITS: tuple[str, ...] = ("s", "h", "d", "c")
HEARTS = "h"
SMALL_JOKER = "SJ"
BIG_JOKER = "BJ"

RANK_VALUE: dict[str, int] = {r: i + 2 for i, r in enumerate(RANKS)}
VALUE_RANK: dict[int, str] = {v: r for r, v in RANK_VALUE.items()}
VALUE_RANK[1] = "A"  # A played low in A-2-3-4-5 (R-WILD-2)
SMALL_JOKER_VALUE = 16
BIG_JOKER_VALUE = 17
LEVEL_VALUE = 15
"""Single-card order (R-LVL-3): 2..A are 2..14, the level rank 15, 小王 16, 大王 17."""

_RANK_ALIASES = {r: r for r in RANKS} | {"10": "T", "t": "T", "j": "J", "q": "Q", "k": "K", "a": "A"}
_SUIT_ALIASES = {
    "s": "s",
    "h": "h",
    "d": "d",
    "c": "c",
    "S": "s",
    "H": "h",
    "D": "d",
    "C": "c",
    "♠": "s",
    "♥": "h",
    "♦": "d",
    "♣": "c",
    "♤": "s",
    "♡": "h",
    "♢": "d",
    "♧": "c",
}
_JOKER_ALIASES = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER, "sj": SMALL_JOKER, "bj": BIG_JOKER}

SUIT_SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


class Card:
    """One card face; immutable and interned, so ``is`` and ``==`` agree (``==`` is the identity
    test ``object`` gives, fast; the hash is ``index``, so sets of cards iterate alike every run).

    Attributes: ``code`` ("Th", "SJ"), ``rank`` ("T", "SJ"), ``suit`` ("h", or ``None`` for a
    joker), ``value`` (natural rank 2..14, 16 for 小王, 17 for 大王) and ``index`` (0..53, a dense
    id for arrays: suits s h d c times ranks 2..A, then SJ, BJ).
    """

    __slots__ = ("code", "index", "is_joker", "rank", "suit", "value")
    _by_code: ClassVar[dict[str, Card]] = {}
    ALL: ClassVar[tuple[Card, ...]]

    code: str
    rank: str
    suit: str | None
    value: int
    index: int
    is_joker: bool

    def __new__(cls, code: str) -> Card:
        return cls.parse(code)

    @classmethod
    def _make(cls, code: str, rank: str, suit: str | None, value: int, index: int) -> Card:
        card = object.__new__(cls)
        for name, val in (
            ("code", code),
            ("rank", rank),
            ("suit", suit),
            ("value", value),
            ("index", index),
            ("is_joker", suit is None),
        ):
            object.__setattr__(card, name, val)
        return card

    @classmethod
    def parse(cls, token: str | Card) -> Card:
        """Read one card code; raise :class:`InvalidCardError` naming the token if it is none."""
        if isinstance(token, Card):
            return token
        if not isinstance(token, str):
            raise InvalidCardError(f"not a card code: {token!r} (R-CARD-1)")
        card = _BY_TEXT.get(token) or _BY_TEXT.get(token.strip())
        if card is None:
            raise InvalidCardError(
                f"unknown card code {token!r}: expected rank 2-9/T/J/Q/K/A (or 10) then suit "
                f"s/h/d/c (or ♠♥♦♣), or SJ / BJ for the jokers (R-CARD-1)"
            )
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        """Interned: a copy is the card itself (the doubtful-read worlds deep-copy hands of cards)."""
        return self

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return (self.value, self.index) < (other.value, other.index)

    @property
    def symbol(self) -> str:
        """The code with a suit symbol, for people: ``T♥``, ``小王``."""
        if self.suit is None:
            return "小王" if self.code == SMALL_JOKER else "大王"
        return self.rank + SUIT_SYMBOL[self.suit]

    def is_wild(self, level: str) -> bool:
        """True for the two ♥ level cards (逢人配, R-WILD-1)."""
        return self.suit == HEARTS and self.rank == level


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit in SUITS:
        for rank in RANKS:
            cards.append(Card._make(rank + suit, rank, suit, RANK_VALUE[rank], len(cards)))
    cards.append(Card._make(SMALL_JOKER, SMALL_JOKER, None, SMALL_JOKER_VALUE, 52))
    cards.append(Card._make(BIG_JOKER, BIG_JOKER, None, BIG_JOKER_VALUE, 53))
    for card in cards:
        Card._by_code[card.code] = card
    return tuple(cards)


Card.ALL = _build_deck()
DECK: tuple[Card, ...] = Card.ALL
"""The 54 faces; a game uses two copies of each (R-CARD-1)."""


def _spellings() -> dict[str | Card, Card]:
    """Every accepted spelling of every card (and each card itself), so reading is one lookup."""
    table: dict[str | Card, Card] = {card: card for card in DECK}
    for rank_text, rank in _RANK_ALIASES.items():
        for text in {rank_text, rank_text.lower()}:
            for suit_text, suit in _SUIT_ALIASES.items():
                table[text + suit_text] = Card._by_code[rank + suit]
    for text, joker in _JOKER_ALIASES.items():
        table[text] = Card._by_code[joker]
    return table


_BY_TEXT = _spellings()


def read_cards(cards: str | Iterable[str | Card]) -> list[Card]:
    """The cards of ``"Th 5s 5d"``, codes or :class:`Card` objects, in order, copies not checked:
    for callers that count ranks and call :func:`check_copies` only when a rank repeats."""
    tokens = cards.replace(",", " ").split() if isinstance(cards, str) else cards
    if not isinstance(tokens, (list, tuple)):
        tokens = list(tokens)
    try:
        return [_BY_TEXT[token] for token in tokens]
    except (KeyError, TypeError):  # an alias with spaces, or no card at all: let parse say which
        return [Card.parse(token) for token in tokens]


COPIES = 2
"""Two decks: every face exists twice in a deal (R-CARD-1)."""


def check_copies(cards: Sequence[Card], max_copies: int = COPIES) -> None:
    """Raise :class:`DuplicateCardError` naming the first face seen more than ``max_copies``
    times (two decks, R-CARD-1)."""
    ordered = sorted(map(_INDEX, cards))
    if not any(map(eq, ordered, ordered[max_copies:])):
        return
    seen = [0] * len(DECK)
    for card in cards:
        seen[card.index] += 1
        if seen[card.index] > max_copies:
            raise DuplicateCardError(D.COPIES(card=card.code, n=seen[card.index], most=max_copies))


_INDEX = attrgetter("index")


def parse_cards(cards: str | Iterable[str | Card], *, max_copies: int = COPIES) -> list[Card]:
    """Read a set of cards given as ``"Th 5s 5d"``, codes or :class:`Card` objects.

    Order is kept (a play's left-to-right order matters, R-PLAY-4). Raises
    :class:`InvalidCardError` naming the first bad token, and :class:`DuplicateCardError` when a
    face appears more than ``max_copies`` times (two decks, R-CARD-1).
    """
    parsed = read_cards(cards)
    if len(parsed) > max_copies:
        check_copies(parsed, max_copies)
    return parsed


def parse_level(level: str | int) -> str:
    """Read a level ("2".."A", "10"/"T", or an int 2..14) and return its rank code (R-LVL-1)."""
    if isinstance(level, int) and not isinstance(level, bool):
        rank = VALUE_RANK.get(level) if 2 <= level <= 14 else None
    elif isinstance(level, str):
        rank = _RANK_ALIASES.get(level.strip()) or _RANK_ALIASES.get(level.strip().upper())
    else:
        rank = None
    if rank is None:
        raise InvalidLevelError(f"bad level {level!r}: levels are the ranks 2..10, J, Q, K, A (R-LVL-1)")
    return rank


def single_order(card: Card, level: str) -> int:
    """The card's place in single-card order (R-LVL-3): level rank above A, jokers on top."""
    if card.rank == level:
        return LEVEL_VALUE
    return card.value
