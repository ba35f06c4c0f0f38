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

The decision is the root's most visited action. The play-out is random by default (cheap,
and unbiased by a policy's blind spots): random legal actions, and in the play a random legal
card, a wild card with a random one of its declarations (:func:`random_playout`).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..actions import Action, Play
from ..engine import Phase

if TYPE_CHECKING:
    from ..cards import Card
    from ..engine import Game

#: An edge: [visits, total reward of the player who acts at its parent, availability, children].
Edge = list[Any]

_OVER, _DEAL, _PLAY = Phase.OVER, Phase.DEAL, Phase.PLAY


def random_playout(game: Game, rng: random.Random) -> None:
    """Play uniformly random legal actions to the end of the current deal; in the play, a
    uniformly random legal card (a wild card with a random one of its declarations)."""
    index = game.deal_index
    rnd = rng.random
    legal_actions, apply = game.legal_actions, game.apply
    while game.deal_index == index and game.phase is not _OVER:
        phase = game.phase
        if phase is _DEAL:
            game.deal_random()
            continue
        if phase is _PLAY:
            if not game.play_out_random(rnd):
                game.play_random_card(rnd)
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
    :param depth: at most this many choices a walk makes by UCB (None: no limit); ``1`` is
        UCB among the root's actions alone, each played out at random.
    """

    __slots__ = ("root", "explore", "playout", "depth", "lo", "hi", "iterations")

    def __init__(self, explore: float = 0.7,
                 playout: Callable[[Game, random.Random], None] | None = None,
                 depth: int | None = None) -> None:
        self.root: dict[Action, Edge] = {}
        self.explore = explore
        self.playout = playout or random_playout
        self.depth = depth
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
        rnd = rng.random
        depth = self.depth or -1
        while game.deal_index == index and game.phase is not _OVER:
            if game.phase is _DEAL or not depth:
                break
            depth -= 1
            legal = game.legal_actions()
            seat = game.to_act
            last = legal[-1]  # (declared plays come last: only then group the wild cards)
            groups = _wild_groups(legal) if type(last) is Play and last.declare is not None else None
            edge, key, new = _choose(node, legal if groups is None else _options(legal, groups), c, rnd)
            path.append((edge, seat))
            if groups is not None and type(key) is not Play:  # a wild card: now its declaration
                edge, key, deeper = _choose(edge[3], groups[key], c, rnd)  # type: ignore[index]
                path.append((edge, seat))
                new = new or deeper
            game.apply(key)  # type: ignore[arg-type]
            if new:
                break
            node = edge[3]
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
        """The most visited legal action at the root (ties: the better mean, then ``prior``); a
        wild card's plays are one choice, then its most visited declaration."""
        groups = _wild_groups(legal)
        options = legal if groups is None else _options(legal, groups)
        card = getattr(prior, "card", None)

        root = self.root
        choice = max(options, key=lambda a: _rank(root, a, a == prior or (type(a) is not Play and a == card)))
        if groups is None or type(choice) is Play:
            return choice  # type: ignore[return-value]
        inner = root[choice][3] if choice in root else {}
        return max(groups[choice], key=lambda a: _rank(inner, a, a == prior))  # type: ignore[index]


    def stats(self, legal: Sequence[Action]) -> list[tuple[int, float]]:
        """(visits, mean reward of the seat at the root) of each legal action at the root (a
        wild card's play: its declaration's edge under the card); ``nan`` for one never tried."""
        root: dict[Any, Edge] = self.root  # (a wild card's edge is keyed by its card)
        out = []
        for a in legal:
            e = root.get(a)
            if e is None and type(a) is Play and a.declare is not None and a.card in root:
                e = root[a.card][3].get(a)
            out.append((e[0], e[1] / e[0]) if e is not None and e[0] else (0, math.nan))
        return out


def _rank(node: dict, a: object, hit: bool) -> tuple[int, float, bool]:  # type: ignore[type-arg]
    """Visits, then mean, then ``hit`` (the prior), of ``a``'s edge at ``node``."""
    e = node.get(a)
    if e is None or not e[0]:
        return (0, -math.inf, hit)
    return (e[0], e[1] / e[0], hit)


def _wild_groups(legal: Sequence[Action]) -> dict[Card, list[Action]] | None:
    """A wild card's plays by card, when the legal set has declarations (they come last)."""
    last = legal[-1]
    if type(last) is not Play or last.declare is None:
        return None
    groups: dict[Card, list[Action]] = {}
    for a in legal:
        if type(a) is Play and a.declare is not None:
            groups.setdefault(a.card, [])
    for a in legal:
        g = groups.get(a.card) if type(a) is Play else None
        if g is not None:
            g.append(a)
    return groups


def _options(legal: Sequence[Action], groups: dict[Card, list[Action]]) -> list[object]:
    """The choices at a node with wild cards: each other play, and each wild card once."""
    out: list[object] = [a for a in legal if type(a) is not Play or a.card not in groups]
    out.extend(groups)
    return out


def _choose(node: dict, options: Sequence[object], c: float,  # type: ignore[type-arg]
            rnd: Callable[[], float]) -> tuple[Edge, object, bool]:
    """The edge UCB takes among ``options`` at ``node``, its key, and whether it is new (an
    option never tried is taken first, at random among them); every option's availability
    counts one more chance."""
    log, sqrt = math.log, math.sqrt
    fresh = []
    best: Edge | None = None
    best_u = -math.inf
    chosen: object = None
    for a in options:
        edge = node.get(a)
        if edge is None:
            fresh.append(a)
            continue
        edge[2] += 1
        if not fresh:
            visits = edge[0]
            u = edge[1] / visits + c * sqrt(log(edge[2]) / visits)
            if u > best_u:
                best, best_u, chosen = edge, u, a
    if fresh:
        a = fresh[int(rnd() * len(fresh))] if len(fresh) > 1 else fresh[0]
        edge = node[a] = [0, 0.0, 1, {}]
        return edge, a, True
    assert best is not None
    return best, chosen, False
