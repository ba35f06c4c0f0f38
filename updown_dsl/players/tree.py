"""Information-set Monte Carlo tree search (single observer) over guessed deals.

Each iteration guesses the unseen cards (:class:`~.sampling.Sampler`), rebuilds the position
in that guess (:class:`~updown_dsl.engine.worlds.Worlds`) and walks one tree of the actions
seen from the searching seat, the same tree for every guess: the actions taken since the
decision are public (bids, calls, trump, the cards on the table), so a node stands for what
this seat has seen, whoever acts there. At a node the player to act picks among the actions
legal *in this guess* by UCB, counting a child's chances only in the guesses where it was
legal (availability), which keeps a card that is legal in few guesses from looking rare.
A new node is added per iteration; from it the deal is played out by a roll-out policy, and
every node on the way is credited with the deal's score of the seat that acted there, so
the other seats play for their own scores, not against this one.

The decision is the root's most visited action. The roll-out plays uniformly random legal
actions by default (cheap, and unbiased by a policy's blind spots), or the fast policy of
:mod:`.rollout`.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Callable

from ..actions import Action
from ..engine import Phase

if TYPE_CHECKING:
    from ..engine import Game

#: An edge: [visits, total reward of the player who acts at its parent, availability, children].
Edge = list

_OVER, _DEAL, _PLAY = Phase.OVER, Phase.DEAL, Phase.PLAY


def random_playout(game: Game, rng: random.Random) -> None:
    """Play uniformly random legal actions to the end of the current deal."""
    index = game.deal_index
    rnd = rng.random
    legal_actions, apply = game.legal_actions, game.apply
    while game.deal_index == index and game.phase is not _OVER:
        phase = game.phase
        if phase is _DEAL:
            game.deal_random()
            continue
        if phase is _PLAY and game.play_out_random(rnd):
            continue
        legal = legal_actions()
        apply(legal[int(rnd() * len(legal))])


def deal_points(game: Game, start: int) -> list[int] | None:
    """Each seat's points for the deal scored after result ``start`` (None: not scored)."""
    for r in game.results[start:]:
        if r.event == "deal":
            return [s.points for s in r.seats]
    return None


class Tree:
    """One search: the root's edges and the statistics of the walk (see the module).

    :param explore: the UCB constant, in units of the spread of the scores seen so far.
    :param playout: plays a game to the end of its deal (default :func:`random_playout`).
    """

    __slots__ = ("root", "explore", "playout", "lo", "hi", "iterations")

    def __init__(self, explore: float = 0.7,
                 playout: Callable[[Game, random.Random], None] | None = None) -> None:
        self.root: dict[Action, Edge] = {}
        self.explore = explore
        self.playout = playout or random_playout
        self.lo = math.inf
        self.hi = -math.inf
        self.iterations = 0

    def iterate(self, game: Game, rng: random.Random) -> None:
        """One walk from the root in ``game`` (a guess at the decision; it is played on)."""
        index = game.deal_index
        start = len(game.results)
        node = self.root
        path: list[tuple[Edge, int]] = []
        spread = self.hi - self.lo
        c = self.explore * (spread if spread > 0 else 1.0)
        log, sqrt = math.log, math.sqrt
        while game.deal_index == index and game.phase is not _OVER:
            if game.phase is _DEAL:
                break
            legal = game.legal_actions()
            seat = game.to_act
            fresh = []
            best = None
            best_u = -math.inf
            for a in legal:
                edge = node.get(a)
                if edge is None:
                    fresh.append(a)
                    continue
                edge[2] += 1
                if not fresh:
                    visits = edge[0]
                    u = edge[1] / visits + c * sqrt(log(edge[2]) / visits)
                    if u > best_u:
                        best, best_u = edge, u
                        chosen = a
            if fresh:
                a = fresh[int(rng.random() * len(fresh))] if len(fresh) > 1 else fresh[0]
                edge = node[a] = [0, 0.0, 1, {}]
                path.append((edge, seat))
                game.apply(a)
                break
            assert best is not None
            path.append((best, seat))
            game.apply(chosen)
            node = best[3]
        if game.deal_index == index and game.phase is not _OVER:
            self.playout(game, rng)
        points = deal_points(game, start)
        if points is None:  # pragma: no cover - a deal always ends in a score
            return
        lo, hi = min(points), max(points)
        if lo < self.lo:
            self.lo = lo
        if hi > self.hi:
            self.hi = hi
        for edge, seat in path:
            edge[0] += 1
            edge[1] += points[seat]
        self.iterations += 1

    def best(self, legal: tuple[Action, ...], prior: Action | None = None) -> Action:
        """The most visited legal action at the root (ties: the better mean, then ``prior``)."""
        def key(a: Action) -> tuple[int, float, bool]:
            e = self.root.get(a)
            if e is None or not e[0]:
                return (0, -math.inf, a == prior)
            return (e[0], e[1] / e[0], a == prior)
        return max(legal, key=key)
