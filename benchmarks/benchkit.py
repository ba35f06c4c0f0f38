"""What the benchmark scripts share: OpenSpiel when it is installed, and timing a child process."""

from __future__ import annotations

import os
import subprocess
import tempfile
from typing import Any, Sequence

INSTALL_HINT = 'pip install ".[bench]"  (or: pip install open_spiel)'


def import_pyspiel() -> Any | None:
    """The ``pyspiel`` module, or None when OpenSpiel is not installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    return pyspiel


def openspiel_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # pragma: no cover - metadata missing
        return None


# A child's ru_maxrss counts what it held before exec, a copy of this (large) process: the
# peak is read instead from the child's own /proc/self/status (VmHWM) when it ends.
_PEAK = ("import atexit, os, runpy, sys\n"
         "def peak():\n"
         "    with open('/proc/self/status') as f, open(os.environ['BENCH_PEAK_FILE'], 'w') as out:\n"
         "        out.write(next(l for l in f if l.startswith('VmHWM')).split()[1])\n"
         "atexit.register(peak)\n"
         "sys.argv = sys.argv[1:]\n"
         "runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n")


def run_child(cmd: Sequence[str], env: dict[str, str] | None = None, cwd: str | None = None,
              peak: bool = True) -> dict[str, Any]:
    """Run ``cmd`` (output discarded): its exit status, CPU seconds (user + system) and, with
    ``peak`` for a ``python -m MODULE ...`` command on Linux, peak RSS (``max_rss_mb``; else None)."""
    cmd = list(cmd)
    peak_file = None
    if peak and len(cmd) > 2 and cmd[1] == "-m" and os.path.exists("/proc/self/status"):
        fd, peak_file = tempfile.mkstemp(suffix=".peak")
        os.close(fd)
        env = dict(os.environ if env is None else env, BENCH_PEAK_FILE=peak_file)
        cmd = [cmd[0], "-c", _PEAK, *cmd[2:]]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    rss = None
    if peak_file is not None:
        try:
            with open(peak_file) as f:
                rss = round(int(f.read() or 0) / 1024, 1) or None
        finally:
            os.unlink(peak_file)
    return {"exit": os.waitstatus_to_exitcode(status), "cpu_s": usage.ru_utime + usage.ru_stime,
            "max_rss_mb": rss}


def deal_at_random(k: Any, rng: Any) -> None:
    """Give a score keeper (:class:`updown_dsl.players.keeper.Keeper`) one deal drawn at random:
    trump, calls and bids among the legal ones, the tricks spread at random."""
    from updown_dsl.cards import Suit
    from updown_dsl.players.keeper import Need

    start = len(k.deals)
    while len(k.deals) == start and not k.is_over:
        step = k.step()
        if step.need is Need.TRUMP:
            k.give_trump(rng.choice([*Suit, None]) if step.no_trump else rng.choice(list(Suit)))
        elif step.need is Need.CALL:
            k.give_call(rng.choice(k.calls()))
        elif step.need is Need.BID:
            k.give_bid(rng.choice(step.choices))
        else:
            taken = [0] * k.players
            for _ in range(step.deal.cards):
                taken[rng.randrange(k.players)] += 1
            k.give_tricks(taken)
