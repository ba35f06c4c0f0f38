"""Dealing and trump: the start of a deal, shuffling, explicit deals, the cut and trump.

Every deal starts in :meth:`Dealing._start_deal`. A random deal goes from shuffled card
indices straight to bit sets; the deals a record writes down are in :mod:`.recorded`.
"""

from __future__ import annotations

import random

from ..cards import Card, Suit
from ..lang.variant import TrumpRules
from .plan import highest_bidder, seat_by_rule
from .scoring import DealResult
from ..i18n import tr
from .kernel import PlayKernel
from .state import IllegalAction, Phase, State, Trick, violation
from .tables import SUIT_ID, SUITS


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``, with the same draws but without a method call per card."""
    _fisher_yates(rng, cards, len(cards) - 1)


def draw_cards(rng: random.Random, size: int, count: int) -> list[int]:
    """``count`` cards of a pack of ``size`` (card indices), in the order they come off
    a shuffled pack.

    The shuffle runs Fisher and Yates's steps from the bottom of the pack only as far as
    the cards dealt: a 7-card deal for four players draws 29 random numbers, not 51, and
    every order of every set of cards is as likely as with a whole shuffle.
    """
    cards = list(range(size))
    count = min(count, size)
    _fisher_yates(rng, cards, min(count, size - 1))
    return cards[size - count:][::-1]


def _fisher_yates(rng: random.Random, cards: list[int], steps: int) -> None:
    size = len(cards)
    if type(rng) is not random.Random:  # a subclass may draw its numbers another way
        for i in range(size - 1, size - 1 - steps, -1):
            j = rng.randrange(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return
    getrandbits = rng.getrandbits
    # Random.randrange(n) as Random._randbelow draws it: k bits, again while >= n.
    for i, n, k in _STEPS[size, steps]:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


class _Steps(dict[tuple[int, int], tuple[tuple[int, int, int], ...]]):
    """(position, choices, bits drawn) of the first ``steps`` steps of shuffling ``size`` cards."""

    def __missing__(self, key: tuple[int, int]) -> tuple[tuple[int, int, int], ...]:
        size, steps = key
        out = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, size - 1 - steps, -1))
        self[key] = out
        return out


_STEPS = _Steps()


def _phase_error(phase: Phase) -> IllegalAction:
    return IllegalAction(violation("R002", tr("cards are dealt only at the start of a deal, not in the {phase} phase",
                                              phase=phase)))


class Dealing(State):
    """Starting deals, dealing cards and finding trump."""

    __slots__ = ()

    def _start_deal(self) -> None:
        dp = self._plan.deal_plan(self.deal_index)
        self._dp = dp
        self._deal = dp.deal
        self._kind = dp.kind
        n = self.players
        self.kernel = k = PlayKernel(self._plan, dp.cards)
        self._bids = [None] * n
        self._bids_made = 0
        self._bid_sum = 0
        self._lo = dp.lo
        self._hi = dp.hi
        self._hook = dp.hook
        self.turned = None
        self.cut_card = None
        self._trump_chooser = -1
        self._calls = []
        self._declarer = -1
        self._zeros = 0
        self._counted = dp.counted
        self._first_bidder = seat_by_rule(self._plan.first_bidder, self.dealer, n)
        k.leader = seat_by_rule(self._plan.first_leader, self.dealer, n, self._first_bidder)
        if dp.bidding == "before_deal":
            self._begin_bidding()  # blind: bid first, deal after
            return
        self._to_deal()

    def _to_deal(self) -> None:
        self.phase = Phase.DEAL
        self.to_act = -1
        if self.auto_deal:
            self._deal_random()

    def deal_random(self) -> None:
        """Shuffle and deal the current deal from the game's random generator (phase ``DEAL``).

        Games made with ``auto_deal=True`` do this by themselves; a game that was
        replayed from explicit cards can switch to random dealing with it.

        :raises IllegalAction: outside phase ``DEAL``.
        """
        if self.phase is not Phase.DEAL:
            raise _phase_error(self.phase)
        self._deal_random()

    def _deal_random(self) -> None:
        # The engine's own shuffle needs no validation: card indices go straight into
        # bit sets. (The same random draws as dealing a shuffled list of cards.)
        t = self.table
        size = len(t.cards)
        rng = self.rng
        plan = self._plan
        n = self.players
        nk = n * self._dp.cards
        cut_index = None
        if plan.cut_rule:  # the cut looks at a card anywhere in the pack: shuffle it all
            order = list(range(size))
            shuffle(rng, order)
            k = rng.randrange(1, size)
            cut_index = order[k - 1] if plan.cut_shows == "lifted_bottom" else order[k]
            order = order[k:] + order[:k]
        else:
            order = draw_cards(rng, size, nk + 1)  # the hands and the card turned for trump
        eldest = self.dealer + 1 if self.dealer + 1 < n else 0
        bit = t.bit.__getitem__
        dealt: list[tuple[int, ...]] = []
        masks = []
        for s in range(n):
            mine = tuple(order[(s - eldest) % n:nk:n])
            dealt.append(mine)
            masks.append(sum(map(bit, mine)))  # distinct powers of two: the sum is the union
        dp = self._dp
        rules, rule = dp.trump_rules, dp.trump_rule
        trump, shown = -1, None
        if rule == "fixed":
            trump = SUIT_ID[rules.suit] if rules.suit is not None else -1
        elif rule == "random":
            suit = self._draw_random_trump(rules)
            trump = -1 if suit is None else SUIT_ID[suit]
        elif rule == "turned":
            i = order[nk]
            shown, trump = t.cards[i], t.turned_suit[i]
        elif rule == "last_dealt":
            i = dealt[self.dealer][-1]
            shown, trump = t.cards[i], t.turned_suit[i]
        self._install(masks, dealt, rules, rule, trump, shown, cut_index)

    def _draw_random_trump(self, rules: TrumpRules) -> Suit | None:
        options: list[Suit | None] = list(SUITS)
        if rules.random_no_trump:
            options.append(None)
        return self.rng.choice(options)

    def _last_trick_winner(self) -> int:
        """Who won the last trick of the deal before (eldest before the first deal); -1 when
        that deal's tricks are not known (scored from the tricks taken, or given up)."""
        for r in reversed(self.results):
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
        return (self.phase is Phase.PLAY and not self.kernel.order and self._plan.first_leader == "last_trick_winner"
                and self._last_trick_winner() < 0)

    def set_first_leader(self, seat: int) -> None:
        """Who leads the deal, as a record shows it, when :attr:`first_leader_unknown`."""
        if not self.first_leader_unknown or not 0 <= seat < self.players:
            raise IllegalAction(violation("R002", tr("the first leader is given by the rules")))
        self.kernel.begin(seat)
        self.to_act = seat

    def _seat_by(self, rule: str) -> int:
        return seat_by_rule(rule, self.dealer, self.players, self._first_bidder)

    def _apply_cut(self, cut_index: int | None) -> None:
        """The cut rule: the special card exposed at the cut zeroes the cutter's total."""
        table = self.table
        self.cut_card = None if cut_index is None else table.cards[cut_index]
        if cut_index is not None:
            w = table.wild_of[cut_index]
            if w is not None and w.cut_zeroes_total:
                cutter = self._seat_by(self.variant.cut_by)
                self.totals[cutter] = 0
                self.results.append(
                    DealResult.cut(self._deal, self.dealer, self.players, cutter, table.cards[cut_index])
                )

    def _install(self, masks: list[int], dealt: list[tuple[int, ...]], rules: TrumpRules, rule: str,
                 trump: int, shown: Card | None, cut_index: int | None) -> None:
        """Put checked hands on the table, apply the cut rule and move on to trump or bids."""
        self.kernel.deal(masks, dealt)
        if cut_index is not None:
            self._apply_cut(cut_index)
        else:
            self.cut_card = None
        self.turned = shown
        self.kernel.set_trump(trump)
        if rule == "chosen" and not rules.after_bidding:
            self._choose_trump()
            return
        self._after_trump()

    def _choose_trump(self) -> None:
        """The trump phase: the chooser names trump (before the bids, or after them)."""
        rules = self._dp.trump_rules
        if rules.chooser == "highest_bidder":
            order = [(self._first_bidder + k) % self.players for k in range(self.players)]
            self._trump_chooser = highest_bidder(self._bids, order)
        else:
            self._trump_chooser = self._seat_by(rules.chooser)
        self.phase = Phase.TRUMP
        self.to_act = self._trump_chooser

    def _after_bids(self) -> None:
        """The last bid is in: name trump now if it is chosen after the bidding, else play."""
        if self._dp.trump_rule == "chosen" and self._dp.trump_rules.after_bidding and self._trump_chooser != -2:
            self._choose_trump()
        else:
            self._begin_play()

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
        if self._dp.bidding == "before_deal" or (self._bids_made == self.players and self.players):
            self._begin_play()  # the bids were made before the cards were dealt, or before the trump
        else:
            self._begin_bidding()

    @property
    def eldest(self) -> int:
        """The seat left of the dealer."""
        return (self.dealer + 1) % self.players
