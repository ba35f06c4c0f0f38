"""``updown check``, ``updown sheet`` and ``updown convert``: commands over recorded games."""

import os
from typing import Annotated, Any, Optional

import typer

from ..i18n import tr
from .common import (
    LangOpt, _set_lang,
    app, _colour, _console, _echo_json, _error, EXIT_INPUT, EXIT_PROBLEMS, _folders, _handle_errors,
    _jobs, JobsOpt, JsonOpt, _plural, _scheduler, SchedulerOpt, _usage_error, VariantPathOpt, CardsOpt,
    _cards_notation,
)
from .inputs import _input_is_json, _Inputs, _print_rendered, STDIN, _write_new

# --------------------------------------------------------------------------- check


FilesArg = Annotated[list[str], typer.Argument(
    metavar="FILE...",
    help="Game records (logs or the JSON form; glob patterns are expanded; '-' reads standard input).")]


@app.command("check")
@_handle_errors
def check_cmd(files: FilesArg, json_out: JsonOpt = False, variant_path: VariantPathOpt = None,
              jobs: JobsOpt = 1, scheduler: SchedulerOpt = None,
              lang: LangOpt = None) -> None:
    """Replay recorded games through the engine and report every broken rule.

    Each file may hold several games. Exit status: 0 every game is clean (notes and
    warnings allowed), 1 rule violations were found, 3 an input cannot be read.
    """
    _set_lang(lang)
    from ..records.report import CheckReport
    from .report import check_json, check_summary, sort_diagnostics

    inputs = _Inputs(_folders(variant_path), _jobs(jobs), _scheduler(scheduler))
    paths = inputs.expand(files)
    games: list[tuple[str, int, Any]] = []
    clean = unfinished = unreadable = 0
    errors: list[int] = []
    printed = {False: False, True: False}
    for arg in paths:
        for number, report in enumerate(inputs.reports(arg), start=1):
            diags = sort_diagnostics(report.diagnostics)
            if not report.readable:
                unreadable += 1
            elif report.errors:
                errors.append(len(report.errors))
            else:
                clean += 1
            if report.readable and not report.finished:
                unfinished += 1
            if json_out:  # the verdict's figures only: not the replayed game
                games.append((inputs.name(arg), number, CheckReport(
                    report.path, report.diagnostics, report.readable, report.level, report.finished)))
            elif diags:
                stream = not report.readable  # unreadable inputs on stderr, findings on stdout
                if printed[stream]:
                    _console(stream).print()
                _print_rendered(inputs.render(diags), stderr=stream)
                printed[stream] = True
    if json_out:
        from .report import to_json

        _echo_json(to_json(check_json(games, [inputs.name(a) for a in paths])))
    else:
        if printed[False]:
            typer.echo()
        # (click's styling: a clean check never needs Rich)
        typer.secho(check_summary(len(paths), clean, errors, unfinished, unreadable),
                    fg="red" if errors or unreadable else "green", bold=True, color=_colour())
    if unreadable:
        raise typer.Exit(EXIT_INPUT)
    if errors:
        raise typer.Exit(EXIT_PROBLEMS)


# --------------------------------------------------------------------------- sheet


@app.command("sheet")
@_handle_errors
def sheet_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE",
                                        help="A game record (log or JSON form; '-' reads standard input).")],
    game_no: Annotated[int, typer.Option("--game", "-g", min=1,
                                         help="Which game of the file (1-based).")] = 1,
    json_out: JsonOpt = False,
    variant_path: VariantPathOpt = None,
    chart: Annotated[bool, typer.Option(
        "--chart", help='Draw the running totals by deal under the sheet (needs the "charts" extra).')] = False,
    lang: LangOpt = None,
) -> None:
    """A recorded game as the paper score sheet, with the points the engine gives.

    One row per deal (and per penalty, cut or abandoned deal), running totals, then
    the settlement and the winners (--chart: and the score progression). The rule
    violations found follow the sheet (exit 1).
    """
    _set_lang(lang)
    from .report import sort_diagnostics, to_json
    from .sheet import sheet_rows, sheet_summary

    if chart and not json_out:
        from .chart import require_plotext
        from ..pages.charts import MissingExtra

        try:
            require_plotext()
        except MissingExtra as exc:
            from .view import missing_extra

            missing_extra(exc)
    inputs = _Inputs(_folders(variant_path))
    report = None
    count = 0
    for count, r in enumerate(inputs.reports(file), start=1):
        if count == game_no:
            report = r
            break
    if report is None:
        _usage_error(tr("{name} holds {plural}, not {game_no}",
                        name=inputs.name(file), plural=_plural(count, 'game'), game_no=game_no), "--game")
    diags = sort_diagnostics(report.diagnostics)
    if not report.readable or report.game is None:
        if json_out:
            from .report import diagnostics_json

            _echo_json(diagnostics_json(diags))
        else:
            _print_rendered(inputs.render(diags), stderr=True)
        raise typer.Exit(EXIT_INPUT)
    game = report.game
    players = list(report.transcript.players) if report.transcript is not None else [
        f"p{i + 1}" for i in range(game.players)]
    rows = sheet_rows(game, players, report.transcript)
    summary = sheet_summary(game, players)
    if json_out:
        _echo_json(to_json({
            "path": report.path,
            "game": game_no,
            "variant": report.transcript.variant if report.transcript is not None else game.variant.name,
            "level": report.level,
            "players": players,
            "rows": rows,
            **summary,
            "diagnostics": [d.to_dict() for d in diags],
        }))
    else:
        _print_sheet(game.variant.name, players, rows, summary, report.path, game_no)
        if chart:
            from .chart import print_score_chart

            print_score_chart(_console(), rows, players)
        if diags:
            _console().print()
            _print_rendered(inputs.render(diags), stderr=False)
    if report.errors:
        raise typer.Exit(EXIT_PROBLEMS)


def _print_sheet(variant: str, players: list[str], rows: list[dict[str, Any]], summary: dict[str, Any],
                 path: str | None, game_no: int) -> None:
    from rich.text import Text

    from .sheet import ROW_STYLES, fitted_sheet, reason_text, sheet_columns, sheet_width

    from ..safetext import for_terminal

    # Escaped here, before the table is laid out, so that the columns line up (the console
    # would escape them anyway, after the layout).
    players = [for_terminal(p, one_line=True) for p in players]
    rows = [{**row, "dealer": for_terminal(str(row["dealer"]), one_line=True)} for row in rows]
    out = _console()
    title = Text(variant, style="bold")
    if path:
        title.append(f"  {path}" + (tr(", game {number}", number=game_no) if game_no > 1 else ""), style="dim")
    columns = sheet_columns(out)
    soft = columns is None  # the title and the lines under the sheet wrap at the terminal's width
    out.print(title, soft_wrap=soft)
    table = fitted_sheet(rows, players, columns)
    notes = [Text(f"{row['deal']}* {row['note']}", style=ROW_STYLES.get(row["kind"], ""))
             for row in rows if row["note"] and row["kind"] != "deal"]
    notes += [Text(f"{row['deal']}: {row['table']}") for row in rows if row.get("table")]  # the table's events
    natural = sheet_width(out, table)
    if natural > out.width:  # never cut a number short: wider than the terminal rather than "1…"
        from .safe import safe_console

        out = safe_console(highlight=False, width=natural)
    out.print(table)
    out = _console()
    for note in notes:
        out.print(note, soft_wrap=soft)
    if summary["finished"]:
        line = Text(tr("game over after deal {number}", number=summary['last_deal']), style="bold")
        if summary["over_reason"]:
            line.append(f" ({reason_text(summary['over_reason'])})", style="")
        out.print(line, soft_wrap=soft)
        settle = ", ".join(f"{p} {v:+d}" for p, v in summary["settlement"].items())
        out.print(Text(tr("settlement: {amounts}", amounts=settle)), soft_wrap=soft)
        winners = summary["winners"]
        out.print(Text((tr("winner: ") if len(winners) == 1 else tr("winners: ")) + ", ".join(winners),
                       style="bold green"), soft_wrap=soft)
    else:
        out.print(Text(tr("unfinished after deal {number} of {deals}", number=summary['last_deal'], deals=summary['deals']),
                       style="bold yellow"), soft_wrap=soft)


# --------------------------------------------------------------------------- convert


@app.command("convert")
@_handle_errors
def convert_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE",
                                        help="A game record (log or JSON form; '-' reads standard input).")],
    to: Annotated[Optional[str], typer.Option(
        "--to", metavar="json|log",
        help="Output form (default: the other one; the log with --compact or --long).")] = None,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="OUT", help="Write to this file instead of standard output.")] = None,
    force: Annotated[bool, typer.Option("--force", "-f", help="Overwrite OUT if it exists.")] = False,
    embed_rules: Annotated[bool, typer.Option(
        "--embed-rules", help="Write each game's rules themselves in it (a rules-text line), so the "
        "record can be checked without its variant file.")] = False,
    compact: Annotated[Optional[bool], typer.Option(
        "--compact/--long", help="--compact: write the score sheet one row per deal (a full or plays "
        "record is checked, and the sheet of the game it replays is written); --long: write each row "
        "as the lines it stands for. Default: as the record is written.")] = None,
    cards: CardsOpt = "en",
    variant_path: VariantPathOpt = None,
    lang: LangOpt = None,
) -> None:
    """Convert a game record between the log form and the JSON form.

    The log is written in canonical form; a file of several games gives a JSON list.
    Only the record is read: rules are not checked (use `updown check`). A record the
    reader cannot read in full is not converted (exit 3); with --embed-rules, neither is one
    whose variant cannot be loaded. --compact writes a score sheet as one row per deal; a
    full or plays record is checked first, and one that breaks a rule is not converted
    (exit 1).
    """
    _set_lang(lang)
    import json

    from ..diagnostics import Severity
    from ..records.transcript import format_transcript, transcript_to_json

    if to is not None and to.lower() not in ("json", "log"):
        _usage_error(tr("the output form is 'json' or 'log', not {to!r}", to=to), "--to")
    if output is not None and output != STDIN and os.path.lexists(output) and not force:
        _usage_error(tr("{output} exists; add --force to overwrite it", output=output), "--output")
    inputs = _Inputs()
    records = inputs.records(file)
    from ..records.report import capped

    diags = [d for _, ds in records for d in capped(ds)]  # (a report's cap, as check has it)
    blocking = any(t is None for t, _ in records) or any(d.severity == Severity.ERROR for d in diags)
    if diags:
        from .report import sort_diagnostics

        _print_rendered(inputs.render(sort_diagnostics(diags)), stderr=True)
    if blocking:
        _error(tr("{name} is not converted: the reader cannot read all of it", name=inputs.name(file)))
        raise typer.Exit(EXIT_INPUT)
    games = [t for t, _ in records if t is not None]
    if compact is not None:
        games = [_laid_out(t, compact, _folders(variant_path), inputs) for t in games]
    if embed_rules:
        games = [_with_rules(t, _folders(variant_path), inputs) for t in games]
    # --compact and --long lay out the text: without --to they write it
    form = to.lower() if to is not None else (
        "log" if compact is not None or _input_is_json(inputs, file) else "json")
    if form == "json":
        data = [transcript_to_json(t) for t in games]
        from ..safetext import for_json

        text = for_json(json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False)) + "\n"
    else:
        text = "\n".join(format_transcript(t, _cards_notation(cards)) for t in games)
    if output is None or output == STDIN:
        from .safe import echo

        echo(text, nl=False)
        return
    _write_new(output, text, force)
    _console(True).print(f"wrote {output} ({_plural(len(games), 'game')}, {form})",
                         soft_wrap=True, markup=False, highlight=False)


def _laid_out(t: Any, compact: bool, folders: list[str], inputs: _Inputs) -> Any:
    """``t`` with its score sheet one row per deal (``compact``) or one line per event.

    A sheet is rewritten line for line (comments kept, rules not checked). A full or plays
    record is checked, and the score sheet of the game it replays is written under its own
    header lines (``level: sheet``); one that breaks a rule exits 1, one whose rules cannot
    be loaded exits 3.
    """
    from ..records.compact import compact_events, long_events
    from ..records.model import Header, Transcript

    if not compact:
        return Transcript(t.headers, t.players, tuple(long_events(t.events)), t.path)
    if t.level == "sheet":
        return Transcript(t.headers, t.players, tuple(compact_events(t.events, len(t.players))), t.path)
    from ..records.checker import check_transcript
    from ..records.record import game_transcript
    from .report import sort_diagnostics

    report = check_transcript(t, variant_path=folders)
    name = inputs.name(t.path or STDIN)
    if not report.readable or report.errors or report.game is None:
        _print_rendered(inputs.render(sort_diagnostics(
            [d for d in report.diagnostics if report.errors or not report.readable])), stderr=True)
        if not report.readable or report.game is None:
            _error(tr("{name} is not converted: its rules cannot be loaded to write its score sheet",
                      name=name))
            raise typer.Exit(EXIT_INPUT)
        _error(tr("{name} is not converted: it breaks the rules ({plural}), and --compact writes the score sheet of the game the checker replays",
                  name=name, plural=_plural(len(report.errors), 'error')))
        raise typer.Exit(EXIT_PROBLEMS)
    sheet = game_transcript(report.game, t.players, level="sheet", compact=True)
    headers = tuple(Header(h.key, "sheet", h.line, h.comment) if h.key == "level" else h for h in t.headers)
    return Transcript(headers, t.players, sheet.events, t.path)


def _with_rules(t: Any, folders: list[str], inputs: _Inputs) -> Any:
    """``t`` with a ``rules-text`` line holding the rules its ``variant`` line names (before its
    ``option`` lines, which stay and still apply); exit 3 when they cannot be loaded."""
    from ..lang.variant import rules_text
    from ..records.model import Header, Transcript
    from ..records.report import transcript_variant

    base = Transcript(tuple(h for h in t.headers if h.key not in ("option", "rules-text")), t.players,
                      t.events, t.path)
    variant, diags = transcript_variant(base, folders)
    if variant is None:
        _print_rendered(inputs.render(diags), stderr=True)
        _error(tr("{name} is not converted: the rules of {variant!r} cannot be loaded to embed them",
                  name=inputs.name(t.path or STDIN), variant=t.variant))
        raise typer.Exit(EXIT_INPUT)
    headers = [h for h in t.headers if h.key != "rules-text"]
    at = next((i + 1 for i, h in enumerate(headers) if h.key == "rules"), len(headers))
    headers.insert(at, Header("rules-text", rules_text(variant)))
    return Transcript(tuple(headers), t.players, t.events, t.path)

