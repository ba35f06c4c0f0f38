"""Check recorded games: the entry points.

They read records (one game as text, a file, a stream of many in an archive or the JSON
form), find and load each record's variant (once for a whole run), and check each record
with :class:`~updown_dsl.records.audit.Audit`, which replays its lines through the
engine. Every record takes the same path, whatever its form.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator, Sequence

from ..i18n import tr
from ..diagnostics import Diagnostic
from ..engine import Game
from .audit import Audit
from .report import CheckReport, Headers, prepare_game, transcript_variant
from .archive import GameLines, Peeked, split_games
from .jsonform import read_json_bytes
from .model import Transcript
from .reader import parse_transcript, read_game


def check_text(text: str | bytes, path: str | None = None, *, variant_path: Sequence[str | Path] = ()) -> CheckReport:
    """Read and check a transcript of one game given as text.

    ``variant_path``: folders, besides the record's own, where the variant file it names may
    be (every entry point takes it; see :func:`~updown_dsl.records.report.transcript_variant`).
    """
    t, diags = parse_transcript(text, path)
    if t is None:
        return CheckReport(path, tuple(diags), readable=False)
    return check_transcript(t, diags, variant_path=variant_path)


def check_file(path: str | Path, *, variant_path: Sequence[str | Path] = ()) -> CheckReport:
    """Read and check a one-game transcript file (text or the JSON form).

    For archives of many games use :func:`check_games`.
    """
    return next(check_games(path, variant_path=variant_path))


def check_games(path: str | Path, *, variant_path: Sequence[str | Path] = ()) -> Iterator[CheckReport]:
    """Check every game of a file (an archive may hold many), one at a time.

    The JSON form holds one game (or a list of games). A file that cannot be read
    gives one unreadable report.
    """
    name = str(path)
    try:
        handle = open(path, "rb")
    except OSError as exc:
        yield CheckReport(name, (Diagnostic("T001", tr("cannot read the file: {strerror}",
                                                       strerror=exc.strerror), path=name),),
                          readable=False)
        return
    with handle:
        stream = Peeked(handle, 64)  # no seek back: a FIFO or a pipe is read like a file
        if stream.head.lstrip()[:1] in (b"{", b"["):
            yield from _check_json(read_json_bytes(stream), name, variant_path)
            return
        yield from check_lines(stream, name, variant_path=variant_path)


def check_lines(lines: Iterable[str | bytes], path: str | None = None, *,
                variant_path: Sequence[str | Path] = ()) -> Iterator[CheckReport]:
    """Check the games of an archive given as lines (text or bytes), one at a time.

    The variants the records name are found and loaded once for the whole run.
    """
    yield from check_split(split_games(lines, path), path, variant_path=variant_path)


def check_split(games: Iterable[GameLines | Diagnostic], path: str | None = None, *,
                variant_path: Sequence[str | Path] = ()) -> Iterator[CheckReport]:
    """Check the games of an archive already split by
    :func:`~updown_dsl.records.archive.split_games` (a diagnostic: a game that could not be
    split off), one at a time, as :func:`check_lines` does."""
    headers = Headers(variant_path)
    for game in games:
        if isinstance(game, Diagnostic):
            yield CheckReport(path, (game,), readable=False)
            continue
        t, diags = read_game(game.lines, game.first_line, path)
        yield _check(t, diags, headers)


def _check_json(data: bytes, name: str, variant_path: Sequence[str | Path]) -> Iterator[CheckReport]:
    from .jsonform import load_json, transcript_from_json

    obj, problem = load_json(data, name)
    if problem is not None:
        yield CheckReport(name, (problem,), readable=False)
        return
    for item in obj if isinstance(obj, list) else [obj]:
        t, diags = transcript_from_json(item, name)
        if t is None:
            yield CheckReport(name, tuple(diags), readable=False)
        else:
            yield check_transcript(t, diags, variant_path=variant_path)


def check_transcript(t: Transcript, reader_diags: Sequence[Diagnostic] = (), *,
                     variant_path: Sequence[str | Path] = ()) -> CheckReport:
    """Check a transcript already read (``reader_diags``: what the reader reported)."""
    return _check(t, reader_diags, Headers(variant_path))


def _check(t: Transcript, reader_diags: Sequence[Diagnostic], headers: Headers) -> CheckReport:
    diags = list(reader_diags)
    game = headers.prepare(t, diags)
    if game is None:
        return CheckReport(t.path, tuple(diags), readable=False, transcript=t)
    def start() -> Game:  # (the same game again, to walk the record again up to a deal)
        again = headers.prepare(t, [])
        assert again is not None
        return again

    audit = Audit(t, game, diags, start=start)
    audit.run()
    game = audit.game  # (the game as checked: a deal checked again under another turned card is its own)
    return CheckReport(t.path, tuple(diags), readable=True, level=t.level, finished=game.is_over,
                       game=game, transcript=t)


__all__ = ["Audit", "CheckReport", "check_file", "check_games", "check_lines", "check_split", "check_text", "check_transcript",
           "prepare_game", "transcript_variant"]
