"""What the loader checks before it accepts a variant: that a game of it can always go on.

A variant file can be valid key by key and still be unplayable: a bid range that leaves a
player no bid (``bidding: {min: 3, max: 2}``, or a single allowed bid that the hook then
forbids), or a formula that divides by zero for some bid and take (``taken // (bid - taken)``).
:func:`soundness_problems` finds these at load, for every player count the variant allows and
every deal of its schedule, so the engine never meets them in play.

Bids and tricks are tried exhaustively (every bid of the deal's range, every number of
tricks); names whose values a game builds up (``total``, the set's points) are tried at a
fixed set of values, zero included. The work is bounded (deals sharing the values a formula
reads are tried once), so a load stays cheap.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, NamedTuple

from ..diagnostics import Diagnostic
from .formula import FormulaEvalError
from .schedule import deal_names, deck_size, resolve_schedule

if TYPE_CHECKING:
    from .formula import Formula
    from .variant import Variant

#: Values tried for names that a game builds up (a running total, a set's points).
SAMPLES = (0, 1, -1, 10, -10, 100, -100, 1000, -1000)
#: At most this many evaluations of one formula on one deal's values.
MAX_TRIES = 20_000


class Problem(NamedTuple):
    """What cannot be played: a diagnostic, and the section of the file it concerns (for the
    position when the diagnostic has none of its own)."""

    diagnostic: Diagnostic
    section: str


def _where(env: Mapping[str, int], names: Iterable[str]) -> str:
    shown = ", ".join(f"{n} = {env[n]}" for n in sorted(names) if n in env)
    return f"{shown}, " if shown else ""


def can_fail(f: Formula) -> bool:
    """Whether evaluating ``f`` can fail at all: only a division or a remainder can (by zero)."""
    return "/" in f.source or "%" in f.source


def _evaluate(f: Formula, env: dict[str, int], trials: Iterator[dict[str, int]], context: str,
              section: str) -> Problem | None:
    """The first of ``trials`` (changes to ``env``) on which ``f`` fails, as a problem."""
    if not can_fail(f):
        return None
    for count, change in enumerate(trials):
        if count >= MAX_TRIES:
            return None
        env.update(change)
        try:
            f.fn(env)
        except FormulaEvalError as exc:
            d = exc.diagnostics[0]
            message = (f"formula {f.source!r} divides by zero when {_where(env, f.names_used)}"
                       f"in {context}")
            return Problem(Diagnostic("F005", message, path=d.path, line=d.line, col=d.col,
                                      hint="guard the division (`x == 0 ? 0 : y // x`) or divide by a "
                                           "value that cannot be zero"), section)
    return None


def soundness_problems(variant: Variant) -> list[Problem]:
    """Why some game of ``variant`` could not be played to the end (empty when it can)."""
    problems: list[Problem] = []
    seen_bids: set[tuple[object, ...]] = set()
    seen_scores: set[tuple[object, ...]] = set()
    deck = deck_size(variant)
    b = variant.bidding
    for players in range(variant.min_players, variant.max_players + 1):
        try:
            deals = resolve_schedule(variant, players)
        except (ValueError, ArithmeticError, FormulaEvalError):  # reported as V009 by the loader
            return problems
        set_sizes: dict[int, int] = {}
        for deal in deals:
            set_sizes[deal.set] = set_sizes.get(deal.set, 0) + 1
        for deal in deals:
            env = deal_names(variant, deals, deal, players, deck, set_sizes[deal.set])
            context = (f"deal {deal.number} with {players} players ({deal.cards} "
                       f"{'card' if deal.cards == 1 else 'cards'})")
            kind = variant.kinds[deal.kind]
            try:
                lo = max(0, b.min_bid(env))
                hi = min(deal.cards, b.max_bid(env))
                hook = kind.hook if kind.hook is not None else b.hook
                hook = bool(hook) and not (b.hook_exempt is not None and b.hook_exempt(env))
            except FormulaEvalError as exc:
                d = exc.diagnostics[0]
                problems.append(Problem(Diagnostic("F005", f"{d.message} in {context}", path=d.path,
                                                   line=d.line, col=d.col), "bidding"))
                return problems
            if kind.bidding != "none":
                key = (lo, hi, hook, deal.cards, players)
                if key not in seen_bids:
                    seen_bids.add(key)
                    if lo > hi:
                        problems.append(Problem(Diagnostic(
                            "V014", f"no bid is possible in {context}: the bids run from {lo} to {hi}",
                            hint="`bidding.min` must not exceed `bidding.max` (nor the hand size)"),
                            "bidding"))
                        return problems
                    if hook and lo == hi and deal.cards == players * lo:
                        problems.append(Problem(Diagnostic(
                            "V014", f"the hook leaves the last bidder no bid in {context}: every bid "
                            f"must be {lo}, and {players} bids of {lo} total the {deal.cards} cards",
                            hint="widen the bid range, or exempt these deals from the hook "
                                 "(`bidding.hook_exempt`)"), "bidding"))
                        return problems
            problem = _score_problem(variant, kind.score or variant.scoring.deal, env, lo, hi,
                                     kind.bidding == "none", context, seen_scores)
            if problem is not None:
                problems.append(problem)
                return problems
            last_of_set = deal.number == len(deals) or deals[deal.number].set != deal.set
            if last_of_set and variant.scoring.set_bonus is not None:
                problem = _set_bonus_problem(variant.scoring.set_bonus, env, context, seen_scores)
                if problem is not None:
                    problems.append(problem)
                    return problems
    return problems


def _score_problem(variant: Variant, f: Formula, env: dict[str, int], lo: int, hi: int, no_bids: bool,
                   context: str, seen: set[tuple[object, ...]]) -> Problem | None:
    used = f.names_used
    key = (f.source, lo, hi, no_bids, tuple((n, env[n]) for n in sorted(used) if n in env))
    if key in seen:
        return None
    seen.add(key)
    bids: Iterable[int | None] = [None] if no_bids else range(lo, hi + 1)
    totals = SAMPLES if "total" in used else (0,)
    dealers = (0, 1) if "is_dealer" in used else (0,)
    trials = ({"bid": 0 if bid is None else bid, "taken": taken,
               "made": 1 if bid is None or bid == taken else 0, "total": total, "is_dealer": dealer}
              for bid, taken, total, dealer in product(bids, range(env["cards"] + 1), totals, dealers))
    return _evaluate(f, dict(env), trials, context, "scoring")


def _set_bonus_problem(f: Formula, env: dict[str, int], context: str,
                       seen: set[tuple[object, ...]]) -> Problem | None:
    used = f.names_used
    key = ("set", f.source, tuple((n, env[n]) for n in sorted(used) if n in env))
    if key in seen:
        return None
    seen.add(key)
    per = {n: (SAMPLES if n in used else (0,)) for n in ("set_best", "set_total", "total")}
    made = range(env["set_deals"] + 1) if "set_made" in used else (0,)
    trials = ({"set_best": best, "set_total": total_set, "total": total, "set_made": m,
               "set_all_made": int(m == env["set_deals"])}
              for best, total_set, total, m in product(per["set_best"], per["set_total"], per["total"], made))
    return _evaluate(f, dict(env), trials, f"the set ending with {context}", "scoring")
