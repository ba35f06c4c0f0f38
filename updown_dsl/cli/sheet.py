"""The score sheet: its rows of plain data (the library's, :mod:`updown_dsl.pages.sheet`, named
here too), and as a Rich table, full or narrow for 80 columns."""

from typing import Any, Sequence

from rich import box
from rich.table import Table
from rich.text import Text

from ..engine import Game
from ..i18n import tr
from ..pages.sheet import deal_mark, reason_text, sheet_cell, sheet_rows, sheet_summary, shown_mark, trump_mark


def sheet_frame(names: Sequence[str]) -> Table:
    """An empty score sheet: deal number, cards, trump, dealer, then per player points and Σ."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1),
                  caption=tr("each player: bid/taken points, then Σ the running total"),
                  caption_justify="left")
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(tr("cards"), justify="right", no_wrap=True)
    table.add_column(tr("tr"), justify="center", no_wrap=True)
    table.add_column(tr("dealer"), no_wrap=True)
    for name in names:
        table.add_column(Text(name, style="bold"), justify="right", no_wrap=True)
        table.add_column("Σ", justify="right", no_wrap=True, style="bold")
    return table


#: The colour of a sheet's row that is not a deal.
ROW_STYLES = {"revoke": "red", "cut": "magenta", "abandoned": "yellow", "redeal": "cyan"}


def sheet_columns(console: Any) -> int | None:
    """The columns a score sheet may fill: the terminal's (or ``COLUMNS``), else None (output
    to a file or a pipe: the full sheet, however wide)."""
    import os

    return console.width if console.is_terminal or os.environ.get("COLUMNS") else None


def _short(name: str, width: int) -> str:
    """``name`` cut to ``width`` characters (``Alexand…``)."""
    return name if len(name) <= width else name[: max(width - 1, 1)] + "…"


def sheet_grid(rows: Sequence[dict[str, Any]], names: Sequence[str], *, narrow: bool = False) -> Table:
    """The score sheet of ``rows`` (:func:`~updown_dsl.pages.sheet.sheet_rows`): per deal each
    player's ``bid/taken points`` and running total Σ. ``narrow``: the layout for 80 columns
    (up to six players): the cards and trump in one column (``6 ♣``), no dealer column, each
    player one column ``bid/taken Σ`` under the name cut to fit, the deal's points left to the
    difference of the totals."""
    if not narrow:
        table = sheet_frame(names)
    else:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1),
                      caption=tr("each player: bid/taken, then Σ the running total"), caption_justify="left")
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column(tr("cards"), justify="left", no_wrap=True)
        bt = [max([len(_taken_text(r, s)) for r in rows] + [1]) for s in range(len(names))]
        tot = [max([len(str(r["seats"][s]["total"])) for r in rows] + [1]) for s in range(len(names))]
        for s, name in enumerate(names):
            table.add_column(Text(_short(name, max(bt[s] + 1 + tot[s], 4)), style="bold"), justify="right",
                             no_wrap=True)
    for row in rows:
        kind = row["kind"]
        number = str(row["deal"])
        style = ROW_STYLES.get(kind, "")
        if kind == "deal":
            cells: list[Any] = [number, shown_mark(row["mark"]), shown_mark(row["trump"]), row["dealer"]]
        elif kind == "abandoned":
            cells = [number + "*", shown_mark(row["mark"]), shown_mark(row["trump"]),
                     Text(row["dealer"], style=style)]
        else:
            cells = [number + "*", "", "", Text(tr(kind), style=style)]
        if narrow:  # the cards and trump in one column, the kind of row in place of them
            cells = [cells[0], cells[3] if kind not in ("deal", "abandoned") else f"{cells[1]} {cells[2]}"]
            for s, seat in enumerate(row["seats"]):
                cells.append(Text(_taken_text(row, s).rjust(bt[s]) + " " + str(seat["total"]).rjust(tot[s])))
        else:
            for seat in row["seats"]:
                cells += [sheet_cell(seat, kind), str(seat["total"])]
        table.add_row(*cells, style="dim" if kind == "abandoned" else None)
    return table


def _taken_text(row: dict[str, Any], seat: int) -> str:
    """A narrow sheet's ``bid/taken`` (a penalty's points, a cut's ``→0``)."""
    kind = row["kind"]
    if kind in ("revoke", "cut", "redeal"):
        return sheet_cell(row["seats"][seat], kind)
    return sheet_cell(row["seats"][seat], kind).split(" ")[0]


def fitted_sheet(rows: Sequence[dict[str, Any]], names: Sequence[str], width: int | None) -> Table:
    """The score sheet as wide as ``width`` allows: the full one, else the narrow one
    (:func:`sheet_grid`); a sheet too wide either way is the narrow one, wider than ``width``."""
    from rich.measure import Measurement

    from .safe import safe_console

    wide = sheet_grid(rows, names)
    probe = safe_console(width=10_000)
    if width is None or Measurement.get(probe, probe.options, wide).maximum <= width:
        return wide
    return sheet_grid(rows, names, narrow=True)


def sheet_width(console: Any, table: Table) -> int:
    """The width ``table`` needs at its natural size (it is never cut short)."""
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update(max_width=10_000), table).maximum


def sheet_table(game: Game, names: Sequence[str], width: int | None = None) -> Table:
    """The score sheet so far: per deal each player's ``bid/taken points`` and running total
    (``width``: the columns there are; the narrow layout when the full one does not fit)."""
    rows = sheet_rows(game, list(names))
    return sheet_grid(rows, names) if width is None else fitted_sheet(rows, names, width)


__all__ = ["ROW_STYLES", "deal_mark", "fitted_sheet", "reason_text", "sheet_cell", "sheet_columns", "sheet_frame",
           "sheet_grid", "sheet_rows", "sheet_summary", "sheet_table", "sheet_width", "shown_mark", "trump_mark"]
