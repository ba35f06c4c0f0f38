"""The games of an archive checked in chunks wherever a :class:`~updown_dsl.batch.pool.Runner` runs them.

The archive is read here, one game at a time, and split by game (not by file); each task is a
few games' lines. The reports come back in the order of the games, as the serial
:func:`~updown_dsl.records.checker.check_lines` gives them, without the replayed game (it
stays with the worker): their diagnostics, readability, level and whether the game finished.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..diagnostics import Diagnostic
from ..records.archive import GameLines, split_games
from ..records.report import CheckReport
from .pool import Runner

#: Games per task.
CHUNK = 16


def _check_chunk(path: str | None, games: list[GameLines | Diagnostic],
                 variant_path: Sequence[str]) -> list[CheckReport]:
    from ..records.checker import check_split

    out = []
    for report in check_split(games, path, variant_path=variant_path):
        out.append(CheckReport(report.path, report.diagnostics, report.readable, report.level, report.finished))
    return out


def check_games_jobs(lines: Iterable[str | bytes], path: str | Path | None = None, *,
                     jobs: int = 1, scheduler: str | Any | None = None,
                     variant_path: Sequence[str | Path] = ()) -> Iterator[CheckReport]:
    """:func:`~updown_dsl.records.checker.check_lines` over ``jobs`` processes (``0``: one per
    core) or a Dask ``scheduler``: the same reports in the same order (``report.game`` and
    ``report.transcript`` are not kept).

    On a cluster, the workers read the variant files that records name by the same path:
    bundled variants work anywhere, a variant file needs a folder the workers share.
    """
    name = str(path) if path is not None else None
    folders = [str(Path(f).resolve()) for f in variant_path]

    def tasks() -> Iterator[tuple[Any, ...]]:
        chunk: list[GameLines | Diagnostic] = []
        for game in split_games(lines, name):
            chunk.append(game)
            if len(chunk) >= CHUNK:
                yield (name, chunk, folders)
                chunk = []
        if chunk:
            yield (name, chunk, folders)

    with Runner(jobs, scheduler) as runner:
        for reports in runner.map(_check_chunk, tasks()):
            yield from reports
