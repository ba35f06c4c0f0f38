#!/usr/bin/env python3
"""Fairness: each bot decides alike when the cards it cannot see are dealt again.

For a share of the decisions of games between heuristic bots, the unseen cards are dealt again
consistently with the seat's view (:func:`updown_dsl.players.fairness.twin_view`) and each bot,
seeded alike, acts on both views; a difference would mean the bot read something its seat
cannot see. Run::

    PYTHONPATH=. python benchmarks/fairness.py --decisions 10000

The decisions are split evenly over the variants (``--variants``) and go to each bot of
``--bots`` in turn; ``--json`` prints the counts as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Sequence

import updown_dsl as ud
from updown_dsl.players.fairness import compare

VARIANTS = "oh-hell,odessa,georgian,russian,estimation"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--decisions", type=int, default=10_000)
    parser.add_argument("--variants", default=VARIANTS)
    parser.add_argument("--bots", default="heuristic,random,search:1")
    parser.add_argument("--share", type=float, default=0.1, help="share of the decisions asked twice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = args.variants.split(",")
    kinds = args.bots.split(",")
    per = -(-args.decisions // len(names))
    rows = []
    for name in names:
        start = time.process_time()
        found = compare(ud.load_variant(name), kinds, 1000, seed=args.seed, share=args.share, limit=per)
        rows.append({"variant": name, "decisions": found.decisions, "differences": found.differences,
                     "moved": found.moved, "left_out": found.left_out, "examples": found.examples,
                     "cpu_s": round(time.process_time() - start, 1)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"bots {','.join(kinds)}; seed {args.seed}; a share {args.share} of the decisions asked twice")
    print(f"{'variant':<12} {'decisions':>9} {'differ':>6} {'moved':>6} {'left out':>8} {'cpu s':>6}")
    for r in rows:
        print(f"{r['variant']:<12} {r['decisions']:>9} {r['differences']:>6} {r['moved']:>6} {r['left_out']:>8} {r['cpu_s']:>6}")
        for e in r["examples"]:
            print(f"    {e[0]} ({e[1]}): {e[2]} / {e[3]}")
    total = sum(r["decisions"] for r in rows)
    print(f"{'all':<12} {total:>9} {sum(r['differences'] for r in rows):>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
