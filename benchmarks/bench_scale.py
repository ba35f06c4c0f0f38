#!/usr/bin/env python3
"""How much ``--jobs`` and Dask speed up ``updown simulate`` and ``updown check``.

    python benchmarks/bench_scale.py                    # table
    python benchmarks/bench_scale.py --json
    python benchmarks/bench_scale.py --games 400 --archive-games 100000

In one run, through the command line (child processes, start-up included, wall time, since
the point of several processes is to finish sooner):

* ``updown simulate --variant georgian --games N --json`` with ``--jobs 1`` and ``--jobs 2``
  (the outputs must be equal), in interleaved rounds; the speed-up is the median of the
  rounds' ratios;
* ``updown check ARCHIVE`` with ``--jobs 1`` and ``--jobs 2`` on an archive of random-bot games
  (the outputs must be equal);
* with the ``dist`` extra, the same simulation on a Dask ``LocalCluster`` of two workers,
  in-process, and the cost per game of that path over ``--jobs 2``;
* the peak memory (RSS of the main process; each worker's is reported too) of
  ``updown check --jobs 2`` on an archive of ``--archive-games`` games (100,000 by default: a
  set of distinct games repeated), and of ``--jobs 1``, to show memory does not grow with
  the archive.

The machine's load average is printed with the figures: on a busy machine ``--jobs 2`` has
less than two cores to use.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

UPDOWN = [sys.executable, "-m", "updown_dsl"]


def _run(args: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    out = subprocess.run([*UPDOWN, *args], capture_output=True, check=False)
    if out.returncode not in (0, 1):
        raise SystemExit(f"updown {' '.join(args)} failed: {out.stderr.decode()[-500:]}")
    return time.perf_counter() - start, out.stdout


def _peak(args: list[str]) -> dict[str, Any]:
    """Wall time and peak RSS of the main process and of its children, in MB."""
    start = time.perf_counter()
    code = (
        "import resource, runpy, sys\n"
        "sys.argv = ['updown'] + sys.argv[1:]\n"
        "try:\n"
        "    runpy.run_module('updown_dsl', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "sys.stderr.write(f'\\nPEAK {me} {kids}\\n')\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, check=False)
    wall = time.perf_counter() - start
    line = [x for x in out.stderr.decode().splitlines() if x.startswith("PEAK ")][-1].split()
    return {"wall_s": round(wall, 2), "main_rss_mb": round(int(line[1]) / 1024, 1),
            "worker_rss_mb": round(int(line[2]) / 1024, 1) or None}


def _speedup(command: list[str], rounds: int) -> dict[str, float]:
    """``command`` with ``--jobs 1`` and ``--jobs 2`` in interleaved rounds: the median times
    and the median of the rounds' ratios (the outputs must be equal)."""
    ratios, times1, times2 = [], [], []
    for _ in range(rounds):
        t1, out1 = _run([*command, "--jobs", "1"])
        t2, out2 = _run([*command, "--jobs", "2"])
        if out1 != out2:
            raise SystemExit(f"updown {command[0]} --jobs 2 differs from --jobs 1")
        ratios.append(t1 / t2)
        times1.append(t1)
        times2.append(t2)
    return {"jobs1_s": round(statistics.median(times1), 2), "jobs2_s": round(statistics.median(times2), 2),
            "speedup": round(statistics.median(ratios), 2)}


def make_archive(folder: Path, distinct: int, total: int) -> Path:
    """An archive of ``total`` games: ``distinct`` random-bot Odessa games, repeated."""
    games = folder / f"games-{distinct}"
    if not games.exists():
        subprocess.run([*UPDOWN, "simulate", "--variant", "odessa", "--games", str(distinct), "--seed", "5",
                        "--bots", "random", "--out", str(games), "--json"], capture_output=True, check=True)
    texts = [p.read_text(encoding="utf-8") for p in sorted(games.glob("*.log"))]
    path = folder / f"archive-{total}.log"
    with open(path, "w", encoding="utf-8") as out:
        for i in range(total):
            out.write(texts[i % len(texts)])
            out.write("\n")
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per simulation run")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--check-games", type=int, default=2000, help="games of the archive timed by check")
    parser.add_argument("--archive-games", type=int, default=100_000, help="games of the memory archive")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"load_before": os.getloadavg(), "cores": os.cpu_count()}

    sim = ["simulate", "--variant", "georgian", "--games", str(args.games), "--seed", "1", "--json"]
    report["simulate"] = {"games": args.games, **_speedup(sim, args.rounds)}

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        archive = make_archive(folder, min(500, args.check_games), args.check_games)
        report["check"] = {"games": args.check_games, **_speedup(["check", str(archive)], args.rounds)}

        report["dask"] = _dask(args.games // 2)

        big = make_archive(folder, 500, args.archive_games)
        report["memory"] = {"games": args.archive_games, "size_mb": round(big.stat().st_size / 2**20, 1),
                            "jobs1": _peak(["check", str(big), "--jobs", "1"]),
                            "jobs2": _peak(["check", str(big), "--jobs", "2"])}
    report["load_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"cores {report['cores']}, load average before {report['load_before'][0]:.2f}, "
              f"after {report['load_after'][0]:.2f}")
        for key in ("simulate", "check"):
            r = report[key]
            print(f"{key:9} {r['games']:>7} games: --jobs 1 {r['jobs1_s']:.2f} s, --jobs 2 {r['jobs2_s']:.2f} s, "
                  f"speed-up {r['speedup']:.2f}x")
        d = report["dask"]
        if d is None:
            print("dask      not installed (pip install \".[dist]\")")
        else:
            print(f"dask      {d['games']:>7} games on a 2-worker LocalCluster: {d['dask_s']:.2f} s, a pool of 2 "
                  f"{d['pool_s']:.2f} s: {d['overhead_ms_per_game']:+.1f} ms a game")
        m = report["memory"]
        for key in ("jobs1", "jobs2"):
            r = m[key]
            print(f"memory    {m['games']:>7} games ({m['size_mb']} MB), --{key[:4]} {key[4:]}: {r['wall_s']:.1f} s, "
                  f"main {r['main_rss_mb']} MB, largest worker {r['worker_rss_mb'] or '-'} MB")
    return 0


def _dask(games: int) -> dict[str, Any] | None:
    try:
        from distributed import LocalCluster
    except ImportError:
        return None
    from updown_dsl import load_variant
    from updown_dsl.batch import simulate_games

    v = load_variant("georgian")
    bots = ["heuristic"] * 4
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster:
        simulate_games(v, 4, 4, seed=0, bots=bots, scheduler=cluster.scheduler_address)  # warm the workers
        start = time.perf_counter()
        on_dask = simulate_games(v, 4, games, seed=1, bots=bots, scheduler=cluster.scheduler_address)
        dask_s = time.perf_counter() - start
    start = time.perf_counter()
    pooled = simulate_games(v, 4, games, seed=1, bots=bots, jobs=2)
    pool_s = time.perf_counter() - start
    if on_dask.to_dict() != pooled.to_dict():
        raise SystemExit("the Dask simulation differs from the pool's")
    return {"games": games, "dask_s": round(dask_s, 2), "pool_s": round(pool_s, 2),
            "overhead_ms_per_game": round((dask_s - pool_s) / games * 1000, 2)}


if __name__ == "__main__":
    sys.exit(main())
