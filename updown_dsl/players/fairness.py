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
from typing import Callable

from ..actions import Action
from ..engine import Game, IllegalAction
from ..engine.view import SeatView
from ..engine.worlds import Worlds
from .sampling import Sampler

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
