#!/usr/bin/env python3
"""Dominated decisions per bot on small simulated deals.

Every seat is the bot under test; every bid and card it chooses is checked by
:func:`updown_dsl.players.dominance.check`: a certain miss (proved from the view, or over
every world when they are few) beside a legal action that keeps a chance. Run::

    PYTHONPATH=. python benchmarks/dominated.py --deals 300 --bots heuristic,search:1

Deal ``d`` is dealt from ``random.Random(f"{seed}:{d}")`` with the dealer in seat ``d % 4``,
so every bot meets the same cards; the bot in seat ``s`` draws from
``random.Random(f"{seed}:{d}:{s}")``. ``--json`` prints the counts as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from typing import Any, Sequence

import updown_dsl as ud
from updown_dsl.players.bots import make_bot
from updown_dsl.players.dominance import check

_SMALL = "name: oh-hell-{cards}\nextends: oh-hell\nschedule: [{{cards: {cards}}}]\n"
#: Every card dealt (the top ranks, ``cards`` a player): no card to turn, no trump, few worlds.
_FULL = ("name: oh-hell-full-{cards}\nextends: oh-hell\nplayers: {{min: 4, max: 4, default: 4}}\n"
         "deck: {{pack: 52, per_player: {cards}}}\ntrump: {{rule: turned, when_exhausted: no_trump}}\n"
         "schedule: [{{cards: {cards}}}]\n")


def small_variant(cards: int, full: bool = False) -> Any:
    """Oh Hell with a single deal of ``cards`` cards (``full``: of a pack of 4 × ``cards`` cards)."""
    return ud.loads_variant((_FULL if full else _SMALL).format(cards=cards), path=f"oh-hell-{cards}.yaml")


def count(kind: str, deals: int, *, cards: int = 3, players: int = 4, seed: int = 1,
          full: bool = False) -> dict[str, Any]:
    """Decisions, dominated decisions (by kind) and examples for the bot ``kind``."""
    variant = small_variant(cards, full)
    decisions = 0
    found: Counter[str] = Counter()
    examples: list[dict[str, Any]] = []
    for d in range(deals):
        game = ud.Game(variant, players, rng=random.Random(f"{seed}:{d}"), first_dealer=d % players)
        bots = [make_bot(kind, random.Random(f"{seed}:{d}:{s}")) for s in range(players)]
        while not game.is_over:
            seat = game.to_act
            view = game.view(seat)
            action = bots[seat].act(view)
            if len(view.legal) > 1:
                decisions += 1
                bad = check(view, action, random.Random(f"{seed}:{d}:check"))
                if bad is not None:
                    found[bad.kind.name] += 1
                    if len(examples) < 5:
                        examples.append({"deal": d, "seat": seat, "hand": " ".join(map(str, view.hand)),
                                         "trump": None if view.trump is None else view.trump.value,
                                         "action": str(action), "better": str(bad.better),
                                         "kind": bad.kind.name})
            game.apply(action)
    return {"bot": kind, "deals": deals, "decisions": decisions, "dominated": sum(found.values()),
            "by_kind": dict(found), "examples": examples}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--cards", type=int, default=3)
    parser.add_argument("--bots", default="heuristic,search:1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full", action="store_true",
                        help="deal the whole pack of the top ranks (no trump): few worlds, verdicts over every one")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [count(kind, args.deals, cards=args.cards, seed=args.seed, full=args.full) for kind in args.bots.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    pack = f"the {4 * args.cards} top cards, all dealt" if args.full else "52 cards"
    print(f"{args.deals} deals of {args.cards} cards, oh-hell ({pack}), 4 players, seed {args.seed}")
    print(f"{'bot':<12} {'decisions':>9} {'dominated':>9}  by kind")
    for r in rows:
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(r["by_kind"].items())) or "-"
        print(f"{r['bot']:<12} {r['decisions']:>9} {r['dominated']:>9}  {kinds}")
        for e in r["examples"]:
            print(f"    deal {e['deal']} seat {e['seat']}: {e['hand']} (trump {e['trump']}): "
                  f"{e['action']} ({e['kind']}; {e['better']} keeps a chance)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
