#!/usr/bin/env python3
"""How well the search bot's roll-out policy makes its bids, seeing every hand.

    PYTHONPATH=. python benchmarks/rollout_check.py --deals 400

Plays ``--deals`` seeded 7-card deals of ``oh-hell`` (the mirror of OpenSpiel's ``oh_hell``)
twice: with four heuristic bots, and with the heuristic's bids and then every seat played by
the roll-out policy of ``players/rollout.py`` (which sees every hand). Prints the share of
bids made, over and under, and the mean points per seat. The roll-out is the leaf evaluation of
the search bot, so the better it makes bids, the better the search judges an action.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Sequence

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl import loads_variant  # noqa: E402
from updown_dsl.engine import Phase  # noqa: E402
from updown_dsl.engine.worlds import game_at_deal  # noqa: E402
from updown_dsl.players.bots import HeuristicBot  # noqa: E402
from updown_dsl.players.rollout import Rollout  # noqa: E402

OH_HELL_7 = "extends: oh-hell\nname: oh-hell-7\nschedule:\n  - {cards: 7}\n"


def check(deals: int, rollout_play: bool) -> dict[str, float]:
    variant = loads_variant(OH_HELL_7)
    made = over = under = points = seats = 0
    for g in range(deals):
        game = game_at_deal(variant, 4, 0, g % 4, rng=random.Random(g))
        game.deal_random()
        bots = [HeuristicBot(random.Random(s)) for s in range(4)]
        while game.phase is Phase.BID or (not rollout_play and game.phase is Phase.PLAY):
            game.apply(bots[game.to_act].act(game.view(game.to_act)))
        if rollout_play:
            Rollout(game).run(game, 0)
        for s in game.results[-1].seats:
            seats += 1
            made += s.bid == s.taken
            over += s.taken > s.bid  # type: ignore[operator]
            under += s.taken < s.bid  # type: ignore[operator]
            points += s.points
    return {"made": made / seats, "over": over / seats, "under": under / seats, "points": points / seats}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="rollout_check.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=400)
    args = p.parse_args(argv)
    for label, flag in (("four heuristic bots", False), ("heuristic bids, roll-out play", True)):
        r = check(args.deals, flag)
        print(f"{label:<32} made {100 * r['made']:.1f}%  over {100 * r['over']:.1f}%  "
              f"under {100 * r['under']:.1f}%  points/seat {r['points']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
