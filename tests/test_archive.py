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
