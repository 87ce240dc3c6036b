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

from referee_station.rules.cards import HEARTS, RANK_VALUE, SUITS, VALUE_RANK, Card, check_copies, read_cards
from referee_station.rules.compare import beats
from referee_station.rules.patterns import (
    BOMB_KINDS,
    Kind,
    Play,
    _sort,
    as_level,
    key_order,
)

_NATURAL_VALUES = range(2, 15)
_JOKER_VALUES = (16, 17)

Group = tuple[list[Card], int, Card | None]
"""Cards laid for one rank of a play: the natural cards, how many wild cards join them, and the
card those wild cards stand for (laid to the right of the naturals, R-PLAY-4)."""


def legal_moves(hand: str | Iterable[str | Card], prev: Play | None, level: str | int) -> list[Play]:
    """Plays from ``hand`` that beat ``prev`` at ``level``, one per (kind, key, size), weakest first."""
    cards = tuple(read_cards(hand))
    level = as_level(level)
    check_copies(cards)
    finder = _MoveFinder(cards, level)
    kinds = set(Kind) if prev is None or prev.is_bomb else {prev.kind} | BOMB_KINDS
    moves = finder.find(kinds)
    if prev is not None:
        moves = [move for move in moves if beats(move, prev, level)]
    return _sort(moves, level)


class _MoveFinder:
    """Rank and suit counts of one hand, and the generators of each kind of play."""

    def __init__(self, cards: tuple[Card, ...], level: str) -> None:
        self.level = level
        self.wilds = [c for c in cards if c.suit == HEARTS and c.rank == level]
        self.by_value: dict[int, list[Card]] = {}
        self.by_suit: dict[str, dict[int, Card]] = {suit: {} for suit in SUITS}
        for card in cards:
            if card.suit == HEARTS and card.rank == level:
                continue
            self.by_value.setdefault(card.value, []).append(card)
            if card.suit is not None:
                self.by_suit[card.suit][card.value] = card
        self.level_value = RANK_VALUE[level]

    def count(self, value: int) -> int:
        return len(self.by_value.get(14 if value == 1 else value, ()))

    def naturals(self, value: int, n: int) -> list[Card]:
        return self.by_value.get(14 if value == 1 else value, [])[:n]

    def find(self, kinds: set[Kind]) -> list[Play]:
        moves: list[Play] = []
        for kind in kinds:
            moves += _GENERATORS[kind](self)
        return moves

    def assemble(self, kind: Kind, key: str | None, groups: list[Group]) -> Play:
        cards: list[Card] = []
        wanted: list[tuple[int, Card]] = []
        wild = iter(self.wilds)
        for naturals, n_wild, stands_for in groups:
            cards += naturals
            for _ in range(n_wild):
                assert stands_for is not None
                wanted.append((len(cards), stands_for))
                cards.append(next(wild))
        return Play(kind, key, len(cards), tuple(cards), tuple(wanted))

    def group(self, value: int, size: int, suit: str = HEARTS) -> Group:
        """``size`` cards of one rank, naturals first; the caller has checked there are enough."""
        naturals = self.naturals(value, size)
        real = 14 if value == 1 else value
        return (naturals, size - len(naturals), Card._by_code[VALUE_RANK[real] + suit])

    def same_rank(self, kind: Kind, size: int, *, min_naturals: int = 1) -> list[Play]:
        """Singles, pairs, triples: each rank with enough natural cards, topped up by wild cards."""
        w = len(self.wilds)
        plays = []
        for value, naturals in self.by_value.items():
            if value in _JOKER_VALUES:
                if len(naturals) >= size and kind != Kind.TRIPLE:
                    plays.append(self.assemble(kind, naturals[0].rank, [(naturals[:size], 0, None)]))
            elif len(naturals) >= min_naturals and len(naturals) + w >= size:
                plays.append(self.assemble(kind, VALUE_RANK[value], [self.group(value, size)]))
        if self.level_value not in self.by_value and w >= size:  # wild cards as their own rank
            plays.append(self.assemble(kind, self.level, [self.group(self.level_value, size)]))
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
            have = self.count(value)
            for size in range(4, min(10, have + w) + 1):
                plays.append(self.assemble(Kind.BOMB, VALUE_RANK[value], [self.group(value, size)]))
        return plays

    def joker_bombs(self) -> list[Play]:
        small, big = self.by_value.get(16, []), self.by_value.get(17, [])
        if len(small) == 2 and len(big) == 2:
            return [self.assemble(Kind.JOKER_BOMB, None, [(small + big, 0, None)])]
        return []

    def full_houses(self) -> list[Play]:
        """One per triple rank, with the pair that uses the fewest wild cards, then the lowest."""
        w = len(self.wilds)
        plays = []
        for triple in _NATURAL_VALUES:
            have = self.count(triple)
            need = max(0, 3 - have)
            if have == 0 or need > w:
                continue
            best: tuple[tuple[int, int], Group] | None = None
            for value in (*_NATURAL_VALUES, *_JOKER_VALUES):
                if value == triple:
                    continue
                count = self.count(value)
                if value in _JOKER_VALUES:
                    if count < 2:
                        continue
                    group: Group = (self.naturals(value, 2), 0, None)
                    pair_need = 0
                else:
                    pair_need = max(0, 2 - count)
                    if pair_need + need > w:
                        continue
                    group = self.group(value, 2)
                cost = (
                    pair_need,
                    key_order(Kind.PAIR, VALUE_RANK.get(value, "SJ" if value == 16 else "BJ"), self.level),
                )
                if best is None or cost < best[0]:
                    best = (cost, group)
            if best is not None:
                groups = [self.group(triple, 3), best[1]]
                plays.append(self.assemble(Kind.FULL_HOUSE, VALUE_RANK[triple], groups))
        return plays

    def runs(self, kind: Kind, width: int, per_rank: int) -> list[Play]:
        """Tubes and plates: every window of consecutive ranks the wild cards can complete."""
        w = len(self.wilds)
        plays = []
        for top in range(width, 15):
            window = range(top - width + 1, top + 1)
            need = sum(max(0, per_rank - self.count(v)) for v in window)
            if need <= w:
                plays.append(self.assemble(kind, VALUE_RANK[top], [self.group(v, per_rank) for v in window]))
        return plays

    def tubes(self) -> list[Play]:
        return self.runs(Kind.TUBE, 3, 2)

    def plates(self) -> list[Play]:
        return self.runs(Kind.PLATE, 2, 3)

    def straights(self) -> list[Play]:
        """Plain straights: mixed suits, or one suit broken by a wild card (R-PAT-11)."""
        w = len(self.wilds)
        plays = []
        for top in range(5, 15):
            window = range(top - 4, top + 1)
            missing = sum(1 for v in window if self.count(v) == 0)
            if missing > w:
                continue
            groups = [self.group(v, 1) for v in window]
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
            return [(nat, k, Card._by_code[s.rank + other] if k and s else s) for nat, k, s in groups]
        for i, (naturals, _, _) in enumerate(groups):
            for card in self.by_value[naturals[0].value]:
                if card.suit != suit:
                    return [*groups[:i], ([card], 0, None), *groups[i + 1 :]]
        if not spare_wild:
            return None
        top = groups[-1][0][0]
        return [*groups[:-1], ([], 1, Card._by_code[top.rank + other])]

    def straight_flushes(self) -> list[Play]:
        """One per top rank, from the suit that needs the fewest wild cards."""
        w = len(self.wilds)
        plays = []
        for top in range(5, 15):
            window = [14 if v == 1 else v for v in range(top - 4, top + 1)]
            best: tuple[int, str] | None = None
            for suit in SUITS:
                held = self.by_suit[suit]
                need = sum(1 for v in window if v not in held)
                if need <= w and (best is None or need < best[0]):
                    best = (need, suit)
            if best is None:
                continue
            suit = best[1]
            held = self.by_suit[suit]
            groups: list[Group] = [
                ([held[v]], 0, None) if v in held else ([], 1, Card._by_code[VALUE_RANK[v] + suit]) for v in window
            ]
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
