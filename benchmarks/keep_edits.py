"""Corrections kept by `updown keep`: a past deal corrected mid-game gives the totals of the
corrected sheet entered cleanly.

For each bundled variant, random sheets are kept through the keeper up to a random deal n,
deal k < n is given other tricks (a random deal of its cards), the game is kept to its end,
and its totals are compared with those of the same deals, as corrected, entered one after the
other into a new keeper; the record is checked too. A correction the rules refuse (a game to a
target that would have ended sooner) changes nothing and is counted apart.

    python benchmarks/keep_edits.py --sheets 1000     # about 1,000 sheets over every bundled variant
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl import load_variant  # noqa: E402
from updown_dsl.diagnostics import Severity  # noqa: E402
from updown_dsl.lang.loader import bundled_names  # noqa: E402
from updown_dsl.players.keeper import Keeper, KeepError, restored  # noqa: E402
from updown_dsl.records.checker import check_text  # noqa: E402
from updown_dsl.records.transcript import format_transcript  # noqa: E402

from benchkit import deal_at_random  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sheets", type=int, default=1000, help="sheets in all, shared among the variants")
    args = ap.parse_args()
    names = bundled_names()
    per = -(-args.sheets // len(names))
    same = refused = total = errors = 0
    start = time.perf_counter()
    for v in names:
        variant = load_variant(v)
        n_players = 4 if variant.min_players <= 4 <= variant.max_players else variant.default_players
        players = [f"P{i}" for i in range(1, n_players + 1)]
        for i in range(per):
            rng = random.Random(f"{v}-{i}")
            kp = Keeper(variant, players, label=v)
            n = rng.randrange(2, 30)
            while not kp.is_over and len(kp.deals) < n:
                deal_at_random(kp, rng)
            if len(kp.deals) < 2:
                continue
            total += 1
            number = rng.randrange(1, len(kp.deals))
            took = [0] * kp.players
            for _ in range(kp.game.results[number - 1].deal.cards):
                took[rng.randrange(kp.players)] += 1
            try:
                kp.edit(number, took=took)
            except KeepError:
                refused += 1
                continue
            while not kp.is_over:
                deal_at_random(kp, rng)
            clean = restored(Keeper(variant, players, label=v), kp.deals, [])
            same += clean.totals == kp.totals
            report = check_text(format_transcript(kp.transcript()))
            errors += any(d.severity is Severity.ERROR for d in report.diagnostics)
    print(f"{len(names)} variants, {total} sheets: {same} corrected sheets give the totals of the corrected "
          f"sheet entered cleanly, {refused} corrections refused by the rules, {errors} records with errors "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
