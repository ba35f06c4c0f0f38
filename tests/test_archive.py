"""Archives of many games are checked as a stream: memory does not grow with the games."""

from __future__ import annotations

import gc
import random
import tracemalloc
from pathlib import Path

import pytest

import updown_dsl as ud
from updown_dsl.records.checker import check_games
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import format_transcript


def _archive(path: Path, games: int) -> None:
    variant = ud.load_variant("russian")
    with path.open("w", encoding="utf-8") as out:
        for seed in range(games):
            game = ud.Game(variant, 4, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
            out.write(format_transcript(game_transcript(game, level="full", variant="russian")) + "\n")


@pytest.mark.slow
def test_memory_does_not_grow_with_the_number_of_games(tmp_path: Path) -> None:
    path = tmp_path / "archive.log"
    _archive(path, 60)
    tracemalloc.start()
    try:
        seen = 0
        after_10 = 0
        for report in check_games(path):
            assert report.clean, [str(d) for d in report.diagnostics]
            seen += 1
            if seen == 10:
                gc.collect()
                after_10 = tracemalloc.get_traced_memory()[0]
        gc.collect()
        at_end = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert seen == 60
    # One game's record and replay is a few hundred kilobytes: fifty more games kept alive
    # would be over ten megabytes. Allow for the last game or two and cache noise.
    assert at_end - after_10 < 2_000_000, (after_10, at_end)


# --------------------------------------------------------------------------- hostile streams


class _Endless:
    """A stream that never ends: ``unit`` over and over (``yes``, ``/dev/zero``, a line with no end)."""

    def __init__(self, unit: bytes, head: bytes = b"") -> None:
        self.unit, self.head, self.given = unit, head, 0

    def read(self, size: int = -1) -> bytes:
        assert size > 0, "an endless stream is never read whole"
        out, self.head = self.head, b""
        out += self.unit * (size // len(self.unit) + 1)
        self.given += size
        return out[:size]


def _codes(stream: object) -> list[list[str]]:
    from updown_dsl.records.checker import check_lines

    return [[d.code for d in r.diagnostics] for r in check_lines(stream, "x.log")]


def test_a_stream_of_zeros_ends_at_once_as_binary() -> None:
    stream = _Endless(b"\0")
    assert _codes(stream) == [["T001"]]
    assert stream.given <= 2 << 20


def test_a_line_with_no_end_is_cut_while_read() -> None:
    header = b"variant: odessa\nplayers: a b c d\n\n"
    stream = _Endless(b"a", head=header)
    reports = _codes(stream)
    assert reports[-1] == ["T015"] and len(reports) == 2  # the game before it, then the cut line
    assert stream.given <= 2 << 20


def test_an_endless_game_is_cut_at_the_limit() -> None:
    from updown_dsl.records.archive import MAX_GAME_LINES

    stream = _Endless(b"y\n")
    reports = _codes(stream)
    assert reports[-1] == ["T019"]
    assert reports[0][-1] == "T017"  # the lines before the cut are read: a report keeps 100 problems
    assert stream.given <= 2 * MAX_GAME_LINES + (2 << 20)


def test_the_game_before_a_cut_is_checked_as_usual(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    _archive(path, 1)
    text = path.read_bytes()
    cut = text + b"variant: russian\n" + b"x" * (3 << 20)  # a second game, a line of 3 MB
    reports = list(check_games(_write(tmp_path / "cut.log", cut)))
    assert reports[0].clean and [d.code for d in reports[-1].diagnostics] == ["T015"]
    assert reports[-1].diagnostics[0].line == text.count(b"\n") + 2


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_peeked_reads_the_head_again_without_seeking() -> None:
    import io

    from updown_dsl.records.archive import Peeked

    class NoSeek(io.BytesIO):
        def seek(self, *args: object) -> int:  # a pipe
            raise io.UnsupportedOperation("not seekable")

    p = Peeked(NoSeek(b"0123456789"), 4)
    assert p.head == b"0123"
    assert p.read(2) == b"01" and p.read(5) == b"23456" and p.read(-1) == b"789" and p.read(3) == b""


def test_check_games_reads_a_fifo(tmp_path: Path) -> None:
    import os
    import threading

    path = tmp_path / "a.log"
    _archive(path, 2)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(path.read_bytes()))
    writer.start()
    reports = list(check_games(fifo))
    writer.join()
    assert len(reports) == 2 and all(r.clean for r in reports)
