"""``updown play``: a game at the terminal against bots, saved as it goes."""

import os
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Optional

import typer

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console
from ..i18n import ntr, tr
from .common import (
    PlayersOpt, VariantOpt, app, _console, _error, EXIT_INPUT, _folders, _handle_errors, _load, _players,
    _print_diagnostics, _usage_error, _variant_path_hint, VariantPathOpt, CardsOpt, LangOpt, _set_lang,
    _cards_notation,
)

# --------------------------------------------------------------------------- play

EXIT_INTERRUPTED = 130


@app.command("play")
@_handle_errors
def play_cmd(
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    seat: Annotated[Optional[int], typer.Option(
        "--seat", "-s", help="Your seat, 1-based (default 1: eldest in the first deal).")] = None,
    name: Annotated[Optional[list[str]], typer.Option(
        "--name", metavar="NAME", help="Player names in seat order (repeat the option or give a "
        "comma list); one name alone is yours. Default: You and bot names.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", help="Seed of the shuffles and the bots (default: a random one, written in the record).")] = None,
    bot: Annotated[Optional[str], typer.Option(
        "--bot", metavar="heuristic|random|search[:LEVEL[:SECONDS]]|exec:COMMAND",
        help="The bot at the other seats (default heuristic); search:LEVEL plays the search bot at level "
             "1 to 5 (default 3), search:LEVEL:SECONDS with at most that much CPU time per move; "
             "exec:COMMAND another program, over the engine protocol.")] = None,
    save: Annotated[Optional[str], typer.Option(
        "--save", metavar="FILE", help="Write the game to FILE as it is played (a new file).")] = None,
    force: Annotated[bool, typer.Option("--force", "-f", help="Let --save replace an existing FILE.")] = False,
    resume: Annotated[Optional[str], typer.Option(
        "--resume", metavar="FILE", help="Continue the game saved in FILE, writing on to it.")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots at every seat: watch a game.")] = False,
    embed_rules: Annotated[bool, typer.Option(
        "--embed-rules", help="With --save: write the rules themselves in the record, so it can be "
        "checked without the variant file.")] = False,
    delay: Annotated[float, typer.Option(
        "--delay", metavar="SECONDS", min=0.0, max=60.0,
        help="Pause after each bot's move, to follow a game as it is played (default 0).")] = 0.0,
    step: Annotated[bool, typer.Option(
        "--step", help="With --watch: wait for Enter after each trick (q and Enter stops).")] = False,
    chart: Annotated[bool, typer.Option(
        "--chart", help='Draw the running totals by deal after each deal (needs the "charts" extra).')] = False,
    autoplay: Annotated[Optional[bool], typer.Option(
        "--autoplay/--no-autoplay",
        help="Play your only legal card for you, and say so (default: on at a terminal, off when "
             "the moves are piped in).")] = None,
    hints: Annotated[bool, typer.Option(
        "--hints/--no-hints", help="Let a player ask the search bot for a suggestion (hint, or ? twice); "
                                   "each is written in the record.")] = True,
    undo: Annotated[bool, typer.Option(
        "--undo/--no-undo", help="Let a player take back its last decision of the deal (undo); the "
                                 "record keeps what was taken back.")] = True,
    cards: CardsOpt = "en",
    lang: LangOpt = None,
    variant_path: VariantPathOpt = None,
) -> None:
    """Play a game at the terminal against bots (or watch bots play).

    Type one action a line: a bid (2), a card (AS, 10h, 7♠), a card with its declaration
    (JK high, JK demand H), a suit or none when you name trump; ? lists the legal moves,
    sheet shows the score sheet, quit stops. Input may be piped, one action a line.
    With --save the game is written as it goes and --resume continues it (a game killed
    on the way goes on from its last whole line). Exit status: 0 the game ended or stopped
    at the end of input (or quit); 3 the game cannot be resumed, its file is in use by
    another updown play, or it cannot be written (a read-only folder, a full disk: what
    was written is kept); 130 stopped by Ctrl-C.
    """
    import sys

    from ..players.bots import bot_problem
    from ..players.session import ResumeError, SaveError, Session

    _set_lang(lang)
    cards = _cards_notation(cards)
    from ..i18n import set_card_letters

    set_card_letters(None if cards == "en" else cards)  # the screen shows the record's letters too
    if bot is not None and (problem := bot_problem(bot)) is not None:
        _usage_error(problem, "--bot")
    if watch and seat is not None:
        _usage_error(tr("--watch puts a bot at every seat: leave out --seat"), "--seat")
    if step and not watch:
        _usage_error(tr("--step is for watching bots: add --watch (you set the pace when you play)"), "--step")
    if chart:
        from ..pages.charts import MissingExtra
        from .chart import require_plotext

        try:
            require_plotext()
        except MissingExtra as exc:
            from .view import missing_extra

            missing_extra(exc)
    names = [n.strip() for given in (name or []) for n in given.split(",") if n.strip()]
    if resume is not None:
        for given, option in ((variant, "--variant"), (players, "--players"), (name, "--name"),
                              (seed, "--seed"), (save, "--save")):
            if given:
                _usage_error(tr("{option} comes from the saved game with --resume", option=option), option)
        humans = [] if watch else ([seat - 1] if seat is not None else None)
        try:
            session = Session.resume(resume, humans=humans, bot=bot, variant_path=_folders(variant_path),
                                     cards=cards)
        except ResumeError as exc:
            if exc.diagnostics:
                _print_diagnostics(exc.diagnostics, stderr=True)
            _error(str(exc))
            raise typer.Exit(EXIT_INPUT) from None
        except SaveError as exc:  # writing the lines the file lacks
            _not_saved(exc, resume, _variant_path_again(variant_path))
        if any(s >= session.game.players for s in session.humans):
            session.close()
            _usage_error(tr("the saved game has {players} players", players=session.game.players), "--seat")
    else:
        if variant is None:
            _usage_error(tr("name the variant to play (or --resume a saved game)"), "--variant")
        loaded = _load(variant, variant_path)
        n = _players(loaded, players)
        if seat is not None and not 1 <= seat <= n:
            _usage_error(tr("the seats are 1 to {n}, not {seat}", n=n, seat=seat), "--seat")
        if save is not None and os.path.lexists(save) and not force:
            _usage_error(tr("{save} exists; add --force to replace it (or --resume it)", save=save), "--save")
        humans = [] if watch else [(seat or 1) - 1]
        from ..players.session import seat_names

        try:
            seat_names(n, humans, names)
        except ValueError as exc:
            _usage_error(str(exc), "--name")
        again = _variant_path_hint(variant, save) if save is not None else ""
        try:
            session = Session.start(loaded, n, names=names, humans=humans, seed=seed,
                                    bot=bot or "heuristic", save=save, force=force,
                                    variant_label=_play_label(variant, save), embed_rules=embed_rules,
                                    cards=cards)
        except FileExistsError:
            _usage_error(tr("{save} exists; add --force to replace it (or --resume it)", save=save), "--save")
        except SaveError as exc:
            _not_saved(exc, save if exc.doing == "write to" else None, again)
    session.autoplay = (sys.stdin is not None and sys.stdin.isatty()) if autoplay is None else autoplay
    session.hints, session.undo = hints, undo
    out = _console()
    frontend = _Terminal(out, tty=out.is_terminal, stdin_tty=sys.stdin is not None and sys.stdin.isatty(), delay=delay, step=step,
                         chart=chart)
    saved = resume if resume is not None else save
    if resume is not None:
        again = _variant_path_again(variant_path)
    _intro(out, session, resume)
    try:
        outcome = session.run(frontend)
    except _StopWatching:
        session.close()
        _stopped(out, session, saved, "stopped", again)
        return
    except KeyboardInterrupt:
        session.close()
        out.print()
        _stopped(out, session, saved, "interrupted", again)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except SaveError as exc:
        session.close()
        out.print()
        _error(tr("{error}: the game stops here; what was written before is kept", error=exc))
        _stopped(out, session, saved, "stopped", again)
        raise typer.Exit(EXIT_INPUT) from None
    session.close()
    if outcome == "over":
        frontend.final(session)
        if saved is not None:
            out.print(tr("The game is saved in {file}.", file=saved), markup=False, highlight=False)
            if resume is None and variant is not None and os.path.isfile(variant) and not embed_rules:
                out.print(tr("It names the variant file {variant}: send that file with it, or save with "
                             "--embed-rules so that the record carries its rules (`updown convert {file} "
                             "--embed-rules --to log -o COPY` writes a copy that does).", variant=_play_label(variant, saved), file=saved),
                          markup=False, highlight=False, soft_wrap=_soft(out))
    else:
        _stopped(out, session, saved, "stopped", again)


def _variant_path_again(variant_path: Optional[list[str]]) -> str:
    return "".join(f" --variant-path {f}" for f in variant_path or [])


def _not_saved(exc: Exception, kept: Optional[str], again: str) -> NoReturn:
    """The save file cannot be made, locked or written: say so (and how to go on), exit 3."""
    _error(str(exc))
    if kept is not None:
        _console(True).print(tr("What was written is kept: `updown play --resume {file}{again}` continues "
                                "the game once the file can be written.", file=kept, again=again),
                             markup=False, highlight=False,
                             soft_wrap=True)
    raise typer.Exit(EXIT_INPUT)


def _play_label(variant: str, save: Optional[str]) -> str:
    """The variant as the record names it: a bundled name, or a file path from the record's folder."""
    if save is None or not os.path.isfile(variant):
        return variant  # a bundled name (or no record to write it in)
    target = os.path.abspath(variant)
    try:
        return os.path.relpath(target, os.path.dirname(os.path.abspath(save)))
    except ValueError:  # another drive
        return target


def _intro(out: "Console", session: Any, resume: Optional[str]) -> None:
    from rich.text import Text

    from ..players.session import HUMAN_NAME

    g = session.game
    t = Text()
    t.append(g.variant.name, style="bold")
    length = (tr("to {target} points", target=g.variant.end.target) if g.variant.end.target is not None
              else ntr("{n} deal", "{n} deals", len(g.deals)))
    t.append(tr(": {players} players, {length}, seed {seed}. ", players=g.players, length=length, seed=session.seed))
    if resume is not None:
        t.append(tr("Resuming {file} in deal {number}. ", file=resume, number=g.deal.number))
    if session.humans:
        you = sorted(session.humans)[0]
        name = session.names[you]
        t.append((tr("You play seat {seat}.", seat=you + 1) if name == tr(HUMAN_NAME) else
                  tr("You play seat {seat} as {name}.", seat=you + 1, name=name))
                 + " " + tr("Type ? for the legal moves, quit to stop."))
    else:
        t.append(tr("Bots at every seat."))
    out.print(t, soft_wrap=_soft(out))


def _stopped(out: "Console", session: Any, saved: Optional[str], how: str, again: str = "") -> None:
    from rich.text import Text

    g = session.game
    of = "" if g.variant.end.target is not None else tr(" of {deals}", deals=len(g.deals))
    text = (tr("Game interrupted in deal {number}{of}. ", number=g.deal.number, of=of) if how == "interrupted"
            else tr("Game stopped in deal {number}{of}. ", number=g.deal.number, of=of))
    t = Text(text, style="bold yellow")
    if saved is not None:
        t.append(tr("It is saved in {file}: `updown play --resume {file}{again}` continues it.", file=saved,
                    again=again), style="")
    else:
        t.append(tr("It was not saved (--save FILE keeps a game)."), style="")
    out.print(t, soft_wrap=_soft(out))


def _soft(out: "Console") -> bool:
    """Leave long lines whole (to a pipe), or wrap them to the terminal's width."""
    return not out.is_terminal


def _print_wide(out: "Console", renderable: Any) -> None:
    """Print a table at its natural width (wider than the terminal rather than cut short)."""
    from .safe import safe_console
    if out.width >= 10_000:
        out.print(renderable)
        return
    # A table does not expand: on a very wide console it keeps its natural width.
    wide = safe_console(highlight=False, width=10_000, file=out.file, force_terminal=out.is_terminal,
                        color_system=out.color_system, no_color=out.no_color)
    wide.print(renderable)


def _result_start(result: Any, names: Any) -> Any:
    """The trump and the bids of a finished deal, as a watcher sees them before its tricks."""
    from .screen import deal_start_text

    return deal_start_text(result.trump, [r.bid for r in result.seats], names)


def _stdin_line() -> str:
    """A line of standard input; "" at its end, and when it is closed (``0<&-``): no more input."""
    import sys

    if sys.stdin is None:
        return ""
    try:
        return sys.stdin.readline()
    except (OSError, ValueError):  # closed under us
        return ""


class _StopWatching(Exception):
    """q at the ``--step`` prompt: stop watching (the record stays valid and can be resumed)."""


class _Terminal:
    """The session's frontend at a terminal (or a pipe): Rich output, lines of input."""

    def __init__(self, out: "Console", *, tty: bool, stdin_tty: bool, delay: float = 0.0, step: bool = False,
                 chart: bool = False) -> None:
        self.out = out
        self.delay = delay
        self.tty = tty
        self.stdin_tty = stdin_tty
        self.deal_shown = 0
        self.stepping = step
        self.chart = chart
        # at a terminal long lines are wrapped to its width (at a space); a pipe keeps them whole
        self.soft = not out.is_terminal

    def pause(self) -> None:
        """``--step``: wait for Enter (q stops; at the end of input the game goes on unpaused)."""
        import sys

        if not self.stepping:
            return
        label = tr("Enter: on, q: stop> ")
        if self.stdin_tty:
            try:
                line: Optional[str] = self.out.input(label, markup=False)
            except EOFError:
                line = None
        else:
            line = _stdin_line() or None
            if line is not None:
                self.out.print(label + line.rstrip("\r\n"), markup=False, highlight=False)
        if line is None:
            self.stepping = False
        elif line.strip().lower() in ("q", "quit", "в", "выход"):
            raise _StopWatching

    def turn(self, session: Any, seat: int) -> None:
        from .screen import seat_screen

        self.out.print()
        self.out.print(seat_screen(session.view(seat), session.names, deals=len(session.game.deals)))

    def read(self, session: Any, seat: int, prompt: str) -> Optional[str]:
        import sys

        who = f"{session.names[seat]}, " if len(session.humans) > 1 else ""
        label = f"{who}{prompt}> "
        if self.stdin_tty:
            try:
                return self.out.input(label, markup=False)
            except EOFError:
                self.out.print()
                return None
        line = _stdin_line()
        if not line:
            return None
        line = line.rstrip("\r\n")
        self.out.print(label + line, markup=False, highlight=False, soft_wrap=True)
        return line

    def reply(self, session: Any, seat: int, reply: Any) -> None:
        from .screen import reply_text

        if reply.kind == "forced":
            from .screen import forced_text

            self.out.print(forced_text(reply, session.names[seat] if len(session.humans) > 1 else None),
                           soft_wrap=self.soft)
            return
        if reply.kind == "show":
            if reply.message == "sheet":
                self.sheet(session)
            else:
                self.turn(session, seat)
            return
        self.out.print(reply_text(reply), soft_wrap=self.soft)

    def step(self, session: Any, step: Any) -> None:
        from .screen import deal_result_text, deal_start_text, deal_title, deal_tricks, standing_text, trick_text

        if self.delay and step.by_bot:
            import time

            time.sleep(self.delay)
        for forfeit in step.forfeits:  # an external program's decision made by its fallback bot
            self.out.print(forfeit.describe(), style="yellow", markup=False, soft_wrap=self.soft)

        game = session.game
        watch = not session.humans
        if step.trick is not None and (not watch or self.tty):
            result = step.result
            if watch and self.deal_shown != (result.deal.number if result else game.deal.number):
                self.deal_shown = result.deal.number if result else game.deal.number
                deal, dealer = (result.deal, result.dealer) if result else (game.deal, game.dealer)
                self.out.print(deal_title(deal, dealer, game.variant, session.names, len(game.deals)),
                               style="bold", soft_wrap=self.soft)
                if result is not None:
                    self.out.print(_result_start(result, session.names), soft_wrap=self.soft)
                else:
                    hidden = game.kind.bidding == "hidden"
                    bids = ["?" if hidden and b is not None else b for b in game.bids]
                    self.out.print(deal_start_text(game.trump, bids, session.names,
                                                   trump_known=game.view(0).trump_known), soft_wrap=self.soft)
            trump = result.trump if result is not None else game.trump
            self.out.print(trick_text(step.trick, step.trick_number, session.names, trump=trump,
                                      variant=game.variant), soft_wrap=self.soft)
            if watch and result is None:
                self.out.print(standing_text(game, session.names), soft_wrap=self.soft)
                self.pause()
        if step.result is not None:
            r = step.result
            if watch and not self.tty:
                self.out.print()
                self.out.print(deal_title(r.deal, r.dealer, game.variant, session.names, len(game.deals)),
                               style="bold", soft_wrap=self.soft)
                self.out.print(_result_start(r, session.names), soft_wrap=self.soft)
                self.out.print(deal_tricks(r, session.names, game.variant), soft_wrap=self.soft)
            self.out.print(deal_result_text(r, session.names, game.variant), soft_wrap=self.soft)
            self.sheet(session)
            if self.chart:
                from ..pages.sheet import sheet_rows
                from .chart import print_score_chart

                print_score_chart(self.out, sheet_rows(game, list(session.names)), session.names)
            if watch and not game.is_over:
                self.pause()

    def sheet(self, session: Any) -> None:
        from .screen import sheet_columns, sheet_table

        _print_wide(self.out, sheet_table(session.game, session.names, width=sheet_columns(self.out)))

    def final(self, session: Any) -> None:
        from .screen import final_text

        self.out.print(final_text(session.game, session.names), soft_wrap=self.soft)
