"""Is a variant fair to every seat, and how do its deals play? Measured over a simulation's games.

:func:`balance_games` plays a simulation (:func:`~updown_dsl.batch.simulate.simulate_games`,
here or in a pool) and keeps, besides its summary, a few plain facts of every game
(:func:`game_facts`: final totals, winners, each deal's kind, hand size, points and bids
made). :func:`summarise` turns them into a :class:`BalanceSummary`:

* **seat advantage**: each seat's mean final total with its 95 % confidence interval
  (Student's t), and its share of wins with the 95 % Wilson interval;
* **a test of "no seat advantage"**: the Friedman test on the final totals (ranked within each
  game, ties given their mean rank, with the tie correction), whose statistic follows the
  chi-square law with ``seats - 1`` degrees of freedom when no seat is better placed; and a
  chi-square test of the wins of the games with one winner against an even share;
* per deal kind and per hand size: the deals, the mean points of a seat and their standard
  deviation (the score spread), and the share of bids made;
* the winner's margin (the winner's total less the runner-up's), with its 95 % interval.

The chi-square and t laws are computed here (the regularised incomplete gamma function and a
bisection on the t law's tail), so no statistics package is needed; the tests compare them
with closed forms and, where SciPy is installed, with SciPy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from ..engine import Game
from ..lang.variant import Variant
from ..players.simulate import SimulationSummary
from .simulate import simulate_games

__all__ = ["BalanceFacts", "BalanceSummary", "DealRow", "Interval", "SeatBalance", "TestResult", "balance_dict", "balance_games",
           "chi2_sf", "friedman", "game_facts", "mean_interval", "summarise", "t_quantile", "wilson"]


class BalanceFacts(NamedTuple):
    """What the balance report keeps of one game: plain values, so they cross processes."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    deals: tuple[tuple[str, int, tuple[int, ...], tuple[int | None, ...]], ...]
    """Per scored deal: ``(kind, cards, points per seat, made per seat)``, points with the
    multiplier and the set premium, made 1 or 0 (None: the seat did not bid)."""


def game_facts(game: Game) -> BalanceFacts:
    """The facts of a finished game (a module-level function, so a process pool can run it)."""
    deals = []
    for r in game.results:
        if r.event != "deal":
            continue
        deals.append((r.deal.kind, r.deal.cards, tuple(x.points + x.bonus for x in r.seats),
                      tuple(None if x.bid is None else int(x.bid == x.taken) for x in r.seats)))
    return BalanceFacts(tuple(game.totals), tuple(game.winners()), tuple(deals))


# --------------------------------------------------------------------------- the laws


def _gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) (series or continued fraction)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series of P(a, x)
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300  # Lentz's continued fraction of Q(a, x)
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X of the chi-square law with ``df`` degrees of freedom."""
    return _gamma_q(df / 2, x / 2)


def _t_sf(t: float, df: int) -> float:
    """P(T ≥ t) for Student's t law, through the regularised incomplete beta function."""
    x = df / (df + t * t)
    return 0.5 * _beta_inc(df / 2, 0.5, x) if t >= 0 else 1 - 0.5 * _beta_inc(df / 2, 0.5, x)


def _beta_inc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (a continued fraction)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1 - _beta_inc(b, a, 1 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)) / a
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 1000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + num / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front * h


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (0.5 < p < 1) of Student's t law with ``df`` degrees of freedom."""
    lo, hi = 0.0, 1.0
    while _t_sf(hi, df) > 1 - p:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_sf(mid, df) > 1 - p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# --------------------------------------------------------------------------- estimates and tests


class Interval(NamedTuple):
    """An estimate with its 95 % confidence interval."""

    value: float
    low: float
    high: float


def mean_interval(xs: Sequence[float]) -> Interval:
    """The mean with its 95 % interval by Student's t (the mean alone for fewer than two values)."""
    n = len(xs)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    m = math.fsum(xs) / n
    if n < 2:
        return Interval(m, m, m)
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1))
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    return Interval(m, m - half, m + half)


def wilson(successes: float, n: int, z: float = 1.959963984540054) -> Interval:
    """A share with its 95 % Wilson score interval."""
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # (the rounding of centre - half can leave the bound a hair past the share: 5.6e-17 for 0 of
    # 3, a negative error bar; the interval always holds the share)
    return Interval(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


@dataclass(frozen=True)
class TestResult:
    """A test's statistic, its degrees of freedom and p-value, and what was tested."""

    name: str
    statistic: float
    df: int
    p_value: float
    n: int
    """The games the test used."""

    def rejects(self, level: float = 0.05) -> bool:
        """True when the p-value is below ``level``: the games speak against the hypothesis."""
        return self.p_value < level


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def friedman(rows: Sequence[Sequence[float]]) -> TestResult:
    """The Friedman test that no column (seat) ranks higher than another, over the rows (games)."""
    n = len(rows)
    k = len(rows[0]) if rows else 0
    if n == 0 or k < 2:
        return TestResult("Friedman", 0.0, max(k - 1, 0), 1.0, n)
    sums = [0.0] * k
    ties = 0.0
    for row in rows:
        ranks = _ranks(row)
        for j, r in enumerate(ranks):
            sums[j] += r
        for r in set(ranks):
            t = ranks.count(r)
            ties += t ** 3 - t
    q = 12 / (n * k * (k + 1)) * math.fsum(s * s for s in sums) - 3 * n * (k + 1)
    correction = 1 - ties / (n * (k ** 3 - k))
    q = q / correction if correction > 0 else 0.0
    return TestResult("Friedman", q, k - 1, chi2_sf(q, k - 1), n)


def chi2_even(counts: Sequence[float]) -> TestResult:
    """The chi-square test of counts against an even share."""
    total = math.fsum(counts)
    k = len(counts)
    if total == 0 or k < 2:
        return TestResult("chi-square", 0.0, max(k - 1, 0), 1.0, int(total))
    e = total / k
    x = math.fsum((c - e) ** 2 / e for c in counts)
    return TestResult("chi-square", x, k - 1, chi2_sf(x, k - 1), int(total))


# --------------------------------------------------------------------------- the summary


@dataclass(frozen=True)
class SeatBalance:
    """How one seat did (0-based: seat 0 is eldest in the first deal)."""

    seat: int
    points: Interval
    wins: Interval
    """The share of games won (a tie of ``k`` counts ``1/k``), Wilson interval."""


@dataclass(frozen=True)
class DealRow:
    """The deals of one kind (and hand size, or ``cards`` None for every size)."""

    kind: str
    cards: int | None
    deals: int
    """Seat-deals: a deal of four players counts four."""
    mean_points: float
    sd_points: float
    made: float
    """The share of bids made, over the seat-deals with a bid."""
    bids: int


@dataclass(frozen=True)
class BalanceSummary:
    """The balance of a variant over a simulation (see the module's description)."""

    summary: SimulationSummary
    seats: tuple[SeatBalance, ...]
    friedman: TestResult
    wins_test: TestResult
    kinds: tuple[DealRow, ...]
    sizes: tuple[DealRow, ...]
    margin: Interval
    margins: tuple[int, ...]
    """The winner's margin of every game, in game order (for a chart)."""
    totals: tuple[tuple[int, ...], ...]
    """Every game's final totals, in game order."""

    @property
    def variant(self) -> str:
        return self.summary.variant.variant

    @property
    def hook_share(self) -> float:
        """The share of bidding rounds in which the hook forbade the last bidder a bid."""
        return self.summary.variant.hook_share


def _deal_rows(facts: Sequence[BalanceFacts], by_size: bool) -> tuple[DealRow, ...]:
    groups: dict[tuple[str, int | None], tuple[list[int], list[int]]] = {}
    for f in facts:
        for kind, cards, points, made in f.deals:
            pts, mades = groups.setdefault((kind, cards if by_size else None), ([], []))
            pts.extend(points)
            mades.extend(m for m in made if m is not None)
    out = []
    for (kind, size), (pts, mades) in sorted(groups.items(), key=lambda kv: (kv[0][0] != "normal", kv[0][0],
                                                                            kv[0][1] or 0)):
        mean = math.fsum(pts) / len(pts)
        sd = math.sqrt(math.fsum((p - mean) ** 2 for p in pts) / (len(pts) - 1)) if len(pts) > 1 else 0.0
        out.append(DealRow(kind, size, len(pts), mean, sd, sum(mades) / len(mades) if mades else 0.0, len(mades)))
    return tuple(out)


def summarise(summary: SimulationSummary, facts: Sequence[BalanceFacts]) -> BalanceSummary:
    """The balance of the games whose facts are ``facts`` (in game order)."""
    n = summary.variant.players
    totals = [f.totals for f in facts]
    seats = []
    for s in range(n):
        wins = math.fsum(1 / len(f.winners) for f in facts if s in f.winners)
        seats.append(SeatBalance(s, mean_interval([t[s] for t in totals]), wilson(wins, len(facts))))
    single = [0] * n
    for f in facts:
        if len(f.winners) == 1:
            single[f.winners[0]] += 1
    margins = []
    for t in totals:
        top = sorted(t, reverse=True)
        margins.append(top[0] - top[1] if len(top) > 1 else 0)
    return BalanceSummary(summary, tuple(seats), friedman(totals), chi2_even(single),
                          _deal_rows(facts, False), _deal_rows(facts, True), mean_interval(margins),
                          tuple(margins), tuple(totals))


def balance_games(variant: Variant, players: int | None, games: int, *, seed: int | str, bots: Sequence[str],
                  rotate: bool = False, jobs: int = 1, scheduler: str | Any | None = None,
                  record_label: str | None = None, on_game: Callable[[int, str | None], None] | None = None,
                  embed_rules: bool = False) -> BalanceSummary:
    """:func:`~updown_dsl.batch.simulate.simulate_games` (same arguments, same games), and the
    balance of its games."""
    facts: list[BalanceFacts] = []
    summary = simulate_games(variant, players, games, seed=seed, bots=bots, rotate=rotate, jobs=jobs,
                             scheduler=scheduler, record_label=record_label, on_game=on_game,
                             embed_rules=embed_rules, measure=game_facts,
                             on_measure=lambda g, f: facts.append(f))
    return summarise(summary, facts)


def balance_dict(b: BalanceSummary) -> dict[str, Any]:
    """The balance as plain data for JSON (the simulation's summary is ``b.summary.to_dict()``)."""
    def test(t: TestResult) -> dict[str, Any]:
        return {"test": t.name, "statistic": t.statistic, "df": t.df, "p_value": t.p_value, "games": t.n}

    def rows(rs: Sequence[DealRow]) -> list[dict[str, Any]]:
        return [{"kind": r.kind, "cards": r.cards, "seat_deals": r.deals, "mean_points": r.mean_points,
                 "sd_points": r.sd_points, "bids": r.bids, "bids_made": r.made} for r in rs]

    return {
        "seats": [{"seat": x.seat, "mean_points": x.points._asdict(), "win_share": x.wins._asdict()} for x in b.seats],
        "no_seat_advantage": test(b.friedman),
        "no_seat_advantage_in_wins": test(b.wins_test),
        "hook_share": b.hook_share,
        "kinds": rows(b.kinds),
        "sizes": rows(b.sizes),
        "margin": b.margin._asdict(),
    }
