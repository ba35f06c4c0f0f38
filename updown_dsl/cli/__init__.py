"""The command line: ``updown`` (Typer), over the library.

Each command only parses its arguments, calls the library and renders the result; Rich and
the library's heavier parts are imported inside the commands, so that start-up stays cheap.
May import: every other part of updown. Nothing imports it.

``common`` holds the Typer app, the exit codes and the error handling; each command group is a
module of its own (``variants``, ``score``, ``records``, ``view``, ``play``, ``keep``, ``share``, ``simulate``, ``analyse``, ``referee``) that adds its
commands to the app when imported; ``inputs`` reads the files named on the command line;
``report`` (diagnostics and summaries), ``rules`` (a variant's rules), ``sheet`` (the score
sheet), ``screen`` (the play screen), ``keepscreen`` (the score keeper's screen), ``foreign`` (a shared sheet's string and a CSV sheet read as records) and ``chart`` (terminal charts, the balance summary)
render results as text or plain data; ``safe`` makes every console, showing no input text raw,
and ``sources`` keeps the lines just read to quote under diagnostics.

``updown CMD ...`` imports only the module of ``CMD`` (Typer builds every registered command
before it runs one, and the other modules would be imported for nothing); ``updown --help``,
an unknown command and shell completion import them all, as does ``from updown_dsl.cli import app``.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Any, Optional, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import typer

#: The command modules, in the order of the commands in ``updown --help``.
MODULES = ("variants", "score", "records", "view", "play", "keep", "share", "simulate", "analyse", "referee")

#: Which module adds each top-level command (tests/test_cli.py checks it against the app).
COMMANDS = {
    "variants": "variants", "variant": "variants", "score": "score",
    "check": "records", "sheet": "records", "convert": "records",
    "view": "view", "play": "play", "keep": "keep", "share": "share", "simulate": "simulate",
    "analyse": "analyse", "referee": "referee",
}

#: The root options that take a value (the word after them is no command).
_VALUED_OPTIONS = ("--lang",)


def command_of(argv: Sequence[str]) -> Optional[str]:
    """The command a command line names (its first word that is no root option or its value),
    or None when it names none."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--":
            return None
        if arg in _VALUED_OPTIONS:
            skip = True
            continue
        if arg.startswith("-"):
            continue
        return arg
    return None


def load_commands(argv: Optional[Sequence[str]] = None) -> "typer.Typer":
    """The app with the commands of ``argv`` registered: only the module of the command it
    names when that is a known one (and no shell completion is asked for), else all."""
    wanted = COMMANDS.get(command_of(argv) or "") if argv is not None else None
    completing = any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)
    for name in MODULES if wanted is None or completing else (wanted,):
        importlib.import_module(f"{__name__}.{name}")
    from .common import app

    return app


def main() -> None:
    """Run the ``updown`` command line (console script and ``python -m updown_dsl``)."""
    load_commands(sys.argv[1:])
    from .common import main as run

    run()


def __getattr__(name: str) -> Any:
    if name == "app":  # every command registered, in the order of the help
        return load_commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["COMMANDS", "MODULES", "app", "command_of", "load_commands", "main"]
