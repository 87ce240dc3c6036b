"""A scripted table for scenario tests: feeds EVENTS.md lines to a referee, one second apart."""

from __future__ import annotations

from typing import Any

from referee_station.core import TableState
from referee_station.table.corrections import CorrectingReferee
from referee_station.table.events import parse_record
from referee_station.table.referee import TableReferee


def eight(rank: str) -> str:
    """The eight cards of one rank from two decks, hearts included."""
    return " ".join(f"{rank}{suit}" for suit in "sshhddcc")


class Table:
    """Feeds events with increasing times and keeps every output as a JSON dict."""

    def __init__(self, *, auto_confirm: bool = True, step: float = 1.0, correcting: bool = False, **match: Any) -> None:
        self.referee: TableReferee | CorrectingReferee = (
            CorrectingReferee(auto_confirm=auto_confirm) if correcting else TableReferee(auto_confirm=auto_confirm)
        )
        self.t = 0.0
        self.step = step
        self.outputs: list[dict[str, Any]] = []
        self.feed({"type": "match", "sides": {"EW": "East-West", "NS": "North-South"}, **match}, advance=0.0)

    def feed(self, line: dict[str, Any], advance: float | None = None) -> list[dict[str, Any]]:
        self.t += self.step if advance is None else advance
        out = [o.to_json() for o in self.referee.feed(parse_record({"t": self.t, **line}))]
        self.outputs += out
        return out

    def deal(self, first_leader: str | None = None, **extra: Any) -> list[dict[str, Any]]:
        line: dict[str, Any] = {"type": "deal", **extra}
        if first_leader:
            line["first_leader"] = first_leader
        return self.feed(line)

    def play(self, seat: str, cards: str, **extra: Any) -> list[dict[str, Any]]:
        return self.feed({"type": "play", "seat": seat, "cards": cards.split(), **extra})

    def pass_(self, *seats: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for seat in seats:
            out += self.feed({"type": "pass", "seat": seat})
        return out

    def report(self, seat: str, count: int) -> list[dict[str, Any]]:
        return self.feed({"type": "report", "seat": seat, "count": count})

    def state(self) -> TableState:
        return self.referee.snapshot()

    def flags(self, out: list[dict[str, Any]] | None = None) -> list[tuple[str | None, str, str]]:
        return [
            (o["seat"], o["offence"], o["penalty"])
            for o in (self.outputs if out is None else out)
            if o["type"] == "flag"
        ]

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [o for o in self.outputs if o["type"] == kind]


def east_west_sweep(table: Table, first: str = "E") -> None:
    """A whole deal in 8 plays: ``first`` goes out with three 8-card bombs and a triple, then
    the partner (接风) the same way: 1st and 2nd for one side (R-PLAY-2, R-PLAY-3)."""
    partner = {"E": "W", "W": "E", "N": "S", "S": "N"}[first]
    order = ["E", "N", "W", "S"]
    others = [s for s in order[order.index(first) + 1 :] + order[: order.index(first)]]
    for ranks, seat in ((("3", "4", "5", "6"), first), (("7", "8", "9", "T"), partner)):
        for i, rank in enumerate(ranks):
            cards = eight(rank) if i < 3 else " ".join(eight(rank).split()[:3])
            table.play(seat, cards)
            if i == 2:
                table.report(seat, 3)
            if seat == partner and i == 3:
                return
            table.pass_(*[s for s in others if s != seat and table.state().deal.counts[s] > 0])
        others = [s for s in order[order.index(partner) + 1 :] + order[: order.index(partner)]]


def east_west_go_out(table: Table) -> None:
    """With N's lead on the table and E to play: E goes out with three 8-card bombs and a triple (the
    others passing), then W the same way (S and N passing), so the deal ends E 1st, W 2nd."""
    for seat, plays in (("E", ["3", "4", "7", "666"]), ("W", ["8", "9", "T", "JJJ"])):
        for i, rank in enumerate(plays):
            table.play(seat, eight(rank) if i < 3 else f"{rank[0]}s {rank[0]}s {rank[0]}h")
            if i == 2:
                table.report(seat, 3)
            if seat == "E":
                table.pass_("N", "W", "S")
            elif i < 3:
                table.pass_("S", "N")


def hands_with(seed: int, fixed: dict[str, list[str]]) -> dict[str, list[str]]:
    """Four 27-card hands from two decks: the ``fixed`` cards where asked, the rest shuffled."""
    import random

    from referee_station.rules import DECK

    pool = [card.code for card in DECK for _ in range(2)]
    for cards in fixed.values():
        for card in cards:
            pool.remove(card)
    random.Random(seed).shuffle(pool)
    hands = {}
    for seat in ("E", "S", "W", "N"):
        own = list(fixed.get(seat, []))
        need = 27 - len(own)
        hands[seat], pool = own + pool[:need], pool[need:]
    return hands
