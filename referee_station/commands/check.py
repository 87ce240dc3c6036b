"""``referee-station check``: what a set of cards is at a level, and whether it beats a play.

A referee's quick lookup at the table and the rules core's smoke test. Exit codes: 0 the cards
form a legal pattern (and beat ``--prev`` when given), 1 they do not, 2 unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys

from referee_station.rules import KIND_NAMES, KIND_RULE, RulesError, beats, choose, classify, parse_cards, parse_level


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("check", help="classify cards at a level and compare with a previous play")
    parser.add_argument("cards", help='the cards as laid, e.g. "7h 6c 6d" (codes as in EVENTS.md)')
    parser.add_argument("--level", required=True, help="the level played (2..10, J, Q, K, A)")
    parser.add_argument("--prev", help="the last play of the trick to beat")
    parser.add_argument("--json", action="store_true", help="one JSON object for machines")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        level = parse_level(args.level)
        cards = parse_cards(args.cards)
        prev = choose(args.prev, level) if args.prev else None
        plays = classify(cards, level)
    except RulesError as err:
        print(f"referee-station check: {err}", file=sys.stderr)
        return 2
    rows = [
        {
            "kind": play.kind.value,
            "key": play.key,
            "size": play.size,
            "rule": KIND_RULE[play.kind],
            "name_zh": KIND_NAMES[play.kind][0],
            "name_en": KIND_NAMES[play.kind][1],
            "wild": {cards[pos].code + f"@{pos}": card.code for pos, card in play.substitutes},
            "beats": None if prev is None else beats(play, prev, level),
        }
        for play in plays
    ]
    legal = bool(rows) and (prev is None or any(row["beats"] for row in rows))
    if args.json:
        out = {
            "cards": [c.code for c in cards],
            "level": level,
            "interpretations": rows,
            "legal": legal,
            "prev": None if prev is None else {"kind": prev.kind.value, "key": prev.key, "size": prev.size},
        }
        print(json.dumps(out, ensure_ascii=False))
        return 0 if legal else 1
    shown = " ".join(card.symbol for card in cards)
    print(f"{shown}  (level {level})")
    if not rows:
        print("  不是合法牌型 not a legal pattern (R-PAT)")
    for row, play in zip(rows, plays, strict=True):
        wild = "".join(f"  wild {cards[pos].symbol} = {card.symbol}" for pos, card in play.substitutes)
        line = f"  {row['name_zh']} {row['name_en']} {play.key or ''} ({row['rule']}){wild}"
        if prev is not None:
            verdict = "压得过 beats" if row["beats"] else "压不过 does not beat"
            line += f" — {verdict} {prev.describe('zh')} / {prev.describe()} (R-CMP)"
        print(line)
    return 0 if legal else 1
