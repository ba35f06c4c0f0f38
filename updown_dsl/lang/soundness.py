"""What the loader checks before it accepts a variant: that a game of it can always go on.

A variant file can be valid key by key and still be unplayable: a schedule that some allowed
number of players cannot be dealt (``cards: 10`` with 6 players and 52 cards), a bid range that
leaves a player no bid (``bidding: {min: 3, max: 2}``, or a single allowed bid that the hook then
forbids), or a formula that divides by zero (``taken // (bid - taken)``). :func:`soundness_problems`
finds these at load, for every player count the variant allows and every deal of its schedule,
so the engine never meets them in play.

Every formula that divides is evaluated wherever a game evaluates it: the schedule's for every
player count; the bid range and the hook exemption for every deal; a deal's score for every bid
of its range, every number of tricks, dealer or not; the set bonus at the end of every set.
Names whose values a game builds up are tried at values some game reaches: the set's results
(``set_best``, ``set_total``, ``set_made``, ``set_all_made``) are worked out from the scores the
set's deals can give, with all of them made or not; ``total`` (and the set's results when a
deal's score reads ``total`` or ``is_dealer``, or the game may end before the schedule does) at
the fixed :data:`SAMPLES`. The work is bounded (deals sharing the values a formula reads are
tried once, and each set of values is cut to the ones nearest zero), so a load stays cheap.
"""

from __future__ import annotations

from itertools import product
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, NamedTuple

from ..i18n import mark, ntr, tr
from ..diagnostics import Diagnostic
from .formula import FormulaEvalError
from .schedule import bid_names, deal_names, deck_size, resolve_schedule, unplayable

if TYPE_CHECKING:
    from .formula import Formula
    from .variant import Deal, DealKind, Variant

#: Values tried for names that a game builds up, when the values a game reaches are not worked out.
SAMPLES = (0, 1, -1, 10, -10, 100, -100, 1000, -1000)
#: At most this many evaluations of one formula on one deal's values.
MAX_TRIES = 20_000
#: At most this many evaluations of the set bonus at the end of one set.
MAX_SET_TRIES = 4_096
#: The largest total a game may reach: a record writes every total, and the reader takes numbers
#: of at most 18 digits; this leaves room to spare for what the growth check does not try.
SCORE_LIMIT = 10**15
#: The names of a set's results, as the set bonus reads them.
SET_RESULTS = frozenset({"set_best", "set_total", "set_made", "set_all_made"})
HINT = mark("guard the division (`x == 0 ? 0 : y // x`) or divide by a value that cannot be zero")


class Problem(NamedTuple):
    """What cannot be played: a diagnostic, and the section of the file it concerns (for the
    position when the diagnostic has none of its own)."""

    diagnostic: Diagnostic
    section: str


def _where(env: Mapping[str, int], names: Iterable[str]) -> str:
    shown = ", ".join(f"{n} = {env[n]}" for n in sorted(names) if n in env)
    return f"{shown}, " if shown else ""


def can_fail(f: Formula) -> bool:
    """Whether evaluating ``f`` can fail at all: only a division or a remainder by something other
    than a non-zero number can (by zero)."""
    return f.can_fail


def _failure(f: Formula, env: Mapping[str, int], exc: FormulaEvalError, context: str, section: str) -> Problem:
    d = exc.diagnostics[0]
    message = tr("formula {source!r} divides by zero when {where}in {context}", source=f.source,
                 where=_where(env, f.names_used), context=context)
    return Problem(Diagnostic("F005", message, path=d.path, line=d.line, col=d.col, hint=tr(HINT)), section)


def _evaluate(f: Formula, env: dict[str, int], trials: Iterator[dict[str, int]], context: str,
              section: str, limit: int = MAX_TRIES) -> Problem | None:
    """The first of ``trials`` (changes to ``env``) on which ``f`` fails, as a problem."""
    if not f.can_fail:
        return None
    fn = f.fn
    for count, change in enumerate(trials):
        if count >= limit:
            return None
        env.update(change)
        try:
            fn(env)
        except FormulaEvalError as exc:
            return _failure(f, env, exc, context, section)
    return None


def _nearest(values: Iterable[int], k: int) -> tuple[int, ...]:
    """At most ``k`` of ``values``: the samples among them, the smallest and the largest, then
    the nearest zero."""
    pool = sorted(set(values), key=lambda v: (abs(v), v))
    if len(pool) <= k:
        return tuple(pool)
    present = set(pool)
    chosen = dict.fromkeys([s for s in SAMPLES if s in present] + [min(pool), max(pool)])
    for v in pool:
        if len(chosen) >= k:
            break
        chosen.setdefault(v)
    return tuple(list(chosen)[:k])


def _sums(choices: list[set[int]], k: int, without: int | None = None) -> tuple[int, ...]:
    """At most ``k`` (as :func:`_nearest` picks them) of the totals of one value from each of
    ``choices``, but ``without``. The totals are the bits of one integer (bit ``i`` is the total
    ``base + i``), so even sets of thousands of totals cost little."""
    base, bits = 0, 1
    for values in choices:
        low = min(values)
        grown = 0
        for v in values:
            grown |= bits << (v - low)
        base, bits = base + low, grown
    if without is not None and without >= base:
        bits &= ~(1 << (without - base))
    if not bits:
        return ()
    found = [base + (bits & -bits).bit_length() - 1, base + bits.bit_length() - 1]
    found += [s for s in SAMPLES if s >= base and bits >> (s - base) & 1]
    zero = -base  # the bit of the total 0
    up = bits >> zero if zero > 0 else bits
    start = 0 if zero > 0 else base
    down = bits & ((1 << zero) - 1) if zero > 0 else 0
    for _ in range(k):  # the totals nearest 0 from above, then from below
        if up:
            low = up & -up
            found.append(start + low.bit_length() - 1)
            up ^= low
        if down:
            top = down.bit_length() - 1
            found.append(base + top)
            down ^= 1 << top
    return _nearest(found, k)


def _best(choices: list[set[int]]) -> set[int]:
    """The values the best of one value from each of ``choices`` can be."""
    floor = max(min(c) for c in choices)
    return {v for c in choices for v in c if v >= floor}


def soundness_problems(variant: Variant) -> list[Problem]:
    """Why some game of ``variant`` could not be played to the end (empty when it can)."""
    return _Checker(variant).problems()


class _Checker:
    """The checks of one variant, remembering which values each formula was tried on."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.deck = deck_size(variant)
        self.seen: set[tuple[object, ...]] = set()
        self.scores: dict[tuple[object, ...], set[tuple[int, int]]] = {}
        self.grown: dict[tuple[object, ...], int] = {}
        scoring = [k.score for k in variant.kinds.values() if k.score is not None] + [variant.scoring.deal]
        bonus = variant.scoring.set_bonus
        end = variant.end
        try:  # a game that plays the schedule and ends: no stop-loss, target or tie-break
            plain_end = end._replace(stop_on="balance", stop_check="deal") == type(end)()
        except TypeError:  # pragma: no cover - every key of `end` has a default
            plain_end = False
        reads = frozenset().union(*(f.names_used for f in scoring))
        #: The set's results are worked out (the bonus divides and reads them, and the deals' scores
        #: depend only on the deal, the bid and the tricks, in a game that plays the whole schedule).
        self.results = bool(bonus is not None and bonus.can_fail and bonus.names_used & SET_RESULTS
                            and plain_end and not reads & {"total", "is_dealer", "made_count"})

    def problems(self) -> list[Problem]:
        variant = self.variant
        outcomes: dict[int, tuple[Deal, ...] | str] = {}
        problems: list[Problem] = []
        for players in range(variant.min_players, variant.max_players + 1):
            try:
                outcomes[players] = resolve_schedule(variant, players)
            except FormulaEvalError as exc:
                if not problems:
                    problems.append(self.schedule_failure(players, exc))
            except (ValueError, ArithmeticError) as exc:
                outcomes[players] = str(exc)
        found = unplayable(variant, outcomes)
        if found is not None:
            problems.append(Problem(Diagnostic("V009", found[0], hint=found[1]), "schedule"))
        if problems:
            return problems
        for players, deals in outcomes.items():
            assert not isinstance(deals, str)
            problem = self.game(players, deals)
            if problem is not None:
                return [problem]
        return []

    def schedule_failure(self, players: int, exc: FormulaEvalError) -> Problem:
        """F005 for the schedule formula that divides by zero with ``players`` players."""
        env = {"players": players, "deck": self.deck, "max_cards": self.deck // players}
        for group in self.variant.schedule:
            for item in group.items:
                for f in (item.cards, item.times, item.ramp_to):
                    if f is None:
                        continue
                    try:
                        f.fn(env)
                    except FormulaEvalError as failed:
                        place = tr("the schedule") if "players" in f.names_used else \
                            tr("the schedule with {players} players", players=players)
                        return _failure(f, env, failed, place, "schedule")
        d = exc.diagnostics[0]  # pragma: no cover - the schedule's formulas are all tried above
        return Problem(Diagnostic("F005", d.message, path=d.path, line=d.line, hint=tr(HINT)), "schedule")

    def game(self, players: int, deals: tuple[Deal, ...]) -> Problem | None:
        """The first problem of a game of ``players`` players, deal by deal."""
        variant = self.variant
        set_sizes: dict[int, int] = {}
        for deal in deals:
            set_sizes[deal.set] = set_sizes.get(deal.set, 0) + 1
        in_set: list[set[tuple[int, int]]] = []
        bound = 0  # the largest a total can be before the deal (as far as the growth check sees)
        for deal in deals:
            env = deal_names(variant, deals, deal, players, self.deck, set_sizes[deal.set])
            context = ntr("deal {number} with {players} players ({n} card)",
                          "deal {number} with {players} players ({n} cards)", deal.cards, number=deal.number,
                          players=players)
            kind = variant.kinds[deal.kind]
            bids = self.bids(env, deal, kind, players, context)
            if isinstance(bids, Problem):
                return bids
            lo, hi = bids
            no_bids = kind.bidding == "none"
            f = kind.score or variant.scoring.deal
            problem = self.score(f, env, lo, hi, no_bids, context)
            if problem is not None:
                return problem
            bound += self.growth(f, env, lo, hi, no_bids, kind.multiplier, bound)
            if bound > SCORE_LIMIT:
                return Problem(Diagnostic(
                    "V015", tr("the totals can grow past {limit:,} by {context}: a record cannot hold them",
                               limit=SCORE_LIMIT, context=context),
                    hint=tr("a score that multiplies the total grows without bound: add to the total "
                            "instead, or cap it (`min(total * 2, 1000)`)")), "scoring")
            if self.results:
                try:
                    in_set.append(self.outcomes(f, env, lo, hi, no_bids, kind.multiplier))
                except FormulaEvalError as exc:  # pragma: no cover - the score check tried these
                    return _failure(f, env, exc, context, "scoring")
            last_of_set = deal.number == len(deals) or deals[deal.number].set != deal.set
            if last_of_set and variant.scoring.set_bonus is not None:
                problem = self.set_bonus(variant.scoring.set_bonus, env, tr("the set ending with {deal}", deal=context),
                                         in_set)
                if problem is not None:
                    return problem
                in_set = []
        return None

    def growth(self, f: Formula, env: dict[str, int], lo: int, hi: int, no_bids: bool, multiplier: int,
               bound: int) -> int:
        """The most points (either way) one player can score in the deal when every total is at
        most ``bound`` either way: every bid and number of tricks, and the totals ``±bound``,
        ``±bound // 2`` and 0 when the score reads the total (then the bids and tricks at their
        ends and the bid made). A value that fails to evaluate is left out (the F005 check
        reports it)."""
        used = f.names_used
        reads_total = "total" in used
        key = ("growth", f.source, lo, hi, no_bids, env["cards"], multiplier,
               tuple((n, env[n]) for n in sorted(used) if n in env))
        if not reads_total and key in self.grown:
            return self.grown[key]
        cards = env["cards"]
        bids: Iterable[int | None] = [None] if no_bids else (
            sorted({lo, hi, (lo + hi) // 2}) if reads_total else range(lo, hi + 1))
        totals = sorted({-bound, -(bound // 2), 0, bound // 2, bound}) if reads_total else (0,)
        dealers = (0, 1) if "is_dealer" in used else (0,)
        counts = (1, env["players"]) if "made_count" in used else (1,)
        e = dict(env)
        most = 0
        for bid in bids:
            b = 0 if bid is None else bid
            takens = sorted({0, cards, min(b, cards)}) if reads_total else range(cards + 1)
            for taken, total, dealer, count in product(takens, totals, dealers, counts):
                made = 1 if bid is None or b == taken else 0
                e.update(bid=b, taken=taken, made=made, total=total, is_dealer=dealer,
                         made_count=max(count, made))
                try:
                    most = max(most, abs(f.fn(e) * multiplier))
                except FormulaEvalError:
                    continue
        if not reads_total:
            self.grown[key] = most
        return most

    def bids(self, env: dict[str, int], deal: Deal, kind: DealKind, players: int,
             context: str) -> tuple[int, int] | Problem:
        """The deal's bid range, or why a player could have no bid (V014) or a bidding formula
        fails (F005)."""
        b = self.variant.bidding
        values: list[int] = []
        hook = kind.hook if kind.hook is not None else b.hook
        for f in (b.min_bid, b.max_bid) + ((b.hook_exempt,) if hook and b.hook_exempt is not None else ()):
            try:
                values.append(f.fn(bid_names(env)))
            except FormulaEvalError as exc:
                return _failure(f, env, exc, context, "bidding")
        lo, hi = max(0, values[0]), min(deal.cards, values[1])
        hook = bool(hook) and kind.bidding != "sealed" and not (len(values) > 2 and values[2])
        total = getattr(b, "total", "differ")
        if kind.bidding == "none":
            return lo, hi
        if kind.bidding == "auction" and b.auction is not None:
            try:
                low = max(1, b.auction.min_call.fn(env))
            except FormulaEvalError as exc:
                return _failure(b.auction.min_call, env, exc, context, "bidding")
            if low > deal.cards:  # only dashes: and the last caller may not dash after all the others
                return Problem(Diagnostic(
                    "V014", tr("no call is possible in {context}: a call names at least {low} tricks, and a hand "
                               "holds {cards}; dashes alone cannot end the auction",
                               context=context, low=low, cards=deal.cards),
                    hint=tr("lower `bidding.auction.min`, or deal more cards in these deals")), "bidding")
        limit = b.dash_limit
        if limit is not None and hi <= 0 and limit < players:
            return Problem(Diagnostic(
                "V014", tr("no bid is possible for a player in {context}: every bid must be 0, and at most "
                           "{limit} players may bid 0", context=context, limit=limit),
                hint=tr("widen the bid range, or raise `bidding.dash_limit`")), "bidding")
        key = (lo, hi, hook, total, deal.cards, players)
        if key in self.seen:
            return lo, hi
        self.seen.add(key)
        if lo > hi:
            return Problem(Diagnostic(
                "V014", tr("no bid is possible in {context}: the bids run from {lo} to {hi}",
                           context=context, lo=lo, hi=hi),
                hint=tr("`bidding.min` must not exceed `bidding.max` (nor the hand size)")), "bidding")
        # `over` and `under` let a last bidder who cannot make it so bid anything.
        if hook and total in ("differ", "any") and lo == hi and deal.cards == players * lo:
            return Problem(Diagnostic(
                "V014", tr("the hook leaves the last bidder no bid in {context}: every bid must be {lo}, and {players} bids of {lo} total the {cards} cards",
                           context=context, lo=lo, players=players, cards=deal.cards),
                hint=tr("widen the bid range, or exempt these deals from the hook (`bidding.hook_exempt`)")), "bidding")
        return lo, hi

    def score(self, f: Formula, env: dict[str, int], lo: int, hi: int, no_bids: bool,
              context: str) -> Problem | None:
        """F005 when the deal's score divides by zero for some bid, number of tricks, dealer or total."""
        if not f.can_fail:
            return None
        used = f.names_used
        # The tricks run to the hand size, whether the formula reads `cards` or not.
        key = (f.source, lo, hi, no_bids, env["cards"], tuple((n, env[n]) for n in sorted(used) if n in env))
        if key in self.seen:
            return None
        self.seen.add(key)
        bids: Iterable[int | None] = [None] if no_bids else range(lo, hi + 1)
        totals = SAMPLES if "total" in used else (0,)
        dealers = (0, 1) if "is_dealer" in used else (0,)
        # How many made their bid: this player's own result and any number of the others.
        counts = range(env["players"] + 1) if "made_count" in used else (1,)
        trials = ({"bid": 0 if bid is None else bid, "taken": taken, "made": made, "total": total,
                   "is_dealer": dealer, "made_count": count}
                  for bid, taken, total, dealer in product(bids, range(env["cards"] + 1), totals, dealers)
                  for made in (1 if bid is None or bid == taken else 0,)
                  for count in counts if made <= count <= env["players"] - 1 + made)
        return _evaluate(f, dict(env), trials, context, "scoring")

    def outcomes(self, f: Formula, env: dict[str, int], lo: int, hi: int, no_bids: bool,
                 multiplier: int) -> set[tuple[int, int]]:
        """Every (points, made) one player can have from the deal (``f`` reads neither ``total``
        nor ``is_dealer``)."""
        used = f.names_used
        key = (f.source, lo, hi, no_bids, env["cards"], multiplier,
               tuple((n, env[n]) for n in sorted(used) if n in env))
        found = self.scores.get(key)
        if found is None:
            e = dict(env, total=0, is_dealer=0, made_count=1)
            found = set()
            for bid in ([None] if no_bids else range(lo, hi + 1)):
                for taken in range(env["cards"] + 1):
                    made = 1 if bid is None or bid == taken else 0
                    e.update(bid=0 if bid is None else bid, taken=taken, made=made)
                    found.add((f.fn(e) * multiplier, made))
            self.scores[key] = found
        return found

    def set_bonus(self, f: Formula, env: dict[str, int], context: str,
                  deals: list[set[tuple[int, int]]]) -> Problem | None:
        """F005 when the set bonus divides by zero for some result of the set."""
        if not f.can_fail:
            return None
        used = f.names_used
        n = env["set_deals"]
        varies = [name for name in ("set_best", "set_total", "set_made", "total") if name in used
                  or name == "set_made" and "set_all_made" in used]
        k = max(3, int(MAX_SET_TRIES ** (1 / max(len(varies), 1))))
        totals = SAMPLES[:k] if "total" in used else (0,)
        cases: list[tuple[tuple[int, ...], ...]] = []
        if self.results and deals:
            made = [{m for _, m in d} for d in deals]
            for all_made in (True, False):
                if all_made and not all(1 in m for m in made) or not all_made and not any(0 in m for m in made):
                    continue
                points = [{p for p, m in d if m or not all_made} for d in deals]
                cases.append((
                    _nearest(_best(points), k) if "set_best" in used else (0,),
                    _sums(points, k) if "set_total" in used else (0,),
                    (n,) if all_made else _sums(made, k, without=n) if "set_made" in varies else (0,),
                    totals))
        else:  # the results are not worked out: samples
            cases.append((_nearest(SAMPLES, k) if "set_best" in used else (0,),
                          _nearest(SAMPLES, k) if "set_total" in used else (0,),
                          _nearest(range(n + 1), k) if "set_made" in varies else (0,), totals))
        key = ("set", f.source, tuple(cases), tuple((name, env[name]) for name in sorted(used) if name in env))
        if key in self.seen:
            return None
        self.seen.add(key)
        trials = ({"set_best": best, "set_total": total_set, "set_made": m, "set_all_made": int(m == n),
                   "total": total}
                  for case in cases for best, total_set, m, total in product(*case))
        return _evaluate(f, dict(env), trials, context, "scoring", limit=4 * MAX_SET_TRIES)
