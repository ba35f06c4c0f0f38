#!/usr/bin/env python3
"""Bots against bots: every deal played in every seat rotation, with confidence intervals.

Run from a source checkout (or with the project installed)::

    PYTHONPATH=. python benchmarks/arena.py --variant georgian --bots search,heuristic --groups 200
    PYTHONPATH=. python benchmarks/arena.py --variant openspiel --bots search,ismcts:100 --groups 2000
    PYTHONPATH=. python benchmarks/arena.py --variant oh-hell --bots heuristic,random --json

Two bot kinds sit ``A B A B`` round the table (``--lineup 1v3``: one ``A`` against three
``B``). A *deal group* is one deal played once per rotation of the line-up, with the same
cards: ``A B A B`` and ``B A B A`` (``1v3``: all four seats). For an updown variant deal
group ``g`` is a deal of the schedule drawn from the seed (its place in the schedule, its
dealer and its cards), played from totals of 0. ``openspiel`` plays OpenSpiel's ``oh_hell``
(4 players, 7 tricks) mirrored deal by deal into updown's ``oh-hell`` with the same cards
and dealer: at every decision both engines must offer the same legal set, and at the end
updown's scores must equal OpenSpiel's returns (a mismatch stops the run).

Bot kinds: ``random``, ``heuristic``, ``search`` (``search:LEVEL``, ``search:LEVEL:BUDGET``
with CPU seconds per move, then options: ``flat`` for the flat search, ``hbids`` for the
heuristic's bids, ``c=X`` for the tree's UCB constant, ``d=N`` for its depth, ``nofit`` for
guesses not weighed by the bids, ``s=X`` for the bids' spread in tricks, ``random`` for the
tree's random play-outs), and on ``openspiel`` only ``ismcts:SIMS`` (OpenSpiel's
``ISMCTSBot``: random roll-out evaluator, UCT constant 2, ``NORMALIZED_VISIT_COUNT`` final
policy; ``ismcts:SIMS:max`` for ``MAX_VISIT_COUNT``; ``ismcts:SIMS:fair`` for OpenSpiel's Python
ISMCTS with guesses that do not see the deal, see ``fair_ismcts.py``; ``ismcts:SIMS:py`` for
that Python ISMCTS with OpenSpiel's own guesses); ``exec:COMMAND`` is another program over the
engine protocol (``docs/protocol.md``; the think time counts only this process's CPU time);
``clairvoyant[:LEVEL]`` is the search bot given the true hands of every seat instead of
guesses (``SearchBot(oracle=...)``): no bot at a table can be it, it is the bound of a ladder.

Printed per bot: mean points per deal with a 95 % confidence interval over deal groups
(normal approximation), the share of its bids made exactly, and mean CPU time
(``time.process_time``) per decision (bids, trump choices and cards; forced moves
included) and the slowest decision; and the difference A - B per deal with its interval. Deal groups run in a
process pool (``--jobs``, default 2).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchkit  # noqa: E402

from updown_dsl import Card, Variant, load_variant, loads_variant  # noqa: E402
from updown_dsl.actions import Bid, Play  # noqa: E402
from updown_dsl.cards import Rank, Suit  # noqa: E402
from updown_dsl.engine import Phase  # noqa: E402
from updown_dsl.engine.worlds import game_at_deal  # noqa: E402
from updown_dsl.lang.schedule import resolve_schedule  # noqa: E402
from updown_dsl.players.bots import EXEC, HeuristicBot, RandomBot, make_bot  # noqa: E402
from updown_dsl.players.search import DEFAULT_LEVEL, SearchBot  # noqa: E402

DEFAULT_SEED = 20240601
OPENSPIEL = "openspiel"
#: updown's side of the mirror: the bundled oh-hell, one deal of 7 cards.
OH_HELL_7_YAML = "extends: oh-hell\nname: oh-hell-7\nschedule:\n  - {cards: 7}\n"
OS_PLAYERS, OS_TRICKS = 4, 7
#: OpenSpiel oh_hell's card actions: rank * 4 + suit, suits in this order, ranks 2..A.
OS_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
OS_RANKS = tuple(r for r in Rank if r.order >= 2)
OS_CARDS = tuple(Card(r, s) for r in OS_RANKS for s in OS_SUITS)
OS_ACTION = {c: a for a, c in enumerate(OS_CARDS)}
OS_BID0 = 52


class MirrorError(RuntimeError):
    """The two engines disagreed (legal sets, whose turn, or scores)."""


# --------------------------------------------------------------------------- bots
def make_arena_bot(spec: str, seed: str, pyspiel: Any = None, game: Any = None) -> Any:
    """A bot from a spec (see the module); ``seed`` a string the bot's generator is made from;
    ``game`` the updown game it plays (read by a clairvoyant bot only)."""
    parts = spec.split(":")
    kind = parts[0]
    rng = random.Random(seed)
    if kind == "clairvoyant":  # the bound: the search on the true deal, every hand seen
        if game is None:
            raise ValueError("a clairvoyant bot needs the game")
        level = int(parts[1]) if len(parts) > 1 and parts[1] else DEFAULT_LEVEL
        return SearchBot(rng, level, bidder=HeuristicBot(rng),
                         oracle=lambda view: (list(game.kernel.hands), list(game.bids)))
    if kind == "random":
        return RandomBot(rng)
    if kind == "heuristic":
        return HeuristicBot(rng)
    if kind == EXEC:  # another program over the engine protocol (its CPU time is not counted)
        return make_bot(spec, rng)
    if kind == "search":
        level = int(parts[1]) if len(parts) > 1 and parts[1] else DEFAULT_LEVEL
        budget = float(parts[2]) if len(parts) > 2 and parts[2] else None
        return SearchBot(rng, level, budget, bidder=HeuristicBot(rng), search_bids="hbids" not in parts[3:],
                         method="flat" if "flat" in parts[3:] else "tree",
                         **{"explore": float(o[2:]) for o in parts[3:] if o.startswith("c=")},
                         **{"depth": int(o[2:]) for o in parts[3:] if o.startswith("d=")},
                         fit_bids="nofit" not in parts[3:],
                         **{"bid_spread": float(o[2:]) for o in parts[3:] if o.startswith("s=")},
                         playout="random" if "random" in parts[3:] else "policy")
    if kind == "ismcts":
        if pyspiel is None:
            raise ValueError("ismcts bots play only on --variant openspiel")
        sims = int(parts[1]) if len(parts) > 1 else 100
        if "fair" in parts[2:] or "py" in parts[2:]:
            import fair_ismcts
            return ("ismcts", fair_ismcts.fair_bot(sims, rng.randrange(2 ** 31), "max" if "max" in parts[2:] else "",
                                                   leaky="py" in parts[2:]))
        policy = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT if "max" in parts[2:] \
            else pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
        s = rng.randrange(2 ** 31)
        evaluator = pyspiel.RandomRolloutEvaluator(1, s)
        return ("ismcts", pyspiel.ISMCTSBot(s, evaluator, 2.0, sims, -1, policy))
    raise ValueError(f"no bot kind {spec!r}")


# --------------------------------------------------------------------------- results
@dataclass
class Tally:
    """One bot kind's totals over some deals."""

    points: float = 0.0
    seat_deals: int = 0
    bids: int = 0
    made: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0

    def add(self, other: Tally) -> None:
        self.slowest = max(self.slowest, other.slowest)
        self.points += other.points
        self.seat_deals += other.seat_deals
        self.bids += other.bids
        self.made += other.made
        self.decisions += other.decisions
        self.seconds += other.seconds


@dataclass
class GroupResult:
    """One deal group: per bot kind (``a``, ``b``) its tally."""

    a: Tally = field(default_factory=Tally)
    b: Tally = field(default_factory=Tally)


def lineups(kind: str, players: int = 4) -> list[list[str]]:
    """Seat rotations: which of ``a`` / ``b`` sits in each seat (``2v2``: every other seat;
    otherwise one ``a`` against the rest)."""
    base = ["ab"[s % 2] for s in range(players)] if kind == "2v2" else ["a"] + ["b"] * (players - 1)
    rots = [base[-r:] + base[:-r] if r else list(base) for r in range(players)]
    out: list[list[str]] = []
    for r in rots:
        if r not in out:
            out.append(r)
    return out


def _timed(bot: Any, view: Any) -> tuple[Any, float]:
    t0 = time.process_time()
    action = bot.act(view)
    return action, time.process_time() - t0


# --------------------------------------------------------------------------- updown deals
def play_updown_group(variant: Variant, players: int, specs: tuple[str, str], lineup: str,
                      seed: int, g: int) -> GroupResult:
    """Deal group ``g``: one deal of the schedule, played in every rotation of the line-up."""
    pick = random.Random(f"{seed}:{g}:pick")
    deals = resolve_schedule(variant, players)
    index = pick.randrange(len(deals))
    dealer = pick.randrange(players)
    out = GroupResult()
    for r, seats in enumerate(lineups(lineup, players)):
        game = game_at_deal(variant, players, index, dealer, rng=random.Random(f"{seed}:{g}:deal"))
        bots = [make_arena_bot(specs[0 if x == "a" else 1], f"{seed}:{g}:{r}:{s}", game=game) for s, x in enumerate(seats)]
        tallies = [Tally() for _ in range(players)]
        while game.deal_index == index and not game.is_over:
            if game.phase is Phase.DEAL:
                game.deal_random()
                continue
            seat = game.to_act
            action, dt = _timed(bots[seat], game.view(seat))
            tallies[seat].decisions += 1
            tallies[seat].seconds += dt
            tallies[seat].slowest = max(tallies[seat].slowest, dt)
            game.apply(action)
        result = next(x for x in game.results if x.event == "deal")
        for s, x in enumerate(seats):
            t = tallies[s]
            sr = result.seats[s]
            t.points, t.seat_deals = sr.points, 1
            if sr.bid is not None:
                t.bids, t.made = 1, int(sr.bid == sr.taken)
            (out.a if x == "a" else out.b).add(t)
    return out


# --------------------------------------------------------------------------- OpenSpiel mirror
def _os_to_updown(action: int, phase: Phase) -> Any:
    if phase is Phase.BID:
        return Bid(action - OS_BID0)
    return Play(OS_CARDS[action])


def _updown_to_os(action: Any) -> int:
    if isinstance(action, Bid):
        return OS_BID0 + action.tricks
    return OS_ACTION[action.card]


def mirrored_deal(os_game: Any, variant: Variant, dealer: int, cards: Sequence[int],
                  label: str = "deal") -> tuple[Any, Any]:
    """OpenSpiel's ``oh_hell`` state and updown's game after the same deal: ``dealer``, and
    ``cards`` as OpenSpiel's card actions (the hands dealt round from seat 0, then the turned
    card). :raises MirrorError: when OpenSpiel refuses a chance outcome."""
    state = os_game.new_initial_state()
    for a in [OS_TRICKS, dealer, *cards]:
        if not state.is_chance_node() or a not in dict(state.chance_outcomes()):
            raise MirrorError(f"{label}: OpenSpiel refused chance outcome {a}")
        state.apply_action(a)
    game = game_at_deal(variant, OS_PLAYERS, 0, dealer)
    hands = [[OS_CARDS[c] for c in cards[s:OS_PLAYERS * OS_TRICKS:OS_PLAYERS]] for s in range(OS_PLAYERS)]
    game.deal_cards(hands, turned=OS_CARDS[cards[-1]])
    return state, game


def play_openspiel_group(specs: tuple[str, str], lineup: str, seed: int, g: int) -> GroupResult:
    """Deal group ``g`` on OpenSpiel's oh_hell and updown's mirror of it, every rotation."""
    pyspiel = benchkit.import_pyspiel()
    os_game = pyspiel.load_game("oh_hell", {"players": OS_PLAYERS, "num_tricks_fixed": OS_TRICKS})
    variant = loads_variant(OH_HELL_7_YAML)
    pick = random.Random(f"{seed}:{g}:deal")
    dealer = pick.randrange(OS_PLAYERS)
    cards = pick.sample(range(52), OS_PLAYERS * OS_TRICKS + 1)
    out = GroupResult()
    for r, seats in enumerate(lineups(lineup)):
        state, game = mirrored_deal(os_game, variant, dealer, cards, f"group {g}")
        bots = [make_arena_bot(specs[0 if x == "a" else 1], f"{seed}:{g}:{r}:{s}", pyspiel, game)
                for s, x in enumerate(seats)]
        tallies = [Tally() for _ in range(OS_PLAYERS)]
        while not state.is_terminal():
            seat = state.current_player()
            if seat != game.to_act:
                raise MirrorError(f"group {g}: OpenSpiel's player {seat} is to act, updown's seat {game.to_act}")
            ours = {_updown_to_os(a) for a in game.legal_actions()}
            if ours != set(state.legal_actions()):
                raise MirrorError(f"group {g}: legal sets differ: OpenSpiel {sorted(state.legal_actions())}, "
                                  f"updown {sorted(ours)}")
            bot = bots[seat]
            t0 = time.process_time()
            if isinstance(bot, tuple):
                action = int(bot[1].step(state))
                move = _os_to_updown(action, game.phase)
            else:
                move = bot.act(game.view(seat))
                action = _updown_to_os(move)
            dt = time.process_time() - t0
            tallies[seat].seconds += dt
            tallies[seat].slowest = max(tallies[seat].slowest, dt)
            tallies[seat].decisions += 1
            state.apply_action(action)
            game.apply(move)
        returns = state.returns()
        result = game.results[-1]
        if [float(x.points) for x in result.seats] != list(returns):
            raise MirrorError(f"group {g}: scores differ: OpenSpiel {returns}, updown "
                              f"{[x.points for x in result.seats]}")
        for s, x in enumerate(seats):
            t = tallies[s]
            sr = result.seats[s]
            t.points, t.seat_deals, t.bids, t.made = sr.points, 1, 1, int(sr.bid == sr.taken)
            (out.a if x == "a" else out.b).add(t)
    return out


# --------------------------------------------------------------------------- running
def _run_chunk(args: tuple[str, int | None, tuple[str, str], str, int, Sequence[int]]) -> list[GroupResult]:
    name, players, specs, lineup, seed, groups = args
    if name == OPENSPIEL:
        return [play_openspiel_group(specs, lineup, seed, g) for g in groups]
    variant = load_variant(name)
    n = players or variant.default_players
    return [play_updown_group(variant, n, specs, lineup, seed, g) for g in groups]


def run_arena(name: str, specs: tuple[str, str], groups: int, *, seed: int = DEFAULT_SEED, players: int | None = None,
              lineup: str = "2v2", jobs: int = 2, chunk: int = 10, first: int = 0,
              progress: Callable[[list[GroupResult]], None] | None = None) -> list[GroupResult]:
    """Play ``groups`` deal groups from group ``first`` on (see the module); in a pool of
    ``jobs`` processes."""
    end = first + groups
    tasks = [(name, players, specs, lineup, seed, range(i, min(end, i + chunk))) for i in range(first, end, chunk)]
    results: list[GroupResult] = []
    if jobs <= 1:
        for task in tasks:
            results.extend(_run_chunk(task))
            if progress:
                progress(results)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_run_chunk, tasks):
            results.extend(part)
            if progress:
                progress(results)
    return results


def _ci(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of a 95 % interval (normal approximation)."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.nan
    return m, 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def summarise(results: Sequence[GroupResult], specs: tuple[str, str]) -> dict[str, Any]:
    """Per bot: mean points per deal (95 % CI over groups), bids made, think time; and A - B."""
    out: dict[str, Any] = {"groups": len(results), "bots": []}
    per = {"a": [r.a.points / r.a.seat_deals for r in results], "b": [r.b.points / r.b.seat_deals for r in results]}
    for key, spec in zip("ab", specs):
        tot = Tally()
        for r in results:
            tot.add(getattr(r, key))
        m, h = _ci(per[key])
        out["bots"].append({
            "bot": spec, "mean_points": round(m, 4), "ci95": round(h, 4),
            "bids_made": round(tot.made / tot.bids, 4) if tot.bids else None,
            "ms_per_decision": round(1000 * tot.seconds / tot.decisions, 3) if tot.decisions else None,
            "max_ms": round(1000 * tot.slowest, 1), "decisions": tot.decisions, "seat_deals": tot.seat_deals})
    m, h = _ci([a - b for a, b in zip(per["a"], per["b"])])
    out["difference"] = {"mean": round(m, 4), "ci95": round(h, 4)}
    out["per_group"] = [[round(a, 4), round(b, 4)] for a, b in zip(per["a"], per["b"])]
    return out


def merge_summaries(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One summary of runs over disjoint groups (``--first``) of the same bots and seed."""
    first = parts[0]
    per = [g for part in parts for g in part["per_group"]]
    out: dict[str, Any] = {"groups": len(per), "bots": []}
    for k, bot in enumerate(first["bots"]):
        m, h = _ci([g[k] for g in per])
        decisions = sum(p["bots"][k]["decisions"] for p in parts)
        seat_deals = sum(p["bots"][k]["seat_deals"] for p in parts)
        made = [p["bots"][k]["bids_made"] for p in parts]
        out["bots"].append({
            "bot": bot["bot"], "mean_points": round(m, 4), "ci95": round(h, 4),
            "bids_made": None if None in made else round(
                sum(x * p["bots"][k]["seat_deals"] for x, p in zip(made, parts)) / seat_deals, 4),
            "ms_per_decision": round(sum(p["bots"][k]["ms_per_decision"] * p["bots"][k]["decisions"]
                                         for p in parts) / decisions, 3),
            "max_ms": max(p["bots"][k]["max_ms"] for p in parts), "decisions": decisions,
            "seat_deals": seat_deals})
    m, h = _ci([a - b for a, b in per])
    out["difference"] = {"mean": round(m, 4), "ci95": round(h, 4)}
    out["per_group"] = per
    for key in ("variant", "lineup", "seed"):
        out[key] = first.get(key)
    return out


def format_summary(name: str, s: dict[str, Any]) -> str:
    lines = [f"{name}: {s['groups']} deal groups",
             f"{'bot':<22} {'points/deal':>12} {'95% CI':>9} {'bids made':>10} {'ms/decision':>12} {'max ms':>8} "
             f"{'decisions':>10}"]
    for b in s["bots"]:
        made = f"{100 * b['bids_made']:.1f}%" if b["bids_made"] is not None else "-"
        lines.append(f"{b['bot']:<22} {b['mean_points']:>12.3f} {'±' + format(b['ci95'], '.3f'):>9} {made:>10} "
                     f"{b['ms_per_decision']:>12.3f} {b['max_ms']:>8.1f} {b['decisions']:>10}")
    d = s["difference"]
    lines.append(f"difference {s['bots'][0]['bot']} - {s['bots'][1]['bot']}: {d['mean']:+.3f} ± {d['ci95']:.3f} "
                 f"points per deal")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="arena.py", description="Bots against bots, every deal in every seat rotation.")
    p.add_argument("--variant", default=OPENSPIEL, help="a bundled variant, a file, or 'openspiel' (default)")
    p.add_argument("--bots", default="search,heuristic", help="two bot kinds A,B (default %(default)s)")
    p.add_argument("--lineup", choices=("2v2", "1v3"), default="2v2")
    p.add_argument("--groups", type=int, default=200, help="deal groups (default %(default)s)")
    p.add_argument("--first", type=int, default=0,
                   help="the first deal group (default 0): a long run split over processes or machines")
    p.add_argument("--merge", type=Path, nargs="+", default=None, metavar="SUMMARY",
                   help="print one summary of --out files of runs over disjoint groups, and play nothing")
    p.add_argument("--players", type=int, default=None, help="players (updown variants; default the variant's)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default %(default)s)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--out", type=Path, default=None,
                   help="also write the JSON summary of the groups played so far to this file after "
                        "every chunk of groups (a long run stopped early keeps its figures)")
    args = p.parse_args(argv)
    if args.merge:
        for f in args.merge:
            if not f.is_file():
                p.error(f"--merge: no summary file {f}")
        return args
    specs = [x.strip() for x in args.bots.split(",") if x.strip()]
    if len(specs) != 2:
        p.error("--bots takes two kinds, e.g. search,heuristic")
    args.specs = tuple(specs)
    if args.groups < 1:
        p.error("--groups must be at least 1")
    if args.variant == OPENSPIEL and benchkit.import_pyspiel() is None:
        p.error(f"--variant openspiel needs OpenSpiel: {benchkit.INSTALL_HINT}")
    if args.lineup == "1v3" and args.variant != OPENSPIEL and (args.players or 4) != 4:
        p.error("the line-ups are for 4 players")
    for spec in specs:
        try:
            make_arena_bot(spec, "check", benchkit.import_pyspiel() if args.variant == OPENSPIEL else None,
                           game=object())  # (a clairvoyant bot reads its game only when it acts)
        except ValueError as e:
            p.error(str(e))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.merge:
        summary = merge_summaries([json.loads(f.read_text(encoding="utf-8")) for f in args.merge])
        print(json.dumps(summary, indent=2) if args.json else format_summary(summary["variant"], summary))
        return 0
    t0 = time.time()

    def summary_of(results: list[GroupResult]) -> dict[str, Any]:
        summary = summarise(results, args.specs)
        summary.update(variant=args.variant, lineup=args.lineup, seed=args.seed, wall_s=round(time.time() - t0, 1))
        return summary

    def progress(results: list[GroupResult]) -> None:
        if not args.json:
            print(f"\r{len(results)}/{args.groups} groups, {time.time() - t0:.0f} s", end="", file=sys.stderr,
                  flush=True)
        if args.out is not None:
            tmp = args.out.with_name(args.out.name + ".part")
            tmp.write_text(json.dumps(summary_of(results), indent=2) + "\n", encoding="utf-8")
            tmp.replace(args.out)

    results = run_arena(args.variant, args.specs, args.groups, seed=args.seed, players=args.players,
                        lineup=args.lineup, jobs=args.jobs, first=args.first, progress=progress)
    if not args.json:
        print(file=sys.stderr)
    summary = summary_of(results)
    print(json.dumps(summary, indent=2) if args.json else format_summary(args.variant, summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
