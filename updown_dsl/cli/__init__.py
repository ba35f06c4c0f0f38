"""The command line: ``updown`` (Typer), over the library.

Each command only parses its arguments, calls the library and renders the result; Rich and
the library's heavier parts are imported inside the commands, so that start-up stays cheap.
May import: every other part of updown. Nothing imports it.

``common`` holds the Typer app, the exit codes and the error handling; each command group is a
module of its own (``variants``, ``score``, ``records``, ``view``, ``play``, ``keep``, ``share``, ``simulate``) that adds its
commands to the app when imported; ``inputs`` reads the files named on the command line;
``report`` (diagnostics and summaries), ``rules`` (a variant's rules), ``sheet`` (the score
sheet), ``screen`` (the play screen), ``keepscreen`` (the score keeper's screen), ``foreign`` (a shared sheet's string and a CSV sheet read as records) and ``chart`` (terminal charts, the balance summary)
render results as text or plain data; ``safe`` makes every console, showing no input text raw,
and ``sources`` keeps the lines just read to quote under diagnostics.
"""

# The order of these imports is the order of the commands in ``updown --help``.
from . import variants, score, records, view, play, keep, share, simulate  # noqa: F401  (isort: skip)
from .common import app, main

__all__ = ["app", "main"]
