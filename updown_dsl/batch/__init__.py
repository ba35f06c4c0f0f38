"""Many games at once: a process pool on one machine, a Dask cluster beyond it.

``pool`` runs a function over a stream of tasks with a bounded number in flight and gives the
results back in the order of the tasks, serially, in a :class:`~concurrent.futures.ProcessPoolExecutor`
or on a Dask ``distributed`` cluster; ``simulate`` plays the games of a simulation that way
(:func:`simulate_games`), ``check`` checks the games of archives that way
(:func:`check_games_jobs`), and ``balance`` measures how fair a variant is to each seat and
how its deals play over a simulation's games (:func:`~updown_dsl.batch.balance.balance_games`);
``analyse`` judges the deals of a recorded game that way (:func:`~updown_dsl.batch.analyse.analyse_game_jobs`). Results are those of the serial run, to the last bit: the same
games are played (every game is seeded by its number) and added up in the same order.

May import: every part of the library below the pages and the command line. Nothing imports it
but those two.
"""

from __future__ import annotations

from .check import check_games_jobs
from .pool import Runner, cpu_jobs
from .simulate import simulate_games

__all__ = ["Runner", "check_games_jobs", "cpu_jobs", "simulate_games"]
