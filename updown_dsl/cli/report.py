"""Diagnostics, summaries and JSON for the command line, as text (no printing here).

Every function returns a string or plain data, so ``updown variant validate``,
``updown check`` and tests can share them:

>>> from updown_dsl.diagnostics import Diagnostic
>>> d = Diagnostic("V003", "unknown key 'colour' in the file", path="x.yaml", line=2, col=1,
...                hint="did you mean 'players'?")
>>> print(render_diagnostic(d, "name: x\\ncolour: red\\n"))
x.yaml:2:1: error[V003] unknown key 'colour' in the file
  |
2 | colour: red
  | ^^^^^^
  = hint: did you mean 'players'?

This module imports nothing heavy at import time (no YAML, no Lark).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Protocol, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from ..diagnostics import Diagnostic

__all__ = [
    "check_json",
    "check_summary",
    "game_verdict",
    "diagnostic_header",
    "diagnostics_json",
    "load_sources",
    "read_source",
    "render_diagnostic",
    "render_diagnostics",
    "sort_diagnostics",
    "to_json",
    "validate_summary",
]

# --------------------------------------------------------------------------- JSON


def to_json(data: Any) -> str:
    """Machine output: ``json.dumps(indent=2, ensure_ascii=False)``; odd values become text."""
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def game_verdict(report: Any) -> str:
    """``clean``, ``errors`` or ``unreadable``: what a check says of one game."""
    if not report.readable:
        return "unreadable"
    return "errors" if report.errors else "clean"


def check_json(games: Sequence[tuple[str, int, Any]], files: Sequence[str]) -> dict[str, Any]:
    """``updown check --json``: a verdict for every game and file, and the summary.

    ``games`` are ``(file, game number in the file, report)``. The top level holds
    ``summary`` (counts as in the text summary), ``files`` (one verdict each: ``clean`` when
    every game is, ``errors``, or ``unreadable`` when a game or the file could not be read),
    ``games`` (one entry each, with its diagnostics) and ``diagnostics`` (all of them, in order).
    """
    per_game: list[dict[str, Any]] = []
    by_file: dict[str, list[str]] = {f: [] for f in files}
    for name, number, report in games:
        verdict = game_verdict(report)
        by_file.setdefault(name, []).append(verdict)
        severities = [str(d.severity) for d in report.diagnostics]
        per_game.append({
            "file": name, "game": number, "verdict": verdict,
            "level": report.level if report.readable else None,
            "finished": report.finished if report.readable else None,
            "errors": severities.count("error"), "warnings": severities.count("warning"),
            "notes": severities.count("note"),
            "diagnostics": [d.to_dict() for d in sort_diagnostics(report.diagnostics)],
        })
    files_out = []
    for name, verdicts in by_file.items():
        verdict = ("unreadable" if "unreadable" in verdicts or not verdicts else
                   "errors" if "errors" in verdicts else "clean")
        files_out.append({"file": name, "verdict": verdict, "games": sum(v != "unreadable" for v in verdicts),
                          "clean": verdicts.count("clean"), "with_errors": verdicts.count("errors"),
                          "unreadable": verdicts.count("unreadable")})
    readable = [g for g in per_game if g["verdict"] != "unreadable"]
    summary = {
        "verdict": ("unreadable" if any(f["verdict"] == "unreadable" for f in files_out) else
                    "errors" if any(g["verdict"] == "errors" for g in per_game) else "clean"),
        "files": len(files_out),
        "games": len(readable),
        "clean": sum(g["verdict"] == "clean" for g in per_game),
        "with_errors": sum(g["verdict"] == "errors" for g in per_game),
        "errors": sum(g["errors"] for g in readable),
        "unfinished": sum(1 for g in readable if not g["finished"]),
        "unreadable": sum(g["verdict"] == "unreadable" for g in per_game),
    }
    return {"summary": summary, "files": files_out, "games": per_game,
            "diagnostics": [d for g in per_game for d in g["diagnostics"]]}


def diagnostics_json(diags: Iterable[Diagnostic]) -> str:
    """A list of :meth:`Diagnostic.to_dict` objects as JSON (``[]`` when clean)."""
    return to_json([d.to_dict() for d in diags])


# --------------------------------------------------------------------------- diagnostics


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file order (path, line, column); ones without a place first, stable."""
    return sorted(
        diags,
        key=lambda d: (d.path is not None, d.path or "", d.line or 0, d.col or 0),
    )


def diagnostic_header(diag: Diagnostic) -> str:
    """``path:line:col: error[CODE] message`` (without the hint)."""
    where = []
    if diag.path is not None:
        where.append(str(diag.path))
    if diag.line is not None:
        where.append(str(diag.line))
        if diag.col is not None:
            where.append(str(diag.col))
    prefix = ":".join(where) + ": " if where else ""
    return f"{prefix}{diag.severity}[{diag.code}] {diag.message}"


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'|[^\s:,\[\]{}#]+')


def _caret_span(text: str, col0: int, end_col: int | None) -> int:
    """How many carets to draw from 0-based ``col0``: up to ``end_col`` or over one token."""
    if end_col is not None and end_col - 1 > col0:
        return min(end_col - 1, max(len(text), col0 + 1)) - col0
    m = _TOKEN.match(text, col0)
    if m and m.end() > col0:
        return m.end() - col0
    return 1


class LineSource(Protocol):
    """Where the lines of an input are looked up by number (see :mod:`updown_dsl.cli.sources`)."""

    def get(self, number: int) -> str | None:
        """Line ``number`` (1-based), or None when it cannot be quoted."""


def _source_line(source: str | Sequence[str] | LineSource, number: int) -> str | None:
    if isinstance(source, str):
        source = source.splitlines()
    if isinstance(source, Sequence):
        return source[number - 1] if number <= len(source) else None
    return source.get(number)


def render_diagnostic(diag: Diagnostic, source: str | Sequence[str] | LineSource | None = None) -> str:
    """One diagnostic in the compiler form, with the source line and a caret.

    ``source`` is the text of the file ``diag.path`` names, its lines, or a :class:`LineSource`
    (None: no snippet).
    The hint, if any, ends the block as ``  = hint: ...``. Everything that came from the
    input is shown through :func:`~updown_dsl.safetext.for_terminal` (a control character is
    a visible escape, the caret still under its place), and a long line as a bounded
    excerpt around the caret.
    """
    from ..safetext import excerpt, for_terminal

    lines = [for_terminal(diagnostic_header(diag), one_line=True)]
    gutter = 1
    if source is not None and diag.line is not None and diag.line >= 1:
        found = _source_line(source, diag.line)
        if found is not None:
            raw = found.rstrip("\r\n")
            col0 = min((diag.col or 1) - 1, len(raw))
            span = _caret_span(raw[col0:col0 + EXCERPT + 1], 0,
                               None if diag.end_col is None else diag.end_col - col0)
            span = min(span, EXCERPT // 2)
            text, at = excerpt(raw, col0, EXCERPT)
            head, mark, tail = text[:at], text[at:at + span], text[at + span:]
            head, mark, tail = (for_terminal(head, one_line=True), for_terminal(mark, one_line=True),
                                for_terminal(tail, one_line=True))
            num = str(diag.line)
            gutter = len(num)
            pad = " " * gutter
            lines.append(f"{pad} |")
            lines.append(f"{num} | {head}{mark}{tail}")
            if diag.col is not None and diag.col >= 1:
                # keep tabs so the caret lines up under tab-indented text
                lead = "".join("\t" if ch == "\t" else " " for ch in head)
                lines.append(f"{pad} | {lead}{'^' * max(1, len(mark))}")
    if diag.hint:
        lines.append(f"{' ' * (gutter + 1)}= hint: {for_terminal(diag.hint, one_line=True)}")
    return "\n".join(lines)


#: The most characters of a source line quoted under a diagnostic (a longer line is cut
#: around the caret, with an ellipsis where it is cut).
EXCERPT = 160


def read_source(path: str | None) -> str | None:
    """The text of a file a diagnostic names, or None if it cannot be read."""
    if not path or path.startswith("<"):
        return None
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def load_sources(diags: Iterable[Diagnostic],
                 reader: Callable[[str | None], str | None] = read_source) -> dict[str, str]:
    """Read each file named by ``diags`` once: path -> text (unreadable files left out)."""
    out: dict[str, str] = {}
    for d in diags:
        if d.path and d.path not in out and d.line is not None:
            text = reader(d.path)
            if text is not None:
                out[d.path] = text
    return out


def render_diagnostics(diags: Sequence[Diagnostic],
                       sources: Mapping[str, str | Sequence[str] | LineSource] | None = None) -> str:
    """Several diagnostics, in file order, separated by blank lines.

    ``sources`` maps a diagnostic's path to its file text (see :func:`load_sources`), its lines
    or a :class:`LineSource`. A text is split once, however many diagnostics quote it.
    """
    sources = {path: src.splitlines() if isinstance(src, str) else src for path, src in (sources or {}).items()}
    blocks = [render_diagnostic(d, sources.get(d.path) if d.path else None)
              for d in sort_diagnostics(diags)]
    return "\n\n".join(blocks)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def validate_summary(checked: int, valid: int, problems: Sequence[int], unreadable: int = 0) -> str:
    """``2 files checked: 1 valid, 1 with 3 problems`` (``problems``: count per bad file)."""
    from ..i18n import ntr, tr

    parts = [tr("{n} valid", n=valid)]
    if problems:
        total = sum(problems)
        parts.append(tr("{n} with {problems}", n=len(problems),
                        problems=ntr("{n} problem", "{n} problems", total)))
    if unreadable:
        parts.append(tr("{n} unreadable", n=unreadable))
    return tr("{files} checked: ", files=ntr("{n} file", "{n} files", checked)) + ", ".join(parts)



# --------------------------------------------------------------------------- check and sheet


def check_summary(files: int, clean: int, errors: Sequence[int], unfinished: int = 0,
                  unreadable: int = 0) -> str:
    """``3 files, 5 games: 4 clean, 1 with 2 errors; 1 unfinished`` (one line per ``check`` run).

    ``errors``: the number of errors of each game that has some. Unreadable inputs are not
    counted as games: ``1 file, 0 games; 1 unreadable``.
    """
    from ..i18n import ntr, tr

    games = clean + len(errors)
    text = ntr("{n} file", "{n} files", files) + ", " + ntr("{n} game", "{n} games", games)
    if games:
        parts = [tr("{n} clean", n=clean)]
        if errors:
            parts.append(tr("{n} with {errors}", n=len(errors), errors=ntr("{n} error", "{n} errors", sum(errors))))
        text += ": " + ", ".join(parts)
    if unfinished:
        text += "; " + tr("{n} unfinished", n=unfinished)
    if unreadable:
        text += "; " + tr("{n} unreadable", n=unreadable)
    return text
