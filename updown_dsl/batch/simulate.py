"""A simulation's games played in chunks wherever a :class:`~updown_dsl.batch.pool.Runner` runs them.

Game ``g`` is the game :func:`~updown_dsl.players.simulate.play_game` plays for ``g`` (its deals
and bots are seeded by its number), and the figures are added up in game order, so the summary
is the serial one whatever the number of processes.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from ..engine import Game
from ..lang.variant import Variant
from ..players.simulate import GameFacts, SimulationSummary, Tally, check_simulation, play_game
from .pool import Runner, load_spec, variant_spec

#: Games per task: small enough for an even spread and a lively progress bar, large enough
#: that sending a task costs little next to playing it.
CHUNK = 25


def record_names(kinds: Sequence[str]) -> list[str]:
    """The seat names of a simulated game's record: the bot kind's initial and the seat (``H1``)."""
    return [f"{kind[0].upper()}{s + 1}" for s, kind in enumerate(kinds)]


def _play_chunk(spec: str, players: int, seed: int | str, bots: tuple[str, ...], rotate: bool,
                start: int, stop: int, label: str | None, embed: bool = False,
                measure: Callable[[Game], Any] | None = None) -> list[tuple[GameFacts, str | None, Any]]:
    from ..records.record import game_transcript
    from ..records.transcript import format_transcript

    variant = load_spec(spec)
    out: list[tuple[GameFacts, str | None, Any]] = []
    for g in range(start, stop):
        game, facts = play_game(variant, players, g, seed=seed, bots=bots, rotate=rotate)
        text = None
        if label is not None:
            text = format_transcript(game_transcript(game, record_names(facts.kinds), level="full",
                                                     variant=label, extra=[("seed", f"{seed}:{g}")],
                                                     embed_rules=embed))
        out.append((facts, text, None if measure is None else measure(game)))
    return out


def simulate_games(
    variant: Variant,
    players: int | None,
    games: int,
    *,
    seed: int | str,
    bots: Sequence[str],
    rotate: bool = False,
    jobs: int = 1,
    scheduler: str | Any | None = None,
    record_label: str | None = None,
    on_game: Callable[[int, str | None], None] | None = None,
    embed_rules: bool = False,
    measure: Callable[[Game], Any] | None = None,
    on_measure: Callable[[int, Any], None] | None = None,
) -> SimulationSummary:
    """:func:`~updown_dsl.players.simulate.simulate` over ``jobs`` processes (``0``: one per
    core) or a Dask ``scheduler``, with the same summary.

    :param record_label: write each game's full record, naming the variant so; the text is
        given to ``on_game(g, text)``, called in game order in this process (else ``text`` is
        None). ``embed_rules`` writes the rules themselves in each record too.
    :param measure: a module-level function (so that a pool can send it) of each finished
        game, run where the game is played; its value goes to ``on_measure(g, value)``, in
        game order, in this process.
    :raises ValueError: as :func:`~updown_dsl.players.simulate.simulate`.
    """
    bots = tuple(bots)
    n = check_simulation(variant, players, games, bots)
    tally = Tally(variant.name, n, bots, seed, rotate)
    spec = variant_spec(variant)

    def tasks(size: int) -> Iterator[tuple[Any, ...]]:
        for start in range(0, games, size):
            yield (spec, n, seed, bots, rotate, start, min(games, start + size), record_label, embed_rules,
                   measure)

    g = 0
    with Runner(jobs, scheduler) as runner:
        # a few tasks per worker at least, so that a short run is spread too
        size = max(1, min(CHUNK, -(-games // (runner.workers * 4))))
        for chunk in runner.map(_play_chunk, tasks(size)):
            for facts, text, measured in chunk:
                tally.add(facts)
                if on_game is not None:
                    on_game(g, text)
                if on_measure is not None:
                    on_measure(g, measured)
                g += 1
    return tally.summary()
