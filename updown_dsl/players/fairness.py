"""Fairness: a bot's decision depends on its seat's view only.

:func:`twin_view` deals the cards a seat cannot see again, consistently with its view (the
same hand, the same cards played, the voids shown: :class:`~.sampling.Sampler`), rebuilds
the position in that other world (:class:`~updown_dsl.engine.worlds.Worlds`) and returns the
seat's view there: to the seat the two positions look the same. :func:`same_decision` asks a
bot, seeded alike for each, to act on both: a bot that reads only its view decides alike.
Pure: no I/O; guesses draw from the generator given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Callable, Sequence

from ..actions import Action
from ..engine import Game, IllegalAction
from ..engine.view import SeatView
from ..engine.worlds import Worlds
from .bots import make_bot
from .sampling import Sampler

if TYPE_CHECKING:
    from ..lang.variant import Variant

#: Guesses tried for a world that fits the plays seen before giving up on a twin.
_TRIES = 20


def twin_view(view: SeatView, rng: random.Random) -> tuple[SeatView, Game] | None:
    """The seat's view in another world that fits ``view``, and that world (a game whose other
    hands were dealt again from ``rng``); None when no guess fits the plays seen."""
    sampler = Sampler(view)
    worlds = Worlds(view)
    for _ in range(_TRIES):
        hands = sampler.sample(rng)
        try:
            game = worlds.world(hands, view.bids, random.Random(rng.random()))
        except IllegalAction:
            continue
        return game.view(view.seat), game
    return None


def public_fields(view: SeatView) -> tuple[object, ...]:
    """What the seat sees (:attr:`SeatView.FIELDS` and the deal's names), for comparing views."""
    return (*(getattr(view, f) for f in view.FIELDS), dict(view.deal_env))


def same_decision(make: Callable[[random.Random], object], view: SeatView, twin: SeatView,
                  seed: int) -> tuple[Action, Action]:
    """The actions of two bots made alike (``make(random.Random(seed))``) on ``view`` and on
    ``twin``."""
    a = make(random.Random(seed)).act(view)  # type: ignore[attr-defined]
    b = make(random.Random(seed)).act(twin)  # type: ignore[attr-defined]
    return a, b


@dataclass(frozen=True)
class FairnessCount:
    """What :func:`compare` found: decisions asked twice, those that differed (with examples),
    twins whose unseen cards moved, and positions left out because the rebuilt view was not the
    same (see :func:`compare`)."""

    decisions: int
    differences: int
    moved: int
    left_out: int
    examples: tuple[tuple[str, str, str, str], ...] = ()


def compare(variant: Variant, kinds: Sequence[str], games: int, *, seed: int = 1, share: float = 0.3,
            players: int = 4, limit: int | None = None) -> FairnessCount:
    """Plays ``games`` games of ``variant`` between heuristic bots; at a share ``share`` of the
    decisions with a choice, asks each bot of ``kinds`` (seeded alike per decision) to act on the
    seat's view and on its :func:`twin_view`, and counts the actions that differ (stopping after
    ``limit`` decisions when given). A twin whose view differs from the seat's is left out: the
    chooser of trump sees its first cards dealt, which the rebuilt deal orders otherwise, and
    the legal bids after hidden bids read their total (the rules' hook), which a guess changes."""
    decisions = differences = moved = left_out = 0
    examples: list[tuple[str, str, str, str]] = []
    for g in range(games):
        game = Game(variant, players, rng=random.Random(f"{seed}:{g}:deal"))
        bots = [make_bot("heuristic", random.Random(f"{seed}:{g}:{s}")) for s in range(players)]
        rng = random.Random(f"{seed}:{g}:twins")
        while not game.is_over and (limit is None or decisions < limit):
            seat = game.to_act
            view = game.view(seat)
            if len(view.legal) > 1 and rng.random() < share:
                got = twin_view(view, rng)
                if got is None or public_fields(got[0]) != public_fields(view):
                    left_out += 1
                else:
                    twin, world = got
                    moved += world.hands != game.hands
                    for kind in kinds:
                        a, b = same_decision(partial(make_bot, kind), view, twin, rng.randrange(1 << 30))
                        decisions += 1
                        if a != b:
                            differences += 1
                            if len(examples) < 5:
                                examples.append((kind, view.phase.value, str(a), str(b)))
            game.apply(bots[seat].act(view))
        if limit is not None and decisions >= limit:
            break
    return FairnessCount(decisions, differences, moved, left_out, tuple(examples))
