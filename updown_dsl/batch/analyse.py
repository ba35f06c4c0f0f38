"""A game's analysis spread over deals wherever a :class:`~updown_dsl.batch.pool.Runner` runs them.

The record is replayed here once (cheap: no search) to find the deals that can be analysed; each
task is one deal's place, and a worker replays the game up to it and judges its decisions
(:func:`~updown_dsl.players.analysis.analyse_results`). Every decision's guesses are seeded by
the seed, the deal and the decision, so the analysis is the same in one process or many.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ..players.analysis import DealAnalysis, GameAnalysis, Settings, Stop, analyse_results, assemble, positions
from .pool import Runner, cpu_jobs, load_spec, variant_spec

if TYPE_CHECKING:
    from ..engine import Game
    from ..engine.scoring import DealResult


def _analyse_deal(spec: str, players: int, results: tuple[DealResult, ...], first_dealer: int | None,
                  index: int, settings: Settings) -> list[DealAnalysis]:
    return analyse_results(load_spec(spec), players, results, settings, [index], first_dealer)[0]


def analyse_game_jobs(game: Game, settings: Settings | None = None, *, jobs: int = 1,
                      scheduler: str | Any | None = None) -> GameAnalysis:
    """:func:`~updown_dsl.players.analysis.analyse_game` over ``jobs`` processes (``0``: one per
    core) or a Dask ``scheduler``, one deal per task: the same analysis."""
    settings = settings or Settings()
    results = tuple(game.results)
    first = results[0].dealer if results else None
    indices: list[int] = []
    stop: Stop | None = None
    try:
        for deal in positions(game.variant, game.players, results, first, set()):
            indices.append(deal.index)
    except Stop as found:
        stop = found
    if scheduler is None and cpu_jobs(jobs) == 1:  # here: one replay for every deal
        here, stopped = analyse_results(game.variant, game.players, results, settings, None, first)
        return assemble(game.variant.name, game.players, settings, here, stopped)
    spec = variant_spec(game.variant)

    def tasks() -> Iterator[tuple[Any, ...]]:
        for index in indices:
            yield (spec, game.players, results, first, index, settings)

    deals: list[DealAnalysis] = []
    with Runner(jobs, scheduler) as runner:
        for done in runner.map(_analyse_deal, tasks()):
            deals.extend(done)
    return assemble(game.variant.name, game.players, settings, deals, stop)
