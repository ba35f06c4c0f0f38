"""The heuristic bot against three random bots, per variant: points, bids made, wins, time.

Runs :func:`updown_dsl.players.simulate.simulate` with the line-up ``heuristic random random random``
rotating one seat per game (so each kind sits in each seat equally often over a multiple of
4 games) and prints a Markdown table, or JSON with ``--json``. The figures in
``docs/bots.md`` come from::

    PYTHONPATH=. python benchmarks/bots_vs_random.py --games 1000 --jobs 2

``--jobs N`` plays the variants in N processes (the table is the same, only the wall time
changes); the ``seconds`` column is each variant's own time in its process.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

try:
    import updown_dsl  # noqa: F401  (only to know whether it is importable)
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MAIN_VARIANTS = ("up-and-down", "oh-hell", "odessa", "georgian", "russian")
DEFAULT_SEED = 20240601


def run_one(variant: str, games: int, players: int, seed: int, bot: str) -> dict[str, Any]:
    """Simulate one variant; the summary as a dict plus the time it took."""
    from updown_dsl.players.simulate import simulate

    lineup = [bot] + ["random"] * (players - 1)
    start = time.perf_counter()
    cpu = time.process_time()
    summary = simulate(variant, players, games, seed=seed, bots=lineup, rotate=True)
    out = summary.to_dict()
    out["seconds"] = time.perf_counter() - start
    out["cpu_seconds"] = time.process_time() - cpu
    return out


def table(rows: list[dict[str, Any]], bot: str) -> str:
    head = (f"| variant | games | {bot}: mean points (sd) | random: mean points (sd) | "
            f"{bot}: bids made | random: bids made | {bot}: wins | hook | deals/game | "
            "decisions/deal | seconds |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        v = r["variant"]
        kinds = {k["bot"]: k for k in r["kinds"]}
        h, x = kinds[bot], kinds["random"]
        lines.append(
            f"| {v['variant']} | {v['games']} | {h['mean_points']:.1f} ({h['sd_points']:.1f}) | "
            f"{x['mean_points']:.1f} ({x['sd_points']:.1f}) | {h['bids_made']:.1%} | {x['bids_made']:.1%} | "
            f"{h['win_share']:.1%} | {v['hook_share']:.1%} | {v['mean_deals']:.1f} | "
            f"{v['mean_deal_decisions']:.1f} | {r['seconds']:.1f} |"
        )
    lines.append("")
    lines.append("Mean final points by seat (seat 1 is eldest in the first deal):")
    lines.append("")
    players = len(rows[0]["seats"]) if rows else 0
    lines.append("| variant | bot | " + " | ".join(f"seat {s + 1}" for s in range(players)) + " |")
    lines.append("|" + "---|" * (players + 2))
    for r in rows:
        for k in r["kinds"]:
            cells = ["" if x is None else f"{x:.1f}" for x in k["mean_points_by_seat"]]
            lines.append(f"| {r['variant']['variant']} | {k['bot']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games per variant (default 1000)")
    ap.add_argument("--variants", default=",".join(MAIN_VARIANTS),
                    help="comma-separated bundled names or paths (default: the five main variants)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--bot", default="heuristic", help="the bot to measure (default heuristic)")
    ap.add_argument("--jobs", type=int, default=1, help="variants played in parallel processes")
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    ap.add_argument("--json-out", metavar="FILE", help="also write the JSON to FILE")
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    start = time.perf_counter()
    jobs = [(v, args.games, args.players, args.seed, args.bot) for v in variants]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=min(args.jobs, len(jobs))) as pool:
            rows = list(pool.map(run_one, *zip(*jobs)))
    else:
        rows = [run_one(*j) for j in jobs]
    wall = time.perf_counter() - start
    data = {"rows": rows, "wall_seconds": wall, "cpus": os.cpu_count(), "python": sys.version.split()[0],
            "games": args.games, "players": args.players, "seed": args.seed, "jobs": args.jobs}
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        print(table(rows, args.bot))
        print()
        print(f"{args.games} games per variant, {args.players} players, seed {args.seed}, "
              f"{args.jobs} job(s): {wall:.1f} s wall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
