#!/usr/bin/env python3
"""The vectorised runner: steps a CPU-second of random legal play, one process against two.

    python benchmarks/bench_vector.py --envs 64 --workers 2

Runs ``--envs`` games of ``oh-hell`` (4 players, 7-card deals, an episode a deal) in lock-step
with :func:`updown_dsl.research.vector.vector_env`, first in this process
(`SyncVectorEnv`), then over ``--workers`` processes, and prints the steps a wall-clock
second of each and their ratio (the target: 1.8 on two cores). The
machine is shared: the ratio is the figure, not the steps.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl.research.vector import vector_env


def rate(envs: int, steps: int, workers: int) -> float:
    """Steps (games times lock-steps) a wall-clock second of random legal play."""
    vec = vector_env("oh-hell", envs, workers=workers, start_deal=6)
    obs, _ = vec.reset(seed=1)
    rng = np.random.default_rng(0)
    rounds = max(1, steps // envs)
    start = time.perf_counter()
    for _ in range(rounds):
        mask = obs["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)  # (a random legal action a row)
        obs, _, _, _, _ = vec.step(actions)
    seconds = time.perf_counter() - start
    vec.close()
    return rounds * envs / seconds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=40_000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args(argv)
    one = rate(args.envs, args.steps, 1)
    many = rate(args.envs, args.steps, args.workers)
    print(f"{args.envs} games in lock-step: one process {one:,.0f} steps/s, "
          f"{args.workers} worker processes {many:,.0f} steps/s, ratio {many / one:.2f} (target 1.8 on two cores)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
