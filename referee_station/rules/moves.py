"""Legal moves from a hand (RULES.md sections 3-4, R-PLAY-1).

``legal_moves(hand, prev, level)`` lists one representative play per distinct ``(kind, key, size)``
that the hand can make and that beats ``prev`` (every lead when ``prev`` is ``None``). A
representative uses natural cards where the hand has them and wild cards (R-WILD-1) only to fill
what is missing; among full houses of one triple it carries the cheapest pair.

It is built on rank counts, like :mod:`patterns`, and checked against it: every move it lists is
classified by ``classify`` as its own kind, key and size.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee_station.rules.cards import (
    BIG_JOKER,
    BIG_JOKER_VALUE,
    HEARTS,
    RANK_VALUE,
    SMALL_JOKER,
    SUITS,
    VALUE_RANK,
    Card,
    check_copies,
    read_cards,
)
from referee_station.rules.compare import beats
from referee_station.rules.patterns import _FACES, _LEVEL_ORDER, _WILD, BOMB_KINDS, Kind, Play, _sort, as_level

_NATURAL_VALUES = range(2, 15)
_JOKER_VALUES = (16, 17)
_KEY_OF_VALUE = {**VALUE_RANK, 16: SMALL_JOKER, 17: BIG_JOKER}
ALL_KINDS = frozenset(Kind)

Group = tuple[list[Card], int, Card | None]
"""Cards laid for one rank of a play: the natural cards, how many wild cards join them, and the
card those wild cards stand for (laid to the right of the naturals, R-PLAY-4)."""


def legal_moves(hand: str | Iterable[str | Card], prev: Play | None, level: str | int) -> list[Play]:
    """Plays from ``hand`` that beat ``prev`` at ``level``, one per (kind, key, size), weakest first."""
    cards = tuple(read_cards(hand))
    level = as_level(level)
    check_copies(cards)
    finder = _MoveFinder(cards, level)
    if prev is None:
        kinds: frozenset[Kind] = ALL_KINDS
    elif prev.is_bomb:
        kinds = BOMB_KINDS  # only a bomb beats a bomb (R-CMP-2)
    else:
        kinds = BOMB_KINDS | {prev.kind}
    moves = finder.find(kinds)
    if prev is not None:
        moves = [move for move in moves if beats(move, prev, level)]
    return _sort(moves, level)


class _MoveFinder:
    """Rank and suit counts of one hand, and the generators of each kind of play.

    ``counts[v]`` is the number of natural cards of value ``v`` (index 1 repeats the A for A-low
    runs, R-WILD-2), so a window of ranks is a slice."""

    def __init__(self, cards: tuple[Card, ...], level: str) -> None:
        self.level = level
        wild = _WILD[level]
        self.wilds = [card for card in cards if card is wild]
        self.naturals = [card for card in cards if card is not wild]
        self.by_value: dict[int, list[Card]] = {}
        for card in self.naturals:
            self.by_value.setdefault(card.value, []).append(card)
        self.counts = [0] * (BIG_JOKER_VALUE + 1)
        for value, naturals in self.by_value.items():
            self.counts[value] = len(naturals)
        self.counts[1] = self.counts[14]
        self.level_value = RANK_VALUE[level]

    def of_value(self, value: int, n: int) -> list[Card]:
        """Up to ``n`` natural cards of ``value`` (1: the A, low)."""
        return self.by_value.get(14 if value == 1 else value, [])[:n]

    def by_suit(self) -> dict[str, dict[int, Card]]:
        """The natural suited cards of each suit by value."""
        suited: dict[str, dict[int, Card]] = {suit: {} for suit in SUITS}
        for card in self.naturals:
            if card.suit is not None:
                suited[card.suit][card.value] = card
        return suited

    def find(self, kinds: frozenset[Kind]) -> list[Play]:
        moves: list[Play] = []
        for kind, generate in _GENERATORS.items():
            if kind in kinds:
                moves += generate(self)
        return moves

    def assemble(self, kind: Kind, key: str | None, groups: list[Group]) -> Play:
        cards: list[Card] = []
        wanted: list[tuple[int, Card]] = []
        wilds = self.wilds
        for naturals, n_wild, stands_for in groups:
            cards += naturals
            for _ in range(n_wild):
                assert stands_for is not None
                wanted.append((len(cards), stands_for))
                cards.append(wilds[len(wanted) - 1])
        return Play(kind, key, len(cards), tuple(cards), tuple(wanted))

    def group(self, value: int, size: int, suit: str = HEARTS) -> Group:
        """``size`` cards of one rank, naturals first; the caller has checked there are enough."""
        naturals = self.of_value(value, size)
        return (naturals, size - len(naturals), _FACES[suit][value])

    def one_rank(self, kind: Kind, key: str, value: int, size: int) -> Play:
        """``size`` cards of one natural rank, naturals first, topped up by wild cards (what
        :meth:`assemble` gives for one group, without building it)."""
        naturals = self.by_value.get(value, [])[:size]
        missing = size - len(naturals)
        if not missing:
            return Play(kind, key, size, tuple(naturals))
        face = _FACES[HEARTS][value]
        have = len(naturals)
        return Play(
            kind, key, size, (*naturals, *self.wilds[:missing]), tuple((have + i, face) for i in range(missing))
        )

    def same_rank(self, kind: Kind, size: int, *, min_naturals: int = 1) -> list[Play]:
        """Singles, pairs, triples: each rank with enough natural cards, topped up by wild cards."""
        w = len(self.wilds)
        plays = []
        for value, naturals in self.by_value.items():
            if value in _JOKER_VALUES:
                if len(naturals) >= size and kind != Kind.TRIPLE:
                    plays.append(Play(kind, naturals[0].rank, size, tuple(naturals[:size])))
            elif len(naturals) >= min_naturals and len(naturals) + w >= size:
                plays.append(self.one_rank(kind, VALUE_RANK[value], value, size))
        if self.level_value not in self.by_value and w >= size:  # wild cards as their own rank
            plays.append(self.one_rank(kind, self.level, self.level_value, size))
        return plays

    def singles(self) -> list[Play]:
        return self.same_rank(Kind.SINGLE, 1)

    def pairs(self) -> list[Play]:
        return self.same_rank(Kind.PAIR, 2)

    def triples(self) -> list[Play]:
        return self.same_rank(Kind.TRIPLE, 3)

    def bombs(self) -> list[Play]:
        w = len(self.wilds)
        plays = []
        for value in _NATURAL_VALUES:
            for size in range(4, min(10, self.counts[value] + w) + 1):
                plays.append(self.one_rank(Kind.BOMB, VALUE_RANK[value], value, size))
        return plays

    def joker_bombs(self) -> list[Play]:
        small, big = self.by_value.get(16, []), self.by_value.get(17, [])
        if len(small) == 2 and len(big) == 2:
            return [self.assemble(Kind.JOKER_BOMB, None, [(small + big, 0, None)])]
        return []

    def _pairs_by_cost(self) -> list[tuple[int, int, Group]]:
        """Every pair a full house can carry as ``(wild cards needed, value, group)``, cheapest
        first: fewest wild cards, then the lowest pair (R-LVL-3 order; two jokers of a kind too)."""
        w = len(self.wilds)
        order = _LEVEL_ORDER[self.level]
        options = []
        for value in (*_NATURAL_VALUES, *_JOKER_VALUES):
            count = self.counts[value]
            if value in _JOKER_VALUES:
                if count >= 2:
                    options.append((0, order[_KEY_OF_VALUE[value]], value, (self.of_value(value, 2), 0, None)))
            elif 2 - count <= w:
                options.append((max(0, 2 - count), order[VALUE_RANK[value]], value, self.group(value, 2)))
        options.sort(key=lambda option: option[:2])
        return [(need, value, group) for need, _, value, group in options]

    def full_houses(self) -> list[Play]:
        """One per triple rank, with the pair that uses the fewest wild cards, then the lowest."""
        w = len(self.wilds)
        pairs = self._pairs_by_cost()
        plays = []
        for triple in _NATURAL_VALUES:
            have = self.counts[triple]
            need = max(0, 3 - have)
            if have == 0 or need > w:
                continue
            for pair_need, value, group in pairs:
                if value != triple and pair_need + need <= w:
                    groups = [self.group(triple, 3), group]
                    plays.append(self.assemble(Kind.FULL_HOUSE, VALUE_RANK[triple], groups))
                    break
        return plays

    def runs(self, kind: Kind, width: int, per_rank: int) -> list[Play]:
        """Tubes and plates: every window of consecutive ranks the wild cards can complete."""
        w = len(self.wilds)
        short = [max(0, per_rank - count) for count in self.counts]
        plays = []
        for top in range(width, 15):
            if sum(short[top - width + 1 : top + 1]) <= w:
                window = range(top - width + 1, top + 1)
                plays.append(self.assemble(kind, VALUE_RANK[top], [self.group(v, per_rank) for v in window]))
        return plays

    def tubes(self) -> list[Play]:
        return self.runs(Kind.TUBE, 3, 2)

    def plates(self) -> list[Play]:
        return self.runs(Kind.PLATE, 2, 3)

    def straights(self) -> list[Play]:
        """Plain straights: mixed suits, or one suit broken by a wild card (R-PAT-11)."""
        w = len(self.wilds)
        absent = [1 if count == 0 else 0 for count in self.counts]
        plays = []
        for top in range(5, 15):
            missing = sum(absent[top - 4 : top + 1])
            if missing > w:
                continue
            groups = [self.group(v, 1) for v in range(top - 4, top + 1)]
            suits = {naturals[0].suit for naturals, _, _ in groups if naturals}
            if len(suits) == 1:
                groups = self._break_flush(groups, suits.pop(), spare_wild=w > missing)
                if groups is None:
                    continue  # five naturals of one suit and no wild card: a straight flush only
            plays.append(self.assemble(Kind.STRAIGHT, VALUE_RANK[top], groups))
        return plays

    def _break_flush(self, groups: list[Group], suit: str, *, spare_wild: bool) -> list[Group] | None:
        """Make a one-suit run a plain straight: a wild card stands for another suit, or a natural
        card of another suit is swapped in, or a spare wild card replaces the top card."""
        other = "s" if suit == HEARTS else HEARTS
        if any(n_wild for _, n_wild, _ in groups):
            return [(nat, k, _FACES[other][s.value] if k and s else s) for nat, k, s in groups]
        for i, (naturals, _, _) in enumerate(groups):
            for card in self.by_value[naturals[0].value]:
                if card.suit != suit:
                    return [*groups[:i], ([card], 0, None), *groups[i + 1 :]]
        if not spare_wild:
            return None
        top = groups[-1][0][0]
        return [*groups[:-1], ([], 1, _FACES[other][top.value])]

    def straight_flushes(self) -> list[Play]:
        """One per top rank, from the suit that needs the fewest wild cards."""
        w = len(self.wilds)
        by_suit = self.by_suit()
        lacking = {}
        for suit, held in by_suit.items():
            lack = [1] * 15
            for value in held:
                lack[value] = 0
            lack[1] = lack[14]
            lacking[suit] = lack
        plays = []
        for top in range(5, 15):
            best: tuple[int, str] | None = None
            for suit in SUITS:
                need = sum(lacking[suit][top - 4 : top + 1])
                if need <= w and (best is None or need < best[0]):
                    best = (need, suit)
            if best is None:
                continue
            suit = best[1]
            held = by_suit[suit]
            window = [14 if v == 1 else v for v in range(top - 4, top + 1)]
            groups: list[Group] = [([held[v]], 0, None) if v in held else ([], 1, _FACES[suit][v]) for v in window]
            plays.append(self.assemble(Kind.STRAIGHT_FLUSH, VALUE_RANK[top], groups))
        return plays


_GENERATORS = {
    Kind.SINGLE: _MoveFinder.singles,
    Kind.PAIR: _MoveFinder.pairs,
    Kind.TRIPLE: _MoveFinder.triples,
    Kind.BOMB: _MoveFinder.bombs,
    Kind.JOKER_BOMB: _MoveFinder.joker_bombs,
    Kind.FULL_HOUSE: _MoveFinder.full_houses,
    Kind.TUBE: _MoveFinder.tubes,
    Kind.PLATE: _MoveFinder.plates,
    Kind.STRAIGHT: _MoveFinder.straights,
    Kind.STRAIGHT_FLUSH: _MoveFinder.straight_flushes,
}
