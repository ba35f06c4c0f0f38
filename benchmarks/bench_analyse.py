#!/usr/bin/env python3
"""How long ``updown analyse`` takes on a whole game: the 24 deals of a Georgian record.

    python benchmarks/bench_analyse.py                   # the default level, --jobs 1 and 2
    python benchmarks/bench_analyse.py --levels 1,3,5 --methods flat,tree --rounds 3 --json

Through the command line, in child processes (start-up included): wall time and CPU seconds
of ``updown analyse RECORD --json`` at each level with ``--jobs 1`` and ``--jobs 2`` (the two
outputs must be equal), the median over ``--rounds`` interleaved rounds. The target of
issue 31: the default level under a minute on two cores. The machine's load average is printed
with the figures (on a shared machine ``--jobs 2`` has less than two cores to use).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RECORD = ROOT / "docs" / "examples" / "georgian-full.log"


def _run(args: list[str]) -> tuple[float, float, bytes]:
    """Wall seconds, CPU seconds (the child and its workers) and the output of one command."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before = os.times()
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "updown_dsl", *args], capture_output=True, check=False, env=env)
    wall = time.perf_counter() - start
    after = os.times()
    if out.returncode != 0:
        raise SystemExit(f"updown {' '.join(args)} failed: {out.stderr.decode()[-500:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, out.stdout


def measure(record: Path, level: int, rounds: int, method: str = "flat") -> dict[str, Any]:
    """The figures of one level."""
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    outputs: dict[int, bytes] = {}
    for _ in range(rounds):
        for jobs in (1, 2):
            wall, cpu, out = _run(["analyse", str(record), "--json", "--level", str(level), "--method", method,
                                   "--jobs", str(jobs)])
            walls[jobs].append(wall)
            cpus[jobs].append(cpu)
            outputs[jobs] = out
    data = json.loads(outputs[1])
    decisions = sum(len(d["decisions"]) for d in data["deals"])
    return {"method": method, "level": level, "deals": len(data["deals"]), "decisions": decisions,
            "wall_s_jobs1": round(statistics.median(walls[1]), 2), "wall_s_jobs2": round(statistics.median(walls[2]), 2),
            "cpu_s": round(statistics.median(cpus[1]), 2),
            "ms_per_decision": round(1000 * statistics.median(cpus[1]) / max(1, decisions), 1),
            "same_output": outputs[1] == outputs[2]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="3", help="search levels, comma-separated (default: 3, the default)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--methods", default="flat", help="flat, tree or both (comma-separated; default: flat)")
    ap.add_argument("--record", default=str(RECORD))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    load = os.getloadavg()
    rows = [measure(Path(args.record), int(level), args.rounds, method)
            for method in args.methods.split(",") for level in args.levels.split(",")]
    out = {"record": os.path.relpath(args.record, ROOT), "load_before": [round(x, 2) for x in load],
           "load_after": [round(x, 2) for x in os.getloadavg()], "cores": os.cpu_count(), "rows": rows}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"updown analyse {out['record']} --json (median of {args.rounds} rounds; load {load[0]:.2f} -> "
          f"{out['load_after'][0]:.2f} on {out['cores']} cores)")
    print(f"{'method':<6} {'level':>5} {'deals':>5} {'decisions':>9} {'wall -j1':>9} {'wall -j2':>9} {'CPU s':>7} {'ms/dec':>7} same")
    for r in rows:
        print(f"{r['method']:<6} {r['level']:>5} {r['deals']:>5} {r['decisions']:>9} {r['wall_s_jobs1']:>9} {r['wall_s_jobs2']:>9} "
              f"{r['cpu_s']:>7} {r['ms_per_decision']:>7} {'yes' if r['same_output'] else 'NO'}")


if __name__ == "__main__":
    main()
