"""Dealing: shuffling, the hands of a random deal or of a deal given card by card, the cut and
the trump the cards make.

The functions here work out a deal as a :class:`Dealt` value and change nothing; the game
puts it on the table (:meth:`~updown_dsl.engine.Game.deal_cards` and friends). A random deal
goes from shuffled card indices straight to bit sets; a given deal is checked first, so a
refused one leaves the game as it was.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, NamedTuple, Sequence

from ..cards import Card, Suit
from ..i18n import tr
from .state import CardFault, IllegalAction, violation
from .tables import SUIT_ID, SUITS

if TYPE_CHECKING:
    from ..lang.variant import TrumpRules
    from .plan import DealPlan, TablePlan
    from .tables import CardTable


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


class Dealt(NamedTuple):
    """A deal worked out, ready to be put on the table."""

    hands: list[int]
    """Each seat's cards, a bit set over the card table."""
    dealt: list[tuple[int, ...]] | None
    """Each seat's card indices in the order dealt (None: not known, as on a score sheet)."""
    trump: int
    """The trump suit's id (-1: none, or not known yet)."""
    shown: Card | None
    """The card turned for trump (or the dealer's last card), if one was."""
    cut: int | None
    """The index of the card exposed at the cut, if the rules look at one."""


def random_trump(rules: TrumpRules, rng: random.Random) -> Suit | None:
    """A trump suit drawn at random (no trump among the choices where the rules allow it)."""
    options: list[Suit | None] = list(SUITS)
    if rules.random_no_trump:
        options.append(None)
    return rng.choice(options)


def deal_random(plan: TablePlan, dp: DealPlan, rng: random.Random, dealer: int) -> Dealt:
    """Shuffle and deal ``dp``'s deal from ``rng`` (the same random draws as dealing a shuffled
    list of cards), with the trump it makes."""
    t = plan.table
    size = len(t.cards)
    n = plan.players
    nk = n * dp.cards
    cut_index = None
    if plan.cut_rule:  # the cut looks at a card anywhere in the pack: shuffle it all
        order = list(range(size))
        shuffle(rng, order)
        k = rng.randrange(1, size)
        cut_index = order[k - 1] if plan.cut_shows == "lifted_bottom" else order[k]
        order = order[k:] + order[:k]
    else:
        order = draw_cards(rng, size, nk + 1)  # the hands and the card turned for trump
    eldest = dealer + 1 if dealer + 1 < n else 0
    bit = t.bit.__getitem__
    dealt: list[tuple[int, ...]] = []
    masks = []
    for s in range(n):
        mine = tuple(order[(s - eldest) % n:nk:n])
        dealt.append(mine)
        masks.append(sum(map(bit, mine)))  # distinct powers of two: the sum is the union
    rules, rule = dp.trump_rules, dp.trump_rule
    trump, shown = -1, None
    if rule == "fixed":
        trump = SUIT_ID[rules.suit] if rules.suit is not None else -1
    elif rule == "random":
        suit = random_trump(rules, rng)
        trump = -1 if suit is None else SUIT_ID[suit]
    elif rule == "turned":
        i = order[nk]
        shown, trump = t.cards[i], turned_trump(t, rules, i)
    elif rule == "last_dealt":
        i = dealt[dealer][-1]
        shown, trump = t.cards[i], turned_trump(t, rules, i)
    return Dealt(masks, dealt, trump, shown, cut_index)


def turned_trump(table: CardTable, rules: TrumpRules, i: int) -> int:
    """The trump suit id card ``i`` makes, turned up (-1: no trump): its suit, unless it is a
    joker (or a special card turned as no trump) or of a rank ``trump.no_trump_on`` names."""
    if rules.no_trump_on and table.cards[i].rank in rules.no_trump_on:
        return -1
    return table.turned_suit[i]


def hands_from_order(order: Sequence[Card], players: int, cards: int, eldest: int) -> list[list[Card]]:
    """The hands of a pack dealt in ``order`` (top first), one card at a time from ``eldest``."""
    n, k = players, cards
    hands = [[order[i * n + s] for i in range(k)] for s in range(n)]
    # Seat s receives from position (s - eldest) mod n of each round.
    return [hands[(s - eldest) % n] for s in range(n)]


def deal_given(table: CardTable, dp: DealPlan, players: int, dealer: int, hands: Sequence[Sequence[Card]], *,
               turned: Card | None = None, cut_card: Card | None = None, random_trump: Suit | None = None,
               recorded_trump: Suit | None = None) -> Dealt:
    """Check hands given card by card (as a record writes them) and work out the trump they make
    (see :meth:`~updown_dsl.engine.Game.deal_cards` for the arguments).

    :raises IllegalAction: for a wrong hand size, a card not in the pack or dealt twice.
    """
    n, k = players, dp.cards
    masks, dealt, seen = dealt_masks(table, hands, k, dp.deal.number)
    if len(masks) != n:
        raise IllegalAction(violation("R002", tr("{hands} hands for {n} players", hands=len(masks), n=n)))
    rules, rule = dp.trump_rules, dp.trump_rule
    trump, shown = -1, None
    if rule == "fixed":
        trump = SUIT_ID[rules.suit] if rules.suit is not None else -1
    elif rule == "random":
        if random_trump is None and not rules.random_no_trump:
            raise IllegalAction(violation("R002", tr("the randomly drawn trump suit must be given")))
        trump = -1 if random_trump is None else SUIT_ID[random_trump]
    elif rule in ("turned", "last_dealt"):
        shown = turned if rule == "turned" else hands[dealer][-1]
        if shown is None and recorded_trump is not None:
            trump = SUIT_ID[recorded_trump]
        else:
            if shown is None:
                raise IllegalAction(violation("R002", tr("no card was turned for trump")))
            i = table.free(shown, seen) if shown in table.index else -1
            if i < 0:
                raise IllegalAction(violation("R013", tr("the turned card {card} is not in this pack", card=shown)))
            if rule == "turned" and (seen >> i) & 1:
                raise IllegalAction(violation("R013", tr("the turned card {card} was also dealt", card=shown)))
            trump = turned_trump(table, rules, i)
    return Dealt(masks, dealt, trump, shown, cut_index(table, cut_card))


def cut_index(table: CardTable, cut_card: Card | None) -> int | None:
    """The index of the card exposed at the cut (None without one).

    :raises IllegalAction: for a card not in the pack.
    """
    if cut_card is None:
        return None
    i = table.index.get(cut_card)
    if i is None:
        raise IllegalAction(violation("R013", tr("the cut card {card} is not in this pack", card=cut_card)))
    return i


def dealt_masks(table: CardTable, hands: Sequence[Sequence[Card]], k: int, number: int
                ) -> tuple[list[int], list[tuple[int, ...]], int]:
    """Bit sets and card indices of hands given as cards, and the set of all of them.

    :raises IllegalAction: for a wrong hand size, a card not in the pack or dealt twice.
    """
    by_id, bit = table.by_id, table.bit
    seen = 0
    masks = []
    dealt: list[tuple[int, ...]] = []
    if table.copies == 1:  # (two packs: each card takes a copy not dealt yet, card by card below)
        try:
            for h in hands:
                idx = tuple([by_id[c.id] for c in h])
                m = sum([bit[i] for i in idx])  # (an index of -1, not in the pack, is caught below)
                if len(idx) != k or min(idx, default=0) < 0 or m.bit_count() != k or m & seen:
                    raise ValueError
                seen |= m
                masks.append(m)
                dealt.append(idx)
            return masks, dealt, seen
        except (AttributeError, IndexError, TypeError, ValueError):
            pass
    # Something is wrong (or two packs): card by card, for the first problem's message.
    seen = 0
    masks.clear()
    dealt.clear()
    for s, h in enumerate(hands):
        if len(h) != k:
            raise IllegalAction(violation("R002", tr("seat {seat} was dealt {dealt} cards, deal {number} has {k}",
                                                     seat=s, dealt=len(h), number=number, k=k)))
        picked: list[int] = []
        for c in h:
            i = table.free(c, seen) if isinstance(c, Card) and by_id[c.id] >= 0 else -1
            if i < 0:
                raise IllegalAction(violation("R013", tr("{card} is not in this pack", card=c)),
                                    CardFault.NOT_IN_PACK)
            if (seen >> i) & 1:
                raise IllegalAction(violation("R013", tr("{card} was dealt twice", card=c) if table.copies == 1 else
                                              tr("{card} was dealt more often than the {copies} packs hold it",
                                                 card=c, copies=table.copies)),
                                    CardFault.DEALT_TWICE)
            seen |= 1 << i
            picked.append(i)
        masks.append(sum(1 << i for i in picked))
        dealt.append(tuple(picked))
    return masks, dealt, seen
