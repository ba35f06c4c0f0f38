#!/usr/bin/env python3
"""Train a small agent with the PettingZoo environment: a linear softmax policy (numpy only),
learned by REINFORCE with a running baseline, playing seat 0 of 4-player Oh Hell, 5-card
deals (one deal an episode), against three heuristic bots seated inside the environment.

    python examples/train_bidder.py --minutes 3 --out curve.csv

Every 500 deals it prints the mean points a deal of the last 500 and the share of bids made;
``--out`` writes the curve as CSV. A random seat 0 scores about 2.3 points a deal here, the
heuristic about 5 (docs/research.md has a run's curve).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl.research.env import UpdownEnv


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--out", default="")
    args = ap.parse_args(argv)
    env = UpdownEnv("oh-hell", 4, episode="deal", start_deal=4, reward="points",
                    opponents={1: "heuristic", 2: "heuristic", 3: "heuristic"})
    rng = np.random.default_rng(args.seed)
    size, actions = env.encoding.size, env.space.size
    w = np.zeros((actions, size + 1))  # a linear score per action (and a bias)
    baseline, deals, points, made = 0.0, 0, [], []
    curve: list[tuple[int, float, float]] = []
    end = time.process_time() + args.minutes * 60
    while time.process_time() < end:
        env.reset(seed=int(rng.integers(2**31)))
        steps = []
        total = 0.0
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            total += reward
            if term or trunc:
                env.step(None)
                continue
            x = np.append(obs["observation"], 1.0)
            legal = np.flatnonzero(obs["action_mask"])
            logits = w[legal] @ x
            p = np.exp(logits - logits.max())
            p /= p.sum()
            k = rng.choice(len(legal), p=p)
            steps.append((x, legal, p, k))
            env.step(int(legal[k]))
        advantage = total - baseline
        baseline += 0.01 * (total - baseline)
        for x, legal, p, k in steps:  # REINFORCE: raise the log-probability of what was done
            grad = -p[:, None] * x[None, :]
            grad[k] += x
            w[legal] += args.lr * advantage * grad
        assert env.game is not None
        seat = env.game.results[-1].seats[0]
        deals += 1
        points.append(total)
        made.append(seat.bid == seat.taken)
        if deals % 500 == 0:
            curve.append((deals, float(np.mean(points[-500:])), float(np.mean(made[-500:]))))
            print(f"{deals:>7} deals  points a deal {curve[-1][1]:6.2f}  bids made {curve[-1][2]:.0%}", flush=True)
    if args.out:
        with open(args.out, "w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["deals", "points_per_deal", "bids_made"])
            out.writerows(curve)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
