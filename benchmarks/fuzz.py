#!/usr/bin/env python3
"""Fuzz the reader, the checker, the loader, the formula compiler, the terminal and the file
kinds for a while.

    python benchmarks/fuzz.py --minutes 30                 # all six targets, a pool of workers
    python benchmarks/fuzz.py --minutes 2 --targets loader --save found/

Every input must end in diagnostics: an uncaught exception, more than 2 s of CPU, or (for
the loader) a variant the engine cannot play to a clean record is a failure; so is hostile
text that reaches a console, the rule book or the Markdown raw (``terminal``), and a write
with ``--force`` that replaces a device, a FIFO, a folder or a link (``files``). The report gives
the inputs tried per target and the failures by class; ``--save DIR`` writes one example of
each failure class (with what it did) for the regression corpus in ``tests/fuzz_corpus/``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzkit  # noqa: E402


def _worker(target: str, seed: int, seconds: float) -> dict[str, object]:
    """Fuzz one target for ``seconds`` of wall time: counts, failures by class, an example each."""
    tried = 0
    failures: Counter[str] = Counter()
    examples: dict[str, tuple[str, str]] = {}
    slowest = 0.0
    end = time.monotonic() + seconds
    stream = fuzzkit.inputs(target, seed)
    while time.monotonic() < end:
        data = next(stream)
        outcome = fuzzkit.run_one(target, data)
        tried += 1
        slowest = max(slowest, outcome.seconds)
        if outcome.failed:
            failures[outcome.kind] += 1
            if outcome.kind not in examples or len(data) < len(examples[outcome.kind][0]):
                examples[outcome.kind] = (data.hex(), outcome.detail)
    return {"target": target, "tried": tried, "failures": dict(failures), "examples": examples,
            "slowest": slowest}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0, help="wall time of the whole run")
    parser.add_argument("--targets", default=",".join(fuzzkit.TARGETS), help="comma-separated targets")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", metavar="DIR", help="write one input of each failure class here")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    targets = [t for t in args.targets.split(",") if t]
    for t in targets:
        if t not in fuzzkit.TARGETS:
            parser.error(f"no target {t!r} (targets: {', '.join(fuzzkit.TARGETS)})")
    # Each worker takes a slice of wall time on one target; the slices cycle over the targets.
    slices = max(len(targets), args.workers) * 4
    seconds = args.minutes * 60 * args.workers / slices
    jobs = [(targets[i % len(targets)], args.seed * 1000 + i, seconds) for i in range(slices)]
    totals: dict[str, Counter[str]] = {t: Counter() for t in targets}
    tried: Counter[str] = Counter()
    slowest: dict[str, float] = {t: 0.0 for t in targets}
    examples: dict[tuple[str, str], tuple[str, str]] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for result in pool.map(_worker, *zip(*jobs)):
            t = str(result["target"])
            tried[t] += int(result["tried"])  # type: ignore[call-overload]
            totals[t].update(result["failures"])  # type: ignore[arg-type]
            slowest[t] = max(slowest[t], float(result["slowest"]))  # type: ignore[arg-type]
            for kind, ex in result["examples"].items():  # type: ignore[attr-defined]
                examples.setdefault((t, kind), ex)
    report = {t: {"tried": tried[t], "failures": dict(totals[t]), "slowest_cpu_s": round(slowest[t], 3)}
              for t in targets}
    if args.save:
        folder = Path(args.save)
        folder.mkdir(parents=True, exist_ok=True)
        for (t, kind), (hexdata, detail) in sorted(examples.items()):
            stem = f"{t}-{kind.replace(':', '-')}"
            (folder / f"{stem}.bin").write_bytes(bytes.fromhex(hexdata))
            (folder / f"{stem}.txt").write_text(detail + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{'target':10} {'inputs':>10} {'failures':>9} {'slowest s':>10}  by class")
        for t, r in report.items():
            fails = r["failures"]
            by = ", ".join(f"{k}: {n}" for k, n in sorted(fails.items())) or "-"  # type: ignore[union-attr]
            print(f"{t:10} {r['tried']:>10,} {sum(fails.values()):>9} {r['slowest_cpu_s']:>10.3f}  {by}")  # type: ignore[union-attr]
        print(f"total: {sum(tried.values()):,} inputs, "
              f"{sum(sum(c.values()) for c in totals.values())} failures")
        for (t, kind), (_, detail) in sorted(examples.items()):
            print(f"  {t} {kind}: {detail}")
    return 1 if any(totals[t] for t in targets) else 0


if __name__ == "__main__":
    sys.exit(main())
