"""How many one-cell mistakes in a sheet of bids and tricks `updown check` finds.

For each bundled variant: random sheets kept through the keeper (legal bids, random tricks),
written as CSV (`updown share --csv`), one bid or tricks cell changed to another number the
deal could hold (0 to the cards of the deal), read back and checked as `updown check game.csv`
does. A mistake is found when the check reports an error; a mistake not found is a sheet the
rules accept, which the keeper replays without a refusal: another valid sheet, so no checker
could find it. Run twice: the CSV with bids and tricks only, and with the scores and totals.

    python benchmarks/sheet_checks.py --sheets 1000            # every bundled variant
    python benchmarks/sheet_checks.py --sheets 200 --variant odessa
"""

from __future__ import annotations

import argparse
import csv
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl import load_variant  # noqa: E402
from updown_dsl.diagnostics import Severity  # noqa: E402
from updown_dsl.lang.loader import bundled_names  # noqa: E402
from updown_dsl.players.keeper import Keeper, KeepError  # noqa: E402
from updown_dsl.records.checker import check_transcript  # noqa: E402
from updown_dsl.records.csvsheet import read_csv_sheet, sheet_csv  # noqa: E402
from updown_dsl.records.transcript import parse_transcript  # noqa: E402

from benchkit import deal_at_random  # noqa: E402


def random_sheet(variant: str, rng: random.Random) -> Keeper:
    v = load_variant(variant)
    n = 4 if v.min_players <= 4 <= v.max_players else v.default_players
    k = Keeper(v, [f"P{i}" for i in range(1, n + 1)], label=variant)
    while not k.is_over:
        deal_at_random(k, rng)
    return k


def one(variant: str, rng: random.Random, scores: bool) -> tuple[bool, bool]:
    """(found, proven valid) for one sheet with one changed cell."""
    k = random_sheet(variant, rng)
    text = sheet_csv(k.names, k.game.results, [("variant", variant)], k.variant)
    rows = list(csv.reader(io.StringIO(text.split("\n", 1)[1])))
    head, body = rows[0], [r for r in rows[1:] if r]
    keep = [c for c, name in enumerate(head) if c < 4 or name.endswith((" call", " bid", " took"))
            or (scores and name.endswith((" score", " total")))]
    head = [head[c] for c in keep]
    body = [[r[c] for c in keep] for r in body]
    cells = [(r, c) for r in range(len(body)) for c, name in enumerate(head)
             if name.endswith((" bid", " took")) and body[r][c] != ""]
    r, c = rng.choice(cells)
    cards = int(body[r][1])
    old = int(body[r][c])
    body[r][c] = str(rng.choice([x for x in range(cards + 1) if x != old]))
    out = io.StringIO()
    out.write(f"# variant: {variant}\n")
    csv.writer(out, lineterminator="\n").writerows([head, *body])
    record = read_csv_sheet(out.getvalue(), "game.csv")
    t, diags = parse_transcript(record.text, "game.csv")
    assert t is not None
    report = check_transcript(t, diags)
    if any(d.severity is Severity.ERROR for d in report.diagnostics):
        return True, False
    try:
        Keeper.from_transcript(t, k.variant)  # the changed sheet, replayed under the rules
        return False, True
    except KeepError:
        return False, False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sheets", type=int, default=1000)
    ap.add_argument("--variant", action="append")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    names = args.variant or bundled_names()
    print("| variant | bids and tricks: found | not found, valid | with scores and totals: found | not found, valid |")
    print("|---|---|---|---|---|")
    sums = [0, 0, 0, 0]
    start = time.perf_counter()
    for v in names:
        row = []
        for scores in (False, True):
            rng = random.Random(f"{args.seed}-{v}-{scores}")
            found = valid = 0
            for _ in range(args.sheets):
                f, ok = one(v, rng, scores)
                found += f
                valid += ok
            row += [found, valid]
        sums = [a + b for a, b in zip(sums, row)]
        n = args.sheets
        print(f"| {v} | {row[0]} ({row[0] / n:.1%}) | {row[1]} | {row[2]} ({row[2] / n:.1%}) | {row[3]} |")
    total = args.sheets * len(names)
    print(f"| all {len(names)} | {sums[0]} of {total} ({sums[0] / total:.1%}) | {sums[1]} | "
          f"{sums[2]} of {total} ({sums[2] / total:.1%}) | {sums[3]} |")
    print(f"\n{time.perf_counter() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
