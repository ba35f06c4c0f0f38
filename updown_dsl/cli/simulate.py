"""``updown simulate``: many bot games, the per-seat figures and (optionally) their records."""

from typing import TYPE_CHECKING, Annotated, Any, Optional

import os

import typer

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Game

from ..i18n import tr
from .common import (
    LangOpt, _set_lang,
    PlayersOpt,
    app, complete_variant, _error, EXIT_INPUT, _handle_errors, _jobs, JobsOpt, _load, _players, _scheduler, SchedulerOpt, _usage_error, _variant_path_hint,
    VariantPathOpt,
)

# --------------------------------------------------------------------------- simulate


@app.command("simulate")
@_handle_errors
def simulate_cmd(
    variant: Annotated[str, typer.Option(
        "--variant", "-v", metavar="NAME|FILE", help="A bundled variant name or a variant file.",
        autocompletion=complete_variant)],
    games: Annotated[int, typer.Option("--games", min=1, help="How many games to play.")] = 100,
    players: PlayersOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed plays the same games.")] = 1,
    bots: Annotated[str, typer.Option(
        "--bots", metavar="KIND,...", help="Bot kinds: one for every seat (e.g. heuristic,random,random,random) "
        "or one for all seats; search:LEVEL (1 to 5) or search:LEVEL:SECONDS sets the search bot's level; "
        "exec:COMMAND seats another program (docs/protocol.md).")] = "heuristic",
    rotate: Annotated[bool, typer.Option(
        "--rotate/--no-rotate", help="Move the line-up one seat each game.")] = True,
    out: Annotated[Optional[str], typer.Option(
        "--out", metavar="DIR", help="Write one transcript per game into DIR (created if needed; "
        "existing files are not replaced).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    variant_path: VariantPathOpt = None,
    jobs: JobsOpt = 1,
    scheduler: SchedulerOpt = None,
    embed_rules: Annotated[bool, typer.Option(
        "--embed-rules", help="With --out: write the rules themselves in each record, so it can be "
        "checked without the variant file.")] = False,
    report: Annotated[Optional[str], typer.Option(
        "--report", metavar="FILE.html", help="Write the balance report (seat advantage with intervals at 95%, "
        "a test of it, deals by kind and hand size, the winner's margin, charts) to FILE.html.")] = None,
    compare: Annotated[Optional[str], typer.Option(
        "--compare", metavar="NAME|FILE", help="Play the same games of this variant too and set the two "
        "side by side (a bundled name or a variant file, as --variant).", autocompletion=complete_variant)] = None,
    force: Annotated[bool, typer.Option("--force", "-f", help="Let --report replace an existing file.")] = False,
    lang: LangOpt = None,
) -> None:
    """Bot games with a summary per seat and per bot kind (points, wins, bids made) and per
    variant (how often the hook forbade a bid, deal length). Every saved game checks clean.

    With --report or --compare, the balance too: each seat's mean total and wins with 95%
    confidence intervals, the Friedman test of "no seat advantage", the deals by kind and
    hand size, the winner's margin. --compare plays the same seeds with another variant
    (records are saved for --variant only).
    """
    _set_lang(lang)
    import json
    from pathlib import Path

    from ..batch import simulate_games
    from ..players.bots import bot_problem

    loaded = _load(variant, variant_path)
    n = _players(loaded, players)
    balance = report is not None or compare is not None
    other = None
    if compare is not None:
        other = _load(compare, variant_path)
        if not other.min_players <= n <= other.max_players:
            _usage_error(f"{other.name} is for {other.min_players} to {other.max_players} players, not {n}",
                         "--compare")
    if report is not None:
        if os.path.isdir(report):
            _usage_error(f"{report} is a folder: name the file to write", "--report")
        if os.path.lexists(report) and not force:
            _usage_error(f"{report} exists; add --force to overwrite it", "--report")
        from ..outfiles import not_replaceable, refusal

        what = not_replaceable(report)
        if what is not None:  # said before the games are played, not after
            _error(refusal(report, what))
            raise typer.Exit(EXIT_INPUT)
        from ..pages.charts import MissingExtra, require

        try:
            require()
        except MissingExtra as exc:
            from .view import missing_extra

            missing_extra(exc)
    kinds = [k.strip() for k in bots.split(",") if k.strip()]
    for kind in kinds:
        problem = bot_problem(kind)
        if problem is not None:
            _usage_error(problem, "--bots")
    if len(kinds) == 1:
        kinds = kinds * n
    if len(kinds) != n:
        _usage_error(tr("{count} bot kinds for {n} players: give one, or one per seat",
                        count=len(kinds), n=n), "--bots")
    folder = Path(out) if out is not None else None
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            _usage_error(tr("{out} is a file, not a folder", out=out), "--out")
        folder.mkdir(parents=True, exist_ok=True)
    label = variant
    if "/" in variant or variant.endswith((".yaml", ".yml")):  # a file: named from the records' folder
        label = str(Path(variant).resolve())
        if folder is not None:
            try:
                label = os.path.relpath(label, folder.resolve())
            except ValueError:  # another drive
                pass
    hint = _variant_path_hint(variant, str(folder)) if folder is not None else ""
    stem = loaded.name.replace(" ", "-")
    width = len(str(games))

    def save(g: int, text: "str | None") -> None:
        if folder is None or text is None:
            return
        target = folder / f"{stem}-{g + 1:0{width}d}.log"
        with open(target, "x", encoding="utf-8") as handle:  # never replace a file
            handle.write(text)

    def run(on_game: Any, which: Any = loaded) -> Any:
        keep = which is loaded and folder is not None
        common = dict(seed=seed, bots=kinds, rotate=rotate, jobs=_jobs(jobs), scheduler=_scheduler(scheduler),
                      record_label=label if keep else None, on_game=on_game, embed_rules=embed_rules)
        if balance:
            from ..batch.balance import balance_games

            return balance_games(which, n, games, **common)
        return simulate_games(which, n, games, **common)

    if json_out:
        from ..safetext import for_json

        results = [run(save)] + ([run(None, other)] if other is not None else [])
        if balance:
            from ..batch.balance import balance_dict

            dicts = [{**b.summary.to_dict(), "balance": balance_dict(b)} for b in results]
            _write_report(report, results, force, stderr=True)
            print(for_json(json.dumps(dicts if other is not None else dicts[0], indent=2, ensure_ascii=False)))
        else:
            print(for_json(json.dumps(results[0].to_dict(), indent=2, ensure_ascii=False)))
        return
    from .safe import safe_console
    from rich.markup import escape  # (a progress bar's description is read as markup)
    from rich.progress import Progress

    console = safe_console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(escape(f"{loaded.name}: {games} games"), total=games)

        def step(g: int, text: "str | None") -> None:
            save(g, text)
            progress.advance(task)

        summary = run(step)
        results = [summary]
        if other is not None:
            task2 = progress.add_task(escape(f"{other.name}: {games} games"), total=games)
            results.append(run(lambda g, text: progress.advance(task2), other))
    if not balance:
        _print_simulation(summary, folder, hint)
        return
    for b in results:
        _print_simulation(b.summary, folder if b is summary else None, hint)
    from .chart import print_balance

    print_balance(results)
    _write_report(report, results, force, stderr=False)


def _write_report(report: Optional[str], results: list[Any], force: bool, *, stderr: bool) -> None:
    if report is None:
        return
    from ..pages.balance import balance_page
    from .inputs import _write_new

    _write_new(report, balance_page(results), force)
    from .safe import safe_console

    safe_console(stderr=stderr).print(f"wrote {report} (the balance report of "
                               + " and ".join(b.variant for b in results) + ")", markup=False, highlight=False,
                               soft_wrap=True)


def _print_simulation(summary: Any, folder: Any, hint: str = "") -> None:
    from .safe import safe_console
    from rich.table import Table

    console = safe_console()
    v = summary.variant
    from rich.text import Text

    line = Text(v.variant, style="bold")  # (the variant's name is its file's words: never markup)
    line.append(f": {v.games} games, {v.players} players, seed {summary.seed}; "
                f"{v.mean_deals:.1f} deals a game, {v.mean_deal_decisions:.1f} decisions a deal; "
                f"the hook forbade a bid in {v.hook_share:.1%} of bidding rounds"
                + (f"; {v.stop_loss_share:.1%} of games ended by the stop-loss" if v.stop_loss_share else ""))
    console.print(line)
    if v.forfeits:
        console.print(tr("{n} decisions of external programs (exec:) were played by the fallback bot "
                         "(a timeout, a crash or a bad answer: see docs/protocol.md)", n=v.forfeits),
                      style="yellow", markup=False)
    for title, rows, first in (("by seat", summary.seats, "seat"), ("by bot", summary.kinds, "bot")):
        table = Table(title=title, title_justify="left")
        for col in (first, "games", "mean points", "sd", "wins", "bids made"):
            table.add_column(col, justify="left" if col in ("seat", "bot") else "right")
        for r in rows:
            key = f"{r.seat + 1} ({r.bot})" if first == "seat" else r.bot
            table.add_row(key, str(r.games), f"{r.mean_points:.1f}", f"{r.sd_points:.1f}",
                          f"{r.wins:g}", f"{r.bids_made:.1%}")
        console.print(table)
    if folder is not None:
        console.print(f"games written to {folder}/ (check them with: updown check{hint} {folder}/*)",
                      markup=False)
