#!/usr/bin/env python3
"""How long ``updown play``'s ``hint`` takes: CPU time of :meth:`Session.hint` at the default
search level, at every decision of the human seat in seeded games.

    PYTHONPATH=. python benchmarks/hint_latency.py --variants oh-hell,odessa,georgian --games 3

The human seat (seat 0) plays the hint it is given; the other seats are the heuristic bots of
``updown play``. Printed per variant: the hints asked, the median, the 95th percentile and the
slowest, in milliseconds of CPU time (``time.process_time``, one process, one core; the target
is 300 ms at the 95th percentile).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl import load_variant  # noqa: E402
from updown_dsl.players.session import Session  # noqa: E402


def latencies(variant: str, games: int, seed: int) -> list[float]:
    """Seconds of CPU time of every hint the human seat asks for in ``games`` games."""
    out: list[float] = []
    v = load_variant(variant)
    for g in range(games):
        session = Session.start(v, v.default_players, humans=[0], seed=seed + g)
        session.deal_if_needed()
        while not session.game.is_over:
            if session.game.to_act == 0:
                t0 = time.process_time()
                hint = session.hint()
                out.append(time.process_time() - t0)
                session.apply(hint.action)
            else:
                session.apply(session.bot_action())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default="oh-hell,odessa,georgian")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{'variant':<12} {'hints':>6} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for name in [v.strip() for v in args.variants.split(",") if v.strip()]:
        xs = sorted(latencies(name, args.games, args.seed))
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        print(f"{name:<12} {len(xs):>6} {1000 * statistics.median(xs):>10.1f} {1000 * p95:>8.1f} "
              f"{1000 * xs[-1]:>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
