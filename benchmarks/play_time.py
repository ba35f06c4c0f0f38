#!/usr/bin/env python3
"""CPU time per move of a bot over a whole game, bots at every seat seeded as ``updown play`` seeds them.

    PYTHONPATH=. python benchmarks/play_time.py --variant georgian --bot search --seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import updown_dsl as ud  # noqa: E402
from updown_dsl.players.bots import make_bot  # noqa: E402
from updown_dsl.players.session import bot_seed  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(prog="play_time.py", description="CPU time per move over a whole game.")
    p.add_argument("--variant", default="georgian")
    p.add_argument("--bot", default="search")
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args()
    game = ud.Game(ud.load_variant(args.variant), None, seed=args.seed)
    bots = [make_bot(args.bot, random.Random(0)) for _ in range(game.players)]
    times: list[float] = []
    while not game.is_over:
        s = game.to_act
        bots[s].rng = random.Random(bot_seed(args.seed, s, len(times)))  # type: ignore[attr-defined]
        view = game.view(s)
        t0 = time.process_time()
        action = bots[s].act(view)
        times.append(time.process_time() - t0)
        game.apply(action)
    times.sort()
    print(f"{args.variant}, {args.bot} at every seat, seed {args.seed}: {len(times)} moves, "
          f"mean {1000 * sum(times) / len(times):.1f} ms, median {1000 * times[len(times) // 2]:.1f} ms, "
          f"slowest {1000 * times[-1]:.0f} ms, over 1 s: {sum(t > 1 for t in times)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
