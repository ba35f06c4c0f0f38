#!/usr/bin/env python3
"""How far bots' bids fall from the roll-out's count of the hand: the spread the search
weighs its guesses with (``updown_dsl.players.search.BID_SPREAD``).

    PYTHONPATH=. python benchmarks/bid_spread.py                          # heuristic, 20 games each
    PYTHONPATH=. python benchmarks/bid_spread.py --bidders search --games 2 --variants oh-hell,georgian

Every seat of a 4-player game is the bidder kind named; at each bid made seeing the hand (not
blind, not before the deal, not to the forehead) the hand's count by the roll-out's table of
honours and trumps (:meth:`~updown_dsl.players.rollout.Rollout.count`) is set against the bid.
Printed per variant and kind: the bids, the mean and standard deviation of bid minus count, and
the share of bids at each distance from the rounded count.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def spread(name: str, kind: str, games: int, seed: int = 7) -> dict[str, Any]:
    """The figures of ``kind``'s bids over ``games`` games of ``name``."""
    import updown_dsl as ud
    from updown_dsl.actions import Bid
    from updown_dsl.engine import Phase
    from updown_dsl.engine.tables import SUIT_ID
    from updown_dsl.players.bots import make_bot
    from updown_dsl.players.rollout import Rollout

    variant = ud.load_variant(name)
    pairs: list[tuple[float, int]] = []
    for g in range(games):
        game = ud.Game(variant, 4, seed=seed + g)
        bots = [make_bot(kind, random.Random(seed * 1000 + 4 * g + i)) for i in range(4)]
        while not game.is_over:
            seat = game.to_act
            view = game.view(seat)
            action = bots[seat].act(view)
            if (view.phase is Phase.BID and isinstance(action, Bid) and view.hand
                    and view.deal_kind_bidding not in ("before_deal", "forehead")):
                trump = -1 if view.trump is None else SUIT_ID[view.trump]
                count = Rollout(game, random.Random(0)).count(game.kernel.hands[seat], trump)
                pairs.append((count, action.tricks))
            game.apply(action)
    diffs = [b - c for c, b in pairs]
    n = max(1, len(diffs))
    mean = sum(diffs) / n
    sd = (sum((d - mean) ** 2 for d in diffs) / n) ** 0.5
    rounded = collections.Counter(b - round(c) for c, b in pairs)
    return {"variant": name, "bidder": kind, "bids": len(pairs), "mean": round(mean, 3), "sd": round(sd, 3),
            "by_distance": {str(k): round(v / n, 4) for k, v in sorted(rounded.items())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="oh-hell,odessa,georgian")
    ap.add_argument("--bidders", default="heuristic", help="bot kinds, comma-separated (heuristic, search, ...)")
    ap.add_argument("--games", type=int, default=20, help="games per variant and kind")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [spread(v, k, args.games) for k in args.bidders.split(",") for v in args.variants.split(",")]
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'variant':<10} {'bidder':<10} {'bids':>6} {'mean':>7} {'sd':>6}  share by bid minus rounded count")
    for r in rows:
        shares = " ".join(f"{k}:{100 * v:.1f}%" for k, v in r["by_distance"].items())
        print(f"{r['variant']:<10} {r['bidder']:<10} {r['bids']:>6} {r['mean']:>+7.2f} {r['sd']:>6.2f}  {shares}")


if __name__ == "__main__":
    main()
