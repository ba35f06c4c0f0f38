#!/usr/bin/env python3
"""How well the bidding model's chances of each number of tricks match what happens.

    python benchmarks/calibration.py --deals 2000                  # oh-hell, odessa, georgian, russian
    python benchmarks/calibration.py --variants odessa --deals 500 --level 1 --json

For each deal: a game of the variant (seeded by the deal's number) goes on to a deal of its
schedule drawn at random, the deals before it played out by the search's roll-out policy; in
that deal a seat at a random place in the bidding is measured. The seats before it bid as the
roll-out policy bids (the count of the hand's honours and trumps; a blind hand: its share), and
at its bid the model (:func:`updown_dsl.players.analysis.trick_chances`, from that seat's view
only) gives the chance of 0, 1, ... tricks after the bid the roll-out policy makes there. The
deal is then finished, every seat bidding and playing by the roll-out policy (the policy the
model's play-outs use: the calibration measures the guesses of the unseen cards and of the bids
to come, not a model of how people play), and the tricks the seat took are the outcome.

Printed per variant: for each number of tricks k, the mean predicted chance of k against the
share of deals where the seat took k (the difference in percentage points), and a reliability
table: predictions in bins of 10 points, the mean predicted chance and the observed share in
each. The error figures are the largest difference per k and the expected calibration error
(the bins' differences weighed by their counts).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

FAMILIES = ("oh-hell", "odessa", "georgian", "russian")
BINS = 10


def one_deal(variant: Any, number: int, level: int) -> tuple[list[float], int, str] | None:
    """(predicted chances, tricks taken, the deal's bidding) for one simulated deal, or None
    when the deal drawn has no choice of bid for the seat."""
    import updown_dsl as ud
    from updown_dsl.engine import Phase
    from updown_dsl.players.analysis import trick_chances
    from updown_dsl.players.rollout import Rollout

    rng = random.Random(number)
    game = ud.Game(variant, 4, seed=number)
    policy = Rollout(game, random.Random(number))
    target = rng.randrange(len(game.deals))
    while game.deal_index < target and not game.is_over:
        policy.playout(game)
    if game.is_over:
        return None
    index = game.deal_index
    place = rng.randrange(4)
    bids_made = 0
    chances: list[float] | None = None
    seat = -1
    while not game.is_over and game.deal_index == index:
        phase = game.phase
        if phase is Phase.BID and chances is None and bids_made == place:
            seat = game.to_act
            bid = policy.bid(game)
            if len(game.legal_actions()) < 2:
                return None
            chances = list(trick_chances(game.view(seat), bid.tricks, level=level, rng=random.Random(number)))
            game.apply(bid)
            bids_made += 1
        elif phase is Phase.BID:
            game.apply(policy.bid(game))
            bids_made += 1
        elif phase is Phase.TRUMP:
            game.apply(policy.trump(game))
        elif phase is Phase.PLAY:
            policy.playout(game)
        else:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    if chances is None:
        return None
    result = next(r for r in reversed(game.results) if r.event == "deal")
    return chances, result.seats[seat].taken, result.deal.kind


def calibrate(name: str, deals: int, level: int, seconds: float | None, start: int = 0) -> dict[str, Any]:
    """The figures of one variant over ``deals`` deals (or as many as ``seconds`` allow)."""
    import updown_dsl as ud

    variant = ud.load_variant(name)
    preds: list[tuple[list[float], int]] = []
    began = time.process_time()
    number = start
    while len(preds) < deals:
        if seconds is not None and time.process_time() - began > seconds:
            break
        number += 1
        found = one_deal(variant, number, level)
        if found is not None:
            preds.append((found[0], found[1]))
    top = max((len(p) for p, _ in preds), default=1)
    per_k = []
    for k in range(top):
        predicted = sum(p[k] if k < len(p) else 0.0 for p, _ in preds) / max(1, len(preds))
        observed = sum(t == k for _, t in preds) / max(1, len(preds))
        per_k.append({"k": k, "predicted": round(predicted, 4), "observed": round(observed, 4),
                      "diff_pp": round(100 * (predicted - observed), 2)})
    bins: list[list[float]] = [[0.0, 0.0, 0.0] for _ in range(BINS)]  # count, sum predicted, hits
    for p, t in preds:
        for k, chance in enumerate(p):
            b = min(BINS - 1, int(chance * BINS))
            bins[b][0] += 1
            bins[b][1] += chance
            bins[b][2] += t == k
    total = sum(b[0] for b in bins) or 1
    reliability = [{"bin": f"{10 * i}-{10 * (i + 1)}%", "count": int(b[0]),
                    "predicted": round(b[1] / b[0], 4) if b[0] else None,
                    "observed": round(b[2] / b[0], 4) if b[0] else None} for i, b in enumerate(bins)]
    ece = sum(abs(b[1] - b[2]) for b in bins) / total
    return {"variant": name, "deals": len(preds), "level": level,
            "cpu_s": round(time.process_time() - began, 1),
            "max_diff_pp": max((abs(r["diff_pp"]) for r in per_k), default=0.0),
            "ece_pp": round(100 * ece, 2), "per_k": per_k, "reliability": reliability}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default=",".join(FAMILIES))
    ap.add_argument("--deals", type=int, default=2000, help="deals per variant (default 2000)")
    ap.add_argument("--seconds", type=float, default=None, help="at most this many CPU seconds per variant")
    ap.add_argument("--level", type=int, default=3, help="the search level of the model (default 3, as analyse)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = []
    for v in args.variants.split(","):
        r = calibrate(v, args.deals, args.level, args.seconds)
        out.append(r)
        if not args.json:
            show(r)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"\n(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")


def show(r: dict[str, Any]) -> None:
    """One variant's figures as text (printed as soon as they are known)."""
    for r in [r]:
        print(f"\n{r['variant']}: {r['deals']} deals, level {r['level']}, {r['cpu_s']} CPU s; "
              f"largest error per k {r['max_diff_pp']} pp, expected calibration error {r['ece_pp']} pp")
        print(f"{'k':>3} {'predicted':>10} {'observed':>9} {'diff pp':>8}")
        for row in r["per_k"]:
            print(f"{row['k']:>3} {100 * row['predicted']:>9.1f}% {100 * row['observed']:>8.1f}% {row['diff_pp']:>8}")
        print(f"{'bin':>8} {'count':>6} {'predicted':>10} {'observed':>9}")
        for row in r["reliability"]:
            if row["count"]:
                print(f"{row['bin']:>8} {row['count']:>6} {100 * row['predicted']:>9.1f}% {100 * row['observed']:>8.1f}%")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
