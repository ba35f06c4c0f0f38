"""Consoles that show no input text raw: the terminal side of :mod:`updown_dsl.safetext`.

Every Rich console of the command line is made here. A render hook passes each printed
renderable's text through :func:`~updown_dsl.safetext.for_terminal` after Rich has laid it
out, so a control character in a record line, a player's name, a file name or a variant's
description is shown as a visible escape (``\\x1b[2J``) and can never clear the screen, move
the cursor or print a forged verdict. Rich's own styles and cursor moves (``Live``) are
segments of their own and pass unchanged. Plain text written to standard output (``convert``,
``view``, ``variant explain``) goes through :func:`echo`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..safetext import UNSAFE, for_terminal

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderResult
    from rich.measure import Measurement


class _Escaped:
    """A renderable shown with its text's control characters as visible escapes."""

    def __init__(self, inner: "ConsoleRenderable") -> None:
        self.inner = inner

    def __rich_console__(self, console: "Console", options: "ConsoleOptions") -> "RenderResult":
        from rich.segment import Segment

        for seg in console.render(self.inner, options):
            if seg.control or UNSAFE.search(seg.text) is None:
                yield seg
            else:
                yield Segment(for_terminal(seg.text), seg.style)

    def __rich_measure__(self, console: "Console", options: "ConsoleOptions") -> "Measurement":
        from rich.measure import Measurement

        return Measurement.get(console, options, self.inner)


class _EscapeHook:
    """The render hook: every renderable printed is wrapped in :class:`_Escaped`."""

    def process_renderables(self, renderables: "list[ConsoleRenderable]") -> "list[ConsoleRenderable]":
        return [r if isinstance(r, _Escaped) else _Escaped(r) for r in renderables]


def safe_console(**kwargs: Any) -> "Console":
    """A Rich console (``Console(**kwargs)``) that shows no input text raw, and reads no Rich
    markup in what it prints unless told to (``markup=True``): a name such as ``[/b]`` in a
    string or a table cell is text, not a tag (it was a ``MarkupError``, exit 4). Styles are
    given as :class:`rich.text.Text` spans."""
    from rich.console import Console

    kwargs.setdefault("markup", False)
    console = Console(**kwargs)
    console.push_render_hook(_EscapeHook())  # type: ignore[arg-type]
    return console


def stream_is_terminal(err: bool = False) -> bool:
    """Whether standard output (``err``: standard error) is a terminal."""
    import sys

    stream = sys.stderr if err else sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def echo(text: str, *, nl: bool = True, err: bool = False) -> None:
    """Write ``text`` to standard output (``err``: standard error): as it is to a file or a
    pipe (the bytes are the data), with control characters as visible escapes to a terminal."""
    import typer

    if stream_is_terminal(err):
        text = for_terminal(text)
    typer.echo(text, nl=nl, err=err)
