"""The game: one state machine driven by a loaded :class:`~updown_dsl.lang.variant.Variant`.

:class:`Game` joins the parts of the engine (dealing, bidding, play, wild cards, the
end of a deal) over one set of slots. The engine knows no variant by name: every rule
comes from the variant's fields, worked out once per table size in
:mod:`updown_dsl.engine.plan`. State is mutable for speed; read it through the
properties, change it only with :meth:`Game.apply`, :meth:`~RecordedDeals.deal_cards` and
:meth:`~EndOfDeal.revoke`.
"""

from __future__ import annotations

import random
from collections import deque
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Callable, Iterable

from ..actions import Action, Bid, Call, ChooseTrump, Play
from ..cards import Card, Suit
from ..diagnostics import Diagnostic
from ..lang.variant import Deal, DealKind, Variant
from .auction import Auction
from .bidding import Bidding, bid_choices
from .endgame import EndOfDeal
from .plan import table_plan
from .play import Playing
from .restrict import Restrictions
from .recorded import RecordedDeals
from .runs import Runs
from ..i18n import tr
from .state import IllegalAction, Phase, State, violation
from .tables import SUITS
from .wild import Wild

if TYPE_CHECKING:
    from .view import SeatView

_PLAY, _BID = Phase.PLAY, Phase.BID


class Game(RecordedDeals, Bidding, Auction, Playing, Runs, Restrictions, Wild, EndOfDeal):
    """A whole game of one variant for a number of players.

    :param seed: or ``rng``: where shuffles and random trumps come from.
    :param first_dealer: seat (0-based) of the first dealer; default the last seat,
        so seat 0 is eldest in the first deal.
    :param auto_deal: deal each deal from the random generator; with ``False``
        the caller supplies cards through :meth:`deal_cards` in phase ``DEAL``.
    """

    __slots__ = ()

    def __init__(
        self,
        variant: Variant,
        players: int | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
        auto_deal: bool = True,
    ) -> None:
        n = players if players is not None else variant.default_players
        if not variant.min_players <= n <= variant.max_players:
            raise ValueError(
                f"{variant.name} is for {variant.min_players} to {variant.max_players} players, not {n}"
            )
        plan = table_plan(variant, n)
        t = plan.table
        self._plan = plan
        self.variant = plan.variant
        self.players = n
        self.table = t
        self.deals = plan.schedule
        self.rng = rng if rng is not None else random.Random(seed)
        self.auto_deal = auto_deal
        self.totals = [0] * n
        self.results = []
        self.deal_index = 0
        self.dealer = (n - 1) if first_dealer is None else first_dealer % n
        self.over_reason = None
        self._legal_mask = None
        self._plays_cache = None
        self._bit = t.bit
        self._suit_of = t.suit_of
        self._suit_mask = t.suit_mask
        self._nonjoker = t.full_mask & ~t.joker_mask
        self._by_id = t.by_id
        self._keytabs = t.keys
        self._must_follow = plan.must_follow
        self._must_trump = plan.must_trump
        self._has_wild = plan.has_wild
        self._restricted = plan.restricted
        self._plain = not plan.has_wild and not t.joker_mask and not plan.restricted
        self._plays_get = t._plays.get
        self.is_over = False
        self._next_seat = plan.next_seat
        self._keys = ()
        self._best = 0
        self._win = 0
        self._start_deal()

    # ------------------------------------------------------------------ reading
    @property
    def deal(self) -> Deal:
        """The current deal (the last one when the game is over)."""
        return self._deal

    @property
    def kind(self) -> DealKind:
        """The rules of the current deal's kind."""
        return self._kind

    @property
    def trump(self) -> Suit | None:
        """The trump suit of the current deal (None: no trump or not known yet)."""
        return None if self._trump < 0 else SUITS[self._trump]

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, in pack order."""
        return self.table.cards_of(self._hands[seat])

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand."""
        return tuple(self.hand(s) for s in range(self.players))

    @property
    def dealt_hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as dealt this deal, in dealing order (empty before the deal)."""
        return self._log.hands()

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Bids of the current deal by seat (None: not yet bid)."""
        return tuple(self._bids)

    @property
    def taken(self) -> tuple[int, ...]:
        """Tricks taken in the current deal by seat."""
        return tuple(self._taken)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` can see (for a player or a bot): see :mod:`updown_dsl.engine.view`."""
        from .view import seat_view

        return seat_view(self, seat)

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, in a fixed order."""
        phase = self.phase
        if phase is _PLAY:
            if self._plain:
                # The plain path of _ordinary_legal, inlined: listing and applying cards is
                # two thirds of a random 7-card deal.
                hand = self._hands[self.to_act]
                legal = hand
                if self._tcount:
                    in_suit = hand & self._suit_mask[self._led]
                    if in_suit:
                        if self._must_follow:
                            legal = in_suit
                    elif self._trump >= 0 and self._must_trump:
                        legal = hand & self._suit_mask[self._trump] or hand
                self._legal_mask = legal
                return self._plays_get(legal) or self.table.plays_of(legal)
            plays = self._plays_cache
            if plays is None:  # declared plays are new objects: list them once per position
                plays = self._plays_cache = self._legal_plays()
            return plays
        if phase is _BID:
            if self._counted:
                return bid_choices(*self._counted_range())
            if not self._hook or self._bids_made != self.players - 1:
                return self._dp.bids  # every bid of the range
            return bid_choices(*self._last_range())
        if phase is Phase.TRUMP:
            return self._legal_trumps()
        if phase is Phase.AUCTION:
            return self._legal_calls()
        return ()

    def apply(self, action: Action) -> None:
        """Apply a legal action.

        :raises IllegalAction: naming the rule when the action is not legal (the game
            is left as it was).
        """
        phase = self.phase
        if phase is _PLAY:
            if type(action) is not Play:
                pass  # refused below
            elif action.declare is not None:
                self._apply_other_play(action)
                return
            else:
                try:
                    i = self._by_id[action.card.id]
                except (AttributeError, IndexError, TypeError):
                    i = -1  # not a card: refused below
                legal = self._legal_mask
                if legal is not None:
                    ok = i >= 0 and (legal >> i) & 1
                elif self._plain and i >= 0:
                    # A checker applies cards without listing them first: test the one card
                    # as the plain path of _ordinary_legal would.
                    hand = self._hands[self.to_act]
                    if not (hand >> i) & 1:
                        ok = False
                    elif not self._tcount or self._suit_of[i] == self._led:
                        ok = True
                    elif hand & self._suit_mask[self._led]:
                        ok = not self._must_follow
                    else:
                        trump = self._trump
                        ok = not (trump >= 0 and self._must_trump and self._suit_of[i] != trump
                                  and hand & self._suit_mask[trump])
                else:
                    ok = i >= 0 and (self._legal_now() >> i) & 1
                if ok:
                    # A plain card, played here and not in a helper: the call would cost
                    # a twentieth of a random 7-card deal.
                    seat = self.to_act
                    self._hands[seat] ^= self._bit[i]
                    self._order.append(i)
                    self._legal_mask = self._plays_cache = None  # (what _changed does)
                    count = self._tcount
                    if count == 0:  # (the end of the last trick reset the lead's declaration)
                        self._leader = seat
                        self._led = led = self._suit_of[i]
                        self._keys = keys = self._keytabs[self._keyrow + led]
                        self._best = keys[i]
                        self._win = seat
                    elif self._general:
                        if self._lead_mode == "open" and self._led < 0:
                            self._led = self._suit_of[i]  # the first card after an open lead sets the suit
                    else:
                        k = self._keys[i]
                        if k > self._best:
                            self._best = k
                            self._win = seat
                    count += 1
                    if count == self.players:
                        self._end_trick()
                    else:
                        self._tcount = count
                        self.to_act = self._next_seat[seat]
                    return
        elif phase is _BID and type(action) is Bid and not self._counted:
            tricks = action.tricks
            made = self._bids_made
            if self._lo <= tricks <= self._hi and not (
                    self._hook and made == self.players - 1 and not self._last_bid_ok(tricks)):
                if made + 1 < self.players:  # (the last bid moves on to the play: _apply_bid)
                    self._legal_mask = self._plays_cache = None
                    self._bids[self.to_act] = tricks
                    self._bids_made = made + 1
                    self._bid_sum += tricks
                    self.to_act = self._next_seat[self.to_act]
                else:
                    self._apply_bid(tricks)
                return
        elif phase is Phase.TRUMP and type(action) is ChooseTrump:
            problem = self._check_trump(action)
            if problem is None:
                self._apply_trump(action)
                return
            raise IllegalAction(problem)
        problem = self.check(action)
        if problem is not None:
            raise IllegalAction(problem)
        self._apply_checked(action)

    def _apply_checked(self, action: Action) -> None:
        """Apply an action :meth:`check` found legal (the rare shapes the fast paths skip)."""
        if isinstance(action, Play):
            if action.declare is None:
                self.apply(self.table.plays[self.table.index[action.card]])
            else:
                self._play_declared(self.table.index[action.card], action)
        elif isinstance(action, Bid):
            self._apply_bid(action.tricks)
        elif isinstance(action, Call):
            self._apply_call(action)
        else:
            self._apply_trump(action)

    def check(self, action: Action) -> Diagnostic | None:
        """Why ``action`` is illegal now (a diagnostic naming the rule), or None."""
        phase = self.phase
        if phase is Phase.OVER:
            return violation("R030", tr("the game is over"))
        if isinstance(action, Play):
            if phase is not _PLAY:
                return violation("R002", tr("no card can be played in the {phase} phase", phase=phase))
            return self._check_play(action)
        if isinstance(action, Bid):
            return self._check_bid(action)
        if isinstance(action, ChooseTrump):
            return self._check_trump(action)
        if isinstance(action, Call):
            return self._check_call(action)
        return violation("R002", tr("not an action: {action!r}", action=action))

    # ------------------------------------------------------------------ copies
    def clone(self, *, rng: random.Random | None = None) -> Game:
        """An independent copy of the game as it stands, for search and what-ifs.

        The copy deals its later deals from a copy of this game's random generator
        (or from ``rng``); finished results are shared, as they never change.
        """
        new = object.__new__(Game)
        # Slot by slot, but in C: a Python loop over the 64 slots was most of a clone's cost.
        _consume(map(setattr, repeat(new, len(_SLOTS)), _SLOTS, _get_slots(self)))
        new.totals = list(self.totals)
        new.results = list(self.results)
        new._hands = list(self._hands)
        new._bids = list(self._bids)
        new._calls = list(self._calls)
        new._taken = list(self._taken)
        log = self._log.copy()
        new._log = log
        new._order = log.order
        new._winners = log.winners
        new._decl = log.decl
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        new.rng = rng
        return new


_SLOTS = tuple(name for name in State.__slots__)
_get_slots = attrgetter(*_SLOTS)
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend
