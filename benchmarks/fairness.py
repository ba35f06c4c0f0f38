#!/usr/bin/env python3
"""Do the bots decide on what their seat sees, and on nothing else?

For decisions of random-bot games of the bundled variants, the unseen cards are dealt again
in a way that fits everything the deciding seat has seen (its hand, the cards played, the
bids, the voids the play showed: the sampler the search bot guesses with), and the seat's
bot, seeded the same, decides again in that other game. A bot that sees only its view makes
the same decision; one that looked at another hand would, sooner or later, not.

    python benchmarks/fairness.py --decisions 10000            # every bundled variant
    python benchmarks/fairness.py --decisions 300 --bots random,heuristic,search:1

Prints, per bot, the decisions compared and the differences (the target is 0), and, for a
difference, where it was.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl import Game, IllegalAction, bundled_names, load_variant
from updown_dsl.engine.worlds import Worlds
from updown_dsl.players.bots import make_bot
from updown_dsl.players.sampling import Sampler


def positions(variants: list[str], count: int, seed: int) -> Any:
    """(variant, game, seat) at ``count`` decisions of random games, spread over the deals."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        name = rng.choice(variants)
        v = load_variant(name)
        game = Game(v, v.default_players, seed=rng.randrange(10**6))
        while not game.is_over and made < count:
            if rng.random() < 0.08 and len(game.legal_actions()) > 1:
                yield name, game, game.to_act
                made += 1
            game.apply(rng.choice(game.legal_actions()))


def other_world(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The game with the cards ``seat`` cannot see dealt again to fit its view (None: the
    view leaves no other way)."""
    view = game.view(seat)
    try:
        hands = Sampler(view).sample(rng)
        other = Worlds(view).world(hands, list(view.bids), rng=random.Random(1))
    except (ValueError, IndexError, IllegalAction):
        return None  # (a guess the play contradicts, as the search bot rejects some: another time)
    # A world must show the seat all it saw. The guess can miss what the seat was told besides
    # the cards: where the others' bids are hidden, the bid the hook forbids the last bidder
    # (Russian poker's hidden deal) tells their total, which the guessed bids do not keep.
    return other if public(other.view(seat)) == public(view) else None


#: What a seat's view shows (its public attributes).
PUBLIC = ("seat", "players", "deal", "dealer", "phase", "to_act", "trump", "trump_known", "turned", "bids",
          "taken", "totals", "legal", "forbidden_bid", "winning_plays", "trick_winner", "seen_hands", "calls",
          "declarer", "hand", "tricks", "trick")


def public(view: Any) -> tuple[Any, ...]:
    return tuple(getattr(view, name, None) for name in PUBLIC)


def run(decisions: int, bots: list[str], variants: list[str], seed: int) -> dict[str, Any]:
    compared = {b: 0 for b in bots}
    differ = {b: 0 for b in bots}
    where: list[str] = []
    skipped = 0
    rng = random.Random(seed)
    for name, game, seat in positions(variants, decisions, seed):
        other = other_world(game, seat, rng)
        if other is None:
            skipped += 1
            continue
        for kind in bots:
            k = rng.randrange(10**9)
            a = make_bot(kind, random.Random(k)).act(game.view(seat))
            b = make_bot(kind, random.Random(k)).act(other.view(seat))
            compared[kind] += 1
            if a != b:
                differ[kind] += 1
                if len(where) < 10:
                    where.append(f"{kind} {name} deal {game.deal.number} seat {seat}: {a} / {b}")
    return {"compared": compared, "differ": differ, "where": where, "skipped": skipped}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=10_000)
    ap.add_argument("--bots", default="random,heuristic")
    ap.add_argument("--variants", default="")
    ap.add_argument("--seed", type=int, default=20261205)
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v] or bundled_names()
    result = run(args.decisions, args.bots.split(","), variants, args.seed)
    for kind in result["compared"]:
        print(f"{kind:<12} decisions {result['compared'][kind]:>6}  differences {result['differ'][kind]}")
    print(f"positions with no other world that shows the seat all it saw: {result['skipped']}")
    for line in result["where"]:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
