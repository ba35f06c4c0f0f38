#!/usr/bin/env python3
"""Start-up cost of the command line, as a ratio to ``python -c "import typer"``.

Run from a source checkout (or with the project installed)::

    python benchmarks/bench_startup.py              # table
    python benchmarks/bench_startup.py --json       # one JSON object
    python benchmarks/bench_startup.py --runs 21

Each command runs in a child process, ``--runs`` times, in interleaved rounds (so that
a change in the machine's load hits every command alike); the figure is the median of
the children's CPU time (user + system, from ``os.wait4``). Byte code is compiled first
and the children may write it, as on an installed copy (``PYTHONDONTWRITEBYTECODE`` is
cleared for them).

The commands: ``updown --help``; ``updown check`` of a 30-line record (a two-deal game
of a variant file that extends ``oh-hell``), with the cache of variant files read before (a
folder of the run's own, filled by the warm-up) and without one; ``updown variant validate``
of a bundled variant file. The baseline is ``python -c "import typer"``, in the same rounds.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence

try:  # a source checkout without the package installed
    import updown_dsl
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import updown_dsl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import run_child  # noqa: E402

from updown_dsl import Game, __version__, loads_variant
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import format_transcript

SHORT_VARIANT = "name: oh-hell-short\nextends: oh-hell\nschedule:\n  - {cards: 1}\n  - {cards: 2}\n"


def small_record(folder: Path) -> Path:
    """A clean two-deal game (about 30 lines) of a variant file beside it."""
    (folder / "oh-hell-short.yaml").write_text(SHORT_VARIANT, encoding="utf-8")
    game = Game(loads_variant(SHORT_VARIANT), 4, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    text = format_transcript(game_transcript(game, ["Anna", "Boris", "Vera", "Gleb"],
                                             variant="oh-hell-short.yaml"))
    path = folder / "small.log"
    path.write_text(text, encoding="utf-8")
    return path


def cpu_of(cmd: Sequence[str], env: dict[str, str], cwd: Path) -> tuple[float, int]:
    """CPU seconds of one child running ``cmd``, and its exit status."""
    out = run_child(cmd, env, str(cwd), peak=False)  # (no wrapper around what is timed)
    return out["cpu_s"], out["exit"]


def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> dict[str, Any]:
    package = Path(updown_dsl.__file__).resolve().parent
    compileall.compile_dir(str(package), quiet=1)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(package.parent) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        record = small_record(folder)
        env["UPDOWN_CACHE_DIR"] = str(folder / "cache")  # (not the user's: filled by the warm-up)
        no_cache = {**env, "UPDOWN_CACHE_DIR": ""}
        commands = {
            "import typer": [py, "-c", "import typer"],
            "updown --help": [py, "-m", "updown_dsl", "--help"],
            "updown check (30 lines)": [py, "-m", "updown_dsl", "check", str(record)],
            "updown check, no cache": [py, "-m", "updown_dsl", "check", str(record)],
            "updown variant validate": [py, "-m", "updown_dsl", "variant", "validate",
                                        str(package.parent / "variants" / "odessa.yaml")
                                        if (package.parent / "variants").is_dir() else "odessa"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        status: dict[str, int] = {}
        envs = {name: no_cache if "no cache" in name else env for name in commands}
        for name, cmd in commands.items():  # warm up: byte code, file caches, the variant cache
            status[name] = cpu_of(cmd, envs[name], folder)[1]
        for _ in range(args.runs):
            for name, cmd in commands.items():
                times[name].append(cpu_of(cmd, envs[name], folder)[0])
    base = statistics.median(times["import typer"])
    rows = {name: {"cpu_ms_median": round(1000 * statistics.median(t), 1),
                   "cpu_ms_min": round(1000 * min(t), 1),
                   "ratio_to_import_typer": round(statistics.median(t) / base, 3),
                   "exit": status[name]} for name, t in times.items()}
    report = {
        "environment": {"python": platform.python_version(), "platform": platform.platform(),
                        "cpus": os.cpu_count(), "updown": __version__,
                        "load": list(os.getloadavg()) if hasattr(os, "getloadavg") else None},
        "runs": args.runs,
        "commands": rows,
        "ratio_check": rows["updown check (30 lines)"]["ratio_to_import_typer"],
    }
    if args.json:
        out(json.dumps(report, indent=2))
    else:
        out(f"updown {__version__} start-up: median CPU time of {args.runs} runs per command, "
            f"Python {report['environment']['python']}, load {report['environment']['load']}")
        out(f"{'command':<28} {'median ms':>10} {'min ms':>8} {'ratio':>7} {'exit':>5}")
        for name, r in rows.items():
            out(f"{name:<28} {r['cpu_ms_median']:>10.1f} {r['cpu_ms_min']:>8.1f} "
                f"{r['ratio_to_import_typer']:>7.2f} {r['exit']:>5}")
        out("target: updown check of a 30-line file at most 1.5 times 'import typer'")
    return report


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench_startup.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=15, help="runs of each command (default %(default)s)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    run(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
