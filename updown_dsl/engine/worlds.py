"""Worlds for search: a seat's position rebuilt in games whose unseen cards are filled in.

A search bot acts on its seat's view only. To look ahead it guesses the cards it cannot
see, then needs a :class:`~updown_dsl.engine.Game` that stands where the view stands with
those cards in the other hands: :class:`Worlds` rebuilds the deal once from the view (its
deal, dealer, totals, trump, bids and the cards played) and then gives, per guess, a copy
with the hands swapped (bit sets, as the kernel keeps them). Such games start with no
earlier results: the deal's own score is exact, a set premium over earlier deals is not.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence

from ..actions import Bid, ChooseTrump
from .dealing import Dealt
from .game import Game
from .state import Phase
from .tables import SUIT_ID

if TYPE_CHECKING:
    from ..lang.variant import Variant
    from .view import SeatView


def game_at_deal(variant: Variant, players: int, deal_index: int, dealer: int,
                 totals: Sequence[int] | None = None, *, rng: random.Random | None = None) -> Game:
    """A game at the start of deal ``deal_index`` (0-based) with ``dealer`` and ``totals``, made
    with ``auto_deal=False``: in phase ``DEAL`` (a blind deal: ``BID``), waiting for cards."""
    game = Game(variant, players, auto_deal=False, first_dealer=dealer, rng=rng)
    if totals is not None:
        game._totals = list(totals)
    if deal_index:
        plan = game._plan
        if deal_index >= len(game.deals):
            if not plan.more_deals(deal_index + 1):
                raise ValueError(f"{variant.name} has no deal {deal_index + 1}")
            game.deals = plan.deals[:deal_index + 1]
        game.deal_index = deal_index
        game.dealer = dealer % players
        game._start_deal()
    return game


class Worlds:
    """The position of ``view`` in games with the other cards given (see the module).

    :meth:`dealt` is what each seat must have been dealt for the view's plays; :meth:`world`
    makes a game from the seats' hands *now* (bit sets over the card table) and the bids
    (hidden ones guessed).
    """

    __slots__ = ("view", "table", "played", "played_by", "first_leader", "bids_made", "template", "_base")

    def __init__(self, view: SeatView) -> None:
        self.view = view
        log = view._log
        n = view.players
        self.table = t = view._table
        self.played = log.played()
        self.played_by = log.played_by()
        self.first_leader = log.first_leader
        self.template = game_at_deal(view.variant, n, view.deal.number - 1, view.dealer, view.totals,
                                      rng=random.Random(0))
        if self.template.deal != view.deal:  # pragma: no cover - the numbering is the index + 1
            raise ValueError(f"cannot rebuild deal {view.deal.number}")
        first = self.template.bidding.first
        if view.calls and view.phase is Phase.BID:
            # After an auction the declarer's and the dashers' bids were not bid: count the others'.
            calls = view.calls
            self.bids_made = sum(1 for s in range(n) if view.bids[s] is not None and s != view.declarer
                                 and ((c := calls[s]) is None or c.tricks > 0))
        elif view.phase is Phase.BID:
            self.bids_made = (view.to_act - first) % n
        elif view.phase is Phase.TRUMP and not any(b is not None for b in view.bids):
            self.bids_made = 0
        else:
            self.bids_made = n
        self._base: Game | None = None

    @property
    def blind(self) -> bool:
        """No cards are dealt yet (bidding before the deal): worlds need no hands."""
        return self.template.phase is Phase.BID and self.view.phase is Phase.BID and \
            self.template._dp.bidding == "before_deal"

    def world(self, hands: Sequence[int], bids: Sequence[int | None], rng: random.Random | None = None) -> Game:
        """A game at the view's position with ``hands`` (each seat's cards now) and ``bids``."""
        base = self._base
        if base is None:
            base = self._base = self._rebuild(hands, bids)
        game = base.clone(rng=rng or random.Random(0))
        if not self.blind:
            game.kernel.hands = list(hands)
        b = game.bidding
        b.bids = list(bids[s] if b.bids[s] is not None else None for s in range(len(bids)))
        b.total = sum(x for x in b.bids if x is not None)
        game.kernel.changed()
        return game

    def _rebuild(self, hands: Sequence[int], bids: Sequence[int | None]) -> Game:
        view = self.view
        game = self.template.clone(rng=random.Random(0))
        t = self.table
        dp = game._dp
        played = self.played
        k = 0
        bids_left = self.bids_made
        while True:
            phase = game.phase
            if phase is Phase.DEAL:
                if self.blind or view.phase is Phase.DEAL:
                    break
                masks = [h | p for h, p in zip(hands, self.played_by)]
                dealt = [tuple(i for i in range(t.size) if (m >> i) & 1) for m in masks]
                # (the cards the seat has seen first, where the deal shows a hand in part
                # before the trump is named, are the first it was dealt)
                if view.phase is Phase.TRUMP:
                    seen = tuple(t.indices(view.hand, sum(self.played_by)))
                    own = dealt[view.seat]
                    dealt[view.seat] = seen + tuple(i for i in own if i not in seen)
                rule = dp.trump_rule
                trump = -1
                if rule != "chosen" and view.trump is not None:
                    trump = SUIT_ID[view.trump]
                elif rule == "fixed" and dp.trump_rules.suit is not None:
                    trump = SUIT_ID[dp.trump_rules.suit]
                game._install(Dealt(masks, dealt, trump, view.turned, None))
            elif phase is Phase.TRUMP:
                if view.phase is Phase.TRUMP and bids_left == 0:
                    break
                game.apply(ChooseTrump(view.trump))
            elif phase is Phase.AUCTION:  # the calls are open: as made
                call = view.calls[game.to_act] if view.calls else None
                if call is None:
                    break
                game.apply(call)
            elif phase is Phase.BID:
                if bids_left == 0:
                    break
                bid = bids[game.to_act]
                game.apply(Bid(bid if bid is not None else 0))
                bids_left -= 1
            elif phase is Phase.PLAY:
                if k == 0 and self.first_leader >= 0 and game.kernel.leader != self.first_leader:
                    game.kernel.begin(self.first_leader)  # the leader the deal before made
                    game.to_act = self.first_leader
                if k == len(played):
                    break
                game.apply(played[k][1])
                k += 1
            else:  # pragma: no cover - a view of a finished game has nothing to search
                break
        return game
