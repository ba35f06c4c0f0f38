"""The balance report of simulations as a self-contained page, one variant or several side by side.

Every figure is a :class:`~updown_dsl.batch.balance.BalanceSummary`'s; this module lays them
out: the seat advantage with its intervals and tests, how often the hook forbade a bid, the
deals by kind and by hand size (mean points, spread, bids made), the winner's margin, and
charts of each (:mod:`~updown_dsl.pages.charts`).
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Sequence

from ..batch.balance import wilson
from ..i18n import mark, tr
from .html import esc, page, table
from .sheet import deal_mark, shown_mark

if TYPE_CHECKING:  # pragma: no cover
    from ..batch.balance import BalanceSummary, DealRow, TestResult

__all__ = ["balance_page", "verdict_text"]


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _ci(value: float, low: float, high: float, pct: bool = False) -> str:
    if pct:
        return f"{value:.1%} [{low:.1%}, {high:.1%}]"
    return f"{value:.1f} [{low:.1f}, {high:.1f}]"


def verdict_text(t: TestResult, what: str = "seat advantage") -> str:
    """``Friedman χ² = 3.18 (3 df, 500 games), p = 0.364: no evidence of a seat advantage (5 % level)``."""
    p = f"p = {t.p_value:.3g}" if t.p_value >= 0.0001 else "p < 0.0001"
    verdict = (tr("the games show a {what} ({level} level)", what=tr(what), level="5 %") if t.rejects()
               else tr("no evidence of a {what} ({level} level)", what=tr(what), level="5 %"))
    return tr("{name} χ² = {statistic} ({df} df, {n} games), {p}: {verdict}", name=t.name,
              statistic=f"{t.statistic:.2f}", df=t.df, n=t.n, p=p, verdict=verdict)


def _verdict(t: TestResult, what: str) -> str:
    cls = "yes" if t.rejects() else "no"
    return f'<p class="verdict {cls}" data-test="{esc(t.name)}" data-p="{t.p_value:.6g}">{esc(verdict_text(t, what))}</p>'


def _deal_table(rows: Sequence[DealRow], sizes: bool) -> str:
    head = [tr("cards") if sizes else tr("deal kind"), tr("seat-deals"), tr("mean points"), tr("sd"),
            tr("bids made [95 % CI]")]
    body = []
    for r in rows:
        made = _ci(*wilson(r.made * r.bids, r.bids), pct=True) if r.bids else "–"
        body.append([shown_mark(deal_mark(r.cards or 0, r.kind)) if sizes else r.kind, r.deals, f"{r.mean_points:.1f}",
                     f"{r.sd_points:.1f}", made])
    return '<div class="wide">' + table(head, body, cls="stats") + "</div>"


def _head(b: BalanceSummary) -> str:
    s = b.summary
    v = s.variant
    bots = ", ".join(s.bots)
    stop = tr("; {share} of games ended by the stop-loss", share=_pct(v.stop_loss_share)) if v.stop_loss_share else ""
    facts = tr("{games} games, {players} players ({bots}), seed {seed}; {deals} deals a game; the hook forbade a bid "
               "in {hook} of {rounds} bidding rounds", games=v.games, players=v.players,
               bots=bots + (tr(", rotated") if s.rotate else ""), seed=s.seed, deals=f"{v.mean_deals:.1f}",
               hook="\x00", rounds=v.bidding_rounds) + stop
    before, _, after = esc(facts).partition("\x00")
    return (f'<p class="facts" data-variant="{esc(v.variant)}"><b>{esc(v.variant)}</b>: {before}'
            f'<span class="hook">{_pct(v.hook_share)}</span>{after}</p>')


def _seat_table(b: BalanceSummary) -> str:
    rows = [[tr("seat {number}", number=x.seat + 1), _ci(*x.points), _ci(*x.wins, pct=True)] for x in b.seats]
    return '<div class="wide">' + table([tr("seat"), tr("mean final total [95 % CI]"), tr("wins [95 % CI]")], rows,
                                        cls="stats seat-table") + "</div>"


def _size_labels(summaries: Sequence[BalanceSummary]) -> list[tuple[str, int]]:
    seen: dict[tuple[str, int], None] = {}
    for b in summaries:
        for r in b.sizes:
            seen[(r.kind, r.cards or 0)] = None
    return sorted(seen, key=lambda kc: (kc[0] != "normal", kc[0], kc[1]))


def balance_page(summaries: Sequence[BalanceSummary], *, title: str | None = None) -> str:
    """The report of one simulation, or of several (the same games of other variants) side by side.

    :raises MissingExtra: without matplotlib (see :mod:`~updown_dsl.pages.charts`).
    """
    from .charts import histogram_svg, intervals_svg

    names = [b.variant for b in summaries]
    title = title or tr("Balance: {variants}", variants=tr(" vs ").join(names))
    n = max(b.summary.variant.players for b in summaries)
    seats = [tr("seat {number}", number=s + 1) for s in range(n)]

    def padded(values: Sequence[float], fill: float = 0.0) -> list[float]:
        return list(values) + [fill] * (n - len(values))

    points_chart = intervals_svg(seats, [(b.variant, padded([x.points.value for x in b.seats]),
                                          padded([x.points.low for x in b.seats]),
                                          padded([x.points.high for x in b.seats])) for b in summaries],
                                 title=tr("Mean final total by seat, 95 % CI"), ylabel=tr("points"))
    wins_chart = intervals_svg(seats, [(b.variant, padded([x.wins.value for x in b.seats]),
                                        padded([x.wins.low for x in b.seats]),
                                        padded([x.wins.high for x in b.seats])) for b in summaries],
                               title=tr("Share of wins by seat, 95 % CI (dashed: an even share)"),
                               ylabel=tr("share of games"), reference=1 / n)
    sizes = _size_labels(summaries)
    labels = [shown_mark(deal_mark(c, k)) for k, c in sizes]

    def made(b: BalanceSummary, part: int) -> list[float]:
        found = {(r.kind, r.cards or 0): wilson(r.made * r.bids, r.bids)[part] for r in b.sizes}
        return [found.get(kc, 0.0) for kc in sizes]

    def spread(b: BalanceSummary) -> list[float]:
        found = {(r.kind, r.cards or 0): r.sd_points for r in b.sizes}
        return [found.get(kc, 0.0) for kc in sizes]

    made_chart = intervals_svg(labels, [(b.variant, made(b, 0), made(b, 1), made(b, 2)) for b in summaries],
                               title=tr("Share of bids made by hand size, 95 % CI"), ylabel=tr("bids made"),
                               width=7.5)
    spread_chart = intervals_svg(labels, [(b.variant, spread(b), None, None) for b in summaries],
                                 title=tr("Score spread (sd of a seat's points) by hand size"), ylabel=tr("points"),
                                 width=7.5)
    margin_chart = histogram_svg([(b.variant, b.margins) for b in summaries],
                                 title=tr("The winner's margin over the runner-up"), xlabel=tr("points"))

    def side(parts: Sequence[str]) -> str:
        return '<div class="side">' + "".join(f"<div>{p}</div>" for p in parts) + "</div>"

    seat_parts = [f"<h3>{esc(b.variant)}</h3>{_seat_table(b)}{_verdict(b.friedman, mark('seat advantage'))}"
                  f"{_verdict(b.wins_test, mark('seat advantage in the wins'))}" for b in summaries]
    kind_parts = [f"<h3>{esc(b.variant)}</h3>{_deal_table(b.kinds, False)}" for b in summaries]
    size_parts = [f"<h3>{esc(b.variant)}</h3>{_deal_table(b.sizes, True)}" for b in summaries]
    margin_parts = []
    for b in summaries:
        median = statistics.median(b.margins) if b.margins else 0
        margin_parts.append(f'<h3>{esc(b.variant)}</h3><p class="margin">'
                            + esc(tr("mean {mean}, median {median} points", mean=_ci(*b.margin), median=f"{median:g}"))
                            + "</p>")
    body = (
        f"<h1>{esc(title)}</h1>"
        + "".join(_head(b) for b in summaries)
        + f'<section class="report-part" id="seats"><h2>{esc(tr("Seat advantage"))}</h2><p>'
        + esc(tr("Each seat's mean final total and share of wins with {level} confidence intervals. The Friedman "
                 "test ranks the totals within each game and asks whether some seat ranks higher than chance "
                 "allows; the chi-square test does the same for the wins of the games with one winner.",
                 level="95 %"))
        + "</p>" + side(seat_parts) + points_chart + wins_chart + "</section>"
        + f'<section class="report-part" id="kinds"><h2>{esc(tr("Deals by kind"))}</h2><p>'
        + esc(tr("Mean points of a seat in a deal, their standard deviation (the score spread) and the share of "
                 "bids made exactly.")) + "</p>" + side(kind_parts) + "</section>"
        + f'<section class="report-part" id="sizes"><h2>{esc(tr("Deals by hand size"))}</h2>'
        + made_chart + spread_chart + side(size_parts) + "</section>"
        + '<section class="report-part" id="margin"><h2>' + esc(tr("The winner's margin")) + "</h2>"
        + side(margin_parts) + margin_chart + "</section>"
    )
    return page(title, f'<main class="report">{body}</main>')
