"""The game: one state machine driven by a loaded :class:`~updown_dsl.lang.variant.Variant`.

A :class:`Game` goes deal by deal through its phases (deal, trump, an auction, bids, play,
scoring) and owns what lasts the whole game: the totals, the results, the dealer, the random
generator. Each deal's cards are a :class:`~updown_dsl.engine.kernel.PlayKernel`'s and its
bids a :class:`~updown_dsl.engine.bidding.Bidding`'s, both made fresh when the deal starts;
dealing is worked out by the functions of :mod:`~updown_dsl.engine.dealing` and scoring by
the deal plan's compiled formula. The engine knows no variant by name: every rule comes from
the variant's fields, worked out once per table size in :mod:`updown_dsl.engine.plan`. State
is mutable for speed; read it through the properties, change it only with :meth:`Game.apply`
(or :meth:`Game.push`), the dealing methods and :meth:`Game.revoke`.
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
from ..i18n import tr
from ..lang.schedule import bid_names
from ..lang.variant import Deal, DealKind, Variant
from .bidding import Bidding, trump_choices
from .display import draw
from .dealing import Dealt, cut_index, deal_given, deal_random, hands_from_order
from .dealing import random_trump as _random_trump
from .kernel import PlayKernel
from .plan import highest_bidder, seat_by_rule, table_plan
from .scoring import DealResult, SeatResult, set_bonuses, settle
from .state import EndKind, GameEnd, IllegalAction, Phase, Trick, TrickPlay, violation
from .tables import SUIT_ID, SUITS

if TYPE_CHECKING:
    from .plan import DealPlan, TablePlan
    from .tables import CardTable
    from .view import SeatView

_PLAY, _BID = Phase.PLAY, Phase.BID


class Game:
    """A whole game of one variant for a number of players.

    :param seed: or ``rng``: where shuffles and random trumps come from.
    :param first_dealer: seat (0-based) of the first dealer; default the last seat,
        so seat 0 is eldest in the first deal.
    :param auto_deal: deal each deal from the random generator; with ``False``
        the caller supplies cards through :meth:`deal_cards` in phase ``DEAL``.
    """

    __slots__ = (
        "variant", "players", "table", "deals", "rng", "auto_deal", "deal_index", "dealer", "end", "phase",
        "to_act", "turned", "cut_card", "is_over", "kernel", "bidding",
        "_totals", "_results", "_plan", "_dp", "_deal", "_kind", "_trump_chooser", "_by_id", "_next_seat",
        "_stack",
    )

    variant: Variant
    players: int
    table: CardTable
    deals: Sequence[Deal]
    """The deals of the game: the schedule, and any played after it (a target score, a tie-break)."""
    rng: random.Random
    auto_deal: bool
    deal_index: int
    """The current deal's place in :attr:`deals` (0-based)."""
    dealer: int
    end: GameEnd | None
    """Why the game ended (None while it goes on)."""
    phase: Phase
    to_act: int
    """The seat to act (-1: nobody, while the cards are dealt or after the end)."""
    turned: Card | None
    """The card turned for trump (or the dealer's last card), if one was."""
    cut_card: Card | None
    is_over: bool
    """True when the game has ended."""
    kernel: PlayKernel
    """The cards of the current deal: hands, cards played, the trick (:mod:`~updown_dsl.engine.kernel`)."""
    bidding: Bidding
    """The bids and calls of the current deal (:mod:`~updown_dsl.engine.bidding`)."""
    _totals: list[int]
    _results: list[DealResult]
    _plan: TablePlan
    _dp: DealPlan
    _deal: Deal
    _kind: DealKind
    _trump_chooser: int
    _by_id: tuple[int, ...]
    _next_seat: tuple[int, ...]
    _stack: list[tuple[Action, Game]] | None

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
        self.deals = plan.schedule
        self.rng = rng if rng is not None else random.Random(seed)
        self.auto_deal = auto_deal
        self._totals = [0] * n
        self._results = []
        self.deal_index = 0
        self.dealer = (n - 1) if first_dealer is None else first_dealer % n
        self.end = None
        self.is_over = False
        self._by_id = t.by_id
        self._next_seat = plan.next_seat
        self._stack = None
        # One kernel and one bidding for the game's life: made for the first deal, each later
        # deal resets them.
        dp = plan.deal_plan(0)
        first = seat_by_rule(plan.first_bidder, self.dealer, n)
        self.kernel = PlayKernel(plan, dp.cards, dp.play)  # (a kind of deal may have wild cards of its own)
        self.table = dp.play.table
        self.bidding = Bidding(dp, n, first)
        self._open_deal(dp, first)

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
        return self.kernel.would_win(self._held(play.card), play)

    def _held(self, card: Card) -> int:
        """The index of the copy of ``card`` the player to act holds (:meth:`CardTable.held`)."""
        return self.table.held(card, self.kernel.hands[self.to_act])

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
            return self.bidding.legal()
        if phase is Phase.TRUMP:
            return trump_choices(self._dp.trump_rules)
        if phase is Phase.AUCTION:
            return self.bidding.legal_calls()
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
                    legal = k.legal_mask
                    if legal is None:
                        legal = k.legal()
                    if i >= 0 and (legal >> i) & 1:
                        # (what _play_card does, without its call: a card is most of a deal's actions)
                        if k.play(i):
                            self._finish_deal()
                        else:
                            self.to_act = k.to_act
                        return
                elif self.kernel.refusal(action) is None:
                    self._play_card(self._held(action.card), action)
                    return
        elif phase is _BID and type(action) is Bid:
            b = self.bidding
            tricks = action.tricks
            if not b.counted and b.allows(tricks):
                nxt = b.take(self.to_act, tricks)  # (what _take_bid does, without its call)
                if nxt >= 0:
                    self.to_act = nxt
                else:
                    self._bids_in()
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
            self._play_card(self._held(action.card), None if action.declare is None else action)
        elif isinstance(action, Bid):
            self._take_bid(action.tricks)
        elif isinstance(action, Call):
            self._take_call(action)
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
        if rule == "last_trick_winner":
            leader = self._last_trick_winner()
        elif rule == "highest_bidder":
            b = self.bidding
            leader = highest_bidder(b.bids, b.order()) if any(x is not None for x in b.bids) else -1
        else:
            leader = self._seat_by(rule)
        leader = leader if leader >= 0 else self._seat_by("eldest")
        self.kernel.begin(leader)
        self.to_act = leader

    def _play_card(self, i: int, declared: Play | None = None) -> None:
        """Play card ``i`` (a wild card with the declaration of ``declared``) through the kernel,
        unchecked, and move the game on."""
        k = self.kernel
        if k.play(i, declared):
            self._finish_deal()
        else:
            self.to_act = k.to_act

    def play_as_written(self, play: Play, instead: Card | None = None) -> bool:
        """Put ``play`` on the table although the rules forbid it here, as a recorded game
        shows it was played.

        A checker reports the broken rule, then goes on with the card as played, so that
        later mistakes are still found and the consequences of this one (who wins the
        trick, the scores) are not reported again. A card in the hand of the player to act
        can be played so, with a declaration that card can make in this position; a card
        of the pack the hand does not hold only ``instead`` of a card it holds (the hand is
        taken to have held the written card in its place). Otherwise nothing changes and
        the answer is False.
        """
        if self.phase is not _PLAY or not isinstance(play.card, Card):
            return False
        t = self.table
        k = self.kernel
        if play.card not in t.index:
            return False
        hand = k.hands[self.to_act]
        i = t.held(play.card, hand)
        if not (hand >> i) & 1 and t.copies > 1:
            # two packs: a copy no hand holds and nobody played, if one is left
            placed = 0
            for h in k.hands:
                placed |= h
            for x in k.order:
                placed |= 1 << x
            i = t.free(play.card, placed)
        if not (hand >> i) & 1:
            j = t.held(instead, hand) if instead is not None and instead in t.index else None
            if j is None or not (hand >> j) & 1:
                return False
            k.hold_instead(self.to_act, j, i)
        if play.declare is None:
            if (t.joker_mask >> i) & 1:
                return False  # an undeclared joker: nothing says how it counts
            self._play_card(i)
            return True
        if not k.fits(i, play):
            return False
        self._play_card(i, play)
        return True

    def play_cards(self, cards: Sequence[tuple[int, int, Play]]) -> int:
        """Play cards without a declaration, each (seat, card index, play), checked one after
        another as :meth:`apply` checks them (the seat must be the one to act), for a checker
        replaying a record; the number played.

        It stops at the first card :meth:`apply` would refuse, or at the end of the deal (the
        game is left with the cards before it played).
        """
        k = self.kernel
        if self.phase is not _PLAY:
            return 0
        played = 0
        twins = self.table.copies > 1
        for seat, i, play in cards:
            if twins and i >= 0:
                i = self.table.held(play.card, k.hands[seat])
            if seat != k.to_act or i < 0 or play.declare is not None or not (k.legal() >> i) & 1:
                break
            played += 1
            if k.play(i):
                self._finish_deal()
                return played
        self.to_act = k.to_act
        return played

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
        if not k.rules.plain or self.phase is not _PLAY:
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
        wild = k.hands[self.to_act] & self.table.wild_mask if k.rules.has_wild else 0
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

    # ------------------------------------------------------------------ dealing
    def _start_deal(self) -> None:
        dp = self._plan.deal_plan(self.deal_index)
        first = seat_by_rule(self._plan.first_bidder, self.dealer, self.players)
        self.kernel.reset(dp.cards, dp.play)
        self.table = dp.play.table  # (the same cards; a kind of deal may make some wild)
        self.bidding.reset(dp, first)
        self._open_deal(dp, first)

    def _open_deal(self, dp: DealPlan, first: int) -> None:
        """The deal of ``dp`` begins, ``first`` to bid (the kernel and the bidding are fresh)."""
        self._dp = dp
        self._deal = dp.deal
        self._kind = dp.kind
        self.kernel.leader = seat_by_rule(self._plan.first_leader, self.dealer, self.players, first)
        self.turned = None
        self.cut_card = None
        self._trump_chooser = -1
        if dp.bidding == "before_deal":
            self._begin_bidding()  # blind: bid first, deal after
            return
        self._to_deal()

    def _to_deal(self) -> None:
        self.phase = Phase.DEAL
        self.to_act = -1
        if self.auto_deal:
            self._install(deal_random(self._plan, self._dp, self.rng, self.dealer))

    def deal_random(self) -> None:
        """Shuffle and deal the current deal from the game's random generator (phase ``DEAL``).

        Games made with ``auto_deal=True`` do this by themselves; a game that was
        replayed from explicit cards can switch to random dealing with it.

        :raises IllegalAction: outside phase ``DEAL``.
        """
        self._check_dealing()
        self._install(deal_random(self._plan, self._dp, self.rng, self.dealer))

    def deal_from_order(self, order: Sequence[Card], *, cut_card: Card | None = None,
                        random_trump: Suit | None = None) -> None:
        """Deal from a pack in this order (top first), one card at a time from eldest.

        The card after the hands is the turned card when the variant turns one;
        a random trump not given is drawn from the game's random generator.
        """
        n, k = self.players, self._deal.cards
        hands = hands_from_order(order, n, k, self.eldest)
        rest = list(order[n * k:])
        rules = self._dp.trump_rules
        if random_trump is None and rules.rule == "random":
            random_trump = _random_trump(rules, self.rng)
        self.deal_cards(hands, turned=rest[0] if rest else None, cut_card=cut_card, random_trump=random_trump)

    def deal_cards(
        self,
        hands: Sequence[Sequence[Card]],
        *,
        turned: Card | None = None,
        cut_card: Card | None = None,
        random_trump: Suit | None = None,
        recorded_trump: Suit | None = None,
    ) -> None:
        """Give each seat its cards (in the order dealt) and find trump.

        :param turned: the card turned for trump (ignored unless the rules turn one).
        :param cut_card: the card exposed at the cut (for the cut rule).
        :param random_trump: the suit drawn when trump is random.
        :param recorded_trump: the trump suit as a record gives it when the turned card is
            not known (``turned`` omitted).
        :raises IllegalAction: for a wrong hand size or a card not in the pack or dealt twice
            (the game is left as it was).
        """
        self._check_dealing()
        self._install(deal_given(self.table, self._dp, self.players, self.dealer, hands, turned=turned,
                                 cut_card=cut_card, random_trump=random_trump, recorded_trump=recorded_trump))

    def deal_unknown(self, *, trump: Suit | None = None, turned: Card | None = None,
                     chosen: bool = False, cut_card: Card | None = None) -> None:
        """Start the deal without knowing the cards (a score sheet): trump as written.

        With ``chosen`` (and rules that let a player name trump) the game waits for
        that player's :class:`ChooseTrump`. Bids are then checked as usual; finish the
        deal with :meth:`record_tricks`.

        :raises IllegalAction: outside phase ``DEAL``.
        """
        self._check_dealing()
        cut = cut_index(self.table, cut_card)
        self.kernel.deal([0] * self.players, None)
        self._apply_cut(cut)
        self.turned = turned
        self.kernel.set_trump(-1 if trump is None else SUIT_ID[trump])
        dp = self._dp
        if chosen and dp.trump_rule == "chosen" and not dp.trump_rules.after_bidding:
            self._choose_trump()
            return
        if not chosen:
            self._trump_chooser = -2  # the record gives the trump: nobody names it after the bids
        self._after_trump()

    def _check_dealing(self) -> None:
        if self.phase is not Phase.DEAL:
            raise IllegalAction(violation("R002", tr(
                "cards are dealt only at the start of a deal, not in the {phase} phase", phase=self.phase)))

    def _install(self, dealt: Dealt) -> None:
        """Put a deal on the table, apply the cut rule and move on to trump or bids."""
        self.kernel.deal(dealt.hands, dealt.dealt)
        if dealt.cut is not None:  # (the deal began with no cut card)
            self._apply_cut(dealt.cut)
        self.turned = dealt.shown
        self.kernel.set_trump(dealt.trump, self._super_card())
        dp = self._dp
        if dp.trump_rule == "chosen" and not dp.trump_rules.after_bidding:
            self._choose_trump()
            return
        self._after_trump()

    def _super_card(self) -> int:
        """The card index of the deal's super trump (``trump.super_trump``), -1 for none: the
        turned card's rank in the other suit of its colour."""
        dp = self._dp
        if dp.trump_rules.super_trump != "same_colour" or dp.trump_rule not in ("turned", "last_dealt"):
            return -1
        return self.table.super_card(self.turned)

    def _apply_cut(self, cut: int | None) -> None:
        """The cut rule: the special card exposed at the cut zeroes the cutter's total."""
        table = self.table
        self.cut_card = None if cut is None else table.cards[cut]
        if cut is not None:
            w = table.wild_of[cut]
            if w is not None and w.cut_zeroes_total:
                cutter = self._seat_by(self.variant.cut_by)
                self._totals[cutter] = 0
                self._results.append(DealResult.cut(self._deal, self.dealer, self.players, cutter, table.cards[cut]))

    def _seat_by(self, rule: str) -> int:
        return seat_by_rule(rule, self.dealer, self.players, self.bidding.first)

    @property
    def eldest(self) -> int:
        """The seat left of the dealer."""
        return (self.dealer + 1) % self.players

    # ------------------------------------------------------------------ trump
    def _choose_trump(self) -> None:
        """The trump phase: the chooser names trump (before the bids, or after them)."""
        rules = self._dp.trump_rules
        if rules.chooser == "highest_bidder":
            self._trump_chooser = highest_bidder(self.bidding.bids, self.bidding.order())
        else:
            self._trump_chooser = self._seat_by(rules.chooser)
        self.phase = Phase.TRUMP
        self.to_act = self._trump_chooser

    def chooser_view(self) -> tuple[Card, ...]:
        """The cards the trump chooser has seen when naming trump."""
        dealt = self.kernel.log.dealt
        if self._trump_chooser < 0 or dealt is None:
            return ()
        cards = self.table.cards
        rules = self._dp.trump_rules
        seen = len(dealt[self._trump_chooser]) if rules.after_bidding else rules.choose_after
        return tuple(cards[i] for i in dealt[self._trump_chooser][:seen])

    def _after_trump(self) -> None:
        if self._dp.bidding == "before_deal" or (self.bidding.made == self.players and self.players):
            self._begin_play()  # the bids were made before the cards were dealt, or before the trump
        else:
            self._begin_bidding()

    def _apply_trump(self, choice: ChooseTrump) -> None:
        self.kernel.set_trump(-1 if choice.suit is None else SUIT_ID[choice.suit])
        self.kernel.changed()
        self._after_trump()

    def _check_trump(self, choice: ChooseTrump) -> Diagnostic | None:
        if self.phase is not Phase.TRUMP:
            return violation("R022", tr("trump cannot be named in the {phase} phase", phase=self.phase))
        if choice.suit is None and not self._dp.trump_rules.choose_no_trump:
            return violation("R022", tr("no trump may not be named in this variant"))
        return None

    # ------------------------------------------------------------------ bidding
    def _begin_bidding(self) -> None:
        bidding = self._dp.bidding
        if bidding == "none":
            self._begin_play()
            return
        self.phase = Phase.AUCTION if bidding == "auction" else _BID
        if bidding == "auction":
            self.bidding.start_auction()
        if self._dp.seat_bounds:
            self._bound_by_seat()
        self.to_act = self.bidding.first

    def _bound_by_seat(self) -> None:
        """Each seat's bid range, where ``bidding.min`` or ``max`` reads its own history."""
        b, dp = self.variant.bidding, self._dp
        lo, hi = [], []
        for seat in range(self.players):
            env = bid_names(dp.env, self.zeros_in_row(seat))
            lo.append(max(0, b.min_bid(env)))
            hi.append(min(self.bidding.cards, b.max_bid(env)))
        self.bidding.bound_by_seat(lo, hi)

    def zeros_in_row(self, seat: int) -> int:
        """``seat``'s bids of 0 in a row in the deals scored before this one (the deals it did
        not bid in left out)."""
        count = 0
        for r in reversed(self.results):
            if r.event != "deal" or r.seats[seat].bid is None:
                continue
            if r.seats[seat].bid != 0:
                break
            count += 1
        return count

    def bidding_order(self) -> list[int]:
        """Seats in the order they bid this deal."""
        return self.bidding.order()

    def bid_range(self) -> tuple[int, int]:
        """Lowest and highest bid allowed in this deal."""
        return self.bidding.lo, self.bidding.hi

    def forbidden_bid(self) -> int | None:
        """The bid the hook forbids to the player about to bid, if any (``bidding.total:
        differ``; with ``over`` or ``under`` the legal bids say what is allowed)."""
        return self.bidding.forbidden() if self.phase is _BID else None

    @property
    def bids(self) -> tuple[int | None, ...]:
        """Bids of the current deal by seat (None: not yet bid)."""
        return tuple(self.bidding.bids)

    @property
    def calls(self) -> tuple[Call | None, ...]:
        """Each seat's call in this deal's auction (None: not yet called); empty outside one."""
        return tuple(self.bidding.calls)

    @property
    def declarer(self) -> int | None:
        """The seat whose call won this deal's auction (None before its end, or without one)."""
        d = self.bidding.declarer
        return d if d >= 0 else None

    def _take_bid(self, tricks: int) -> None:
        nxt = self.bidding.take(self.to_act, tricks)
        if nxt >= 0:
            self.to_act = nxt
        else:
            self._bids_in()

    def _bids_in(self) -> None:
        """Every bid is in: deal (the bids were blind), name trump or play."""
        if self._dp.bidding == "before_deal":
            self._to_deal()
        else:
            self._after_bids()

    def _after_bids(self) -> None:
        """The last bid is in: name trump now if it is chosen after the bidding, else play."""
        if self._dp.trump_rule == "chosen" and self._dp.trump_rules.after_bidding and self._trump_chooser != -2:
            self._choose_trump()
        else:
            self._begin_play()

    def _check_bid(self, bid: Bid) -> Diagnostic | None:
        if self.phase is not _BID:
            return violation("R002", tr("no bid can be made in the {phase} phase", phase=self.phase))
        return self.bidding.refusal(bid.tricks)

    def bid_as_written(self, tricks: int) -> bool:
        """Take a bid the rules forbid (the hook, a bid out of this deal's range), as a recorded
        game shows it was made, so that a checker can report it and go on with the deal.

        Only a bid of 0 or more can be taken so (one above the cards fails however the play
        goes); otherwise nothing changes and the answer is False.
        """
        if self.phase is not _BID or tricks < 0:
            return False
        self._take_bid(tricks)
        return True

    # -- an auction
    def _take_call(self, call: Call) -> None:
        b = self.bidding
        nxt = b.take_call(self.to_act, call)
        if nxt >= 0:
            self.to_act = nxt
            return
        won = b.calls[b.declarer]
        assert won is not None
        self.kernel.set_trump(-1 if won.suit is None else SUIT_ID[won.suit])
        self.phase = _BID
        if b.made == self.players:
            self._after_bids()
        else:
            self.to_act = b.next_bidder(b.declarer)

    def _check_call(self, call: Call) -> Diagnostic | None:
        if self.phase is not Phase.AUCTION:
            return violation("R002", tr("no call can be made in the {phase} phase", phase=self.phase))
        return self.bidding.call_refusal(call)

    def call_as_written(self, call: Call) -> bool:
        """Take a call the rules refuse (a dash too many, tricks below the auction's minimum, a
        trump it does not name), as a recorded game shows it was made, so that a checker can
        report it and go on with the deal. Only a call of 0 to the number of cards can be
        taken so, and not a last dash after every other player's; otherwise the answer is False."""
        if self.phase is not Phase.AUCTION or not self.bidding.can_take_call(call):
            return False
        self._take_call(call)
        return True

    # ------------------------------------------------------------------ the end of a deal
    def _finish_deal(self) -> None:
        dp = self._dp
        n = self.players
        bids, taken, totals, dealer = self.bidding.bids, self.kernel.taken, self._totals, self.dealer
        seat_result = dp.seat_result
        if dp.reads_made_count:
            made = sum(1 for s in range(n) if bids[s] is None or bids[s] == taken[s])
            seats = [seat_result(bids[s], taken[s], totals[s], s == dealer, made) for s in range(n)]
        else:
            seats = [seat_result(bids[s], taken[s], totals[s], s == dealer) for s in range(n)]
        calls = self.bidding.calls
        result = DealResult(self._deal, dealer, tuple(seats), self.trump, self.turned,
                            calls=tuple(calls) if calls else (), log=self.kernel.log)
        self._results.append(result)
        for s in range(n):
            totals[s] += seats[s].points
        if dp.last_of_set and self.variant.scoring.set_bonus is not None:
            bonus = set_bonuses(self.variant, self._deal, dp.env, self._results, totals)
            if bonus is not None:
                self._results[-1] = result.with_bonus(bonus)
                for s in range(n):
                    totals[s] += bonus[s]
        self._next_deal()

    def record_tricks(self, taken: Sequence[int]) -> None:
        """Finish a deal whose cards are not known from the tricks each player took.

        :raises IllegalAction: before the play or after a card was played (R002), or
            when the tricks do not add up to the hand size (R053).
        """
        if self.phase is not _PLAY or self.kernel.order:
            raise IllegalAction(violation("R002", tr("tricks taken can be recorded only before any card is played")))
        cards = self._deal.cards
        if len(taken) != self.players or any(t < 0 for t in taken) or sum(taken) != cards:
            raise IllegalAction(violation(
                "R053", tr("tricks taken {taken} = {sum} do not add up to the {cards} cards of deal {number}",
                           taken=" + ".join(map(str, taken)), sum=sum(taken), cards=cards, number=self._deal.number)))
        self.kernel.taken = list(taken)
        self._finish_deal()

    def abandon_deal(self, points: Sequence[int] | None = None) -> None:
        """Give up on the current deal (a record too broken to follow) and go on to the next.

        ``points`` (as written in the record, if any) are added to the totals.
        """
        if self.phase is Phase.OVER:
            raise IllegalAction(violation("R030", tr("the game is over")))
        pts = list(points) if points is not None else [0] * self.players
        bids, taken = self.bidding.bids, self.kernel.taken
        seats = tuple(SeatResult(bids[s], taken[s], pts[s]) for s in range(self.players))
        self._results.append(DealResult(self._deal, self.dealer, seats, self.trump, self.turned,
                                        event="abandoned", log=self.kernel.log))
        for s in range(self.players):
            self._totals[s] += pts[s]
        self._next_deal()

    def _next_deal(self) -> None:
        over = self._ended_by_totals(self._dp)
        if over is not None:
            self._end(over)
            return
        self._advance()

    def _ended_by_totals(self, dp: DealPlan) -> GameEnd | None:
        """How the totals end the game after the deal of ``dp``: a stop-loss or a target (None:
        they do not)."""
        end = self.variant.end
        stop = end.stop_loss
        if stop is not None and (end.stop_check == "deal" or dp.last_of_set) and self._stop_loss_reached(stop):
            return GameEnd(EndKind.STOP_LOSS)
        target = end.target
        if target is not None and self._target_reached(target) and not (
                end.tie_break == "extra_deals" and len(self.winners()) > 1):
            return GameEnd(EndKind.TARGET, target)
        return None

    def end_as_written(self) -> bool:
        """Work out again, from the totals as they stand now, whether the game ends after the
        deal just scored, for a checker that took totals as a record writes them
        (:meth:`take_total_as_written`): a game its totals ended goes on if they no longer
        end it, and a game that went on ends if they now do. Only between two deals, before
        anything of the next one is done; True when it changed the game."""
        if self.end is not None:
            if self.end.kind not in (EndKind.STOP_LOSS, EndKind.TARGET) or self._ended_by_totals(self._dp) is not None:
                return False
            self.end = None
            self.is_over = False
            self._advance()
            return True
        k, b = self.kernel, self.bidding
        if self.deal_index == 0 or k.order or b.made or b.calls or self.phase not in (Phase.DEAL, _BID) \
                or self._results[-1:] == [] or self._results[-1].event != "deal":
            return False
        last = self._plan.deal_plan(self.deal_index - 1)
        over = self._ended_by_totals(last)
        if over is None:
            return False
        # Back to the deal just scored, and end there.
        if len(self.deals) > len(self._plan.schedule) and len(self.deals) == self.deal_index + 1:
            self.deals = self.deals[:-1]  # (the deal added past the schedule is not played)
        self.deal_index -= 1
        self.dealer = (self.dealer - 1) % self.players
        self._dp, self._deal, self._kind = last, last.deal, last.kind
        self._end(over)
        return True

    def _advance(self) -> None:
        """Go on to the next deal (or end the game where the schedule ends)."""
        end = self.variant.end
        target = end.target
        self.deal_index += 1
        if self.deal_index >= len(self.deals):
            # Past the schedule: a game to a target goes round it again; a tie is broken
            # by one more deal.
            more = target is not None or (end.tie_break == "extra_deals" and len(self.winners()) > 1)
            if not more or not self._plan.more_deals(self.deal_index + 1):
                extra = self.deal_index - len(self._plan.schedule)
                self._end(GameEnd(EndKind.MAX_DEALS, end.max_deals) if more else
                          GameEnd(EndKind.TIE_BROKEN, extra) if extra > 0 else GameEnd(EndKind.SCHEDULE))
                return
            self.deals = self._plan.deals[:self.deal_index + 1]  # this game's deals: one more
        self.dealer = (self.dealer + 1) % self.players
        self._start_deal()

    def _target_reached(self, target: int) -> bool:
        if self.variant.end.target_exact:
            return target in self._totals
        return max(self._totals) >= target

    def _stop_loss_reached(self, stop: int) -> bool:
        totals = self._totals
        if self.variant.end.stop_on == "total":
            return min(totals) <= -stop
        n, s = self.players, sum(totals)
        return min(n * x - s for x in totals) <= -stop

    def _end(self, end: GameEnd) -> None:
        self.kernel.changed()
        self.phase = Phase.OVER
        self.is_over = True
        self.to_act = -1
        self.end = end

    @property
    def over_reason(self) -> str | None:
        """Why the game ended, in words (None while it goes on): ``str`` of :attr:`end`."""
        return None if self.end is None else str(self.end)

    # ------------------------------------------------------------------ penalties
    def take_as_written(self, action: Action, code: str, instead: Card | None = None) -> bool:
        """Put ``action``, refused for breaking rule ``code``, into the game as a record shows
        it was taken, when the game can go on from it: a card that broke a follow, trump,
        demand, lead or over-trump rule, or a card not in the hand played ``instead`` of one
        it holds (:meth:`play_as_written`), a bid against the range or
        the hook or the dash limit (:meth:`bid_as_written`), a call out of the auction's range or
        a dash too many (:meth:`call_as_written`). A declaration not allowed (R015) changes what the
        others must play, so nothing goes on from it. False: nothing changed."""
        if isinstance(action, Play):
            if code == "R013":
                return instead is not None and self.play_as_written(action, instead)
            return code in _PLAY_AS_WRITTEN and self.play_as_written(action)
        if isinstance(action, Bid):
            return code in _BID_AS_WRITTEN and self.bid_as_written(action.tricks)
        if isinstance(action, Call):
            return code in _CALL_AS_WRITTEN and self.call_as_written(action)
        return False

    def take_total_as_written(self, seat: int, total: int) -> None:
        """Set ``seat``'s running total to ``total``, as a record writes it, so that a checker
        that reported a wrong total goes on from the written one (and does not report the
        same mistake again at every later deal)."""
        self._totals[seat] = total

    def revoke(self, seat: int, code: str = "R010", play: Play | None = None,
               scores: Sequence[int] | None = None) -> int:
        """Apply the variant's penalty for an illegal card by ``seat`` caught at the table.

        Adds the penalty to the offender's total; then, as the variant says
        (``penalties.revoke.then``), the deal is annulled and dealt again by the same
        dealer, goes on (the card taken back), or stops and is scored as the table
        decides: ``scores``, each player's points for it (none when not given). ``play``
        (the illegal card) is kept in the record. Returns the points.

        :raises IllegalAction: when the variant has no penalty for ``code``.
        """
        rules = self.variant.revoke
        if rules is None or code not in rules.covers:
            raise IllegalAction(violation(code, tr("this variant has no penalty for {code}; the card is refused",
                                                   code=code)))
        if self.phase is not _PLAY:
            raise IllegalAction(violation("R002", tr("a revoke can only happen while cards are played")))
        points = rules.points * (self._kind.multiplier if rules.multiplied else 1)
        self._totals[seat] += points
        played: list[tuple[int, object]] = list(self.kernel.log.played())
        if play is not None:
            played.append((seat, play))
        record = DealResult.penalty(self._deal, self.dealer, self.players, seat, points, code,
                                    annulled=rules.replay, bids=self.bidding.bids, hands=self.kernel.log.hands(),
                                    trump=self.trump, turned=self.turned, played=tuple(played))
        self._results.append(record)
        self.kernel.changed()
        if rules.replay:
            self._start_deal()
        elif rules.then == "abandon":
            self.abandon_deal(scores)
        return points

    def redeal_refusal(self, seat: int, void_known: bool = True) -> Diagnostic | None:
        """Why ``seat`` may not ask for a redeal now (a diagnostic naming the rule), or None: the
        variant must allow it (``dealing.void_redeal``), the bidding or calling of a dealt deal
        must be at ``seat``'s first turn, and its hand must have no card of some suit (not
        asked where the hands are not known: ``void_known`` False)."""
        if not self.variant.void_redeal:
            return violation("R025", tr("this variant has no redeal for a void hand"))
        if self.phase not in (_BID, Phase.AUCTION) or (void_known and self.kernel.hands == [0] * self.players):
            return violation("R025", tr("a redeal is asked for before a bid or call is made, once the cards "
                                        "are dealt"))
        if seat != self.to_act or self.bidding.bids[seat] is not None or (
                self.bidding.calls and self.bidding.calls[seat] is not None):
            return violation("R025", tr("a redeal is asked for at the player's first turn to bid or call, "
                                        "before making it"))
        hand = self.kernel.hands[seat]
        table = self.table
        if void_known and all(hand & table.suit_mask[s] for s in range(4)):
            return violation("R025", tr("a redeal needs a hand void in a suit; this hand holds every suit"),
                             hint=tr("bid or call instead"))
        return None

    def redeal(self, seat: int, *, as_written: bool = False) -> None:
        """``seat``, void in a suit, asks for a redeal (``dealing.void_redeal``): the deal as far
        as it went is kept in :attr:`results`, annulled, and the same dealer deals again.
        ``as_written``: a record shows the redeal though the rules refuse it (the checker has
        reported that), so it is made all the same.

        :raises IllegalAction: naming the rule (R025) when the redeal may not be asked for.
        """
        problem = self.redeal_refusal(seat)
        if problem is not None and not (as_written and self.phase in (_BID, Phase.AUCTION)):
            raise IllegalAction(problem)
        self._results.append(DealResult.redeal(
            self._deal, self.dealer, self.players, seat, bids=self.bidding.bids, hands=self.kernel.log.hands(),
            trump=self.trump, turned=self.turned, calls=self.bidding.calls))
        self.kernel.changed()
        self._start_deal()

    # ------------------------------------------------------------------ results
    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's running total (deal points, set premiums and penalties included)."""
        return tuple(self._totals)

    @property
    def results(self) -> tuple[DealResult, ...]:
        """Every deal scored so far (and the penalties and cuts), in order."""
        return tuple(self._results)

    def settlement(self) -> list[int]:
        """Each seat's result by the variant's settlement (in money: points × stake)."""
        return settle(self.variant, self._totals)

    def winners(self) -> list[int]:
        """Seats with the highest total (several on a tie): in a game to an exact target, those
        who reached it; with ``end.tie_break: most_made`` (``most_tricks``), those of them who
        made the most bids (took the most tricks over the game)."""
        end = self.variant.end
        totals = self._totals
        if end.target is not None and end.target_exact and end.target in totals:
            best = end.target
        else:
            best = max(totals)
        seats = [s for s, x in enumerate(totals) if x == best]
        if end.tie_break in ("most_made", "most_tricks") and len(seats) > 1:
            count = [0] * self.players
            tricks = end.tie_break == "most_tricks"
            for r in self._results:
                if r.event == "deal":
                    for s, seat in enumerate(r.seats):
                        count[s] += seat.taken if tricks else seat.bid is not None and seat.bid == seat.taken
            most = max(count[s] for s in seats)
            seats = [s for s in seats if count[s] == most]
        return seats

    def _last_trick_winner(self) -> int:
        """Who won the last trick of the deal before (eldest before the first deal); -1 when
        that deal's tricks are not known (scored from the tricks taken, or given up)."""
        for r in reversed(self._results):
            if r.event == "deal":
                last = r.tricks[-1] if r.tricks else None
                return last.winner if isinstance(last, Trick) else -1
            if r.event == "abandoned":
                return -1
        return self._seat_by("eldest")

    @property
    def first_leader_unknown(self) -> bool:
        """No card of the deal is played yet, and the rules cannot say who leads: the winner of
        the last trick of the deal before leads, and that deal's tricks are not known."""
        return (self.phase is _PLAY and not self.kernel.order and self._plan.first_leader == "last_trick_winner"
                and self._last_trick_winner() < 0)

    def points_if(self, result: DealResult, taken: Sequence[int], totals: Sequence[int],
                  bids: Sequence[int | None] | None = None) -> list[int]:
        """The points each seat would have scored in the deal of ``result`` had the seats taken
        ``taken`` tricks (and bid ``bids``), with ``totals`` before the deal (the dealer as it
        was; a set's premium not included), by the deal's own scoring: for a checker weighing
        a reading of tricks or bids that a record leaves in question."""
        dp = self._plan.deal_plan(result.deal.number - 1)
        bid = [x.bid for x in result.seats] if bids is None else bids
        made = sum(1 for s, b in enumerate(bid) if b is None or b == taken[s])
        return [dp.points(b, taken[s], totals[s], s == result.dealer, made) for s, b in enumerate(bid)]

    def lead_as_written(self, seat: int) -> bool:
        """Let ``seat`` lead the trick about to start, as a record shows it, although another
        player leads it by the rules (the winner of the last trick), so that a checker that
        reported the wrong leader goes on with the deal as written. Only between two tricks
        of the play, or before the first where the winner of the deal before's last trick
        leads it; otherwise nothing changes and the answer is False."""
        k = self.kernel
        if self.phase is not _PLAY or k.count or not 0 <= seat < self.players or \
                not (k.winners or self._plan.first_leader == "last_trick_winner"):
            return False
        k.lead_as_written(seat)
        self.to_act = seat
        return True

    def set_first_leader(self, seat: int) -> None:
        """Who leads the deal, as a record shows it, when :attr:`first_leader_unknown`."""
        if not self.first_leader_unknown or not 0 <= seat < self.players:
            raise IllegalAction(violation("R002", tr("the first leader is given by the rules")))
        self.kernel.begin(seat)
        self.to_act = seat

    def parse_action(self, text: str) -> Action:
        """Read an action as written: ``7S`` or ``JK high H`` (a play), ``2`` or ``bid 2``, ``H`` or
        ``trump none``, ``call 5 S`` or ``dash``; a bare word is read as the phase asks
        (:func:`parse_action`).

        :raises CardError: for text that is no action (it is not checked against the rules:
            :meth:`apply` does that).
        """
        return parse_action(text, self.phase)

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
    def _repr_html_(self) -> str | None:
        """The table and the score sheet so far, for a notebook (:mod:`.display`)."""
        return draw("game", "html", self)

    def _repr_svg_(self) -> str | None:
        """The deal in progress as a picture: each seat's cards and the trick on the table."""
        return draw("game", "svg", self)

    def __repr__(self) -> str:
        if self.is_over:
            where = "over"
        else:
            where = f"deal {self._deal.number}/{len(self.deals)}, {self.phase.value}, to act {self.to_act}"
        return f"<Game {self.variant.name}, {self.players} players, {where}, totals {self._totals}>"

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
        bids, taken = self.bidding.bids, self.kernel.taken
        for s in range(self.players):
            mark = ">" if s == self.to_act else " "
            hand = " ".join(str(c) for c in self.hand(s)) or "-"
            bid = "-" if bids[s] is None else str(bids[s])
            lines.append(f"{mark} {s}  {hand:<{3 * d.cards}}  bid {bid:>2}  took {taken[s]:>2}  "
                         f"total {self._totals[s]:>5}")
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
        new._totals = list(self._totals)
        new._results = list(self._results)
        new.bidding = self.bidding.copy()
        new.kernel = self.kernel.copy()
        new._stack = None
        if rng is None:
            # Made without seeding (random.Random() reads the system's entropy twice, half of a
            # clone's cost): setstate then gives it every bit of its state.
            rng = _new_random(random.Random)
            rng.setstate(self.rng.getstate())
        new.rng = rng
        return new


def parse_action(text: str, phase: Phase) -> Action:
    """Read an action as written (see :meth:`Game.parse_action`), a bare word as ``phase`` asks:
    what a seat's view needs to read a player's answer without the game.

    :raises CardError: for text that is no action.
    """
    words = text.split()
    first = words[0].lower() if words else ""
    if first == "bid" or (phase is _BID and first not in ("trump", "call")):
        return Bid.parse(text)
    if first == "trump" or (phase is Phase.TRUMP and first != "call"):
        return ChooseTrump.parse(text)
    if first == "call" or phase is Phase.AUCTION:
        return Call.parse(text)
    return Play.parse(text)


_SLOTS = Game.__slots__
_get_slots = attrgetter(*_SLOTS)
_new_random = random.Random.__new__
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend

# The rules an action may break and still be taken as made (take_as_written).
_PLAY_AS_WRITTEN = frozenset({"R010", "R011", "R012", "R014", "R016", "R017"})
_BID_AS_WRITTEN = frozenset({"R020", "R021", "R023"})
_CALL_AS_WRITTEN = frozenset({"R023", "R024"})
