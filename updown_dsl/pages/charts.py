"""Charts as SVG text, drawn with matplotlib (the optional ``charts`` extra).

matplotlib is imported when a chart is drawn, never when the package is imported; without
it :func:`require` raises :class:`MissingExtra`, which names the ``pip install`` to run.
Each chart is a :class:`matplotlib.figure.Figure` of its own (no pyplot, no global state)
saved as SVG with its text kept as text and no date, so the same data gives the same SVG.
"""

from __future__ import annotations

import io
from typing import Any, Sequence

from ..i18n import tr
from ..safetext import for_terminal

#: What to install for the charts.
EXTRA = 'pip install "updown-dsl[charts]"'

#: A palette that stays apart for the colour-blind (Okabe and Ito), one colour a player.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")


class MissingExtra(ImportError):
    """A part of updown needs a package that is not installed; the message says what to install."""

    def __init__(self, package: str, install: str = EXTRA) -> None:
        super().__init__(f"{package} is not installed: {install}")
        self.package = package
        self.install = install


def require() -> Any:
    """The ``matplotlib.figure`` module (with the SVG backend), or :class:`MissingExtra`."""
    try:
        import matplotlib
        from matplotlib import figure
    except ImportError:
        raise MissingExtra("matplotlib") from None
    del matplotlib
    return figure


# (matplotlib types the keys of rc_context as literals: the calls below are told to trust these)
_RC = {"svg.fonttype": "none", "svg.hashsalt": "updown", "font.size": 9, "axes.spines.top": False,
       "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "font.family": "sans-serif"}


def _svg(fig: Any) -> str:
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buf.getvalue()
    return text[text.index("<svg"):]  # the page is HTML: no XML prolog or doctype inside it


def _figure(width: float, height: float) -> tuple[Any, Any]:
    import matplotlib

    figure = require()
    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        fig = figure.Figure(figsize=(width, height), layout="constrained")
        ax = fig.add_subplot()
    return fig, ax


def progression_svg(labels: Sequence[str], series: Sequence[Sequence[int]], names: Sequence[str], *,
                    title: str = "Running totals", width: float = 7.5, height: float = 3.2) -> str:
    """Each player's running total after each deal, one line a player."""
    import matplotlib

    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        fig, ax = _figure(width, height)
        xs = list(range(len(labels)))
        for s, (name, ys) in enumerate(zip(names, series)):
            # a name's control characters as visible escapes (no font has a glyph for them)
            ax.plot(xs, list(ys), marker="o", markersize=2.5, linewidth=1.6,
                    label=for_terminal(name, one_line=True), color=COLOURS[s % len(COLOURS)])
        step = max(1, len(labels) // 25)
        ax.set_xticks(xs[::step], list(labels)[::step])
        ax.set_xlabel(tr("deal"))
        ax.set_ylabel(tr("total"))
        ax.set_title(title, loc="left")
        ax.axhline(0, color="#888", linewidth=0.8)
        ax.legend(loc="upper left", ncols=min(len(names), 4), frameon=False)
        return _svg(fig)


def intervals_svg(categories: Sequence[str], groups: Sequence[tuple[str, Sequence[float], Sequence[float] | None,
                                                                      Sequence[float] | None]], *,
                  title: str, ylabel: str, reference: float | None = None, width: float = 6.0,
                  height: float = 3.0) -> str:
    """Means with their confidence intervals, side by side per category.

    ``groups``: ``(label, means, lows, highs)``, one value per category each (``lows`` and
    ``highs`` None: bars without intervals); ``reference`` draws a dashed line (a fair share, say).
    """
    import matplotlib

    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        fig, ax = _figure(width, height)
        k = len(groups)
        span = 0.8 / max(k, 1)
        for g, (label, means, lows, highs) in enumerate(groups):
            xs = [i - 0.4 + span * (g + 0.5) for i in range(len(categories))]
            ax.bar(xs, list(means), width=span * 0.9, label=label, color=COLOURS[g % len(COLOURS)], alpha=0.85)
            if lows is not None and highs is not None:
                # an interval that does not hold its mean (by a rounding) draws no bar on that side
                err = [[max(0.0, m - lo) for m, lo in zip(means, lows)],
                       [max(0.0, hi - m) for m, hi in zip(means, highs)]]
                ax.errorbar(xs, list(means), yerr=err, fmt="none", ecolor="#222", capsize=3, linewidth=1)
        ax.set_xticks(range(len(categories)), list(categories))
        if reference is not None:
            ax.axhline(reference, color="#444", linestyle="--", linewidth=1)
        ax.set_ylabel(ylabel)
        ax.set_title(title, loc="left")
        if k > 1:
            ax.legend(frameon=False)
        return _svg(fig)


def histogram_svg(groups: Sequence[tuple[str, Sequence[float]]], *, title: str, xlabel: str,
                  bins: int = 20, width: float = 6.0, height: float = 3.0) -> str:
    """The spread of some values, one outlined histogram per group over the same bins."""
    import matplotlib

    with matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        fig, ax = _figure(width, height)
        values = [v for _, vs in groups for v in vs]
        if values:
            lo, hi = min(values), max(values)
            edges = [lo + (hi - lo) * i / bins for i in range(bins + 1)] if hi > lo else [lo - 0.5, lo + 0.5]
            for g, (label, vs) in enumerate(groups):
                ax.hist(list(vs), bins=edges, histtype="step", linewidth=1.6, label=label,
                        color=COLOURS[g % len(COLOURS)])
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games")
        ax.set_title(title, loc="left")
        if len(groups) > 1:
            ax.legend(frameon=False)
        return _svg(fig)
