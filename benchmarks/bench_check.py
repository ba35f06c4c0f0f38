#!/usr/bin/env python3
"""How fast ``updown check`` audits records, at the three levels, against OpenSpiel's
legality-checked replay of the same deals.

Run from a source checkout (or with the project installed)::

    python benchmarks/bench_check.py                 # table
    python benchmarks/bench_check.py --json          # one JSON object
    python benchmarks/bench_check.py --games 300 --rounds 7 --memory 1000,10000

What it does, in one run:

* makes an archive of random-bot games (legal actions drawn uniformly) of every bundled
  variant, written at the ``full``, ``plays`` and ``sheet`` levels;
* checks each archive in-process (``checker.check_lines``, reading the text included) and
  through the command line (``updown check FILE`` in a child process, start-up included),
  timing CPU seconds;
* with the optional ``open_spiel`` package, mirrors every deal of the ``oh-hell`` games
  into OpenSpiel's ``oh_hell`` (same hands, trump card, dealer, bids and cards) and replays
  them from their action lists with ``apply_action_with_legality_check``; the scores of
  both sides must agree deal by deal. The two checks run in interleaved rounds and
  ``ratio_check`` is the median of the rounds' ratios (updown full level / OpenSpiel);
* ``--one-deal N`` (default 2000) also makes an archive of N one-deal records, the shape of an
  online room's export: each record is a whole game of a one-deal variant file beside the
  archive (``room-K.yaml``: ``oh-hell`` for four players with one deal of K cards, K in 3, 5, 7 and 9), with
  its own header (variant, players, first dealer, level, writer, rules hash). It is checked
  in-process against OpenSpiel's legality-checked replay of the same deals, in interleaved
  rounds: ``ratio_one_deal`` is the median of the rounds' ratios (records a CPU-second);
* ``--memory`` checks archives of N games through the command line and reports peak RSS
  and CPU seconds for each, to show cost linear in length and memory flat.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

try:  # a source checkout without the package installed
    import updown_dsl
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import updown_dsl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchkit import INSTALL_HINT, import_pyspiel, openspiel_version, run_child  # noqa: E402

from updown_dsl import Game, __version__, bundled_names, load_variant
from updown_dsl.records.checker import check_lines
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import LEVELS, format_transcript

DEFAULT_SEED = 20240601
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zina", "Ivan", "Kira", "Lev")
#: OpenSpiel's card order: rank (2..A) times four plus the suit, clubs, diamonds, spades, hearts.
_OS_SUIT = {"C": 0, "D": 1, "S": 2, "H": 3}


# --------------------------------------------------------------------------- archives
def random_games(variant_name: str, games: int, seed: int) -> list[Game]:
    """``games`` finished games of random legal play (game ``g`` dealt from ``seed + g``)."""
    variant = load_variant(variant_name)
    rng = random.Random(seed)
    out = []
    for g in range(games):
        game = Game(variant, variant.default_players, seed=seed + g)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        out.append(game)
    return out


def archive_text(games: Sequence[Game], level: str) -> str:
    """The games as one archive at ``level``."""
    return "".join(format_transcript(game_transcript(g, NAMES[: g.players], level=level)) for g in games)


ROOM_SIZES = (3, 5, 7, 9)


def room_variant(k: int) -> str:
    """The text of ``room-K.yaml``: Oh Hell, one deal of ``k`` cards."""
    return (f"name: room-{k}\nextends: oh-hell\nplayers: {{min: 4, max: 4, default: 4}}\n"
            f"schedule:\n  - {{cards: {k}}}\n")


def one_deal_archive(folder: Path, records: int, seed: int) -> tuple[str, list[Game]]:
    """An archive of ``records`` one-deal games (random play) naming ``room-K.yaml`` in ``folder``."""
    from updown_dsl import loads_variant

    variants = {}
    for k in ROOM_SIZES:
        (folder / f"room-{k}.yaml").write_text(room_variant(k), encoding="utf-8")
        variants[k] = loads_variant(room_variant(k))
    rng = random.Random(seed)
    games, parts = [], []
    for i in range(records):
        k = ROOM_SIZES[i % len(ROOM_SIZES)]
        game = Game(variants[k], 4, seed=seed + i)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        games.append(game)
        parts.append(format_transcript(game_transcript(game, NAMES[:4], level="full", variant=f"room-{k}.yaml")))
    return "".join(parts), games


def deals_of(games: Sequence[Game]) -> int:
    return sum(1 for g in games for r in g.results if r.event == "deal")


# --------------------------------------------------------------------------- updown
def check_cpu(text: str, path: str = "archive.log") -> tuple[float, int, int]:
    """CPU seconds to check an archive in-process, the deals replayed and the errors found."""
    data = text.encode("utf-8")
    start = time.process_time()
    deals = errors = 0
    for report in check_lines(io.BytesIO(data), path):
        errors += len(report.errors)
        if report.game is not None:
            deals += sum(1 for r in report.game.results if r.event == "deal")
    return time.process_time() - start, deals, errors


def cli_run(path: Path) -> dict[str, Any]:
    """``updown check PATH`` in a child process: exit status, CPU seconds and peak RSS."""
    env = dict(os.environ)
    # The child imports the same updown_dsl as this process.
    here = str(Path(updown_dsl.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    out = run_child([sys.executable, "-m", "updown_dsl", "check", str(path)], env)
    out["cpu_s"] = round(out["cpu_s"], 4)
    return out


# --------------------------------------------------------------------------- OpenSpiel
def _os_card(card: Any) -> int:
    return (card.rank.order - 2) * 4 + _OS_SUIT[card.suit.value]


def openspiel_deals(games: Sequence[Game]) -> list[tuple[int, list[int], list[int]]]:
    """Every deal of updown ``oh-hell`` games as (tricks, OpenSpiel actions, updown points).

    OpenSpiel deals card ``j`` to player ``j mod n``, turns the next card for trump, then
    takes the bids from the dealer's left (actions 52 + bid) and the cards as played.
    """
    out = []
    for game in games:
        n = game.players
        for r in game.results:
            if r.event != "deal":
                continue
            k = r.deal.cards
            actions = [k, r.dealer]
            for j in range(n * k):
                actions.append(_os_card(r.hands[j % n][j // n]))
            actions.append(_os_card(r.turned))
            first = (r.dealer + 1) % n
            actions += [52 + r.seats[(first + i) % n].bid for i in range(n)]
            actions += [_os_card(tp.play.card) for t in r.tricks for tp in t.plays]
            out.append((k, actions, [s.points for s in r.seats]))
    return out


def openspiel_games(pyspiel: Any, players: int, sizes: set[int]) -> dict[int, Any]:
    games = {}
    for k in sorted(sizes):
        game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": k})
        params = game.get_parameters()
        if params.get("num_tricks_fixed") != k or params.get("players") != players:
            raise RuntimeError(f"OpenSpiel oh_hell ignored the parameters: {params}")
        games[k] = game
    return games


def openspiel_replay(games: dict[int, Any], deals: Sequence[tuple[int, list[int], list[int]]],
                     verify: bool = False) -> float:
    """CPU seconds to replay the deals with legality checks (and, with ``verify``, compare scores)."""
    start = time.process_time()
    for k, actions, points in deals:
        state = games[k].new_initial_state()
        for a in actions:
            state.apply_action_with_legality_check(a)
        returns = state.returns()
        if verify and [round(x) for x in returns] != points:
            raise AssertionError(f"OpenSpiel scores {returns}, updown {points}")
    return time.process_time() - start


# --------------------------------------------------------------------------- the run
def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> dict[str, Any]:
    report: dict[str, Any] = {
        "environment": {
            "python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "updown": __version__, "open_spiel": openspiel_version(),
            "load": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        },
        "games_per_variant": args.games, "seed": args.seed, "rounds": args.rounds,
    }
    names = [n.strip() for n in args.variants.split(",")] if args.variants else bundled_names()
    played = {name: random_games(name, args.games, args.seed) for name in names}
    total_deals = sum(deals_of(g) for g in played.values())
    levels: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for level in LEVELS:
            text = "".join(archive_text(g, level) for g in played.values())
            check_cpu(text)  # untimed: variants loaded, caches warm (the CLI run below pays for them)
            best = None
            for _ in range(max(1, args.rounds // 2)):
                cpu, deals, errors = check_cpu(text)
                best = cpu if best is None else min(best, cpu)
            assert errors == 0, f"a clean archive gave {errors} errors at the {level} level"
            assert deals == total_deals, (deals, total_deals)
            path = Path(tmp) / f"archive-{level}.log"
            path.write_text(text, encoding="utf-8")
            cli = cli_run(path)
            levels[level] = {
                "deals": deals, "lines": text.count("\n"), "cpu_s": round(best or 0.0, 4),
                "deals_per_cpu_s": round(deals / best, 1) if best else None,
                "cli_exit": cli["exit"], "cli_cpu_s": cli["cpu_s"],
                "cli_deals_per_cpu_s": round(deals / cli["cpu_s"], 1) if cli["cpu_s"] else None,
                "cli_max_rss_mb": cli["max_rss_mb"],
            }
        report["levels"] = levels
        report["openspiel"] = compare_openspiel(played.get("oh-hell"), args)
        if args.one_deal:
            report["one_deal"] = compare_one_deal(Path(tmp), args)
        if args.memory:
            report["memory"] = memory_runs(Path(tmp), args)
    report["deals_per_cpu_s"] = {level: v["deals_per_cpu_s"] for level, v in levels.items()}
    report["ratio_check"] = report["openspiel"].get("ratio_check")
    report["ratio_one_deal"] = report.get("one_deal", {}).get("ratio_one_deal")
    if args.json:
        out(json.dumps(report, indent=2))
    else:
        out(format_report(report))
    return report


def compare_openspiel(games: Sequence[Game] | None, args: argparse.Namespace) -> dict[str, Any]:
    if args.no_openspiel:
        return {"skipped": True, "reason": "--no-openspiel"}
    pyspiel = import_pyspiel()
    if pyspiel is None:
        return {"skipped": True, "reason": "open_spiel is not installed", "install": INSTALL_HINT}
    if not games:
        games = random_games("oh-hell", args.games, args.seed)
    deals = openspiel_deals(games)
    os_games = openspiel_games(pyspiel, games[0].players, {k for k, _, _ in deals})
    openspiel_replay(os_games, deals, verify=True)  # same deals, same scores, every one
    text = archive_text(games, "full")
    check_cpu(text)
    ratios, ours, theirs = [], [], []
    for _ in range(args.rounds):
        cpu_u, n_u, errors = check_cpu(text)
        cpu_o = openspiel_replay(os_games, deals)
        assert errors == 0 and n_u == len(deals)
        ours.append(n_u / cpu_u)
        theirs.append(len(deals) / cpu_o)
        ratios.append(ours[-1] / theirs[-1])
    return {
        "skipped": False, "deals": len(deals), "scores_agree": True,
        "updown_deals_per_cpu_s": round(statistics.median(ours), 1),
        "openspiel_deals_per_cpu_s": round(statistics.median(theirs), 1),
        "ratio_rounds": [round(r, 4) for r in ratios],
        "ratio_check": round(statistics.median(ratios), 4),
    }


def compare_one_deal(folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The one-deal archive: updown's check (records a CPU-second) against OpenSpiel's replay."""
    text, games = one_deal_archive(folder, args.one_deal, args.seed)
    path = str(folder / "one-deal.log")
    out: dict[str, Any] = {"records": len(games), "lines": text.count("\n")}
    check_cpu(text, path)  # untimed: the variant files loaded once, as the command line would
    if args.no_openspiel or import_pyspiel() is None:
        cpu, n, errors = min(check_cpu(text, path) for _ in range(max(1, args.rounds // 2)))
        assert errors == 0 and n == len(games), (errors, n)
        out.update(skipped=True, updown_records_per_cpu_s=round(n / cpu, 1))
        return out
    pyspiel = import_pyspiel()
    deals = openspiel_deals(games)
    os_games = openspiel_games(pyspiel, 4, {k for k, _, _ in deals})
    openspiel_replay(os_games, deals, verify=True)
    ratios, ours, theirs = [], [], []
    for _ in range(args.rounds):
        cpu_u, n_u, errors = check_cpu(text, path)
        cpu_o = openspiel_replay(os_games, deals)
        assert errors == 0 and n_u == len(deals), (errors, n_u, len(deals))
        ours.append(n_u / cpu_u)
        theirs.append(len(deals) / cpu_o)
        ratios.append(ours[-1] / theirs[-1])
    out.update(skipped=False, scores_agree=True,
               updown_records_per_cpu_s=round(statistics.median(ours), 1),
               openspiel_deals_per_cpu_s=round(statistics.median(theirs), 1),
               ratio_rounds=[round(r, 4) for r in ratios], ratio_one_deal=round(statistics.median(ratios), 4))
    return out


def memory_runs(tmp: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Check archives of N games (of ``oh-hell``, the 1-game archive repeated) through the CLI."""
    sizes = [int(x) for x in args.memory.split(",")]
    unit = archive_text(random_games("oh-hell", 100, args.seed), "full")
    rows = []
    for n in sizes:
        path = tmp / f"memory-{n}.log"
        with open(path, "w", encoding="utf-8") as f:
            for _ in range(n // 100):
                f.write(unit)
        cli = cli_run(path)
        rows.append({"games": n, "mb": round(path.stat().st_size / 2**20, 1), **cli,
                     "cpu_us_per_game": round(1e6 * cli["cpu_s"] / n, 1)})
        path.unlink()
    return rows


def format_report(r: dict[str, Any]) -> str:
    env = r["environment"]
    lines = [f"updown {env['updown']} check benchmark: {r['games_per_variant']} random-bot games per bundled "
             f"variant, Python {env['python']}, {env['cpus']} CPUs, load {env['load']}",
             f"{'level':<7} {'deals':>7} {'lines':>8} {'in-process deals/cpu-s':>23} {'CLI deals/cpu-s':>16} "
             f"{'CLI peak RSS':>13}"]
    for level, v in r["levels"].items():
        lines.append(f"{level:<7} {v['deals']:>7} {v['lines']:>8} {v['deals_per_cpu_s']:>23,.0f} "
                     f"{v['cli_deals_per_cpu_s']:>16,.0f} {v['cli_max_rss_mb']:>10.1f} MB")
    o = r["openspiel"]
    if o.get("skipped"):
        lines.append(f"OpenSpiel comparison skipped: {o['reason']}" + (f"; install it with {o['install']}"
                                                                        if "install" in o else ""))
    else:
        lines.append(f"oh-hell, {o['deals']} deals mirrored into OpenSpiel oh_hell (scores agree): updown full-level "
                     f"check {o['updown_deals_per_cpu_s']:,.0f} deals/cpu-s, OpenSpiel replay with legality "
                     f"checks {o['openspiel_deals_per_cpu_s']:,.0f}; ratio_check (median of rounds) "
                     f"{o['ratio_check']:.3f} (target >= 0.5)")
    d = r.get("one_deal")
    if d is not None and d.get("skipped"):
        lines.append(f"one-deal archive, {d['records']} records: {d['updown_records_per_cpu_s']:,.0f} records/cpu-s")
    elif d is not None:
        lines.append(f"one-deal archive (an online room's export), {d['records']} records of room-K.yaml mirrored into "
                     f"OpenSpiel (scores agree): updown check {d['updown_records_per_cpu_s']:,.0f} records/cpu-s, "
                     f"OpenSpiel replay {d['openspiel_deals_per_cpu_s']:,.0f}; ratio_one_deal (median of rounds) "
                     f"{d['ratio_one_deal']:.3f} (target >= 0.25)")
    for m in r.get("memory", []):
        lines.append(f"CLI on {m['games']:>6} games ({m['mb']} MB): {m['cpu_s']:.2f} cpu-s "
                     f"({m['cpu_us_per_game']:.0f} us/game), peak RSS {m['max_rss_mb']} MB, exit {m['exit']}")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench_check.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40, help="random games per variant (default %(default)s)")
    p.add_argument("--variants", default=None, help="comma-separated bundled names (default: all)")
    p.add_argument("--rounds", type=int, default=5, help="interleaved rounds against OpenSpiel (default %(default)s)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--memory", default="", metavar="N,N",
                   help="also check archives of N oh-hell games through the CLI (multiples of 100), e.g. 1000,10000")
    p.add_argument("--one-deal", type=int, default=2000, metavar="N",
                   help="records in the one-deal archive (0: none; default %(default)s)")
    p.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = p.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        p.error("--games and --rounds must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    run(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
