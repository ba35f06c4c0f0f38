"""``updown share``: a recorded game's sheet as a short URL-safe string, or as CSV."""

from __future__ import annotations

from typing import Annotated

import typer

from ..i18n import tr
from .common import (EXIT_INPUT, EXIT_PROBLEMS, VariantPathOpt, _error, _folders, _handle_errors, _print_diagnostics,
                     app)


@app.command("share")
@_handle_errors
def share_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A game record (any level, or a shared string, or a CSV sheet).")],
    csv: Annotated[bool, typer.Option("--csv", help="Write the sheet as CSV, one row per deal.")] = False,
    variant_path: VariantPathOpt = None,
) -> None:
    """A game's score sheet as a short string to share, or as CSV (--csv).

    The string (ud1.…) holds the trumps, bids, tricks and corrections; `updown check`,
    `sheet`, `view` and `keep --resume` take it where they take a file, and score it again
    by the rules. The CSV has a row per deal: bid, took, score and total per player. Exit
    status: 0 written; 1 the game breaks a rule (nothing is written); 3 it cannot be read.
    """
    from ..players.keeper import Keeper, KeepError
    from ..players.share import share_string
    from ..records.csvsheet import sheet_csv
    from ..records.record import game_transcript
    from .inputs import _Inputs

    report = next(iter(_Inputs(_folders(variant_path)).reports(file)), None)
    if report is None or not report.readable or report.game is None or report.transcript is None:
        if report is not None:
            _print_diagnostics(list(report.diagnostics), stderr=True)
        _error(tr("{name} cannot be read as a game", name=file))
        raise typer.Exit(EXIT_INPUT)
    if report.errors:
        _print_diagnostics(list(report.errors), stderr=True)
        _error(tr("{name} breaks the rules: it is not shared", name=file))
        raise typer.Exit(EXIT_PROBLEMS)
    t, game = report.transcript, report.game
    if csv:
        from ..records.tableevents import KINDS

        if any(e.kind in KINDS for e in t.events):  # a CSV row has a cell per player and no more
            _error(tr("{name} holds the table's events (late, leave, out, adjust, schedule), which a CSV "
                      "sheet cannot hold: share it as a string, or the record itself", name=file))
            raise typer.Exit(EXIT_INPUT)
        heads = [(h.key, h.value) for h in t.headers if h.key in ("variant", "option", "first-dealer", "date", "event")]
        typer.echo(sheet_csv(t.players, game.results, heads, game.variant), nl=False)
        return
    sheet = t if t.level == "sheet" else game_transcript(game, t.players, level="sheet", variant=t.variant)
    try:
        keeper = Keeper.from_transcript(sheet, game.variant, label=t.variant)
    except KeepError as exc:
        _print_diagnostics([exc.diagnostic], stderr=True)
        raise typer.Exit(EXIT_PROBLEMS) from None
    typer.echo(share_string(keeper))
