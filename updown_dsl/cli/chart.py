"""Charts and figures in the terminal: the score progression drawn with plotext (the ``charts``
extra, imported when a chart is drawn) and the balance summary of ``updown simulate``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from ..batch.balance import BalanceSummary


def require_plotext() -> Any:
    """The plotext module, or :class:`~updown_dsl.pages.charts.MissingExtra` naming what to install."""
    from ..pages.charts import MissingExtra

    try:
        import plotext
    except ImportError:
        raise MissingExtra("plotext") from None
    return plotext


def score_chart(labels: Sequence[str], series: Sequence[Sequence[int]], names: Sequence[str], *,
                width: int = 80, height: int = 18, colour: bool = True) -> str:
    """Each player's running total by deal as terminal text (braille lines, a legend)."""
    plt = require_plotext()
    plt.clear_figure()
    xs = list(range(len(labels)))
    initials = [n[:1].upper() or "?" for n in names]
    if len(set(initials)) < len(initials):
        initials = [str(s + 1) for s in range(len(names))]
    for s, (name, ys) in enumerate(zip(names, series)):
        # in colour the lines are told apart by colour; without, each player's points by a letter
        plt.plot(xs, list(ys), label=name if colour else f"{name} ({initials[s]})",
                 marker="braille" if colour else initials[s])
    step = max(1, len(labels) // 12)
    plt.xticks(xs[::step], list(labels)[::step])
    plt.plotsize(max(30, width), max(8, height))
    plt.title("Running totals by deal")
    plt.xlabel("deal")
    plt.theme("clear")
    text = plt.build()
    plt.clear_figure()
    if not colour:
        text = plt.uncolorize(text)
    return "\n".join(line.rstrip() for line in text.splitlines())


def _print_natural(console: Any, table: Any) -> None:
    """A table at its natural width: wider than the terminal rather than an interval cut in two."""
    from .safe import safe_console
    from rich.measure import Measurement

    natural = Measurement.get(console, console.options.update(max_width=10_000), table).maximum
    if natural > console.width:
        console = safe_console(highlight=False, width=natural, file=console.file)
    console.print(table)


def print_score_chart(console: Any, rows: Sequence[Any], names: Sequence[str]) -> None:
    """The chart of :func:`score_chart` for some sheet rows, as wide as the console, in colour
    where the console has colour."""
    from rich.text import Text

    from ..pages.sheet import totals_series

    labels, series = totals_series(rows, len(names))
    width = min(max(console.width, 40), 120)
    text = score_chart(labels, series, names, width=width, height=max(10, min(20, width // 4)),
                       colour=bool(console.color_system) and not console.no_color)
    console.print(Text.from_ansi(text), soft_wrap=True)


def print_balance(results: Sequence[BalanceSummary]) -> None:
    """The balance of one simulation, or of several side by side, as Rich tables on stdout."""
    from .safe import safe_console
    from rich.table import Table

    from ..pages.balance import verdict_text
    from ..pages.sheet import deal_mark

    console = safe_console(highlight=False)
    seats = Table(title="seat advantage (mean final total and wins, 95% CI)", title_justify="left")
    seats.add_column("seat")
    for b in results:
        seats.add_column(f"{b.variant}: points", justify="right")
        seats.add_column("wins", justify="right")
    for s in range(max(len(b.seats) for b in results)):
        cells = [str(s + 1)]
        for b in results:
            if s < len(b.seats):
                p, w = b.seats[s].points, b.seats[s].wins
                cells += [f"{p.value:.1f} [{p.low:.1f}, {p.high:.1f}]", f"{w.value:.1%} [{w.low:.1%}, {w.high:.1%}]"]
            else:
                cells += ["", ""]
        seats.add_row(*cells)
    _print_natural(console, seats)
    for b in results:
        console.print(f"{b.variant}: {verdict_text(b.friedman)}", markup=False, soft_wrap=True)
        console.print(f"{b.variant}: {verdict_text(b.wins_test, 'seat advantage in the wins')}", markup=False,
                      soft_wrap=True)
        median = sorted(b.margins)[len(b.margins) // 2] if b.margins else 0
        console.print(f"{b.variant}: the hook forbade a bid in {b.hook_share:.1%} of bidding rounds; the winner's "
                      f"margin is {b.margin.value:.1f} points on average [{b.margin.low:.1f}, {b.margin.high:.1f}], "
                      f"median {median}", markup=False, soft_wrap=True)
    kinds = Table(title="deals by kind (a seat's mean points, sd, bids made)", title_justify="left")
    kinds.add_column("kind")
    for b in results:
        kinds.add_column(b.variant, justify="right")
    found: dict[str, None] = {}
    for b in results:
        for r in b.kinds:
            found[r.kind] = None
    for kind in found:
        cells = [kind]
        for b in results:
            row = next((x for x in b.kinds if x.kind == kind), None)
            cells.append("" if row is None else f"{row.mean_points:.1f} ±{row.sd_points:.1f}, "
                         + (f"{row.made:.0%} made" if row.bids else "no bids"))
        kinds.add_row(*cells)
    _print_natural(console, kinds)
    sizes = Table(title="bids made by hand size", title_justify="left")
    sizes.add_column("cards")
    for b in results:
        sizes.add_column(b.variant, justify="right")
    keys: dict[tuple[str, int], None] = {}
    for b in results:
        for r in b.sizes:
            keys[(r.kind, r.cards or 0)] = None
    for kind, cards in sorted(keys, key=lambda kc: (kc[0] != "normal", kc[0], kc[1])):
        cells = [deal_mark(cards, kind)]
        for b in results:
            row = next((x for x in b.sizes if (x.kind, x.cards) == (kind, cards)), None)
            cells.append("" if row is None or not row.bids else f"{row.made:.0%} (sd {row.sd_points:.1f})")
        sizes.add_row(*cells)
    _print_natural(console, sizes)
