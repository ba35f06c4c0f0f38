"""The ``updown`` command line (Typer + Rich).

The CLI only parses arguments, calls the library and renders the result.
Library modules (YAML, Lark, the engine) and Rich are imported inside the
command functions so that ``updown --help`` stays cheap.

Exit codes:

* 0 — success;
* 1 — problems found (``variant validate``; rule violations in ``check`` and ``sheet``);
* 2 — usage error (bad option, player count or deal number out of range);
* 3 — an input cannot be loaded (unknown variant, unreadable or broken variant file, a game
  record that cannot be read at all); it wins over 1;
* 4 — internal error (a bug; set ``UPDOWN_DEBUG=1`` to see the traceback);
* 130 — ``play`` stopped by Ctrl-C (the saved game can be resumed).
"""

import functools
import os
from typing import TYPE_CHECKING, Annotated, Any, Callable, Iterator, NoReturn, Optional, TypeVar

import typer

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ..records.checker import CheckReport
    from ..engine import Game
    from ..diagnostics import Diagnostic
    from ..records.transcript import Transcript
    from ..lang.variant import Variant

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_INTERNAL = 4

_HELP = (
    "Rules engine and rules DSL for the Up and Down family of exact-bid "
    "trick-taking games. `updown variants` lists the bundled rule sets."
)

app = typer.Typer(
    name="updown",
    help=_HELP,
    epilog="Exit codes: 0 ok, 1 problems found, 2 usage error, 3 an input cannot be loaded.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
variant_app = typer.Typer(
    help="Show and validate variant files.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(variant_app, name="variant")

F = TypeVar("F", bound=Callable[..., Any])

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of text.")]


# --------------------------------------------------------------------------- output helpers


def _console(stderr: bool = False) -> "Console":
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def _colour() -> bool | None:
    """Colour as Rich would choose it: never with NO_COLOR, always with FORCE_COLOR, else on a terminal."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return None


def _echo_json(text: str) -> None:
    """Machine output: only the JSON text on stdout."""
    typer.echo(text)


def _styled(text: str) -> Any:
    """Rendered diagnostics as Rich text, coloured where the console allows it."""
    from rich.text import Text

    t = Text(text)
    t.highlight_regex(r"\b(error)\[[A-Z]\d{3}\]", "bold red")
    t.highlight_regex(r"\b(warning)\[[A-Z]\d{3}\]", "bold yellow")
    t.highlight_regex(r"\b(note)\[[A-Z]\d{3}\]", "bold cyan")
    t.highlight_regex(r"(?m)^\s*\d* \| *\t*\s*\^+$", "red")
    t.highlight_regex(r"(?m)^\s+= hint:", "cyan")
    return t


def _print_diagnostics(diags: "list[Diagnostic]", *, stderr: bool) -> None:
    from .report import load_sources, render_diagnostics

    if not diags:
        return
    text = render_diagnostics(diags, load_sources(diags))
    _console(stderr).print(_styled(text), soft_wrap=True)


def _error(message: str) -> None:
    from rich.text import Text

    t = Text("error: ", style="bold red")
    t.append(message)
    _console(True).print(t, soft_wrap=True)


def _usage_error(message: str, param: str) -> NoReturn:
    """Raise a usage error (exit 2) naming the option at fault."""
    raise typer.BadParameter(message, param_hint=f"'{param}'")


def _passthrough_types() -> tuple[type[BaseException], ...]:
    types: list[type[BaseException]] = [typer.Exit, typer.Abort]
    typer_exc = getattr(typer, "TyperException", None)
    if isinstance(typer_exc, type):
        types.append(typer_exc)
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            types.append(cls)
    return tuple(types)


_PASSTHROUGH = _passthrough_types()


def _handle_errors(fn: F) -> F:
    """Turn library errors into messages on stderr and exit codes (never a traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except _PASSTHROUGH:
            raise
        except Exception as exc:  # noqa: BLE001 - the CLI's last line of defence
            from ..diagnostics import UpdownError

            if isinstance(exc, UpdownError):
                _print_diagnostics(exc.diagnostics, stderr=True)
                raise typer.Exit(EXIT_INPUT) from None
            if isinstance(exc, (OSError, ValueError)):
                _error(str(exc))
                raise typer.Exit(EXIT_INPUT) from None
            if os.environ.get("UPDOWN_DEBUG"):
                raise
            _error(f"internal error: {type(exc).__name__}: {exc} "
                   "(set UPDOWN_DEBUG=1 for the traceback)")
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper  # type: ignore[return-value]


def _load(name_or_path: str) -> "Variant":
    """Load a variant or raise VariantError (rendered by the handler, exit 3)."""
    from ..lang.loader import VariantError, try_load_variant

    variant, diags = try_load_variant(name_or_path)
    if variant is None:
        raise VariantError(diags)
    return variant


def _players(variant: "Variant", players: Optional[int]) -> int:
    n = variant.default_players if players is None else players
    if not variant.min_players <= n <= variant.max_players:
        _usage_error(
            f"{variant.name} is for {variant.min_players} to {variant.max_players} players, not {n}",
            "--players",
        )
    return n


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --------------------------------------------------------------------------- root


def _version_callback(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"updown {__version__}")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", help="Show the version and exit.",
                     callback=_version_callback, is_eager=True),
    ] = False,
) -> None:
    """Rules engine and rules DSL for the Up and Down family of card games.

    Exit codes: 0 ok, 1 problems found, 2 usage error, 3 input cannot be loaded.
    """


# --------------------------------------------------------------------------- variants


@app.command("variants")
@_handle_errors
def variants_cmd(json_out: JsonOpt = False) -> None:
    """List the bundled variants."""
    from ..lang.loader import bundled_names, try_load_variant
    from .report import pack_text, to_json
    from ..lang.schedule import resolve_schedule

    rows: list[dict[str, Any]] = []
    failed: list[Any] = []
    for name in bundled_names():
        variant, diags = try_load_variant(name)
        if variant is None:
            failed.extend(diags)
            continue
        rows.append({
            "name": variant.name,
            "min_players": variant.min_players,
            "max_players": variant.max_players,
            "default_players": variant.default_players,
            "pack": pack_text(variant),
            "deals": len(resolve_schedule(variant, variant.default_players)),
            "description": variant.description,
        })
    if json_out:
        _echo_json(to_json(rows))
    else:
        from rich.table import Table

        from rich import box
        from rich.text import Text

        out = _console()
        wide = out.width >= 120
        table = Table(box=box.SIMPLE_HEAD, caption="players: min–max (default); "
                      "deals: for the default player count", caption_justify="left",
                      leading=0 if wide else 1)
        table.add_column("name" if wide else "name / description", no_wrap=wide, ratio=None if wide else 1)
        table.add_column("players", no_wrap=True)
        table.add_column("pack", no_wrap=wide)
        table.add_column("deals", no_wrap=True, justify="right")
        if wide:
            table.add_column("description")
        for r in rows:
            label = Text(r["name"], style="bold")
            cells = [
                f"{r['min_players']}–{r['max_players']} ({r['default_players']})",
                r["pack"],
                str(r["deals"]),
            ]
            if wide:
                table.add_row(label, *cells, r["description"])
            else:
                if r["description"]:
                    label.append("\n" + r["description"], style="dim")
                table.add_row(label, *cells)
        out.print(table)
    if failed:
        _print_diagnostics(failed, stderr=True)
        raise typer.Exit(EXIT_INPUT)


# --------------------------------------------------------------------------- variant show


@variant_app.command("show")
@_handle_errors
def show_cmd(
    name: Annotated[str, typer.Argument(metavar="VARIANT",
                                        help="A bundled variant name or a variant file.")],
    players: Annotated[Optional[int], typer.Option(
        "--players", "-n", help="Number of players (default: the variant's default).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show a variant's resolved rules and its deal schedule."""
    from .report import deals_data, hand_sizes_text, kind_label, pack_text, rules_data, rules_sections, to_json
    from ..lang.schedule import deck_size, resolve_schedule

    variant = _load(name)
    n = _players(variant, players)
    deals = resolve_schedule(variant, n)
    if json_out:
        data = {
            "name": variant.name,
            "description": variant.description,
            "source": variant.source,
            "path": variant.path,
            "players": n,
            "min_players": variant.min_players,
            "max_players": variant.max_players,
            "default_players": variant.default_players,
            "deck_size": deck_size(variant),
            "pack": pack_text(variant),
            "hand_sizes": hand_sizes_text(deals),
            "deals": deals_data(deals),
            "rules": dict(variant.options),
            "resolved": rules_data(variant),
        }
        _echo_json(to_json(data))
        return

    from rich.table import Table
    from rich.text import Text

    out = _console()
    title = Text(variant.name, style="bold")
    if variant.description:
        title.append(" — " + variant.description, style="")
    out.print(title)
    if variant.source:
        out.print(Text("source: " + variant.source, style="dim"))
    if variant.path:
        out.print(Text("file: " + str(variant.path), style="dim"))

    out.print(Text("Rules", style="bold"))
    rules = Table()
    rules.add_column("section", style="bold", no_wrap=True)
    rules.add_column("rule", no_wrap=True)
    rules.add_column("value")
    sections = rules_sections(variant)
    for i, (section, items) in enumerate(sections):
        for j, (key, value) in enumerate(items):
            rules.add_row(section if j == 0 else "", key, Text(value),
                          end_section=j == len(items) - 1 and i < len(sections) - 1)
    out.print(rules)

    out.print(Text(f"Deal schedule for {n} players: {_plural(len(deals), 'deal')}", style="bold"))
    sched = Table()
    sched.add_column("#", justify="right")
    sched.add_column("set", justify="right")
    sched.add_column("cards", justify="right")
    sched.add_column("kind")
    for d in deals:
        sched.add_row(str(d.number), str(d.set), str(d.cards), kind_label(variant, d.kind))
    out.print(sched)
    out.print(Text("hand sizes: " + hand_sizes_text(deals)), soft_wrap=True)


# --------------------------------------------------------------------------- variant validate


@variant_app.command("validate")
@_handle_errors
def validate_cmd(
    files: Annotated[list[str], typer.Argument(metavar="FILE...",
                                               help="Variant files (or bundled names) to check.")],
    json_out: JsonOpt = False,
) -> None:
    """Check variant files and report every problem with its line and column."""
    from pathlib import Path

    from ..diagnostics import Diagnostic, Severity
    from ..lang.loader import resolve_variant_path, try_load_variant
    from .report import diagnostics_json, sort_diagnostics, validate_summary

    all_diags: list[Diagnostic] = []
    valid = 0
    problems: list[int] = []
    unreadable = 0
    for arg in files:
        path = Path(arg)
        unread: Diagnostic | None = None
        if path.exists() and not path.is_file():
            unread = Diagnostic("V001", "cannot read variant file: it is not a regular file", path=arg)
        elif path.is_file():
            try:
                path.read_bytes().decode("utf-8")
            except OSError as exc:
                unread = Diagnostic("V001", f"cannot read variant file: {exc.strerror or exc}",
                                    path=arg)
            except UnicodeDecodeError as exc:
                unread = Diagnostic("V001", f"cannot read variant file: not UTF-8 text ({exc.reason} "
                                    f"at byte {exc.start})", path=arg)
        elif resolve_variant_path(arg) is None:
            _, diags = try_load_variant(arg)
            hint = diags[0].hint if diags and diags[0].hint else None
            unread = Diagnostic(
                "V001", "cannot read variant file: no such file (or bundled variant)", path=arg,
                hint=hint if hint and hint.startswith("did you mean") else None,
            )
        if unread is not None:
            unreadable += 1
            all_diags.append(unread)
            if not json_out:
                _print_diagnostics([unread], stderr=True)
            continue

        variant, diags = try_load_variant(arg)
        diags = sort_diagnostics(diags)
        all_diags.extend(diags)
        if variant is not None:
            valid += 1
        else:
            problems.append(sum(1 for d in diags if d.severity == Severity.ERROR) or len(diags))
        if not json_out:
            if diags:
                _print_diagnostics(diags, stderr=False)
                _console().print()
            if variant is not None:
                _console().print(_ok_text(arg), soft_wrap=True)

    if json_out:
        _echo_json(diagnostics_json(all_diags))
    else:
        from rich.text import Text

        style = "bold green" if not problems and not unreadable else "bold red"
        _console().print(Text(validate_summary(len(files), valid, problems, unreadable), style=style),
                         soft_wrap=True)
    if unreadable:
        raise typer.Exit(EXIT_INPUT)
    if problems:
        raise typer.Exit(EXIT_PROBLEMS)


def _ok_text(path: str) -> Any:
    from rich.text import Text

    t = Text(f"{path}: ")
    t.append("ok", style="green")
    return t


# --------------------------------------------------------------------------- score


@app.command("score")
@_handle_errors
def score_cmd(
    variant_name: Annotated[str, typer.Argument(metavar="VARIANT",
                                                help="A bundled variant name or a variant file.")],
    deal: Annotated[int, typer.Option("--deal", "-d", help="Deal number in the schedule (1-based).")],
    taken: Annotated[int, typer.Option("--taken", "-t", help="Tricks the player took.")],
    bid: Annotated[Optional[int], typer.Option(
        "--bid", "-b", help="The player's bid (optional in deals without bidding).")] = None,
    players: Annotated[Optional[int], typer.Option(
        "--players", "-n", help="Number of players (default: the variant's default).")] = None,
    total: Annotated[int, typer.Option("--total", help="The player's running total before the deal.")] = 0,
    dealer: Annotated[bool, typer.Option("--dealer", help="The player is the dealer.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """One player's points for one deal of the schedule."""
    from .report import kind_label, to_json
    from ..lang.schedule import deck_size, resolve_schedule
    from ..engine.scoring import seat_score

    variant = _load(variant_name)
    n = _players(variant, players)
    deals = resolve_schedule(variant, n)
    if not 1 <= deal <= len(deals):
        _usage_error(f"{variant.name} with {n} players has deals 1 to {len(deals)}, not {deal}",
                     "--deal")
    d = deals[deal - 1]
    kind = variant.kinds[d.kind]
    if not 0 <= taken <= d.cards:
        _usage_error(f"deal {deal} has {_plural(d.cards, 'card')}: tricks taken must be 0 to "
                     f"{d.cards}, not {taken}", "--taken")
    ignored_bid = False
    if kind.bidding == "none":
        if bid is not None:
            ignored_bid = True
        bid = None
    else:
        if bid is None:
            _usage_error(f"missing: deal {deal} ({d.kind}) has bidding, so the bid is required",
                         "--bid")
        if not 0 <= bid <= d.cards:
            _usage_error(f"deal {deal} has {_plural(d.cards, 'card')}: the bid must be 0 to "
                         f"{d.cards}, not {bid}", "--bid")

    env = {
        "cards": d.cards,
        "players": n,
        "deal": d.number,
        "deals": len(deals),
        "set": d.set,
        "set_deal": d.set_deal,
        "set_deals": sum(1 for x in deals if x.set == d.set),
        "deck": deck_size(variant),
        **variant.scoring.params,
    }
    points = seat_score(variant, kind, env, bid=bid, taken=taken, total=total, is_dealer=dealer)
    formula = kind.score if kind.score is not None else variant.scoring.deal
    if json_out:
        _echo_json(to_json({
            "variant": variant.name,
            "players": n,
            "deal": d.number,
            "cards": d.cards,
            "kind": d.kind,
            "set": d.set,
            "set_deal": d.set_deal,
            "multiplier": kind.multiplier,
            "bid": bid,
            "taken": taken,
            "total": total,
            "is_dealer": dealer,
            "formula": formula.source,
            "score": points,
        }))
        return
    if ignored_bid:
        _console(True).print(f"note: deal {deal} ({d.kind}) has no bidding; --bid is ignored",
                             soft_wrap=True, markup=False)
    where = f"{_plural(d.cards, 'card')}"
    if len(variant.schedule) > 1:
        where += f", set {d.set}"
    where += f", {kind_label(variant, d.kind)}"
    bid_text = "no bids" if bid is None else f"bid {bid}"
    extra = []
    if total:
        extra.append(f"total before {total}")
    if dealer:
        extra.append("dealer")
    extra_text = f" ({', '.join(extra)})" if extra else ""
    line = (f"{variant.name}, {n} players, deal {d.number} ({where}): {bid_text}, taken {taken}"
            f"{extra_text} → {points}")
    _console().print(line, soft_wrap=True, markup=False)


# --------------------------------------------------------------------------- game records: inputs

STDIN = "-"
STDIN_NAME = "<stdin>"


class _Inputs:
    """The files named on the command line: glob patterns expanded, standard input read once,
    each file's text kept for the source lines of diagnostics."""

    def __init__(self) -> None:
        self._stdin: bytes | None = None
        self._texts: dict[str, str | None] = {}

    @staticmethod
    def expand(args: list[str]) -> list[str]:
        """Each argument as given, or the files a glob pattern the shell left alone matches."""
        import glob

        out: list[str] = []
        seen: set[str] = set()
        for arg in args:
            found = [arg]
            if arg != STDIN and not os.path.lexists(arg) and glob.has_magic(arg):
                matches = sorted(m for m in glob.glob(arg, recursive=True) if not os.path.isdir(m))
                found = matches or [arg]
            for f in found:
                if f not in seen:
                    seen.add(f)
                    out.append(f)
        return out

    def stdin(self) -> bytes:
        if self._stdin is None:
            import sys

            stream = getattr(sys.stdin, "buffer", None)
            self._stdin = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
        return self._stdin

    @staticmethod
    def name(arg: str) -> str:
        return STDIN_NAME if arg == STDIN else arg

    def reports(self, arg: str) -> "Iterator[CheckReport]":
        """Check every game of one input (a file or ``-``), one at a time."""
        from ..records.checker import check_games

        if arg == STDIN:
            yield from _check_bytes(self.stdin(), STDIN_NAME)
        else:
            yield from check_games(arg)

    def records(self, arg: str) -> "list[tuple[Transcript | None, list[Diagnostic]]]":
        """Read every game of one input (a file or ``-``) without checking it."""
        name = self.name(arg)
        if arg == STDIN:
            data = self.stdin()
        else:
            from ..diagnostics import Diagnostic

            try:
                with open(arg, "rb") as f:
                    data = f.read()
            except OSError as exc:
                return [(None, [Diagnostic("T001", f"cannot read the file: {exc.strerror or exc}",
                                           path=name)])]
        return list(_read_bytes(data, name))

    def source(self, path: str | None) -> str | None:
        """A file's text for the source line under a diagnostic (None: do not show one)."""
        from .report import read_source

        if path is None:
            return None
        if path not in self._texts:
            if path == STDIN_NAME:
                try:
                    text: str | None = self.stdin().decode("utf-8")
                except UnicodeDecodeError:
                    text = None
            else:
                text = read_source(path)
            # The JSON form is read through a rebuilt log: its line numbers are not the file's.
            if text is not None and text.lstrip("\ufeff \t\r\n")[:1] in ("{", "["):
                text = None
            self._texts[path] = text
        return self._texts[path]

    def render(self, diags: "list[Diagnostic]") -> str:
        from .report import render_diagnostics

        sources: dict[str, str] = {}
        for d in diags:
            if d.path and d.path not in sources and d.line is not None and d.code != "T001":
                text = self.source(d.path)
                if text is not None:
                    sources[d.path] = text
        return render_diagnostics(diags, sources)


def _is_json(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[")


def _read_bytes(data: bytes, name: str) -> "Iterator[tuple[Transcript | None, list[Diagnostic]]]":
    """The games of a log or of the JSON form (one game or a list), as the reader gives them."""
    import io

    from ..diagnostics import Diagnostic
    from ..records.transcript import iter_transcripts, transcript_from_json

    if _is_json(data):
        import json

        try:
            obj = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            yield None, [Diagnostic("T001", f"not valid JSON: {exc}", path=name, line=1, col=1)]
            return
        for item in obj if isinstance(obj, list) else [obj]:
            yield transcript_from_json(item, name)
        return
    yield from iter_transcripts(io.BytesIO(data), name)


def _check_bytes(data: bytes, name: str) -> "Iterator[CheckReport]":
    """:func:`~updown_dsl.records.checker.check_games` for text that is not in a file (standard input)."""
    from ..records.checker import CheckReport, check_lines, check_transcript

    if not _is_json(data):
        import io

        yield from check_lines(io.BytesIO(data), name)
        return
    for t, diags in _read_bytes(data, name):
        if t is None:
            yield CheckReport(name, tuple(diags), readable=False)
        else:
            yield check_transcript(t, diags)


def _print_rendered(text: str, *, stderr: bool) -> None:
    if text:
        _console(stderr).print(_styled(text), soft_wrap=True)


# --------------------------------------------------------------------------- check


FilesArg = Annotated[list[str], typer.Argument(
    metavar="FILE...",
    help="Game records (logs or the JSON form; glob patterns are expanded; '-' reads standard input).")]


@app.command("check")
@_handle_errors
def check_cmd(files: FilesArg, json_out: JsonOpt = False) -> None:
    """Replay recorded games through the engine and report every broken rule.

    Each file may hold several games. Exit status: 0 every game is clean (notes and
    warnings allowed), 1 rule violations were found, 3 an input cannot be read.
    """
    from ..diagnostics import Diagnostic
    from .report import check_summary, diagnostics_json, sort_diagnostics

    inputs = _Inputs()
    paths = inputs.expand(files)
    all_diags: list[Diagnostic] = []
    clean = unfinished = unreadable = 0
    errors: list[int] = []
    printed = {False: False, True: False}
    for arg in paths:
        for report in inputs.reports(arg):
            diags = sort_diagnostics(report.diagnostics)
            if not report.readable:
                unreadable += 1
            elif report.errors:
                errors.append(len(report.errors))
            else:
                clean += 1
            if report.readable and not report.finished:
                unfinished += 1
            if json_out:
                all_diags.extend(diags)
            elif diags:
                stream = not report.readable  # unreadable inputs on stderr, findings on stdout
                if printed[stream]:
                    _console(stream).print()
                _print_rendered(inputs.render(diags), stderr=stream)
                printed[stream] = True
    if json_out:
        _echo_json(diagnostics_json(all_diags))
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
) -> None:
    """A recorded game as the paper score sheet, with the points the engine gives.

    One row per deal (and per penalty, cut or abandoned deal), running totals, then
    the settlement and the winners. The rule violations found follow the sheet (exit 1).
    """
    from .report import sheet_rows, sheet_summary, sort_diagnostics, to_json

    inputs = _Inputs()
    report = None
    count = 0
    for count, r in enumerate(inputs.reports(file), start=1):
        if count == game_no:
            report = r
            break
    if report is None:
        _usage_error(f"{inputs.name(file)} holds {_plural(count, 'game')}, not {game_no}", "--game")
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
        if diags:
            _console().print()
            _print_rendered(inputs.render(diags), stderr=False)
    if report.errors:
        raise typer.Exit(EXIT_PROBLEMS)


def _print_sheet(variant: str, players: list[str], rows: list[dict[str, Any]], summary: dict[str, Any],
                 path: str | None, game_no: int) -> None:
    from rich.text import Text

    from .report import sheet_cell
    from .screen import sheet_frame

    out = _console()
    title = Text(variant, style="bold")
    if path:
        title.append(f"  {path}" + (f", game {game_no}" if game_no > 1 else ""), style="dim")
    out.print(title, soft_wrap=True)
    table = sheet_frame(players)
    notes: list[Text] = []
    for row in rows:
        kind = row["kind"]
        number = str(row["deal"])
        style = {"revoke": "red", "cut": "magenta", "abandoned": "yellow"}.get(kind, "")
        if kind == "deal":
            cells: list[Any] = [number, row["mark"], row["trump"], row["dealer"]]
        elif kind == "abandoned":
            number += "*"
            cells = [number, row["mark"], row["trump"], Text(row["dealer"], style=style)]
        else:
            number += "*"
            cells = [number, "", "", Text(kind, style=style)]
        if row["note"] and kind != "deal":
            notes.append(Text(f"{number} {row['note']}", style=style))
        for seat in row["seats"]:
            cells += [sheet_cell(seat, kind), str(seat["total"])]
        table.add_row(*cells, style="dim" if kind == "abandoned" else None)
    from rich.measure import Measurement

    # Never cut a number short: wider than the terminal rather than "1…".
    natural = Measurement.get(out, out.options.update(max_width=10_000), table).maximum
    if natural > out.width:
        from rich.console import Console

        out = Console(highlight=False, width=natural)
    out.print(table)
    for note in notes:
        out.print(note, soft_wrap=True)
    if summary["finished"]:
        line = Text(f"game over after deal {summary['last_deal']}", style="bold")
        if summary["over_reason"]:
            line.append(f" ({summary['over_reason']})", style="")
        out.print(line, soft_wrap=True)
        settle = ", ".join(f"{p} {v:+d}" for p, v in summary["settlement"].items())
        out.print(Text(f"settlement: {settle}"), soft_wrap=True)
        winners = summary["winners"]
        out.print(Text(("winner: " if len(winners) == 1 else "winners: ") + ", ".join(winners),
                       style="bold green"), soft_wrap=True)
    else:
        out.print(Text(f"unfinished after deal {summary['last_deal']} of {summary['deals']}",
                       style="bold yellow"), soft_wrap=True)


# --------------------------------------------------------------------------- convert


@app.command("convert")
@_handle_errors
def convert_cmd(
    file: Annotated[str, typer.Argument(metavar="FILE",
                                        help="A game record (log or JSON form; '-' reads standard input).")],
    to: Annotated[Optional[str], typer.Option(
        "--to", "-t", metavar="json|log",
        help="Output form (default: the other one).")] = None,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="OUT", help="Write to this file instead of standard output.")] = None,
    force: Annotated[bool, typer.Option("--force", "-f", help="Overwrite OUT if it exists.")] = False,
) -> None:
    """Convert a game record between the log form and the JSON form.

    The log is written in canonical form; a file of several games gives a JSON list.
    Only the record is read: rules are not checked (use `updown check`). A record the
    reader cannot read in full is not converted (exit 3).
    """
    import json

    from ..diagnostics import Severity
    from ..records.transcript import format_transcript, transcript_to_json

    if to is not None and to.lower() not in ("json", "log"):
        _usage_error(f"the output form is 'json' or 'log', not {to!r}", "--to")
    if output is not None and output != STDIN and os.path.lexists(output) and not force:
        _usage_error(f"{output} exists; add --force to overwrite it", "--output")
    inputs = _Inputs()
    records = inputs.records(file)
    diags = [d for _, ds in records for d in ds]
    blocking = any(t is None for t, _ in records) or any(d.severity == Severity.ERROR for d in diags)
    if diags:
        from .report import sort_diagnostics

        _print_rendered(inputs.render(sort_diagnostics(diags)), stderr=True)
    if blocking:
        _error(f"{inputs.name(file)} is not converted: the reader cannot read all of it")
        raise typer.Exit(EXIT_INPUT)
    games = [t for t, _ in records if t is not None]
    form = to.lower() if to is not None else ("log" if _input_is_json(inputs, file) else "json")
    if form == "json":
        data = [transcript_to_json(t) for t in games]
        text = json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False) + "\n"
    else:
        text = "\n".join(format_transcript(t) for t in games)
    if output is None or output == STDIN:
        typer.echo(text, nl=False)
        return
    _write_new(output, text, force)
    _console(True).print(f"wrote {output} ({_plural(len(games), 'game')}, {form})",
                         soft_wrap=True, markup=False, highlight=False)


def _input_is_json(inputs: _Inputs, arg: str) -> bool:
    if arg == STDIN:
        return _is_json(inputs.stdin())
    with open(arg, "rb") as f:
        return _is_json(f.read(4096))


def _write_new(path: str, text: str, force: bool) -> None:
    """Write ``text`` to ``path``: a new file, or (``force``) replace the old one in one step."""
    data = text.encode("utf-8")
    if not force:
        try:
            with open(path, "xb") as f:
                f.write(data)
        except FileExistsError:
            _usage_error(f"{path} exists; add --force to overwrite it", "--output")
        return
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".updown-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --------------------------------------------------------------------------- play

EXIT_INTERRUPTED = 130


@app.command("play")
@_handle_errors
def play_cmd(
    variant: Annotated[Optional[str], typer.Option(
        "--variant", "-v", metavar="NAME|FILE", help="A bundled variant name or a variant file.")] = None,
    players: Annotated[Optional[int], typer.Option(
        "--players", "-n", help="Number of players (default: the variant's default).")] = None,
    seat: Annotated[Optional[int], typer.Option(
        "--seat", "-s", help="Your seat, 1-based (default 1: eldest in the first deal).")] = None,
    name: Annotated[Optional[list[str]], typer.Option(
        "--name", metavar="NAME", help="Player names in seat order (repeat the option or give a "
        "comma list); one name alone is yours. Default: You and bot names.")] = None,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", help="Seed of the shuffles and the bots (default: a random one, written in the record).")] = None,
    bot: Annotated[Optional[str], typer.Option(
        "--bot", metavar="heuristic|random", help="The bot at the other seats (default heuristic).")] = None,
    save: Annotated[Optional[str], typer.Option(
        "--save", metavar="FILE", help="Write the game to FILE as it is played (a new file).")] = None,
    force: Annotated[bool, typer.Option("--force", "-f", help="Let --save replace an existing FILE.")] = False,
    resume: Annotated[Optional[str], typer.Option(
        "--resume", metavar="FILE", help="Continue the game saved in FILE, writing on to it.")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots at every seat: watch a game.")] = False,
) -> None:
    """Play a game at the terminal against bots (or watch bots play).

    Type one action a line: a bid (2), a card (AS, 10h, 7♠), a card with its declaration
    (JK high, JK demand H), a suit or none when you name trump; ? lists the legal moves,
    sheet shows the score sheet, quit stops. Input may be piped, one action a line.
    With --save the game is written as it goes and --resume continues it. Exit status:
    0 the game ended or stopped at the end of input (or quit); 130 stopped by Ctrl-C.
    """
    import sys

    from ..players.bots import BOTS
    from ..players.session import ResumeError, Session

    if bot is not None and bot not in BOTS:
        _usage_error(f"no bot named {bot!r} (bots: {', '.join(BOTS)})", "--bot")
    if watch and seat is not None:
        _usage_error("--watch puts a bot at every seat: leave out --seat", "--seat")
    names = [n.strip() for given in (name or []) for n in given.split(",") if n.strip()]
    if resume is not None:
        for given, option in ((variant, "--variant"), (players, "--players"), (name, "--name"),
                              (seed, "--seed"), (save, "--save")):
            if given:
                _usage_error(f"{option} comes from the saved game with --resume", option)
        humans = [] if watch else ([seat - 1] if seat is not None else None)
        try:
            session = Session.resume(resume, humans=humans, bot=bot)
        except ResumeError as exc:
            if exc.diagnostics:
                _print_diagnostics(exc.diagnostics, stderr=True)
            _error(str(exc))
            raise typer.Exit(EXIT_INPUT) from None
        if any(s >= session.game.players for s in session.humans):
            session.close()
            _usage_error(f"the saved game has {session.game.players} players", "--seat")
    else:
        if variant is None:
            _usage_error("name the variant to play (or --resume a saved game)", "--variant")
        loaded = _load(variant)
        n = _players(loaded, players)
        if seat is not None and not 1 <= seat <= n:
            _usage_error(f"the seats are 1 to {n}, not {seat}", "--seat")
        if save is not None and os.path.lexists(save) and not force:
            _usage_error(f"{save} exists; add --force to replace it (or --resume it)", "--save")
        humans = [] if watch else [(seat or 1) - 1]
        from ..players.session import seat_names

        try:
            seat_names(n, humans, names)
        except ValueError as exc:
            _usage_error(str(exc), "--name")
        session = Session.start(loaded, n, names=names, humans=humans, seed=seed, bot=bot or "heuristic",
                                save=save, force=force, variant_label=_play_label(variant, save))
    out = _console()
    frontend = _Terminal(out, tty=out.is_terminal, stdin_tty=sys.stdin.isatty())
    saved = resume if resume is not None else save
    _intro(out, session, resume)
    try:
        outcome = session.run(frontend)
    except KeyboardInterrupt:
        session.close()
        out.print()
        _stopped(out, session, saved, "interrupted")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    session.close()
    if outcome == "over":
        frontend.final(session)
        if saved is not None:
            out.print(f"The game is saved in {saved}.", markup=False, highlight=False)
    else:
        _stopped(out, session, saved, "stopped")


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

    g = session.game
    t = Text()
    t.append(g.variant.name, style="bold")
    t.append(f": {g.players} players, {_plural(len(g.deals), 'deal')}, seed {session.seed}. ")
    if resume is not None:
        t.append(f"Resuming {resume} in deal {g.deal.number}. ")
    if session.humans:
        you = sorted(session.humans)[0]
        name = session.names[you]
        t.append(f"You play seat {you + 1}" + ("" if name == "You" else f" as {name}")
                 + ". Type ? for the legal moves, quit to stop.")
    else:
        t.append("Bots at every seat.")
    out.print(t, soft_wrap=True)


def _stopped(out: "Console", session: Any, saved: Optional[str], how: str) -> None:
    from rich.text import Text

    g = session.game
    t = Text(f"Game {how} in deal {g.deal.number} of {len(g.deals)}. ", style="bold yellow")
    if saved is not None:
        t.append(f"It is saved in {saved}: `updown play --resume {saved}` continues it.", style="")
    else:
        t.append("It was not saved (--save FILE keeps a game).", style="")
    out.print(t, soft_wrap=True)


def _print_wide(out: "Console", renderable: Any) -> None:
    """Print a table at its natural width (wider than the terminal rather than cut short)."""
    from rich.console import Console

    if out.width >= 10_000:
        out.print(renderable)
        return
    # A table does not expand: on a very wide console it keeps its natural width.
    wide = Console(highlight=False, width=10_000, file=out.file, force_terminal=out.is_terminal,
                   color_system=out.color_system, no_color=out.no_color)  # type: ignore[arg-type]
    wide.print(renderable)


class _Terminal:
    """The session's frontend at a terminal (or a pipe): Rich output, lines of input."""

    def __init__(self, out: "Console", *, tty: bool, stdin_tty: bool) -> None:
        self.out = out
        self.tty = tty
        self.stdin_tty = stdin_tty
        self.deal_shown = 0

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
        line = sys.stdin.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        self.out.print(label + line, markup=False, highlight=False, soft_wrap=True)
        return line

    def reply(self, session: Any, seat: int, reply: Any) -> None:
        from .screen import reply_text

        if reply.kind == "show":
            if reply.message == "sheet":
                self.sheet(session)
            else:
                self.turn(session, seat)
            return
        self.out.print(reply_text(reply), soft_wrap=True)

    def step(self, session: Any, step: Any) -> None:
        from .screen import deal_result_text, deal_title, deal_tricks, standing_text, trick_text

        game = session.game
        watch = not session.humans
        if step.trick is not None and (not watch or self.tty):
            result = step.result
            if watch and self.deal_shown != (result.deal.number if result else game.deal.number):
                self.deal_shown = result.deal.number if result else game.deal.number
                deal, dealer = (result.deal, result.dealer) if result else (game.deal, game.dealer)
                self.out.print(deal_title(deal, dealer, game.variant, session.names, len(game.deals)),
                               style="bold", soft_wrap=True)
            trump = result.trump if result is not None else game.trump
            self.out.print(trick_text(step.trick, step.trick_number, session.names, trump=trump,
                                      variant=game.variant), soft_wrap=True)
            if watch and result is None:
                self.out.print(standing_text(game, session.names), soft_wrap=True)
        if step.result is not None:
            r = step.result
            if watch and not self.tty:
                self.out.print()
                self.out.print(deal_title(r.deal, r.dealer, game.variant, session.names, len(game.deals)),
                               style="bold", soft_wrap=True)
                self.out.print(deal_tricks(r, session.names, game.variant), soft_wrap=True)
            self.out.print(deal_result_text(r, session.names, game.variant), soft_wrap=True)
            self.sheet(session)

    def sheet(self, session: Any) -> None:
        from .screen import sheet_table

        _print_wide(self.out, sheet_table(session.game, session.names))

    def final(self, session: Any) -> None:
        from .screen import final_text

        self.out.print(final_text(session.game, session.names), soft_wrap=True)


# --------------------------------------------------------------------------- simulate


@app.command("simulate")
@_handle_errors
def simulate_cmd(
    variant: Annotated[str, typer.Option(
        "--variant", "-v", metavar="NAME|FILE", help="A bundled variant name or a variant file.")],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games to play.")] = 100,
    players: Annotated[Optional[int], typer.Option(
        "--players", "-n", help="Number of players (default: the variant's default).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed plays the same games.")] = 1,
    bots: Annotated[str, typer.Option(
        "--bots", metavar="KIND,...", help="Bot kinds: one for every seat (e.g. heuristic,random,random,random) "
        "or one for all seats.")] = "heuristic",
    rotate: Annotated[bool, typer.Option(
        "--rotate/--no-rotate", help="Move the line-up one seat each game.")] = True,
    out: Annotated[Optional[str], typer.Option(
        "--out", metavar="DIR", help="Write one transcript per game into DIR (created if needed; "
        "existing files are not replaced).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Bot games with a summary per seat and per bot kind (points, wins, bids made) and per
    variant (how often the hook forbade a bid, deal length). Every saved game checks clean.
    """
    import json
    from pathlib import Path

    from ..players.bots import BOTS
    from ..records.record import game_transcript
    from ..players.simulate import lineup, simulate
    from ..records.transcript import format_transcript

    loaded = _load(variant)
    n = _players(loaded, players)
    kinds = [k.strip() for k in bots.split(",") if k.strip()]
    for kind in kinds:
        if kind not in BOTS:
            _usage_error(f"no bot named {kind!r} (bots: {', '.join(BOTS)})", "--bots")
    if len(kinds) == 1:
        kinds = kinds * n
    if len(kinds) != n:
        _usage_error(f"{len(kinds)} bot kinds for {n} players: give one, or one per seat", "--bots")
    folder = Path(out) if out is not None else None
    if folder is not None:
        if folder.exists() and not folder.is_dir():
            _usage_error(f"{out} is a file, not a folder", "--out")
        folder.mkdir(parents=True, exist_ok=True)
    label = variant if "/" not in variant and not variant.endswith((".yaml", ".yml")) \
        else str(Path(variant).resolve())
    stem = loaded.name.replace(" ", "-")
    width = len(str(games))

    def save(g: int, game: "Game") -> None:
        if folder is None:
            return
        names = [f"{kind[0].upper()}{s + 1}" for s, kind in enumerate(lineup(kinds, g, rotate))]
        text = format_transcript(game_transcript(game, names, level="full", variant=label,
                                                 extra=[("seed", f"{seed}:{g}")]))
        target = folder / f"{stem}-{g + 1:0{width}d}.log"
        with open(target, "x", encoding="utf-8") as handle:  # never replace a file
            handle.write(text)

    if json_out:
        summary = simulate(loaded, n, games, seed=seed, bots=kinds, rotate=rotate, on_game=save)
        print(json.dumps(summary.to_dict(), indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.progress import Progress

    console = Console(stderr=True)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{loaded.name}: {games} games", total=games)

        def step(g: int, game: "Game") -> None:
            save(g, game)
            progress.advance(task)

        summary = simulate(loaded, n, games, seed=seed, bots=kinds, rotate=rotate, on_game=step)
    _print_simulation(summary, folder)


def _print_simulation(summary: Any, folder: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    v = summary.variant
    console.print(f"[bold]{v.variant}[/bold]: {v.games} games, {v.players} players, seed {summary.seed}; "
                  f"{v.mean_deals:.1f} deals a game, {v.mean_deal_decisions:.1f} decisions a deal; "
                  f"the hook forbade a bid in {v.hook_share:.1%} of bidding rounds"
                  + (f"; {v.stop_loss_share:.1%} of games ended by the stop-loss" if v.stop_loss_share else ""))
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
        console.print(f"games written to {folder}/ (check them with: updown check {folder}/*)")


# --------------------------------------------------------------------------- entry point


def main() -> None:
    """Run the ``updown`` command line (console script and ``python -m updown_dsl``)."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
