#!/usr/bin/env python3
"""How much the bids tell the search about the unseen cards: the share of them its guesses
place in the seat that holds them.

    PYTHONPATH=. python benchmarks/inference.py                          # oh-hell, odessa, georgian
    PYTHONPATH=. python benchmarks/inference.py --variants georgian --games 10 --spreads 1.5,0.9

Every seat of a 4-player game is a ``heuristic`` bot; at seat 0's first two cards of each deal
of three cards or more (after every bid), the search bot draws ``--guesses`` guesses of the
hands (:meth:`~updown_dsl.players.search.SearchBot.guesses`), from the voids and the cards
seen alone (``voids``) and weighed by the bids at each spread of ``--spreads``. For each guess,
the share of the other seats' cards it places in the right hand; the figure is that share's
mean over the guesses and the decisions, and each weighing's paired difference from ``voids``
with its 95 % interval over the decisions. A guess dealt at random would place about the
cards a seat holds over the cards unseen.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def placement(name: str, games: int, spreads: list[float], guesses: int, seed: int = 1) -> dict[str, Any]:
    """The mean share of unseen cards placed right, by weighing, over ``games`` games of ``name``."""
    import updown_dsl as ud
    from updown_dsl.engine import Phase
    from updown_dsl.players.bots import HeuristicBot
    from updown_dsl.players.search import SearchBot

    variant = ud.load_variant(name)
    kinds = ["voids"] + [f"s={s:g}" for s in spreads]
    shares: dict[str, list[float]] = {k: [] for k in kinds}
    for g in range(games):
        game = ud.Game(variant, 4, seed=seed + g)
        bots = [HeuristicBot(random.Random(1000 * seed + 4 * g + i)) for i in range(4)]
        asked: dict[int, int] = {}
        while not game.is_over:
            seat = game.to_act
            view = game.view(seat)
            if (seat == 0 and view.phase is Phase.PLAY and view.deal.cards >= 3
                    and asked.get(game.deal_index, 0) < 2):
                asked[game.deal_index] = asked.get(game.deal_index, 0) + 1
                truth = list(game.kernel.hands)
                held = sum(truth[s].bit_count() for s in range(1, 4))
                row = {}
                for kind in kinds:
                    bot = SearchBot(random.Random(g), bidder=HeuristicBot(random.Random(g)),
                                    fit_bids=kind != "voids",
                                    **({"bid_spread": float(kind[2:])} if kind != "voids" else {}))
                    drawn = bot.guesses(view, guesses)
                    if not drawn or not held:
                        break
                    right = sum((hands[s] & truth[s]).bit_count() for hands in drawn for s in range(1, 4))
                    row[kind] = right / (held * len(drawn))
                else:
                    for kind in kinds:
                        shares[kind].append(row[kind])
            game.apply(bots[seat].act(view))
    n = len(shares["voids"])
    out: dict[str, Any] = {"variant": name, "decisions": n, "guesses": guesses, "rows": []}
    for kind in kinds:
        diffs = [a - b for a, b in zip(shares[kind], shares["voids"])]
        mean = sum(diffs) / max(1, n)
        sd = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
        out["rows"].append({"weighing": kind, "placed": round(sum(shares[kind]) / max(1, n), 4),
                            "gain_pp": round(100 * mean, 2), "ci95_pp": round(196 * sd / max(1, n) ** 0.5, 2)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="oh-hell,odessa,georgian")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--spreads", default="1.5,0.9,0.5", help="the bids' spreads to weigh by, in tricks")
    ap.add_argument("--guesses", type=int, default=300, help="guesses a decision")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    spreads = [float(s) for s in args.spreads.split(",")]
    results = [placement(v, args.games, spreads, args.guesses) for v in args.variants.split(",")]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        print(f"\n{r['variant']}: {r['decisions']} decisions, {r['guesses']} guesses each")
        print(f"{'weighing':<9} {'placed':>7} {'gain over voids':>16}")
        for row in r["rows"]:
            print(f"{row['weighing']:<9} {100 * row['placed']:>6.2f}% {row['gain_pp']:>+8.2f} ± {row['ci95_pp']:.2f} pp")


if __name__ == "__main__":
    main()
