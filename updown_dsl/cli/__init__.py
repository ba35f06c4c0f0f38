"""The command line: ``updown`` (Typer), over the library.

Each command only parses its arguments, calls the library and renders the result; Rich and
the library's heavier parts are imported inside the commands, so that start-up stays cheap.
This package may import every other part of updown; nothing imports it.
"""

from .commands import app, main

__all__ = ["app", "main"]
