"""The search bot: look-ahead over guessed deals.

For a decision it guesses the unseen cards many times (:class:`~.sampling.Sampler`,
consistent with the voids shown, the cards seen and the bids made), rebuilds the position in
each guess (:class:`~updown_dsl.engine.worlds.Worlds`) and searches on the kernel:

* ``method="tree"`` (the default): information-set Monte Carlo tree search (:mod:`.tree`), one
  tree of what this seat sees for every guess, every seat choosing for its own score, the deal
  played out from each new node by the roll-out policy of :mod:`.rollout` (every seat playing
  for its bid, seeing every hand of the guess; ``playout="random"``: random legal actions);
  the root's most visited action wins.
* ``method="flat"``: perfect-information Monte Carlo, every legal action played out in every
  guess by the roll-out policy of :mod:`.rollout`; the best mean score wins.

Cards, the declarations of wild cards, trump naming and bids are all searched alike (with
``search_bids=False`` the bids are the heuristic's); an auction's calls are the heuristic's.

It reads only its seat's view. Levels set the work per decision; an optional budget of CPU
seconds stops early (then moves depend on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

from ..actions import Action
from ..engine import IllegalAction, Phase
from ..engine.tables import SUIT_ID
from ..engine.view import SeatView
from ..engine.worlds import Worlds
from .dominance import keeping_chances
from .knowledge import Knowledge
from .rollout import Rollout
from .sampling import Sampler
from .tree import Tree

if TYPE_CHECKING:
    from ..engine import Game

#: Tree walks per decision by level (``method="tree"``), one guess each.
LEVELS = {1: 60, 2: 150, 3: 400, 4: 1000, 5: 2500}
DEFAULT_LEVEL = 3
#: ``method="flat"``: guesses per decision, and at most this many roll-outs (many legal
#: actions: fewer guesses, at least 4).
FLAT_GUESSES = {1: 6, 2: 12, 3: 24, 4: 48, 5: 96}
_MAX_ROLLOUTS = {1: 40, 2: 80, 3: 160, 4: 320, 5: 640}
_MIN_GUESSES = 4
#: Guesses drawn at once and dealt out again by how well they fit the bids (:func:`_resampled`).
_BATCH = 100
#: Guesses tried for the first world before the decision goes to the bidder.
_REBUILD_TRIES = 40
#: Spread (tricks) of a bid about the roll-out's count of the hand, for weighing guesses: the
#: standard deviation of bid minus count over the bundled bots' bids in Oh Hell, Odessa and
#: Georgian (heuristic 0.64 to 0.67, search 0.72 to 0.95; ``benchmarks/bid_spread.py``).
BID_SPREAD = 0.9
#: The tree search's UCB constant, in units of the spread of the deal scores seen.
EXPLORE = 0.7
#: How the tree search plays a deal out from a new node: by the roll-out policy, or at random.
PLAYOUTS = ("policy", "random")


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action as a search judged it, from the searching seat's view."""

    action: Action
    value: float
    """The seat's mean points for the deal after this action (guesses weighed by how well they
    fit the bids seen); ``nan`` where it was never tried."""
    tries: int
    """Play-outs of the action (tree: visits; flat: guesses)."""
    tricks: tuple[float, ...] = ()
    """``flat`` only: the chance that the seat takes 0, 1, ... tricks in the deal after this
    action (the play-outs' counts, weighed as ``value``); empty for the tree search."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What one decision's search found: every legal action's value and the one it prefers."""

    seat: int
    actions: tuple[ActionValue, ...]
    """Every legal action, in the order of ``view.legal``."""
    best: Action
    """The action the search plays (the bidder's when ``searched`` is False)."""
    searched: bool
    """False when the search had nothing to weigh: one legal action, an auction's call, bids
    left to the bidder, or no guess that fits the plays seen."""

    def of(self, action: Action) -> ActionValue | None:
        """The value of ``action`` (None when it is not legal here)."""
        for a in self.actions:
            if a.action == action:
                return a
        return None

    def loss(self, action: Action) -> float:
        """Expected points lost by playing ``action`` instead of :attr:`best` (never below 0;
        0 for an unsearched decision or an action never tried)."""
        if not self.searched:
            return 0.0
        mine, best = self.of(action), self.of(self.best)
        if mine is None or best is None or math.isnan(mine.value) or math.isnan(best.value):
            return 0.0
        return max(0.0, best.value - mine.value)


class Bidder(Protocol):
    """What the search bot asks of the bot that bids for it."""

    def bid(self, view: SeatView) -> Action: ...

    def act(self, view: SeatView) -> Action: ...


class _Setting:
    """What every guess of one decision shares: the sampler, the rebuilt deal, the bids seen."""

    __slots__ = ("sampler", "worlds", "made", "shown", "_values", "_counted", "_bids", "_scale")

    def __init__(self, view: SeatView, rollout_for: Callable[[Game], Rollout], spread: float = BID_SPREAD) -> None:
        self.sampler = Sampler(view, Knowledge(view))
        self.worlds = worlds = Worlds(view)
        self.made = [(worlds.template.bidding_order()[0] + k) % view.players for k in range(worlds.bids_made)] \
            if not view.calls else [s for s in range(view.players) if view.bids[s] is not None]
        # Bids made seeing the hand say something about it (not blind ones, not hidden ones).
        self.shown = [s for s in self.made if s != view.seat and view.bids[s] is not None and not worlds.blind
                      and view.deal_kind_bidding not in ("before_deal", "forehead")]
        rollout = rollout_for(worlds.template)
        trump = -1 if view.trump is None else SUIT_ID[view.trump]
        self._values = rollout.values(trump)
        self._counted = [rollout.count(p, trump) for p in worlds.played_by]
        self._bids = view.bids
        self._scale = -1.0 / (2 * spread * spread)

    def fit(self, hands: list[int]) -> float:
        """How well a guess fits the bids: each bidder's hand as dealt counted by the roll-out's
        table, against its bid: the chance of the bid about that count with the bids' spread."""
        values, counted, bids = self._values, self._counted, self._bids
        miss = 0.0
        for s in self.shown:
            h = hands[s]
            c = counted[s]
            while h:
                low = h & -h
                c += values[low.bit_length() - 1]
                h ^= low
            d = c - bids[s]  # type: ignore[operator]
            miss += d * d
        return math.exp(miss * self._scale)


class SearchBot:
    """Search over guessed deals (see the module).

    :param level: 1 to 5 (tree walks per decision: :data:`LEVELS`; ``flat``:
        :data:`FLAT_GUESSES`).
    :param budget: CPU seconds per decision after which the search stops (None: none).
    :param bidder: acts when no guess fits the plays seen, and bids when ``search_bids`` is
        False (:func:`~updown_dsl.players.bots.make_bot` gives the heuristic bot).
    :param search_bids: search the bids like the cards (else the bidder bids).
    :param method: ``"tree"`` or ``"flat"`` (see the module).
    :param explore: the tree search's UCB constant, in units of the spread of deal scores.
    :param depth: the tree search's limit on the choices a walk makes by UCB (None: none).
    :param fit_bids: keep a guess with the chance that it fits the bids seen (else every
        guess that fits the plays seen counts alike).
    :param bid_spread: the spread of a bid about the count of the hand, in tricks (the
        narrower, the more a guess must fit the bids: :data:`BID_SPREAD`).
    :param playout: the tree search's play-outs (:data:`PLAYOUTS`): ``"policy"``, every seat
        by the roll-out policy; ``"random"``, random legal actions.
    :param oracle: where the deal to search comes from instead of guesses: called with the
        view, it gives every seat's hand now (bit sets over the card table) and the bids. For
        a *clairvoyant* bound in benchmarks (the true hands, which a bot at a table never
        has); None for guesses from the view.
    """

    name = "search"

    def __init__(self, rng: random.Random | None = None, level: int = DEFAULT_LEVEL,
                 budget: float | None = None, *, bidder: Bidder | None = None,
                 search_bids: bool = True, method: str = "tree", explore: float = EXPLORE,
                 depth: int | None = None, fit_bids: bool = True, bid_spread: float = BID_SPREAD,
                 playout: str = "policy", oracle: Callable[[SeatView], tuple[list[int], list[int | None]]] | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"search level must be one of {', '.join(map(str, LEVELS))}, not {level}")
        if method not in ("tree", "flat"):
            raise ValueError(f"search method must be 'tree' or 'flat', not {method!r}")
        if playout not in PLAYOUTS:
            raise ValueError(f"search play-outs must be 'policy' or 'random', not {playout!r}")
        self.rng = rng or random.Random()
        self.level = level
        self.budget = budget
        if bidder is None:
            raise ValueError("a search bot needs a bidder (make_bot('search') gives it the heuristic)")
        self.bidder = bidder
        self.search_bids = search_bids
        self.method = method
        self.explore = explore
        self.depth = depth
        self.fit_bids = fit_bids
        if not bid_spread > 0:
            raise ValueError(f"the bids' spread must be above 0, not {bid_spread}")
        self.bid_spread = bid_spread
        self.playout = playout
        self.oracle = oracle
        self._rollout: Rollout | None = None
        self._rollout_key: object = None

    def act(self, view: SeatView) -> Action:
        return self.evaluate(view).best

    def search(self, view: SeatView) -> Action:
        """The action the search finds best (the bidder's when no guess fits the plays seen)."""
        return self.evaluate(view, always=True).best

    def evaluate(self, view: SeatView, *, always: bool = False) -> Evaluation:
        """Every legal action's value from ``view`` and the action this bot takes (what
        :meth:`act` plays; ``always``: search even a forced action and the bids and calls the
        bidder makes).

        Only the view is read; the guesses draw from this bot's generator, so seeding it makes
        the evaluation reproducible."""
        legal = view.legal
        if not always:
            if len(legal) == 1:
                return _unsearched(view, legal[0])
            if view.phase is Phase.BID and view.hand and not self.search_bids:
                return _unsearched(view, self.bidder.bid(view))
            if view.phase is Phase.AUCTION:  # an auction's calls: judged from the hand, not searched
                return _unsearched(view, self.bidder.act(view))
        if self.method == "flat":
            return self._flat(view)
        return self._tree(view)

    def guesses(self, view: SeatView, count: int) -> list[list[int]]:
        """``count`` guesses of every seat's hand now (bit sets over the view's card table), as
        the search draws them: consistent with the voids and the cards seen, and following the
        chance that they fit the bids seen unless ``fit_bids`` is False; empty when no guess
        fits the plays seen. For measuring what the search believes; :meth:`evaluate` draws
        its own."""
        stream = self._guesses(view, self._setting(view), reject=self.fit_bids)
        out: list[list[int]] = []
        for _ in range(count):
            guess = next(stream)
            if guess is None:
                return []
            out.append(guess[0])
        return out

    def _setting(self, view: SeatView) -> _Setting:
        return _Setting(view, self._rollout_for, self.bid_spread)

    def _guesses(self, view: SeatView, setting: _Setting, reject: bool):  # type: ignore[no-untyped-def]
        """Endless (hands, world) guesses; ``None`` once no guess fits the plays seen. With
        ``reject``, the guesses follow the chance that they fit the bids seen
        (:func:`_resampled`).

        The sampler draws some deals more often than others when several seats are void
        (:meth:`~.sampling.Sampler.draw`); a Metropolis step over the guesses evens that
        out: a new guess replaces the last one with the chance that it weighs as much (else
        the last one is dealt again), so the guesses follow the deals that fit what was seen.
        """
        rng = self.rng
        sampler, worlds, made, shown = setting.sampler, setting.worlds, setting.made, setting.shown
        if self.oracle is not None:  # every "guess" is the deal the oracle tells
            known, bids_known = self.oracle(view)
            while True:
                yield known, worlds.world(known, bids_known, rng)
        tries = 0
        held: tuple[list[int], list[int | None], float] | None = None
        even = sampler.free
        draws = _resampled(setting, rng) if reject and shown else _drawn(sampler, rng)
        while True:
            hands, w = next(draws)
            bids = self._bids(view, hands, made, worlds)
            try:
                world = worlds.world(hands, bids, rng)
            except IllegalAction:  # a guess the plays seen rule out (only the first is replayed)
                tries += 1
                if tries > _REBUILD_TRIES:
                    yield None
                    return
                continue
            if not even:
                if held is None or rng.random() * held[2] < w:
                    held = (hands, bids, w)
                else:
                    hands = held[0]
                    world = worlds.world(hands, held[1], rng)
            yield hands, world

    def _tree(self, view: SeatView) -> Evaluation:
        setting = self._setting(view)
        rollout = self._rollout_for(setting.worlds.template)
        tree = Tree(self.explore, playout=rollout.playout if self.playout == "policy" else None, depth=self.depth)
        prior: Action | None = None
        start = time.process_time()
        walks = LEVELS[self.level]
        guesses = self._guesses(view, setting, reject=self.fit_bids)
        for done in range(walks):
            guess = next(guesses)
            if guess is None:
                return _unsearched(view, self.bidder.act(view))
            world = guess[1]
            if prior is None and view.phase is Phase.PLAY:  # ties go to the roll-out's card
                prior = rollout.choose(world)
            tree.iterate(world, self.rng)
            if self.budget is not None and done >= 8 and time.process_time() - start > self.budget:
                break
        best = tree.best(tuple(keeping_chances(view, view.legal)), prior)  # never a dominated choice
        stats = tree.stats(view.legal)
        return Evaluation(view.seat, tuple(ActionValue(a, mean, visits) for a, (visits, mean) in zip(view.legal, stats)),
                          best, True)

    def _flat(self, view: SeatView) -> Evaluation:
        legal = view.legal
        keep = set(keeping_chances(view, legal))  # never a dominated choice
        setting = self._setting(view)
        rollout = self._rollout_for(setting.worlds.template)
        guesses = max(_MIN_GUESSES, min(FLAT_GUESSES[self.level], _MAX_ROLLOUTS[self.level] // len(legal)))
        rng = self.rng
        seat = view.seat
        values = [0.0] * len(legal)
        cards = view.deal.cards
        tricks = [[0.0] * (cards + 1) for _ in legal]
        weights = [0.0] * len(legal)
        tried = 0
        prior: Action | None = None
        start = time.process_time()
        stream = self._guesses(view, setting, reject=False)
        for done in range(guesses):
            guess = next(stream)
            if guess is None:
                return _unsearched(view, self.bidder.act(view))
            hands, base = guess
            if prior is None and view.phase is Phase.PLAY:  # ties go to what the roll-out would play here
                prior = rollout.choose(base)
            weight = setting.fit(hands) if setting.shown else 1.0
            tried += 1
            for a, action in enumerate(legal):
                game = base.clone(rng=rng) if a + 1 < len(legal) else base
                start = len(game.results)
                try:
                    game.apply(action)
                except IllegalAction:  # a guess of hidden bids that the view's legal bids rule out
                    continue
                points, taken = rollout.outcome(game, seat, start)
                values[a] += weight * points
                weights[a] += weight
                if 0 <= taken <= cards:
                    tricks[a][taken] += weight
            if self.budget is not None and done >= 1 and time.process_time() - start > self.budget:
                break
        means = [values[a] / weights[a] if weights[a] else -math.inf for a in range(len(legal))]
        best = max((a for a in range(len(legal)) if legal[a] in keep),
                   key=lambda a: (round(means[a], 6), legal[a] == prior))
        return Evaluation(seat, tuple(
            ActionValue(action, means[a] if weights[a] else math.nan, tried,
                        tuple(t / weights[a] for t in tricks[a]) if weights[a] else ())
            for a, action in enumerate(legal)), legal[best], True)

    def _bids(self, view: SeatView, hands: list[int], made: list[int], worlds: Worlds) -> list[int | None]:
        """The bids made, hidden ones guessed from the guessed hands by the roll-out's count."""
        bids = list(view.bids)
        if all(bids[s] is not None for s in made):
            return bids
        rollout = self._rollout_for(worlds.template)
        trump = -1 if view.trump is None else _suit_id(view.trump)
        for s in made:
            if bids[s] is None:
                bids[s] = max(0, min(view.deal.cards, round(rollout.count(hands[s], trump))))
        return bids

    def _rollout_for(self, game: object) -> Rollout:
        key = id(game.table)  # type: ignore[attr-defined]
        if self._rollout is None or self._rollout_key != key:
            self._rollout = Rollout(game, self.rng)  # type: ignore[arg-type]
            self._rollout_key = key
        return self._rollout


def _drawn(sampler: Sampler, rng: random.Random) -> Iterator[tuple[list[int], float]]:
    """The sampler's guesses with the weight each needs (:meth:`~.sampling.Sampler.draw`)."""
    while True:
        yield sampler.draw(rng)


def _resampled(setting: _Setting, rng: random.Random) -> Iterator[tuple[list[int], float]]:
    """Guesses that follow the chance that they fit the bids seen, each of weight 1.

    Sampling-importance-resampling: a batch of :data:`_BATCH` guesses is drawn, each weighed
    by the sampler's weight times :meth:`_Setting.fit`, and as many are dealt out again in
    proportion to their weights (systematic resampling). Every guess is weighed alike, at the
    cost of one draw a guess; keeping or dropping each draw by its fit instead costs one to
    fifteen draws a guess kept as the bids' spread narrows."""
    sampler, fit = setting.sampler, setting.fit
    while True:
        batch = [sampler.draw(rng) for _ in range(_BATCH)]
        weights = [w * fit(hands) for hands, w in batch]
        total = sum(weights)
        if not total > 0:  # no guess of the batch fits the bids at all: the voids alone
            weights = [w for _, w in batch]
            total = sum(weights)
        step = total / _BATCH
        mark = rng.random() * step
        reached = 0.0
        for (hands, _), weight in zip(batch, weights):
            reached += weight
            while mark < reached:
                yield hands, 1.0
                mark += step


def _unsearched(view: SeatView, action: Action) -> Evaluation:
    """The evaluation of a decision the search did not weigh: ``action``, values unknown."""
    return Evaluation(view.seat, tuple(ActionValue(a, math.nan, 0) for a in view.legal), action, False)


def _suit_id(suit: object) -> int:
    return SUIT_ID[suit]  # type: ignore[index]
