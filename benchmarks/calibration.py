#!/usr/bin/env python3
"""How well the bidding model's chances of each number of tricks match what happens.

    python benchmarks/calibration.py --deals 2000                  # oh-hell, odessa, georgian, russian
    python benchmarks/calibration.py --variants odessa --deals 500 --level 1 --json
    python benchmarks/calibration.py --variants odessa --deals 500 --start 1000000 --json > b.json
    python benchmarks/calibration.py --merge a.json b.json        # one table of two runs

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
    """The figures of one variant over ``deals`` deals (or as many as ``seconds`` allow), the
    deals numbered from ``start + 1`` (parts of a long run take ranges that do not meet)."""
    import updown_dsl as ud

    variant = ud.load_variant(name)
    sums = empty_sums()
    began = time.process_time()
    number = start
    while sums["deals"] < deals:
        if seconds is not None and time.process_time() - began > seconds:
            break
        number += 1
        found = one_deal(variant, number, level)
        if found is not None:
            add(sums, found[0], found[1])
    sums["cpu_s"] = time.process_time() - began
    return summary(name, level, sums, f"{start + 1}-{number}")


def empty_sums() -> dict[str, Any]:
    """The counts a summary is made of; two parts' counts add up."""
    return {"deals": 0, "cpu_s": 0.0, "predicted": [], "hits": [],
            "bins": [[0, 0.0, 0] for _ in range(BINS)]}  # count, sum of the chances, hits


def add(sums: dict[str, Any], chances: list[float], taken: int) -> None:
    """Count one deal: the chances predicted for each k and the k that came true."""
    top = max(len(chances), taken + 1)
    for key in ("predicted", "hits"):
        sums[key].extend([0] * (top - len(sums[key])))
    sums["deals"] += 1
    for k, chance in enumerate(chances):
        sums["predicted"][k] += chance
        b = sums["bins"][min(BINS - 1, int(chance * BINS))]
        b[0] += 1
        b[1] += chance
        b[2] += taken == k
    sums["hits"][taken] += 1


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One summary of several runs of the same variant and level (``--merge``)."""
    sums = empty_sums()
    for part in parts:
        raw = part.get("sums") or sums_of(part)
        for key in ("predicted", "hits"):
            sums[key].extend([0] * (len(raw[key]) - len(sums[key])))
            for k, value in enumerate(raw[key]):
                sums[key][k] += value
        for mine, theirs in zip(sums["bins"], raw["bins"]):
            for i in range(3):
                mine[i] += theirs[i]
        sums["deals"] += raw["deals"]
        sums["cpu_s"] += raw["cpu_s"]
    first = parts[0]
    if any((p["variant"], p["level"]) != (first["variant"], first["level"]) for p in parts):
        raise SystemExit("--merge: the parts are not of one variant and level")
    return summary(first["variant"], first["level"], sums,
                   ", ".join(str(p.get("numbers", "?")) for p in parts))


def sums_of(r: dict[str, Any]) -> dict[str, Any]:
    """The counts behind a summary written before summaries carried them (its shares are
    rounded to 4 places: the counts come back within a twentieth of a deal in 10,000)."""
    n = r["deals"]
    return {"deals": n, "cpu_s": r["cpu_s"],
            "predicted": [row["predicted"] * n for row in r["per_k"]],
            "hits": [round(row["observed"] * n) for row in r["per_k"]],
            "bins": [[b["count"], (b["predicted"] or 0.0) * b["count"], round((b["observed"] or 0.0) * b["count"])]
                     for b in r["reliability"]]}


def summary(name: str, level: int, sums: dict[str, Any], numbers: str) -> dict[str, Any]:
    """The printed figures of the counts: per k, the reliability bins and the two errors."""
    n = max(1, sums["deals"])
    per_k = []
    for k in range(max(len(sums["predicted"]), len(sums["hits"]))):
        predicted = (sums["predicted"][k] if k < len(sums["predicted"]) else 0.0) / n
        observed = (sums["hits"][k] if k < len(sums["hits"]) else 0) / n
        per_k.append({"k": k, "predicted": round(predicted, 4), "observed": round(observed, 4),
                      "diff_pp": round(100 * (predicted - observed), 2)})
    bins = sums["bins"]
    total = sum(b[0] for b in bins) or 1
    reliability = [{"bin": f"{10 * i}-{10 * (i + 1)}%", "count": int(b[0]),
                    "predicted": round(b[1] / b[0], 4) if b[0] else None,
                    "observed": round(b[2] / b[0], 4) if b[0] else None} for i, b in enumerate(bins)]
    ece = sum(abs(b[1] - b[2]) for b in bins) / total
    return {"variant": name, "deals": sums["deals"], "level": level, "numbers": numbers,
            "cpu_s": round(sums["cpu_s"], 1),
            "max_diff_pp": max((abs(r["diff_pp"]) for r in per_k), default=0.0),
            "ece_pp": round(100 * ece, 2), "per_k": per_k, "reliability": reliability, "sums": sums}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default=",".join(FAMILIES))
    ap.add_argument("--deals", type=int, default=2000, help="deals per variant (default 2000)")
    ap.add_argument("--seconds", type=float, default=None, help="at most this many CPU seconds per variant")
    ap.add_argument("--level", type=int, default=3, help="the search level of the model (default 3, as analyse)")
    ap.add_argument("--start", type=int, default=0,
                    help="number the deals from START + 1 (parts of a long run take ranges that do not meet)")
    ap.add_argument("--merge", nargs="+", metavar="JSON", type=Path,
                    help="print one summary per variant of the --json outputs of earlier runs, run nothing")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = []
    if args.merge:
        parts: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for path in args.merge:
            loaded = json.loads(path.read_text())
            for r in loaded if isinstance(loaded, list) else [loaded]:
                parts.setdefault((r["variant"], r["level"]), []).append(r)
        out = [merge(group) for group in parts.values()]
        if args.json:
            print(json.dumps(out, indent=1))
        else:
            for r in out:
                show(r)
        return
    for v in args.variants.split(","):
        r = calibrate(v, args.deals, args.level, args.seconds, args.start)
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
        print(f"\n{r['variant']}: {r['deals']} deals (numbers {r['numbers']}), level {r['level']}, {r['cpu_s']} CPU s; "
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
