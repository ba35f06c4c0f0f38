#!/usr/bin/env python3
"""A strength ladder in one unit: each bot in one seat against three ``heuristic`` bots.

Run from a source checkout::

    PYTHONPATH=. python benchmarks/ladder.py --groups 2000                  # the whole ladder
    PYTHONPATH=. python benchmarks/ladder.py --variants odessa --rungs random,heuristic,clairvoyant:3 --groups 50

Every rung is played with :mod:`arena` in the ``1v3`` line-up: the rung's bot in one seat, a
``heuristic`` bot in the three others, every deal in all four seat rotations, the same deal
groups (``--seed``) for every rung. The unit is the rung seat's points per deal, with a 95 %
interval over the deal groups, and its share of bids made. ``oh-hell`` is OpenSpiel's
``oh_hell`` (4 players, 7 tricks, mirrored deal by deal into updown's engine: ``--variant
openspiel`` of the arena), where the ladder also has OpenSpiel's ISMCTS with guesses that do
not see the deal (``ismcts:SIMS:fair``); the other variants draw a deal of their schedule per
group.

The top rung, ``clairvoyant:LEVEL``, is the search bot given every seat's true hand instead
of guesses: no bot at a table can play it, so it bounds what seeing more could bring. For each
rung the table gives the share of the gap from ``heuristic`` to ``clairvoyant`` it closes:
(rung − heuristic) / (clairvoyant − heuristic), each against the same three heuristics and
over the deal groups the three rungs share; and
each rung's paired difference from the row above it, over the same deal groups, with its 95 %
interval (the measure of "each level beats the one below").

``--out DIR`` keeps each cell's arena summary as JSON (``VARIANT--RUNG.json``) and a cell
already there is read, not played again: a long ladder can be stopped and resumed, and a cell
kept with fewer groups is extended by the groups it lacks. ``--kept`` plays nothing and prints
the table of the cells kept, each at its own number of groups; rungs of different numbers of
groups are paired over the groups they share (the first ones: the deals are the same).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import arena  # noqa: E402

DEFAULT_RUNGS = ("random", "heuristic", "search:1", "search:2", "search:3", "search:4", "search:5",
                 "ismcts:1000:fair", "clairvoyant:3")
DEFAULT_VARIANTS = ("oh-hell", "odessa", "georgian")
OPPONENT = "heuristic"


def _arena_name(variant: str) -> str:
    return arena.OPENSPIEL if variant == "oh-hell" else variant


def cell(variant: str, rung: str, groups: int | None, seed: int, jobs: int, out: Path | None) -> dict[str, Any]:
    """The arena summary of ``rung`` against three heuristics on ``variant`` (read from ``out``
    when a run kept it; ``groups=None``: as kept, whatever its number of groups)."""
    path = out / f"{variant}--{rung.replace(':', '_')}.json" if out else None
    kept: dict[str, Any] | None = json.loads(path.read_text()) if path is not None and path.is_file() else None
    if kept is not None and kept.get("seed") != seed:
        kept = None  # (another seed's deals: no use here)
    if groups is None:
        if kept is None:
            raise SystemExit(f"ladder.py: no cell kept for {variant} {rung} with seed {seed} in {out}")
        return kept
    if kept is not None and kept["groups"] > groups:
        kept = None
    elif kept is not None and kept["groups"] == groups:
        return kept
    # Group g's deal and every bot's generator come from (seed, g) alone, so the groups a kept
    # cell lacks can be played on their own and the two parts merged: the same as one long run.
    first = kept["groups"] if kept else 0
    results = arena.run_arena(_arena_name(variant), (rung, OPPONENT), groups - first, seed=seed, lineup="1v3",
                              jobs=jobs, first=first)
    summary = arena.summarise(results, (rung, OPPONENT))
    summary["seed"] = seed
    if kept is not None:
        summary = arena.merge_summaries([kept, summary])
    if path is not None:
        path.write_text(json.dumps(summary))
    return summary


def ladder(variant: str, rungs: Sequence[str], groups: int | None, seed: int, jobs: int, out: Path | None) -> list[dict[str, Any]]:
    """One row per rung: points per deal, interval, bids made, ms a decision, gap share."""
    rows = []
    before: list[float] | None = None
    per_group: dict[str, list[float]] = {}
    for rung in rungs:
        if rung.startswith("ismcts") and variant != "oh-hell":
            continue  # (OpenSpiel has only oh_hell of the family)
        s = cell(variant, rung, groups, seed, jobs, out)
        bot = s["bots"][0]
        mine = [g[0] for g in s["per_group"]]
        step, step_ci = paired(mine, before) if before is not None else (None, None)
        before = per_group[rung] = mine
        rows.append({"rung": rung, "points": bot["mean_points"], "ci95": bot["ci95"], "bids_made": bot["bids_made"],
                     "ms_per_decision": bot["ms_per_decision"], "groups": s["groups"],
                     "step": step, "step_ci95": step_ci})
    base = per_group.get(OPPONENT)
    top = next((per_group[r["rung"]] for r in rows if r["rung"].startswith("clairvoyant")), None)
    for r in rows:
        r["gap_closed"] = None if base is None or top is None else gap_closed(per_group[r["rung"]], base, top)
    return rows


def gap_closed(these: Sequence[float], base: Sequence[float], top: Sequence[float]) -> float | None:
    """(rung − heuristic) / (clairvoyant − heuristic) over the deal groups all three have, from
    the first: the same deals, whatever the number of groups each rung was played."""
    n = min(len(these), len(base), len(top))
    mine, low, high = (sum(xs[:n]) / n for xs in (these, base, top))
    return None if math.isclose(high, low) else (mine - low) / (high - low)


def paired(these: Sequence[float], those: Sequence[float]) -> tuple[float, float]:
    """The mean difference of two rungs' points a deal over the same deal groups (the groups
    both have, from the first), and its 95 % interval (tighter than the two rungs' intervals
    together: the deals are the same)."""
    diffs = [a - b for a, b in zip(these, those)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = (sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)) ** 0.5
    return round(mean, 4), round(1.96 * sd / n ** 0.5, 4)


def markdown(variant: str, rows: Sequence[dict[str, Any]]) -> str:
    counts = sorted({r["groups"] for r in rows}) or [0]
    groups = (f"{counts[0]} deal groups" if len(counts) == 1
              else f"{counts[0]:,} to {counts[-1]:,} deal groups, the number beside each bot")
    lines = [f"`{variant}` ({groups}; each in 4 seat rotations)", "",
             "| bot (one seat, three heuristics) | points a deal | 95 % | over the row above | bids made "
             "| ms a decision | gap closed |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        made = f"{100 * r['bids_made']:.1f} %" if r["bids_made"] is not None else "–"
        gap = f"{100 * r['gap_closed']:.0f} %" if r["gap_closed"] is not None else "–"
        ms = f"{r['ms_per_decision']:.1f}" if r["ms_per_decision"] is not None else "–"
        step = f"{r['step']:+.2f} ± {r['step_ci95']:.2f}" if r.get("step") is not None else "–"
        name = f"`{r['rung']}`" + ("" if len(counts) == 1 else f" ({r['groups']:,})")
        lines.append(f"| {name} | {r['points']:+.3f} | ±{r['ci95']:.3f} | {step} | {made} | {ms} | {gap} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="ladder.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--variants", default=",".join(DEFAULT_VARIANTS))
    p.add_argument("--rungs", default=",".join(DEFAULT_RUNGS))
    p.add_argument("--groups", type=int, default=2000)
    p.add_argument("--seed", type=int, default=arena.DEFAULT_SEED)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, default=None, help="keep each cell's summary here, and resume from it")
    p.add_argument("--kept", action="store_true",
                   help="play nothing: the table of the cells kept in --out, each at its own number of groups")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.kept and not args.out:
        p.error("--kept reads the cells kept in --out DIR")
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
    result = {}
    for variant in [v.strip() for v in args.variants.split(",") if v.strip()]:
        rows = ladder(variant, rungs, None if args.kept else args.groups, args.seed, args.jobs, args.out)
        result[variant] = rows
        if not args.json:
            print(markdown(variant, rows) + "\n", flush=True)
    if args.json:
        print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
