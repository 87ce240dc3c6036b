"""Patterns (牌型, RULES.md section 3) and their interpretations with wild cards.

``classify(cards, level)`` lists every distinct interpretation ``(kind, key, size)`` of a set of cards
(R-PAT-11): the patterns reachable by letting each ♥ level card (逢人配, R-WILD-1) stand for any
non-joker card. It works on rank counts, not by trying substitutions, so it stays in the
microseconds; ``tests/rules/reference.py`` holds the brute-force definition it is checked against.

Invariants:
- A play of wild cards only is the level rank itself: a single or a pair (R-PAT-11).
- Five natural cards of one suit in sequence are a straight flush only; with a wild card they are
  both a straight flush and a straight (R-PAT-11).
- Four or more cards of one rank are a bomb only, never a full house (R-PAT-6, R-PAT-9).
- Runs never hold jokers and never wrap; A is high or low (R-WILD-2).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

from referee_station.rules.cards import (
    BIG_JOKER_VALUE,
    HEARTS,
    LEVEL_VALUE,
    RANK_VALUE,
    SMALL_JOKER_VALUE,
    SUITS,
    VALUE_RANK,
    Card,
    check_copies,
    parse_level,
    read_cards,
)


class Kind(StrEnum):
    """The ten patterns of R-PAT; the value is the name used in events and JSON."""

    SINGLE = "single"
    """单张 R-PAT-1: any one card."""
    PAIR = "pair"
    """对子 R-PAT-2: two of one rank, or two 小王 / two 大王."""
    TUBE = "tube"
    """三连对 R-PAT-3: three pairs of consecutive ranks."""
    TRIPLE = "triple"
    """三同张 R-PAT-4: three of one rank."""
    PLATE = "plate"
    """二连三 R-PAT-5: two triples of consecutive ranks."""
    FULL_HOUSE = "full_house"
    """三带对 R-PAT-6: a triple and a pair of another rank; keyed by the triple."""
    STRAIGHT = "straight"
    """顺子 R-PAT-7: five consecutive ranks, suits mixed."""
    STRAIGHT_FLUSH = "straight_flush"
    """同花顺 R-PAT-8: five consecutive ranks in one suit; a bomb between 5 and 6 cards."""
    BOMB = "bomb"
    """炸弹 R-PAT-9: four to ten cards of one rank."""
    JOKER_BOMB = "joker_bomb"
    """四大天王 R-PAT-10: both 小王 and both 大王; beats everything."""


RUN_KINDS = frozenset({Kind.STRAIGHT, Kind.STRAIGHT_FLUSH, Kind.TUBE, Kind.PLATE})
"""Kinds keyed by natural order with A high (R-CMP-1); the others use single-card order."""
BOMB_KINDS = frozenset({Kind.BOMB, Kind.STRAIGHT_FLUSH, Kind.JOKER_BOMB})

KIND_NAMES: dict[Kind, tuple[str, str]] = {
    Kind.SINGLE: ("单张", "single"),
    Kind.PAIR: ("对子", "pair"),
    Kind.TUBE: ("三连对", "tube"),
    Kind.TRIPLE: ("三同张", "triple"),
    Kind.PLATE: ("二连三", "plate"),
    Kind.FULL_HOUSE: ("三带对", "full house"),
    Kind.STRAIGHT: ("顺子", "straight"),
    Kind.STRAIGHT_FLUSH: ("同花顺", "straight flush"),
    Kind.BOMB: ("炸弹", "bomb"),
    Kind.JOKER_BOMB: ("四大天王", "joker bomb"),
}
KIND_RULE: dict[Kind, str] = {
    Kind.SINGLE: "R-PAT-1",
    Kind.PAIR: "R-PAT-2",
    Kind.TUBE: "R-PAT-3",
    Kind.TRIPLE: "R-PAT-4",
    Kind.PLATE: "R-PAT-5",
    Kind.FULL_HOUSE: "R-PAT-6",
    Kind.STRAIGHT: "R-PAT-7",
    Kind.STRAIGHT_FLUSH: "R-PAT-8",
    Kind.BOMB: "R-PAT-9",
    Kind.JOKER_BOMB: "R-PAT-10",
}


class Play(NamedTuple):
    """One interpretation of a set of cards: immutable, comparable with :func:`beats`.

    ``key`` is the rank code compared (R-CMP): the rank for single, pair, triple and bomb, the
    triple's rank for a full house, the top natural rank of a run (A-2-3-4-5 is keyed "5"),
    ``"SJ"``/``"BJ"`` for joker singles and pairs, ``None`` for the joker bomb. ``wanted`` pairs
    each wild card's position in ``cards`` with the card the pattern needs there (R-WILD-1);
    :attr:`substitutes` settles the suits only when asked, since most readings are never shown.
    """

    kind: Kind
    key: str | None
    size: int
    cards: tuple[Card, ...]
    wanted: tuple[tuple[int, Card], ...] = ()

    @property
    def substitutes(self) -> tuple[tuple[int, Card], ...]:
        """Each wild card's position and the card it stands for: the wanted card, or the same rank
        in the next suit when the play already holds both copies of it (R-CARD-1)."""
        if not self.wanted:
            return ()
        positions = {pos for pos, _ in self.wanted}
        used = [card for i, card in enumerate(self.cards) if i not in positions]
        return tuple((pos, stand_in(card.value, card.suit or HEARTS, used)) for pos, card in self.wanted)

    @property
    def is_bomb(self) -> bool:
        """Bombs, straight flushes and the joker bomb beat every non-bomb (R-CMP-2)."""
        return self.kind in BOMB_KINDS

    @property
    def codes(self) -> list[str]:
        """The cards as codes, in the order laid."""
        return [card.code for card in self.cards]

    def natural_cards(self) -> tuple[Card, ...]:
        """The cards with every wild card replaced by the card it stands for."""
        cards = list(self.cards)
        for position, stands_for in self.substitutes:
            cards[position] = stands_for
        return tuple(cards)

    def describe(self, lang: str = "en") -> str:
        """A short human name: ``"pair 5"`` / ``"对子 5"``."""
        zh, en = KIND_NAMES[self.kind]
        key = "" if self.key is None else f" {self.key}"
        return f"{zh if lang == 'zh' else en}{key}"

    def to_json(self) -> dict[str, object]:
        """The EVENTS.md ``as`` form plus the cards: ``{"kind", "key", "size", "cards", "wild"}``."""
        return {
            "kind": str(self.kind),
            "key": self.key,
            "size": self.size,
            "cards": self.codes,
            "wild": {str(pos): card.code for pos, card in self.substitutes},
        }


_RUN_ORDER: dict[str | None, int] = {None: 0, **RANK_VALUE}
_LEVEL_ORDER: dict[str, dict[str | None, int]] = {
    level: {None: 0, **RANK_VALUE, level: LEVEL_VALUE, "SJ": SMALL_JOKER_VALUE, "BJ": BIG_JOKER_VALUE}
    for level in RANK_VALUE
}


def key_order(kind: Kind, key: str | None, level: str) -> int:
    """The number compared for equal patterns (R-CMP-1, R-CMP-3): natural order for runs,
    single-card order (level rank above A, R-LVL-3) for everything else."""
    return (_RUN_ORDER if kind in RUN_KINDS else _LEVEL_ORDER[level])[key]


def as_level(level: str | int) -> str:
    """A level's rank code; a fast path for codes already canonical."""
    if isinstance(level, str) and level in RANK_VALUE:
        return level
    return parse_level(level)


_FACES: dict[str, dict[int, Card]] = {
    suit: {value: Card._by_code[VALUE_RANK[value] + suit] for value in VALUE_RANK} for suit in SUITS
}
"""Suited cards by suit and natural value; value 1 (A low, R-WILD-2) is the A."""


def classify(cards: str | Iterable[str | Card], level: str | int) -> list[Play]:
    """Every legal interpretation of ``cards`` at ``level`` (R-PAT-1..11), weakest first; ``[]``
    when the cards form no pattern. Raises on unreadable cards, a third copy, or a bad level."""
    return _classify(tuple(read_cards(cards)), as_level(level))


_WILD: dict[str, Card] = {rank: _FACES[HEARTS][value] for value, rank in VALUE_RANK.items() if value > 1}
"""The wild card of each level: its ♥ level card (R-WILD-1)."""


def _classify(cards: tuple[Card, ...], level: str) -> list[Play]:
    n = len(cards)
    if n == 0 or n > 10:
        if n > 10:
            check_copies(cards)
        return []
    wild = _WILD[level]
    counts: dict[int, int] = {}
    for card in cards:
        value = card.value
        counts[value] = counts.get(value, 0) + 1
    w = cards.count(wild)
    if w:
        wilds = [pos for pos, card in enumerate(cards) if card is wild]
        if w == n:  # wild cards only: the level rank itself (R-PAT-11)
            if n > 2:
                check_copies(cards)
                return []
            return [Play(Kind.PAIR if n == 2 else Kind.SINGLE, level, n, cards, tuple((pos, wild) for pos in wilds))]
        value = wild.value
        if counts[value] == w:
            del counts[value]
        else:
            counts[value] -= w
    else:
        wilds = []
    if n == 1:
        return [Play(Kind.SINGLE, cards[0].rank, 1, cards)]
    if w > 2 or (n > 2 and max(counts.values()) > 2):
        check_copies(cards)
    distinct = len(counts)
    if n == 2:
        if distinct != 1:
            return []
        card = cards[wilds[0] ^ 1] if w else cards[0]
        if w and card.is_joker:
            return []  # a wild card never stands for a joker (R-WILD-1)
        return [Play(Kind.PAIR, card.rank, 2, cards, _fill(wilds, [card.value] * w, HEARTS))]
    jokers = counts.get(SMALL_JOKER_VALUE, 0) + counts.get(BIG_JOKER_VALUE, 0)
    if jokers:
        if n == 4 and jokers == 4 and counts.get(SMALL_JOKER_VALUE) == 2:
            return [Play(Kind.JOKER_BOMB, None, 4, cards)]
        if n == 5 and distinct == 2 and jokers == 2:
            return _full_houses(cards, counts, wilds, level)
        return []
    if distinct == 1:
        (value,) = counts
        rank = VALUE_RANK[value]
        if n == 3:
            return [Play(Kind.TRIPLE, rank, 3, cards, _fill(wilds, [value] * w, HEARTS))]
        bomb = Play(Kind.BOMB, rank, n, cards, _fill(wilds, [value] * w, HEARTS))
        if n == 5 and w == 2:  # three of a kind and two wild cards: a bomb or a full house
            return [*_full_houses(cards, counts, wilds, level), bomb]
        return [bomb]
    if n == 5:
        if distinct == 2:
            return _full_houses(cards, counts, wilds, level)
        if distinct == 5 - w:
            return _straights(cards, counts, wilds, wild)
        return []
    if n == 6 and distinct <= 3:
        tubes = _runs(cards, counts, wilds, Kind.TUBE, 3, 2)
        if distinct == 3:
            return tubes
        return tubes + _runs(cards, counts, wilds, Kind.PLATE, 2, 3)  # tubes sort below plates
    return []


def _fill(wilds: list[int], values: list[int], suit: str) -> tuple[tuple[int, Card], ...]:
    """Pair the wild positions with the cards wanted there (values in laying order, in ``suit``)."""
    if not wilds:
        return ()
    return tuple(zip(wilds, map(_FACES[suit].__getitem__, values), strict=True))


def stand_in(value: int, suit: str, used: list[Card]) -> Card:
    """The card a wild card stands for: rank ``value`` in ``suit`` unless the play already holds
    both copies of that card (R-CARD-1), then the next suit. Appends the choice to ``used``."""
    for candidate in (suit, *SUITS):
        card = _FACES[candidate][value]
        if used.count(card) < 2:
            break
    used.append(card)
    return card


def _full_houses(cards: tuple[Card, ...], counts: dict[int, int], wilds: list[int], level: str) -> list[Play]:
    """Triple plus a pair of another rank (R-PAT-6); the pair may be two jokers of one kind.
    Weakest first (R-LVL-3 order of the triple)."""
    w = len(wilds)
    values = list(counts)
    if len(values) == 1:  # three naturals and two wild cards: the pair is any other rank
        (triple,) = values
        if counts[triple] != 3 or w != 2:
            return []
        other = 2 if triple != 2 else 3
        return [Play(Kind.FULL_HOUSE, VALUE_RANK[triple], 5, cards, _fill(wilds, [other, other], HEARTS))]
    plays = []
    for triple, pair in (values, values[::-1]):
        if triple >= SMALL_JOKER_VALUE or counts[triple] > 3 or counts[pair] > 2:
            continue
        if pair >= SMALL_JOKER_VALUE and counts[pair] != 2:
            continue
        fill = [triple] * (3 - counts[triple]) + [pair] * (2 - counts[pair])
        plays.append(Play(Kind.FULL_HOUSE, VALUE_RANK[triple], 5, cards, _fill(wilds, fill, HEARTS)))
    if len(plays) == 2:
        plays.sort(key=lambda play: key_order(Kind.FULL_HOUSE, play.key, level))
    return plays


def _windows(counts: dict[int, int], width: int) -> list[tuple[int, list[int]]]:
    """Runs of ``width`` consecutive ranks that hold every natural rank (R-WILD-2), lowest first.

    Returns ``(top, missing)`` per window: its top value (A-low runs top out below A) and the
    values in it with no card, low to high, A low as 1 (the caller knows how many cards each
    rank needs)."""
    found = []
    lo, hi = min(counts), max(counts)
    if max((v for v in counts if v != 14), default=1) <= width:  # the A-low window A..width
        found.append((width, [v for v in range(1, width + 1) if (14 if v == 1 else v) not in counts]))
    for top in range(max(width + 1, hi), min(lo + width - 1, 14) + 1):
        found.append((top, [v for v in range(top - width + 1, top + 1) if v not in counts]))
    return found


def _runs(
    cards: tuple[Card, ...], counts: dict[int, int], wilds: list[int], kind: Kind, width: int, per_rank: int
) -> list[Play]:
    """Tubes (3 pairs) and plates (2 triples): consecutive groups, wilds fill the gaps; lowest first."""
    if max(counts.values()) > per_rank:
        return []
    plays = []
    for top, _ in _windows(counts, width):
        fill: list[int] = []
        for value in range(top - width + 1, top + 1):
            fill += [value] * (per_rank - counts.get(14 if value == 1 else value, 0))
        plays.append(Play(kind, VALUE_RANK[top], 6, cards, _fill(wilds, fill, HEARTS)))
    return plays


def _straights(cards: tuple[Card, ...], counts: dict[int, int], wilds: list[int], wild: Card) -> list[Play]:
    """Straights, then straight flushes, each lowest first (R-PAT-7, R-PAT-8, R-PAT-11)."""
    suits = {card.suit for card in cards if card is not wild}
    flush_suit = suits.pop() if len(suits) == 1 else None
    plain_suit = HEARTS if flush_suit != HEARTS else "s"
    straights = []
    flushes = []
    for top, missing in _windows(counts, 5):
        key = VALUE_RANK[top]
        if flush_suit is not None:
            flushes.append(Play(Kind.STRAIGHT_FLUSH, key, 5, cards, _fill(wilds, missing, flush_suit)))
        if flush_suit is None or wilds:
            straights.append(Play(Kind.STRAIGHT, key, 5, cards, _fill(wilds, missing, plain_suit)))
    return straights + flushes


def strength(play: Play, level: str) -> tuple[int, int, int]:
    """A total order that agrees with :func:`beats` inside each comparable group, for sorting:
    (bomb tier R-CMP-2, kind, key). Non-bombs sit at tier 0 in a fixed kind order."""
    kind = play.kind
    return (bomb_tier(kind, play.size), _KIND_ORDER[kind], key_order(kind, play.key, level))


def bomb_tier(kind: Kind, size: int) -> int:
    """The bomb ladder of R-CMP-2 as numbers: 0 for non-bombs, 40 / 50 for 4- and 5-card bombs,
    55 for a straight flush, 60..100 for 6- to 10-card bombs, 200 for the joker bomb."""
    return size * 10 if kind is Kind.BOMB else _TIER[kind]


_TIER = {kind: 0 for kind in Kind} | {Kind.STRAIGHT_FLUSH: 55, Kind.JOKER_BOMB: 200}
"""Bomb tiers that do not depend on the size (every kind but the bomb)."""
_KIND_ORDER = {kind: i for i, kind in enumerate(Kind)}


def _sort(plays: list[Play], level: str) -> list[Play]:
    return sorted(plays, key=lambda play: strength(play, level))
