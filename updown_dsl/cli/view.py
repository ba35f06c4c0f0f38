"""``updown view``: a recorded game (or an archive of games) as a self-contained web page."""

import os
from typing import Annotated, Any, NoReturn, Optional

import typer

from .common import (
    LangOpt, _set_lang,
    app, _console, _error, EXIT_INPUT, EXIT_PROBLEMS, _folders, _handle_errors, _plural, _usage_error,
    VariantPathOpt,
)
from .inputs import _Inputs, _print_rendered, STDIN, _write_new

ForceOpt = Annotated[bool, typer.Option("--force", "-f", help="Replace the output file if it exists.")]


def missing_extra(exc: Any) -> NoReturn:
    """An optional part is not installed: say what to install, exit 3 (no traceback)."""
    _error(str(exc))
    raise typer.Exit(EXIT_INPUT)


def default_output(file: str, suffix: str = ".html") -> str:
    """``game.log`` → ``game.html`` in the current folder (``game.html`` for standard input)."""
    if file == STDIN:
        return "game" + suffix
    from ..players.share import looks_shared

    if looks_shared(file) and not os.path.lexists(file):
        return "shared" + suffix  # a shared sheet's string, not a file
    stem = os.path.splitext(os.path.basename(file))[0] or "game"
    return stem + suffix


def write_output(output: str, text: str, force: bool) -> None:
    """The page to ``output`` (``-``: standard output), never over a file without ``--force``."""
    if output == STDIN:
        from .safe import echo

        echo(text, nl=False)
        return
    if os.path.isdir(output):
        _usage_error(f"{output} is a folder: name the file to write", "--output")
    _write_new(output, text, force)


@app.command("view")
@_handle_errors
def view_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE",
                                        help="A game record or an archive of games (log or JSON form; '-' reads "
                                        "standard input).")],
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="FILE.html",
        help="Where to write the page (default: the record's name with .html, in the current folder; "
        "'-' prints it).")] = None,
    game_no: Annotated[Optional[int], typer.Option(
        "--game", "-g", min=1, help="Only this game of an archive (1-based); default every game, with an index.")] = None,
    force: ForceOpt = False,
    variant_path: VariantPathOpt = None,
    analyse: Annotated[bool, typer.Option(
        "--analyse", help="Judge every bid and card with the search (as updown analyse, seed 0, level 3) and "
        "show the loss of each on the replay.")] = False,
    lang: LangOpt = None,
) -> None:
    """A recorded game (or an archive of games) as one self-contained web page.

    The page has the score sheet, the chart of the running totals, a replay stepped trick
    by trick (buttons or the arrow keys) and the checker's problems at the deal and trick
    they concern. An archive of many games gives an index and every game.

    The page is one file with nothing to fetch (no network). Exit status: 0 written, 1
    written and the record has rule violations (shown on the page), 3 the record cannot be read.
    """
    _set_lang(lang)
    from ..pages.charts import MissingExtra, require

    try:
        require()
    except MissingExtra as exc:
        missing_extra(exc)
    from ..pages.game import archive_page, game_page

    inputs = _Inputs(_folders(variant_path))
    target = output if output is not None else default_output(file)
    if target != STDIN and os.path.lexists(target) and not force:
        _usage_error(f"{target} exists; add --force to overwrite it", "--output")
    reports = []
    count = 0
    for count, r in enumerate(inputs.reports(file), start=1):
        if game_no is None or count == game_no:
            reports.append(r)
        if game_no is not None and count >= game_no:
            break
    if game_no is not None and not reports:
        _usage_error(f"{inputs.name(file)} holds {_plural(count, 'game')}, "
                     f"not {game_no}", "--game")
    readable = [r for r in reports if r.readable and r.game is not None]
    if not readable:
        for r in reports:
            _print_rendered(inputs.render(list(r.diagnostics)), stderr=True)
        _error(f"{inputs.name(file)}: no game that can be read, so no page")
        raise typer.Exit(EXIT_INPUT)
    analyses = [_analysis(r) if analyse else None for r in reports]
    if len(reports) == 1:
        text = game_page(reports[0], analysis=analyses[0])
    else:
        text = archive_page(reports, title=os.path.basename(inputs.name(file)), analyses=analyses)
    write_output(target, text, force)
    problems = sum(len(r.errors) for r in reports)
    if target != STDIN:
        deals = sum(len(r.game.results) for r in readable if r.game is not None)
        what = (f"{_plural(len(reports), 'game')} with an index" if len(reports) > 1
                else f"{_plural(deals, 'deal')}")
        tail = f"; {_plural(problems, 'problem')} found, shown on the page" if problems else ""
        _console().print(f"wrote {target} ({what}{tail})", markup=False, highlight=False, soft_wrap=True)
    if problems:
        raise typer.Exit(EXIT_PROBLEMS)


def _analysis(report: Any) -> "dict[str, Any] | None":
    """The analysis of a readable game with cards as plain data (None for a score sheet or an
    unreadable game)."""
    if not report.readable or report.game is None or report.level == "sheet":
        return None
    from ..players.analysis import analyse_game, to_data

    names = list(report.transcript.players) if report.transcript is not None else None
    return to_data(analyse_game(report.game), names)
