"""The search bot: determinized look-ahead over guessed deals (perfect-information Monte Carlo).

For a decision it guesses the unseen cards a number of times (:class:`~.sampling.Sampler`,
consistent with the voids shown and the cards seen), rebuilds the position in each guess
(:class:`~updown_dsl.engine.worlds.Worlds`), and for every legal action plays the deal out
with the fast roll-out policy (:mod:`.rollout`) for every seat, on the kernel. The action
with the best mean score of the deal for its seat is taken; the same guesses serve every
action, so their differences are not noise of the guessing. Cards, the declarations of
wild cards, trump naming and bids are all searched alike (with ``search_bids=False`` the bids
seen with the hand are the heuristic's); an auction's calls are the heuristic's.

It reads only its seat's view. Levels set the guesses per decision; an optional budget of
CPU seconds stops guessing early (then moves depend on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from typing import Protocol

from ..actions import Action
from ..engine import IllegalAction, Phase
from ..engine.tables import SUIT_ID
from ..engine.view import SeatView
from ..engine.worlds import Worlds
from .knowledge import Knowledge
from .rollout import Rollout
from .sampling import Sampler

#: Guesses per decision by level; each guess plays out the deal once per legal action.
LEVELS = {1: 6, 2: 12, 3: 24, 4: 48, 5: 96}
DEFAULT_LEVEL = 3
#: At most this many roll-outs per decision (many legal actions: fewer guesses, at least 4).
_MAX_ROLLOUTS = {1: 40, 2: 80, 3: 160, 4: 320, 5: 640}
_MIN_GUESSES = 4
#: Guesses tried for the first world before the decision goes to the bidder.
_REBUILD_TRIES = 40
#: Spread (tricks) of a bid about the roll-out's count of the hand, for weighing guesses.
_BID_SPREAD = 1.5


class Bidder(Protocol):
    """What the search bot asks of the bot that bids for it."""

    def bid(self, view: SeatView) -> Action: ...

    def act(self, view: SeatView) -> Action: ...


class SearchBot:
    """Perfect-information Monte Carlo over guessed deals (see the module).

    :param level: 1 to 5 (guesses per decision: :data:`LEVELS`).
    :param budget: CPU seconds per decision after which no more guesses are made (None: none).
    :param bidder: acts when no guess fits the plays seen, and bids when ``search_bids`` is
        False (:func:`~updown_dsl.players.bots.make_bot` gives the heuristic bot).
    :param search_bids: search the bids like the cards (else the bidder bids).
    """

    name = "search"

    def __init__(self, rng: random.Random | None = None, level: int = DEFAULT_LEVEL,
                 budget: float | None = None, *, bidder: Bidder | None = None,
                 search_bids: bool = True) -> None:
        if level not in LEVELS:
            raise ValueError(f"search level must be one of {', '.join(map(str, LEVELS))}, not {level}")
        self.rng = rng or random.Random()
        self.level = level
        self.budget = budget
        if bidder is None:
            raise ValueError("a search bot needs a bidder (make_bot('search') gives it the heuristic)")
        self.bidder = bidder
        self.search_bids = search_bids
        self._rollout: Rollout | None = None
        self._rollout_key: object = None

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.BID and view.hand and not self.search_bids:
            return self.bidder.bid(view)
        if view.phase is Phase.AUCTION:  # an auction's calls: judged from the hand, not searched
            return self.bidder.act(view)
        return self.search(view)

    def search(self, view: SeatView) -> Action:
        """The legal action with the best mean score over the guesses."""
        legal = view.legal
        know = Knowledge(view)
        sampler = Sampler(view, know)
        worlds = Worlds(view)
        guesses = LEVELS[self.level]
        guesses = max(_MIN_GUESSES, min(guesses, _MAX_ROLLOUTS[self.level] // len(legal)))
        rng = self.rng
        seat = view.seat
        made = [(worlds._template._first_bidder + k) % view.players for k in range(worlds.bids_made)] \
            if not view.calls else [s for s in range(view.players) if view.bids[s] is not None]
        values = [0.0] * len(legal)
        # Bids made seeing the hand say something about it (not blind ones, not hidden ones).
        shown = [s for s in made if s != seat and view.bids[s] is not None and not worlds.blind
                 and view.deal_kind_bidding not in ("before_deal", "forehead")]
        rollout = None
        prior: Action | None = None
        start = time.process_time()
        done = tries = 0
        while done < guesses:
            hands = sampler.sample(rng)
            try:
                base = worlds.world(hands, self._bids(view, hands, made, worlds), rng)
            except IllegalAction:  # a guess the plays seen rule out (only the first is replayed)
                tries += 1
                if tries > _REBUILD_TRIES:
                    return self.bidder.act(view)
                continue
            if rollout is None:
                rollout = self._rollout_for(base)
                if view.phase is Phase.PLAY:  # ties go to what the roll-out would play here
                    prior = rollout.choose(base)
            weight = self._likelihood(view, hands, worlds.played_by, rollout, shown)
            for a, action in enumerate(legal):
                game = base.clone(rng=rng) if a + 1 < len(legal) else base
                game.apply(action)
                values[a] += weight * rollout.run(game, seat)
            done += 1
            if self.budget is not None and done >= 2 and time.process_time() - start > self.budget:
                break
        best = max(range(len(legal)), key=lambda a: (round(values[a], 6), legal[a] == prior))
        return legal[best]

    @staticmethod
    def _likelihood(view: SeatView, hands: list[int], played: list[int], rollout: Rollout,
                    shown: list[int]) -> float:
        """How well a guess fits the bids: each bidder's hand as dealt counted by the roll-out's
        table, against its bid, with a wide spread (bots and people bid differently)."""
        if not shown:
            return 1.0
        trump = -1 if view.trump is None else SUIT_ID[view.trump]
        miss = 0.0
        for s in shown:
            d = rollout.count(hands[s] | played[s], trump) - view.bids[s]  # type: ignore[operator]
            miss += d * d
        return math.exp(-miss / (2 * _BID_SPREAD ** 2))

    def _bids(self, view: SeatView, hands: list[int], made: list[int], worlds: Worlds) -> list[int | None]:
        """The bids made, hidden ones guessed from the guessed hands by the roll-out's count."""
        bids = list(view.bids)
        if all(bids[s] is not None for s in made):
            return bids
        rollout = self._rollout_for(worlds._template)
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


def _suit_id(suit: object) -> int:
    return SUIT_ID[suit]  # type: ignore[index]
