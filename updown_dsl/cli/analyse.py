"""``updown analyse``: every decision of a recorded game judged by the search, as a sheet with marks."""

from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..i18n import ntr, tr
from .common import (
    EXIT_INPUT, EXIT_PROBLEMS, JobsOpt, JsonOpt, LangOpt, SchedulerOpt, VariantPathOpt,
    _console, _echo_json, _folders, _handle_errors, _jobs, _plural, _scheduler, _set_lang, _usage_error, app,
)
from .inputs import _Inputs, _print_rendered

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ..players.analysis import Decision, GameAnalysis


#: Width of the sheet: it fits an 80-column terminal.
WIDTH = 80
#: Chances below this share are left out of a bid's trick distribution on the sheet.
SHOWN_CHANCE = 0.05


@app.command("analyse")
@_handle_errors
def analyse_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE",
                                        help="A game record at the full or plays level (log or JSON form; "
                                        "'-' reads standard input).")],
    game_no: Annotated[Optional[int], typer.Option(
        "--game", "-g", min=1, help="Only this game of the file (1-based); default every game.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the search's guesses: the same seed, the same analysis.")] = 0,
    level: Annotated[int, typer.Option("--level", "-l", min=1, max=5,
                                       help="Search level, 1 to 5 (more guesses per decision).")] = 3,
    method: Annotated[str, typer.Option(
        "--method", metavar="flat|tree",
        help="flat: every legal action played out in the same guessed deals (the default); tree: the search "
        "bot's tree search.")] = "flat",
    threshold: Annotated[float, typer.Option(
        "--threshold", metavar="POINTS", help="Expected loss marked ?? (a big loss); half of it is marked ?.")] = 10.0,
    every: Annotated[bool, typer.Option(
        "--all", help="Show every card, not only the bids, the trump choices and the cards marked.")] = False,
    json_out: JsonOpt = False,
    jobs: JobsOpt = 1,
    scheduler: SchedulerOpt = None,
    variant_path: VariantPathOpt = None,
    lang: LangOpt = None,
) -> None:
    """Judge every bid, trump choice and card of a recorded game with the search bot.

    Each decision is searched from the acting player's view only (the cards that player
    could not see are guessed), and the expected points lost by the action taken against
    the one the search prefers are shown: ? a mistake, ?? a big loss (--threshold). Under
    the deals: each player's loss per deal, marks and bids made. Exit status: 0 analysed,
    1 the record breaks rules (analysed up to the first), 2 usage, 3 an input that cannot
    be read or has no cards.
    """
    _set_lang(lang)
    from ..batch.analyse import analyse_game_jobs
    from ..players.analysis import Settings, to_data
    from .report import sort_diagnostics, to_json

    if method not in ("flat", "tree"):
        _usage_error(tr("the method is flat or tree, not {method}", method=method), "--method")
    if not threshold > 0:
        _usage_error(tr("the threshold must be above 0 points, not {value}", value=threshold), "--threshold")
    settings = Settings(seed=seed, level=level, method=method, threshold=threshold)
    inputs = _Inputs(_folders(variant_path))
    jobs = _jobs(jobs)
    address = _scheduler(scheduler)
    out: list[dict[str, Any]] = []
    broken = False
    count = 0
    for count, report in enumerate(inputs.reports(file), start=1):
        if game_no is not None and count != game_no:
            continue
        diags = sort_diagnostics(report.diagnostics)
        if not report.readable or report.game is None:
            _print_rendered(inputs.render(diags), stderr=True)
            raise typer.Exit(EXIT_INPUT)
        if report.level == "sheet":
            from .common import _error

            _error(tr("{name}: a score sheet has no cards to analyse: give a record at the full or plays level",
                      name=inputs.name(file)))
            raise typer.Exit(EXIT_INPUT)
        broken = broken or bool(report.errors)
        names = list(report.transcript.players) if report.transcript is not None else [
            f"p{i + 1}" for i in range(report.game.players)]
        analysis = analyse_game_jobs(report.game, settings, jobs=jobs, scheduler=address)
        if json_out:
            out.append({"path": report.path, "game": count, **to_data(analysis, names),
                        "diagnostics": [d.to_dict() for d in diags if d in report.errors]})
        else:
            print_analysis(_console(), analysis, names, report.path, count, every)
        if game_no is not None:
            break
    if game_no is not None and count < game_no:
        _usage_error(tr("{name} holds {plural}, not {game_no}",
                        name=inputs.name(file), plural=_plural(count, 'game'), game_no=game_no), "--game")
    if json_out:
        _echo_json(to_json(out[0] if game_no is not None or len(out) == 1 else out))
    if broken:
        raise typer.Exit(EXIT_PROBLEMS)


def action_text(action: Any) -> str:
    """An action as the sheet shows it: ``bid 2``, ``10♥``, ``🃏 high ♥``, ``trump ♠``."""
    from ..actions import Bid, ChooseTrump, Play
    from ..pages.replay import play_data

    if isinstance(action, Bid):
        return tr("bid {number}", number=action.tricks)
    if isinstance(action, Play):
        data = play_data(0, action)
        return f"{data['text']} {data['declare']}".strip()
    if isinstance(action, ChooseTrump):
        return tr("trump {suit}", suit=tr("none") if action.suit is None else action.suit.symbol)
    return str(action)


def chances_text(chances: tuple[float, ...]) -> str:
    """A bid's trick distribution, the likely counts only: ``0:59% 1:32% 2:9%``."""
    return " ".join(f"{k}:{round(100 * p)}%" for k, p in enumerate(chances) if p >= SHOWN_CHANCE)


def decision_lines(d: "Decision", names: list[str]) -> list[Any]:
    """One decision as a line of the sheet (at most :data:`WIDTH` columns), and a bid's trick
    distribution on a line of its own when it does not fit beside it."""
    from rich.text import Text

    from ..players.analysis import DecisionKind, Mark
    from ..safetext import for_terminal

    style = {Mark.BIG: "bold red", Mark.MISTAKE: "yellow"}.get(d.mark, "")
    where = f"t{d.trick}" if d.trick is not None else ""
    line = Text(f"  {where:>3} {for_terminal(names[d.seat], one_line=True)[:10]:<10} ")
    line.append(f"{action_text(d.taken):<11}", style="bold" if d.mark is not Mark.GOOD else "")
    if d.taken != d.best:
        line.append(f" {tr('best')} {action_text(d.best):<11}")
        lost = "-" + format(d.loss, ".1f") if d.loss >= 0.05 else "0.0"  # (never "-0.0")
        line.append(f" {lost:>6} {d.mark.value:<2}", style=style)
    lines = [line]
    if d.kind is DecisionKind.BID and d.tricks:
        chances = chances_text(d.tricks)
        if line.cell_len + 2 + len(chances) <= WIDTH:
            line.append(" " * max(2, 56 - line.cell_len) + chances, style="dim")
        else:
            lines.append(Text(" " * 17 + chances, style="dim"))
    for one in lines:
        one.truncate(WIDTH)
    return lines


def print_analysis(out: "Console", analysis: "GameAnalysis", names: list[str], path: str | None, number: int,
                   every: bool = False) -> None:
    """The sheet of an analysis: deal by deal, then each player's figures."""
    from rich.table import Table
    from rich.text import Text

    from ..players.analysis import DecisionKind, Mark
    from ..safetext import for_terminal

    st = analysis.settings
    title = Text(analysis.variant, style="bold")
    if path:
        title.append(f"  {for_terminal(path, one_line=True)}" + (tr(", game {number}", number=number) if number > 1 else ""),
                     style="dim")
    out.print(title, soft_wrap=True)
    out.print(Text(tr("search level {level} ({method}), seed {seed}; ? loses {half:g} points or more, ?? {big:g}",
                      level=st.level, method=st.method, seed=st.seed, half=st.threshold / 2, big=st.threshold),
                   style="dim"), soft_wrap=True)
    for deal in analysis.deals:
        out.print()
        bids = " ".join(f"{'-' if b is None else b}/{t}" for b, t in zip(deal.bids, deal.taken))
        out.print(Text(tr("deal {number} · {cards} · dealer {dealer} · bid/took {bids}", number=deal.number,
                          cards=ntr("{n} card each", "{n} cards each", deal.cards), dealer=for_terminal(names[deal.dealer], one_line=True),
                          bids=bids), style="bold"), soft_wrap=True)
        quiet = 0
        for d in deal.decisions:
            if every or d.kind is not DecisionKind.PLAY or d.mark is not Mark.GOOD:
                for line in decision_lines(d, names):
                    out.print(line)
            else:
                quiet += 1
        if quiet:
            out.print(Text("      " + tr("{count} other cards: no mark", count=quiet), style="dim"))
    if analysis.stopped is not None:
        out.print()
        out.print(Text(stop_text(analysis), style="yellow"), soft_wrap=True)
    out.print()
    table = Table(title=tr("expected points lost"), title_justify="left", box=None, pad_edge=False)
    for header in (tr("player"), tr("loss"), tr("per deal"), "?", "??", tr("bids made"), tr("as the search")):
        table.add_column(header, justify="left" if header == tr("player") else "right")
    for p in analysis.summaries:
        table.add_row(for_terminal(names[p.seat], one_line=True)[:16], f"{p.loss:.1f}", f"{p.loss_per_deal:.1f}",
                      str(p.mistakes), str(p.big), f"{p.made}/{p.bids}", f"{p.agreed}/{p.bids}")
    out.print(table)


def stop_text(analysis: "GameAnalysis") -> str:
    """Why the analysis stopped before the end of the record."""
    from ..players.analysis import StopReason

    reason = analysis.stopped
    deal = analysis.stopped_at
    if reason is StopReason.NO_CARDS:
        return tr("the analysis stops at deal {number}: its cards are not all known", number=deal)
    if reason is StopReason.PENALTY:
        return tr("the analysis stops at deal {number}: a penalty or a table's event (the deals after it are "
                  "not replayed)", number=deal)
    return tr("the analysis stops at deal {number}: the record breaks a rule there (see updown check)", number=deal)
