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
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ..actions import Action, Bid, Call, ChooseTrump, Play
from ..cards import Card, Suit
from ..diagnostics import Diagnostic
from ..lang.variant import Deal, DealKind, Variant
from .auction import Auction
from .bidding import Bidding, bid_choices
from .endgame import EndOfDeal
from .plan import table_plan
from .kernel import PlayKernel
from .recorded import RecordedDeals
from ..i18n import tr
from .state import IllegalAction, Phase, State, Trick, TrickPlay, violation
from .tables import SUITS

if TYPE_CHECKING:
    from .plan import DealPlan
    from .view import SeatView

_PLAY, _BID = Phase.PLAY, Phase.BID


class Game(RecordedDeals, Bidding, Auction, EndOfDeal):
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
        self._by_id = t.by_id
        self.is_over = False
        self._next_seat = plan.next_seat
        self._stack = None
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
    def deal_plan(self) -> DealPlan:
        """The rules of the current deal worked out once: its bid range, hook, trump rule and
        scoring (:meth:`~updown_dsl.engine.plan.DealPlan.points`)."""
        return self._dp

    @property
    def trump(self) -> Suit | None:
        """The trump suit of the current deal (None: no trump or not known yet)."""
        trump = self.kernel.trump
        return None if trump < 0 else SUITS[trump]

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, in pack order."""
        return self.table.cards_of(self.kernel.hands[seat])

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's hand."""
        return tuple(self.hand(s) for s in range(self.players))

    @property
    def dealt_hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as dealt this deal, in dealing order (empty before the deal)."""
        return self.kernel.log.hands()

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Bids of the current deal by seat (None: not yet bid)."""
        return tuple(self._bids)

    @property
    def taken(self) -> tuple[int, ...]:
        """Tricks taken in the current deal by seat."""
        return tuple(self.kernel.taken)

    @property
    def leader(self) -> int:
        """Who leads (or led) the current trick."""
        return self.kernel.leader

    @property
    def led_suit(self) -> Suit | None:
        """The suit the current trick asks for (led, or named by a led wild card); None before
        the lead or when nothing is asked for."""
        return self.kernel.led_suit

    @property
    def trick(self) -> tuple[TrickPlay, ...]:
        """The cards on the table in the current trick."""
        k = self.kernel
        if not k.count:
            return ()
        return k.log.trick_plays(len(k.winners), k.count)

    @property
    def tricks(self) -> list[Trick]:
        """Finished tricks of the current deal."""
        return list(self.kernel.log.tricks())

    @property
    def trick_winner(self) -> int | None:
        """The seat holding the current trick so far (None with no card on the table)."""
        k = self.kernel
        return k.winner if self.phase is _PLAY and k.count else None

    def would_win(self, play: Play) -> bool:
        """Whether ``play`` by the player to act would hold the trick as it stands now.

        Cards still to come are not considered; a lead always holds the trick so far.
        """
        if self.phase is not _PLAY:
            return False
        return self.kernel.would_win(self.table.index[play.card], play)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` can see (for a player or a bot): see :mod:`updown_dsl.engine.view`."""
        from .view import seat_view

        return seat_view(self, seat)

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take, in a fixed order."""
        phase = self.phase
        if phase is _PLAY:
            return self.kernel.legal_plays()
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

    def apply(self, action: Action | str) -> None:
        """Apply a legal action (or its text, read by :meth:`parse_action`).

        :raises IllegalAction: naming the rule when the action is not legal (the game
            is left as it was).
        """
        phase = self.phase
        if phase is _PLAY:
            if type(action) is Play:
                k = self.kernel
                if action.declare is None:
                    try:
                        i = self._by_id[action.card.id]
                    except (AttributeError, IndexError, TypeError):
                        i = -1  # not a card: refused below
                    if i >= 0 and (k.legal() >> i) & 1:
                        if k.play(i):
                            self._finish_deal()
                        else:
                            self.to_act = k.to_act
                        return
                elif self.kernel.refusal(action) is None:
                    self._play_declared(self.table.index[action.card], action)
                    return
        elif phase is _BID and type(action) is Bid and not self._counted:
            tricks = action.tricks
            made = self._bids_made
            if self._lo <= tricks <= self._hi and not (
                    self._hook and made == self.players - 1 and not self._last_bid_ok(tricks)):
                if made + 1 < self.players:  # (the last bid moves on to the play: _apply_bid)
                    self.kernel.plays_memo = None
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
        if isinstance(action, str):
            self.apply(self.parse_action(action))
            return
        problem = self.check(action)
        if problem is not None:
            raise IllegalAction(problem)
        self._apply_checked(action)

    def _apply_checked(self, action: Action) -> None:
        """Apply an action :meth:`check` found legal (the rare shapes the fast paths skip)."""
        if isinstance(action, Play):
            i = self.table.index[action.card]
            if action.declare is None:
                self._play_card(i)
            else:
                self._play_declared(i, action)
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
            return self.kernel.refusal(action)
        if isinstance(action, Bid):
            return self._check_bid(action)
        if isinstance(action, ChooseTrump):
            return self._check_trump(action)
        if isinstance(action, Call):
            return self._check_call(action)
        return violation("R002", tr("not an action: {action!r}", action=action))

    # ------------------------------------------------------------------ the play
    def _begin_play(self) -> None:
        self.phase = _PLAY
        rule = self._plan.first_leader
        leader = self._last_trick_winner() if rule == "last_trick_winner" else self._seat_by(rule)
        leader = leader if leader >= 0 else self._seat_by("eldest")
        self.kernel.begin(leader)
        self.to_act = leader

    def _play_card(self, i: int) -> None:
        """Play card ``i`` through the kernel (unchecked) and move the game on."""
        k = self.kernel
        if k.play(i):
            self._finish_deal()
        else:
            self.to_act = k.to_act

    def _play_declared(self, i: int, play: Play) -> None:
        """Play wild card ``i`` with the declaration of ``play`` (unchecked)."""
        k = self.kernel
        if k.play_declared(i, play):
            self._finish_deal()
        else:
            self.to_act = k.to_act

    def play_as_written(self, play: Play) -> bool:
        """Put ``play`` on the table although the rules forbid it here, as a recorded game
        shows it was played.

        A checker reports the broken rule, then goes on with the card as played, so that
        later mistakes are still found and the consequences of this one (who wins the
        trick, the scores) are not reported again. Only a card in the hand of the player
        to act can be played so, with a declaration that card can make in this position;
        otherwise nothing changes and the answer is False.
        """
        if self.phase is not _PLAY or not isinstance(play.card, Card):
            return False
        t = self.table
        k = self.kernel
        i = t.index.get(play.card)
        if i is None or not (k.hands[self.to_act] >> i) & 1:
            return False
        if play.declare is None:
            if (t.joker_mask >> i) & 1:
                return False  # an undeclared joker: nothing says how it counts
            self._play_card(i)
            return True
        if not k.fits(i, play):
            return False
        self._play_declared(i, play)
        return True

    def play_cards(self, cards: Sequence[tuple[int, int, Play]]) -> bool:
        """Play every card of the deal, each (seat, card index, play) of a plain card, checked
        one after another as :meth:`apply` checks them, for a checker replaying a record.

        Returns False at the first card :meth:`apply` would refuse (the game is left with
        the cards before it played), or when cards were already played or ``cards`` is not
        the whole deal (nothing is played).
        """
        k = self.kernel
        if self.phase is not _PLAY or k.order or len(cards) != self.players * k.tricks:
            return False
        for seat, i, play in cards:
            if seat != k.to_act or i < 0 or play.declare is not None or not (k.legal() >> i) & 1:
                self.to_act = k.to_act
                return False
            if k.play(i):
                self._finish_deal()
                return True
        return True  # pragma: no cover - the last card ends the deal

    def play_out_by(self, choose: Callable[[Game, int, int], int], every_card: bool = False) -> bool:
        """Play plain cards to the end of the deal, each the card index ``choose(game, seat,
        legal)`` picks from the bit set ``legal`` of the cards ``seat`` may play (a single legal
        card is played without asking, unless ``every_card``), for a search's play-outs.

        The game is up to date at every call (hands, the trick, the tricks taken), so the
        policy reads it as it would between two :meth:`apply` calls; the card must be one of
        ``legal`` (it is not checked). Returns False, playing nothing, where the deal is not
        plain play (wild cards, or not the play phase).
        """
        k = self.kernel
        if not k.plain or self.phase is not _PLAY:
            return False
        while True:
            legal = k.legal()
            if every_card or legal & (legal - 1):
                i = choose(self, k.to_act, legal)
            else:
                i = legal.bit_length() - 1
            if k.play(i):
                break
            self.to_act = k.to_act
        self._finish_deal()
        return True

    def play_out_random(self, rnd: Callable[[], float]) -> bool:
        """Play uniformly random legal cards to the end of the deal, for search play-outs.

        Each card is the one ``legal_actions()[int(rnd() * len(legal))]`` would give (the
        plain plays come in pack order; ``rnd`` is drawn for every card, a single legal one
        too), played by :meth:`play_out_by`. Returns False, playing nothing, where the deal is
        not plain play: the caller then goes card by card (:meth:`play_random_card`).
        """
        def pick(game: Game, seat: int, legal: int) -> int:
            k = int(rnd() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            return (legal & -legal).bit_length() - 1

        return self.play_out_by(pick, every_card=True)

    def play_random_card(self, rnd: Callable[[], float]) -> None:
        """Play a uniformly random legal *card*, a wild card with a uniformly random one of its
        legal declarations, for search play-outs in the play phase.

        A wild card counts once, however many declarations it may make: drawing among the
        actions would play a joker with ten declarations ten times as often as a plain card.
        Declared plays are made only for the wild card drawn.
        """
        k = self.kernel
        ordinary = k.legal()
        wild = k.hands[self.to_act] & self.table.wild_mask if k.has_wild else 0
        cards = ordinary | wild
        plays = self.table.plays
        while cards:
            n = int(rnd() * cards.bit_count())
            pick = cards
            while n:
                pick &= pick - 1
                n -= 1
            low = pick & -pick
            i = low.bit_length() - 1
            if not wild & low:
                self.apply(plays[i])
                return
            w = self.table.wild_of[i]
            # (in the order of legal_actions(): the plain play first, then the declarations)
            options = [plays[i]] if ordinary & low else []
            if w is not None:
                options += k.declared_plays(i, w, not k.count, ordinary)
            if options:
                self.apply(options[int(rnd() * len(options))])
                return
            cards ^= low  # a wild card with nothing it may declare here
        self.apply(self.legal_actions()[0])  # (never reached in play: some card is legal)

    def parse_action(self, text: str) -> Action:
        """Read an action as written: ``7S`` or ``JK high H`` (a play), ``2`` or ``bid 2``, ``H`` or
        ``trump none``, ``call 5 S`` or ``dash``; a bare word is read as the phase asks.

        :raises CardError: for text that is no action (it is not checked against the rules:
            :meth:`apply` does that).
        """
        words = text.split()
        first = words[0].lower() if words else ""
        phase = self.phase
        if first == "bid" or (phase is _BID and first not in ("trump", "call")):
            return Bid.parse(text)
        if first == "trump" or (phase is Phase.TRUMP and first != "call"):
            return ChooseTrump.parse(text)
        if first == "call" or phase is Phase.AUCTION:
            return Call.parse(text)
        return Play.parse(text)

    # ------------------------------------------------------------------ the move stack
    def push(self, action: Action | str) -> None:
        """Apply ``action`` as :meth:`apply` does and keep it on :attr:`move_stack`, so that
        :meth:`pop` can take it back.

        :raises IllegalAction: for an illegal action (nothing is pushed).
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        before = self.clone()  # (with a copy of the random generator: pop restores the draws too)
        self.apply(action)
        if self._stack is None:
            self._stack = []
        self._stack.append((action, before))

    def pop(self) -> Action:
        """Take back the last action :meth:`push` applied and return it: the game is exactly as
        it was before it, its random generator included.

        :raises IndexError: when the move stack is empty.
        """
        if not self._stack:
            raise IndexError("pop from an empty move stack")
        stack = self._stack
        action, before = stack.pop()
        rng = self.rng  # (the caller's generator stays the game's, with its draws taken back)
        _consume(map(setattr, repeat(self, len(_SLOTS)), _SLOTS, _get_slots(before)))
        rng.setstate(before.rng.getstate())
        self.rng = rng
        self._stack = stack
        return action

    @property
    def move_stack(self) -> tuple[Action, ...]:
        """The actions applied with :meth:`push`, oldest first (actions applied with
        :meth:`apply` are not on it)."""
        return tuple(a for a, _ in self._stack or ())

    # ------------------------------------------------------------------ text
    def __repr__(self) -> str:
        if self.is_over:
            where = "over"
        else:
            where = f"deal {self._deal.number}/{len(self.deals)}, {self.phase.value}, to act {self.to_act}"
        return f"<Game {self.variant.name}, {self.players} players, {where}, totals {list(self.totals)}>"

    def __str__(self) -> str:
        """A compact table: the deal, trump, each seat's hand, bid and tricks, the trick on the
        table and the totals."""
        d = self._deal
        trump = self.trump
        lines = [f"{self.variant.name} · deal {d.number} of {len(self.deals)} · "
                 f"{d.cards} card{'' if d.cards == 1 else 's'} · "
                 f"dealer {self.dealer} · {self.phase.value}"
                 + (f" ({self.over_reason})" if self.is_over and self.over_reason else "")]
        if self.phase is not Phase.OVER:
            lines.append("trump " + (trump.value if trump is not None else
                                     "none" if self.phase in (_BID, _PLAY) else "?")
                         + (f" (turned {self.turned})" if self.turned is not None else ""))
        bids, taken = self._bids, self.kernel.taken
        for s in range(self.players):
            mark = ">" if s == self.to_act else " "
            hand = " ".join(str(c) for c in self.hand(s)) or "-"
            bid = "-" if bids[s] is None else str(bids[s])
            lines.append(f"{mark} {s}  {hand:<{3 * d.cards}}  bid {bid:>2}  took {taken[s]:>2}  "
                         f"total {self.totals[s]:>5}")
        trick = self.trick
        if trick:
            lines.append("trick " + "  ".join(f"{tp.seat}:{tp.play}" for tp in trick))
        return "\n".join(lines)

    # ------------------------------------------------------------------ copies
    def clone(self, *, rng: random.Random | None = None) -> Game:
        """An independent copy of the game as it stands, for search and what-ifs.

        The copy deals its later deals from a copy of this game's random generator
        (or from ``rng``); finished results are shared, as they never change. The copy
        has no move stack (:meth:`push`).
        """
        new = object.__new__(Game)
        # Slot by slot, but in C: a Python loop over the slots was most of a clone's cost.
        _consume(map(setattr, repeat(new, len(_SLOTS)), _SLOTS, _get_slots(self)))
        new.totals = list(self.totals)
        new.results = list(self.results)
        new._bids = list(self._bids)
        new._calls = list(self._calls)
        new.kernel = self.kernel.copy()
        new._stack = None
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        new.rng = rng
        return new


_SLOTS = tuple(name for name in State.__slots__)
_get_slots = attrgetter(*_SLOTS)
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend
