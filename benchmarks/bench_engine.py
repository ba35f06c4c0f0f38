#!/usr/bin/env python3
"""Engine throughput: random legal games, deals/s and decisions/s per variant.

Run from a source checkout (or with the project installed)::

    PYTHONPATH=. python benchmarks/bench_engine.py --seconds 3
    PYTHONPATH=. python benchmarks/bench_engine.py --variants odessa,georgian --json
    PYTHONPATH=. python benchmarks/bench_engine.py --profile oh-hell-7

The policy is ``rng.choice(game.legal_actions())``, and one ``random.Random(seed)``
deals the cards and draws the actions (``Game(variant, players, rng=rng)``), as on the
OpenSpiel side. Listing the legal actions (the hot path of bots and the checker) is
part of what is measured, as are ``Game.apply`` (with its legality check) and building
each ``Game``. A *decision* is one applied action: a bid, a trump choice or a card.
Loading the variant is not timed. Times are CPU seconds (``time.process_time``).

With the optional ``open_spiel`` package (``pip install ".[bench]"``) it also plays
OpenSpiel's ``oh_hell`` (4 players, 7 tricks, one deal per game) against the same
deal in updown (``oh-hell-7``: the bundled ``oh-hell`` with a one-deal schedule of
7 cards) in interleaved rounds; ``ratio_selfplay`` is the median of the rounds'
ratios updown / OpenSpiel. ``clones_per_s`` is how many ``Game.clone()`` copies of
positions in the middle of a deal are made per CPU second (what search bots do).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit  # noqa: E402
from benchkit import INSTALL_HINT, openspiel_version  # noqa: E402

from updown_dsl import Game, Variant, VariantError, __version__, bundled_names, load_variant, loads_variant


def import_pyspiel() -> Any | None:
    """The ``pyspiel`` module, or None when OpenSpiel is not installed."""
    return benchkit.import_pyspiel()

DEFAULT_SEED = 20240601
DEFAULT_SECONDS = 2.0
DEFAULT_ROUNDS = 3
#: Rounds of the OpenSpiel comparison: many short ones, as the load of a shared machine drifts.
OPENSPIEL_ROUNDS = 24

#: The updown side of the OpenSpiel comparison: one 7-card deal of OpenSpiel-style Oh Hell.
OH_HELL_7 = "oh-hell-7"
OH_HELL_7_YAML = "extends: oh-hell\nname: oh-hell-7\nschedule:\n  - {cards: 7}\n"
OPENSPIEL_PLAYERS = 4
OPENSPIEL_TRICKS = 7


@dataclass
class Rate:
    """What one timed run did (summed over its rounds)."""

    name: str
    players: int
    games: int = 0
    deals: int = 0
    decisions: int = 0
    seconds: float = 0.0
    round_rates: list[float] = field(default_factory=list)
    """decisions/s of each round, to show how noisy the machine was."""

    @property
    def deals_per_s(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else 0.0

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds > 0 else 0.0

    @property
    def us_per_decision(self) -> float:
        return 1e6 * self.seconds / self.decisions if self.decisions else 0.0

    @property
    def best_decisions_per_s(self) -> float:
        """The fastest round: the least disturbed by other load on the machine."""
        return max(self.round_rates, default=0.0)

    def add_round(self, games: int, deals: int, decisions: int, seconds: float) -> None:
        self.games += games
        self.deals += deals
        self.decisions += decisions
        self.seconds += seconds
        self.round_rates.append(decisions / seconds if seconds > 0 else 0.0)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["seconds"] = round(self.seconds, 4)
        d["round_rates"] = [round(x, 1) for x in self.round_rates]
        d["deals_per_s"] = round(self.deals_per_s, 2)
        d["decisions_per_s"] = round(self.decisions_per_s, 1)
        d["us_per_decision"] = round(self.us_per_decision, 2)
        d["best_decisions_per_s"] = round(self.best_decisions_per_s, 1)
        return d


#: A source of games: each ``next()`` plays one whole game and returns (deals, decisions).
Games = Iterator[tuple[int, int]]


def timed_round(games: Games, seconds: float, rate: Rate) -> None:
    """Play whole games from ``games`` until ``seconds`` of CPU time have passed (at least one)."""
    clock = time.process_time
    n = deals = decisions = 0
    start = clock()
    deadline = start + seconds
    while True:
        d, k = next(games)
        n += 1
        deals += d
        decisions += k
        now = clock()
        if now >= deadline:
            break
    rate.add_round(n, deals, decisions, now - start)


# --------------------------------------------------------------------------- updown
def variant_by_name(name: str) -> Variant:
    """A bundled variant, a variant file, or ``oh-hell-7`` (made inline)."""
    if name == OH_HELL_7:
        return loads_variant(OH_HELL_7_YAML)
    return load_variant(name)


def play_one_game(variant: Variant, players: int, rng: random.Random) -> tuple[int, int]:
    """Play one game with random legal actions; return (deals, decisions)."""
    game = Game(variant, players, rng=rng)
    legal = game.legal_actions
    apply = game.apply
    choice = rng.choice
    n = 0
    while not game.is_over:
        apply(choice(legal()))
        n += 1
    return len(game.results), n


def updown_games(variant: Variant, players: int, seed: int = DEFAULT_SEED) -> Games:
    """Endless random games from one ``random.Random(seed)`` (deals and actions), so the
    sequence is reproducible."""
    rng = random.Random(seed)
    while True:
        yield play_one_game(variant, players, rng)


def bench_updown(variant: Variant, players: int | None, seconds: float, seed: int = DEFAULT_SEED,
                 name: str | None = None, rounds: int = 1) -> Rate:
    """Play whole games of ``variant`` for ``seconds`` in all, split into ``rounds``."""
    n = players if players is not None else variant.default_players
    rate = Rate(name or variant.name, n)
    games = updown_games(variant, n, seed)
    for _ in range(max(1, rounds)):
        timed_round(games, seconds / max(1, rounds), rate)
    return rate


# --------------------------------------------------------------------------- OpenSpiel
def load_openspiel_oh_hell(pyspiel: Any, players: int = OPENSPIEL_PLAYERS, tricks: int = OPENSPIEL_TRICKS) -> Any:
    """OpenSpiel's ``oh_hell`` with a fixed number of tricks (so one game is one deal)."""
    game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks})
    params = game.get_parameters()
    if params.get("players") != players or params.get("num_tricks_fixed") != tricks:
        raise RuntimeError(f"OpenSpiel oh_hell ignored the parameters: {params}")
    return game


def play_one_openspiel(game: Any, rng: random.Random) -> int:
    """One OpenSpiel game (one deal) with random legal actions; return player decisions.

    Chance nodes (dealer, cards, trump) pick uniformly among ``chance_outcomes()``
    and are not counted as decisions.
    """
    state = game.new_initial_state()
    choice = rng.choice
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(choice(state.chance_outcomes())[0])
        else:
            state.apply_action(choice(state.legal_actions()))
            n += 1
    return n


def openspiel_games(game: Any, seed: int = DEFAULT_SEED) -> Games:
    """Endless OpenSpiel games (one deal each) from one ``random.Random(seed)``."""
    rng = random.Random(seed)
    while True:
        yield 1, play_one_openspiel(game, rng)


def compare_openspiel(seconds: float, seed: int = DEFAULT_SEED, pyspiel: Any | None = None,
                      rounds: int = 1) -> dict[str, Any]:
    """updown ``oh-hell-7`` vs OpenSpiel ``oh_hell`` (4 players, 7 tricks), ``seconds`` each.

    The two alternate in ``rounds`` short rounds, so that a change in the machine's load
    hits both alike; the ratio is the median of the rounds' ratios.
    """
    if pyspiel is None:
        pyspiel = import_pyspiel()
    if pyspiel is None:
        return {"skipped": True, "reason": "open_spiel is not installed", "install": INSTALL_HINT}
    ours, theirs = Rate(OH_HELL_7, OPENSPIEL_PLAYERS), Rate("openspiel oh_hell", OPENSPIEL_PLAYERS)
    our_games = updown_games(variant_by_name(OH_HELL_7), OPENSPIEL_PLAYERS, seed)
    their_games = openspiel_games(load_openspiel_oh_hell(pyspiel), seed)
    next(our_games), next(their_games)  # warm up
    rounds = max(1, rounds)
    for _ in range(rounds):
        timed_round(our_games, seconds / rounds, ours)
        timed_round(their_games, seconds / rounds, theirs)
    per_round = sorted(a / b for a, b in zip(ours.round_rates, theirs.round_rates) if b)
    median = round(statistics.median(per_round), 4) if per_round else None
    return {
        "skipped": False,
        "open_spiel_version": openspiel_version(),
        "rounds": rounds,
        "ratio_rounds_median": median,
        "ratio_selfplay": median,
        "ratio_rounds_quartiles": [round(q, 4) for q in statistics.quantiles(per_round, n=4)]
        if len(per_round) >= 4 else None,
        "updown": ours.as_dict(),
        "openspiel": theirs.as_dict(),
        "ratio_deals": round(ours.deals_per_s / theirs.deals_per_s, 4) if theirs.deals_per_s else None,
        "ratio_decisions": round(ours.decisions_per_s / theirs.decisions_per_s, 4)
        if theirs.decisions_per_s else None,
    }


# --------------------------------------------------------------------------- clones
def clone_rate(seconds: float, seed: int = DEFAULT_SEED, name: str = "georgian") -> dict[str, Any]:
    """``Game.clone()`` per CPU second, of positions in the middle of deals of ``name``;
    with its own copy of the random generator (the default) and sharing one (``rng=``)."""
    variant = variant_by_name(name)
    rng = random.Random(seed)
    positions = []
    game = Game(variant, variant.default_players, rng=rng)
    while not game.is_over and len(positions) < 200:
        game.apply(rng.choice(game.legal_actions()))
        if rng.random() < 0.1:
            positions.append(game.clone())
    out: dict[str, Any] = {"variant": name, "positions": len(positions)}
    shared = random.Random(seed)
    for label, make in (("clones_per_s", lambda g: g.clone()),
                        ("clones_per_s_shared_rng", lambda g: g.clone(rng=shared))):
        n = 0
        start = time.process_time()
        deadline = start + seconds / 2
        while True:
            for g in positions:
                make(g)
            n += len(positions)
            now = time.process_time()
            if now >= deadline:
                break
        out[label] = round(n / (now - start), 1)
    return out


# --------------------------------------------------------------------------- profiling
def profile_variant(name: str, players: int | None, seconds: float, seed: int = DEFAULT_SEED,
                    top: int = 25, out: Callable[[str], None] = print) -> Rate:
    """Run ``name`` under cProfile and print the ``top`` functions by own time."""
    variant = variant_by_name(name)
    profiler = cProfile.Profile()
    profiler.enable()
    rate = bench_updown(variant, players, seconds, seed, name=name)
    profiler.disable()
    buf = io.StringIO()
    stats = pstats.Stats(profiler, stream=buf)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)
    out(f"cProfile of {name} ({rate.players} players, {rate.games} games, {rate.deals} deals, "
        f"{rate.decisions} decisions; rates are slowed by the profiler)")
    out(buf.getvalue().rstrip())
    return rate


# --------------------------------------------------------------------------- report
def engine_digest() -> str | None:
    """First 12 hex digits of the SHA-256 of the engine's sources (they change often)."""
    try:
        from updown_dsl import engine

        h = hashlib.sha256()
        for path in sorted(Path(engine.__file__).parent.glob("*.py")):
            h.update(path.read_bytes())
        return h.hexdigest()[:12]
    except (OSError, TypeError):  # pragma: no cover - frozen or zipped installs
        return None


def environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "updown": __version__,
        "engine_sha256": engine_digest(),
        "open_spiel": openspiel_version(),
    }


def spread(row: dict[str, Any]) -> float:
    """Range of the rounds' decisions/s as a fraction of the overall rate (0 with one round)."""
    rates = row.get("round_rates") or []
    overall = row["decisions_per_s"]
    return (max(rates) - min(rates)) / overall if len(rates) > 1 and overall else 0.0


def format_table(rows: Sequence[dict[str, Any]]) -> str:
    """Rows as made by :meth:`Rate.as_dict`."""
    head = f"{'variant':<28} {'pl':>2} {'games':>6} {'deals':>7} {'decisions':>10} " \
           f"{'sec':>6} {'deals/s':>9} {'decisions/s':>12} {'best dec/s':>11} {'us/dec':>7} {'spread':>7}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['name']:<28} {r['players']:>2} {r['games']:>6} {r['deals']:>7} {r['decisions']:>10} "
            f"{r['seconds']:>6.2f} {r['deals_per_s']:>9.1f} {r['decisions_per_s']:>12.0f} "
            f"{r['best_decisions_per_s']:>11.0f} "
            f"{r['us_per_decision']:>7.1f} {100 * spread(r):>6.0f}%"
        )
    return "\n".join(lines)


def format_comparison(cmp: dict[str, Any]) -> str:
    if cmp.get("skipped"):
        if cmp.get("reason") == "--no-openspiel":
            return "OpenSpiel comparison skipped (--no-openspiel)"
        return f"OpenSpiel comparison skipped: {cmp['reason']}; install it with {cmp['install']}"
    return "\n".join([
        f"OpenSpiel comparison: oh_hell, {OPENSPIEL_PLAYERS} players, {OPENSPIEL_TRICKS} tricks, "
        f"one deal per game (open_spiel {cmp.get('open_spiel_version') or '?'}), {cmp['rounds']} interleaved rounds",
        format_table([cmp["updown"], cmp["openspiel"]]),
        f"ratio updown/OpenSpiel: deals/s {cmp['ratio_deals']:.3f}, decisions/s {cmp['ratio_decisions']:.3f}; "
        f"ratio_selfplay (median of the rounds) {cmp['ratio_selfplay']:.3f} (target >= 1.5)",
    ])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="bench_engine.py",
        description="Random legal games per variant: deals/s and decisions/s "
                    "(decisions = bids, trump choices and cards applied).",
    )
    p.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                   help="time budget per variant, whole games (default %(default)s)")
    p.add_argument("--variants", default=None,
                   help="comma-separated names (bundled, a .yaml path, or oh-hell-7); default: all bundled")
    p.add_argument("--players", type=int, default=None, help="players (default: each variant's default)")
    p.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS,
                   help="split each budget into this many timed rounds; the 'spread' column is the "
                        "range of their decisions/s (default %(default)s)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed (default %(default)s)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--profile", nargs="?", const="", default=None, metavar="VARIANT",
                   help="cProfile one variant (default: the first selected) for --seconds, "
                        "print the top 25 by tottime, and do nothing else")
    p.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel comparison")
    args = p.parse_args(argv)
    if args.seconds <= 0:
        p.error("--seconds must be positive")
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    return args


def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> dict[str, Any]:
    names = [n.strip() for n in args.variants.split(",") if n.strip()] if args.variants else bundled_names()
    variants = [(name, variant_by_name(name)) for name in names]  # fail before timing anything
    report: dict[str, Any] = {
        "environment": environment(),
        "seconds": args.seconds,
        "rounds": args.rounds,
        "seed": args.seed,
        "players": args.players,
        "variants": [],
    }
    if not args.json:
        env = report["environment"]
        out(f"updown {__version__} engine benchmark: random legal games, {args.seconds:g} s per variant "
            f"in {args.rounds} rounds, "
            f"seed {args.seed}, Python {env['python']}, {env['cpus']} CPUs, engine {env['engine_sha256']}")
    for name, variant in variants:
        rate = bench_updown(variant, args.players, args.seconds, args.seed, name=name, rounds=args.rounds)
        report["variants"].append(rate.as_dict())
    if not args.json:
        out(format_table(report["variants"]))
        out("")
    if args.no_openspiel:
        cmp: dict[str, Any] = {"skipped": True, "reason": "--no-openspiel", "install": INSTALL_HINT}
    else:
        cmp = compare_openspiel(2 * args.seconds, args.seed,
                                rounds=max(args.rounds, OPENSPIEL_ROUNDS) if args.seconds >= 0.5 else args.rounds)
    report["openspiel"] = cmp
    report["ratio_selfplay"] = cmp.get("ratio_selfplay")
    report["clones"] = clone_rate(min(args.seconds, 2.0), args.seed)
    report["clones_per_s"] = report["clones"]["clones_per_s"]
    if not args.json:
        out(format_comparison(cmp))
        c = report["clones"]
        out(f"Game.clone() of {c['positions']} mid-deal {c['variant']} positions: {c['clones_per_s']:,.0f} "
            f"clones/s ({c['clones_per_s_shared_rng']:,.0f} with rng= shared)")
    else:
        out(json.dumps(report, indent=2))
    return report


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.profile is not None:
            name = args.profile or (args.variants.split(",")[0].strip() if args.variants else bundled_names()[0])
            profile_variant(name, args.players, args.seconds, args.seed)
        else:
            run(args)
    except (VariantError, ValueError) as exc:  # unknown variant, bad player count
        print(f"bench_engine: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
