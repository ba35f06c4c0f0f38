"""What every command shares: the Typer apps, exit codes, output and error handling.

Every command only parses arguments, calls the library and renders the result.
Library modules (YAML, Lark, the engine) and Rich are imported inside the
command functions so that ``updown --help`` stays cheap.

Exit codes:

* 0 — success;
* 1 — problems found (``variant validate``; rule violations in ``check`` and ``sheet``);
* 2 — usage error (bad option, player count or deal number out of range);
* 3 — an input cannot be loaded (unknown variant, unreadable or broken variant file, a game
  record that cannot be read at all, a variant file a record may not name), a save file that
  cannot be written or is in use by another ``play``, a Dask scheduler that does not answer;
  it wins over 1;
* 4 — internal error (a bug; set ``UPDOWN_DEBUG=1`` to see the traceback);
* 130 — ``play`` stopped by Ctrl-C (the saved game can be resumed).
"""

import functools
import os
from typing import TYPE_CHECKING, Annotated, Any, Callable, NoReturn, Optional, TypeVar

import typer

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ..diagnostics import Diagnostic
    from ..lang.variant import Variant

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_INPUT = 3
EXIT_INTERNAL = 4

from ..i18n import tr, mark

_HELP = mark(
    "Rules engine and rules DSL for the Up and Down family of exact-bid "
    "trick-taking games. `updown variants` lists the bundled rule sets."
)

app = typer.Typer(
    name="updown",
    help=_HELP,
    epilog="Exit codes: 0 ok, 1 problems found, 2 usage error, 3 an input cannot be loaded.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion, variant names included
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
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", metavar="N", help="Processes to use: 1 (the default) runs here, 0 one per core.")]
SchedulerOpt = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS", help="Run on a Dask cluster (tcp://HOST:8786; needs the "
    '"dist" extra) instead of local processes.')]
CardsOpt = Annotated[str, typer.Option(
    "--cards", metavar="en|ru", help="Write the record's cards in the Latin letters (AS 10H JK) or the "
    "Cyrillic ones (Тп 10ч Дж); either is read.")]
LangOpt = Annotated[Optional[str], typer.Option(
    "--lang", metavar="LANG", help="Language: en or ru (default: as the locale says).")]
PlayersOpt = Annotated[Optional[int], typer.Option(
    "--players", "-n", help="Number of players (default: the variant's default).")]
VariantPathOpt = Annotated[Optional[list[str]], typer.Option(
    "--variant-path", metavar="DIR",
    help="A folder where variant files named by records or by `extends` may also be read "
         "(besides the bundled variants and the record's or variant file's own folder); repeat for more.")]


# --------------------------------------------------------------------------- output helpers


def _console(stderr: bool = False) -> "Console":
    from .safe import safe_console

    return safe_console(stderr=stderr, highlight=False)


def _colour() -> bool | None:
    """Colour as Rich would choose it: never with NO_COLOR, always with FORCE_COLOR, else on a terminal."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return None


def _echo_json(text: str) -> None:
    """Machine output: only the JSON text on stdout (a control character in a string as its
    ``\\u`` escape: the same JSON, nothing a terminal acts on)."""
    from ..safetext import for_json

    typer.echo(for_json(text))


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
    """Raise a usage error (exit 2) naming the option at fault (Click prints it: the words of an
    input in it, a variant's name, are escaped here as every console escapes them)."""
    from ..safetext import for_terminal

    raise typer.BadParameter(for_terminal(message, one_line=True), param_hint=f"'{param}'")


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
            _error(tr("internal error: {kind}: {exc} (set UPDOWN_DEBUG=1 for the traceback)",
                      kind=type(exc).__name__, exc=exc))
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper  # type: ignore[return-value]


def _folders(variant_path: Optional[list[str]]) -> list[str]:
    """The ``--variant-path`` folders, each checked to be one (a usage error otherwise)."""
    for folder in variant_path or []:
        if not os.path.isdir(folder):
            _usage_error(tr("{folder} is not a folder", folder=folder), "--variant-path")
    return list(variant_path or [])


def _scheduler(address: Optional[str]) -> Optional[str]:
    """``--scheduler`` checked: the Dask extra must be installed (a usage error otherwise)."""
    if address is not None:
        import importlib.util

        if importlib.util.find_spec("distributed") is None:
            _usage_error(tr("a Dask scheduler needs the \"dist\" extra: pip install \"updown-dsl[dist]\""), "--scheduler")
    return address


def _jobs(jobs: int) -> int:
    """``--jobs`` checked (a usage error when negative)."""
    if jobs < 0:
        _usage_error(tr("--jobs must be 0 (one process per core) or more, not {jobs}", jobs=jobs), "--jobs")
    return jobs


def _variant_path_hint(variant_file: Optional[str], record: str) -> str:
    """`` --variant-path DIR`` when a record saved as ``record`` names a variant file outside
    its folder (so that checking or resuming it needs the option), else ``""``."""
    if variant_file is None or not os.path.isfile(variant_file):
        return ""
    folder = os.path.dirname(os.path.abspath(variant_file))
    here = os.path.dirname(os.path.abspath(record)) if not os.path.isdir(record) else os.path.abspath(record)
    if os.path.commonpath([folder, here]) == here:
        return ""
    return f" --variant-path {os.path.relpath(folder)}"


def _load(name_or_path: str, variant_path: Optional[list[str]] = None) -> "Variant":
    """Load a variant or raise VariantError (rendered by the handler, exit 3)."""
    from ..lang.loader import VariantError, try_load_variant

    variant, diags = try_load_variant(name_or_path, variant_path=_folders(variant_path))
    if variant is None:
        raise VariantError(diags)
    return variant


def _players(variant: "Variant", players: Optional[int]) -> int:
    n = variant.default_players if players is None else players
    if not variant.min_players <= n <= variant.max_players:
        _usage_error(
            tr("{name} is for {min_players} to {max_players} players, not {n}",
               name=variant.name, min_players=variant.min_players, max_players=variant.max_players, n=n),
            "--players",
        )
    return n


def _set_lang(lang: Optional[str]) -> None:
    """Speak ``--lang`` (a usage error when there is no catalogue for it)."""
    if lang is None:
        return
    from ..i18n import set_language

    try:
        set_language(lang)
    except ValueError as err:
        _usage_error(str(err), "--lang")


def _cards_notation(cards: str) -> str:
    from ..cards import NOTATIONS

    if cards.lower() not in NOTATIONS:
        _usage_error(tr("--cards is {items}, not {cards!r}",
                        items=' or '.join(NOTATIONS), cards=cards), "--cards")
    return cards.lower()


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
    lang: LangOpt = None,
) -> None:
    """Rules engine and rules DSL for the Up and Down family of card games.

    Exit codes: 0 ok, 1 problems found, 2 usage error, 3 input cannot be loaded.
    """
    _set_lang(lang)


# --------------------------------------------------------------------------- entry point


def _argv_language(argv: list[str]) -> Optional[str]:
    """The ``--lang`` of a command line, wherever it is (the help is written before it is read)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def _unwrapped(text: str) -> str:
    """A help text with its paragraphs joined into long lines, for the terminal to wrap at its
    width (a line that starts a list item or is indented keeps its break)."""
    import re

    return "\n\n".join(re.sub(r"\n(?![ \t]|[-*•] )", " ", p) for p in text.split("\n\n"))


def unwrap_help(app: typer.Typer) -> None:
    """Let the terminal wrap every command's help (the docstrings' own line breaks would be
    wrapped again at 80 columns, raggedly)."""
    import inspect

    for cmd in app.registered_commands:
        text = cmd.help or (inspect.getdoc(cmd.callback) if cmd.callback else None)
        if text:
            cmd.help = _unwrapped(text)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            unwrap_help(group.typer_instance)


def main() -> None:
    """Run the ``updown`` command line (console script and ``python -m updown_dsl``)."""
    import sys

    from .. import i18n

    try:
        i18n.set_language(_argv_language(sys.argv[1:]))
    except ValueError:
        pass  # the option itself reports it
    if i18n.language() != "en":
        i18n.localize_help(app)
    unwrap_help(app)
    app()


def complete_variant(incomplete: str) -> list[str]:
    """Shell completion of a variant: the bundled names that start with what is typed (a file
    name is completed by the shell)."""
    from ..lang.loader import bundled_names

    return [n for n in bundled_names() if n.startswith(incomplete)]


VariantOpt = Annotated[Optional[str], typer.Option(
    "--variant", "-v", metavar="NAME|FILE", help="A bundled variant name or a variant file.",
    autocompletion=complete_variant)]
