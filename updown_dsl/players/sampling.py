"""Guessing the cards a seat cannot see, consistently with what it has seen.

:class:`Sampler` deals the unseen cards (the pack less the seat's own hand, the cards
played, a turned card out of play and any hand shown to it) to the seats that still hold
cards, each as many as it holds, never a card of a suit a seat has shown void in
(:class:`~updown_dsl.players.knowledge.Knowledge` keeps the voids). Cards left over stay
in the pack. Each seat, the most constrained first, takes a uniformly random set of the
cards left that it may hold; :meth:`Sampler.draw` says how much to weigh a guess so that
the guesses follow the deals that fit, uniformly, when several seats are void. Everything
is bit sets over the card table; each guess draws from the generator it is given, so
guesses are reproducible.
"""

from __future__ import annotations

import random
from math import comb

from ..engine import Phase, trump_rule_for
from ..engine.view import SeatView
from ..engine.tables import SUIT_ID, CardTable, bit_indices
from .knowledge import Knowledge

#: Tries to place the cards with every void kept before a guess keeps only the hand sizes.
_TRIES = 30


class Sampler:
    """Guesses of every seat's hand now, for one view (see the module)."""

    def __init__(self, view: SeatView, know: Knowledge | None = None) -> None:
        know = know or Knowledge(view)
        t = know.t
        n = view.players
        self.players = n
        self.seat = seat = view.seat
        bit = t.bit
        played_by = view.log.played_by()
        played = [m.bit_count() for m in played_by]
        seen = 0
        for m in played_by:
            seen |= m
        cards = view.deal.cards
        known = [0] * n
        need = [cards - played[s] for s in range(n)]
        own = t.mask(view.hand, seen)
        if view.phase is Phase.DEAL or (view.phase is Phase.BID and view.deal_kind_bidding == "before_deal"):
            need = [0] * n  # nothing dealt yet
        known[seat] = own
        seen |= own
        for s, h in enumerate(view.seen_hands):
            if h is not None:
                known[s] = t.mask(h, seen)
                seen |= known[s]
        if view.turned is not None and view.turned in t.index:
            _, rule = trump_rule_for(view.variant, view.deal, n, t.size)
            ti = t.free(view.turned, seen)
            if rule == "turned":
                seen |= bit[ti]  # out of play
            elif rule == "last_dealt" and not (seen >> ti) & 1 and need[view.dealer]:
                known[view.dealer] |= bit[ti]  # the dealer holds it until it is played
                seen |= bit[ti]
        self.known = known
        self.need = [max(0, need[s] - bin(known[s]).count("1")) for s in range(n)]
        self.pool = t.full_mask & ~seen
        self.allowed = [t.full_mask] * n
        self._demands(view, t)
        for s in range(n):
            for suit in know.voids[s]:
                self.allowed[s] &= ~t.suit_mask[suit]
        self._pool_bits = tuple(_bits(self.pool))
        self.free = all(self.allowed[s] == t.full_mask for s in range(n) if self.need[s])
        # Most constrained seats first: fewest cards they may hold for the cards they need.
        self.order = sorted((s for s in range(n) if self.need[s]),
                            key=lambda s: bin(self.pool & self.allowed[s]).count("1") - self.need[s])
        self._mine = [tuple(b for b in self._pool_bits if b & self.allowed[s]) for s in range(n)]
        # Seats whose number of choices differs between guesses: a void seat after the first.
        self._weighed = {s for s in self.order[1:] if self.allowed[s] != t.full_mask}

    def _demands(self, view: SeatView, t: CardTable) -> None:
        """A seat that answered a joker's demand (or the seven's "highest" lead) for the highest
        card of a suit with a card of it holds none higher, and with another card holds none of
        the suit (it would have had to play it)."""
        trump = -1 if view.trump is None else SUIT_ID[view.trump]
        for plays in [tr.plays for tr in view.tricks] + [view.trick]:
            if not plays:
                continue
            lead = plays[0].play
            w = t.wild_of[t.index[lead.card]]
            if lead.declare == "demand" and lead.suit is not None:
                suit = SUIT_ID[lead.suit]
            elif lead.declare == "highest" and w is not None:
                own = t.suit_of[t.index[w.cards[0]]]
                suit = own if w.answer == "highest_of_suit" else trump if w.answer == "highest_trump" else -1
            else:
                continue
            if suit < 0:
                continue
            for tp in plays[1:]:
                i = t.index[tp.play.card]
                if tp.play.declare is not None or t.suit_of[i] < 0:
                    continue
                if t.suit_of[i] == suit:
                    above = sum(t.bit[k] for k in range(t.size) if t.suit_of[k] == suit and t.rank_of[k] > t.rank_of[i])
                    self.allowed[tp.seat] &= ~above
                elif lead.declare == "highest":
                    self.allowed[tp.seat] &= ~t.suit_mask[suit]

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's hand now (bit sets), a fresh guess from ``rng``."""
        return self.draw(rng)[0]

    def sample_within(self, rng: random.Random) -> list[int]:
        """A guess (as :meth:`sample`) that keeps every void and demand seen: where the draw had
        to drop one, a random deal that keeps them all (:func:`fill_hands`)."""
        hands = self.sample(rng)
        if all(not (hands[s] & ~self.known[s] & ~self.allowed[s]) for s in range(self.players)):
            return hands
        return fill_hands(self.known, self.need, self.pool, self.allowed, rng)

    def draw(self, rng: random.Random) -> tuple[list[int], int]:
        """A fresh guess (as :meth:`sample`) and how much more likely it is than the draw makes
        it, up to a factor the same for every guess of this view: each seat takes a uniform set
        of the cards left that it may hold, so a guess whose earlier seats left the later ones
        more choice is drawn less often than its share of the deals that fit what was seen
        (weigh it by the number of those choices, :func:`math.comb` per seat). A guess that had
        to drop the voids weighs 1."""
        for attempt in range(_TRIES + 1):
            drawn = self._try(rng, keep_voids=attempt < _TRIES)
            if drawn is not None:
                return drawn
        raise RuntimeError("the unseen cards do not fill the hands")  # pragma: no cover

    def _try(self, rng: random.Random, keep_voids: bool) -> tuple[list[int], int] | None:
        # Each seat (most constrained first) takes a uniformly random set of the cards left that
        # it may hold (a partial Fisher-Yates shuffle, one step per card taken). A seat must not
        # be handed the cards an earlier seat passed over: those are of the suits the earlier
        # seat is void in, and giving them first would stack them on the next seat.
        hands = list(self.known)
        rnd = rng.random
        if self.free or not keep_voids:  # no constraint: one shuffle deals every seat
            pool = list(self._pool_bits)
            m = len(pool)
            j = 0
            for s in self.order:
                chosen = 0
                end = j + self.need[s]
                while j < end:
                    r = j + int(rnd() * (m - j))
                    b = pool[r]
                    pool[r] = pool[j]
                    chosen |= b
                    j += 1
                hands[s] |= chosen
            return hands, 1
        left = self.pool
        mine = self._mine
        weighed = self._weighed
        w = 1
        for s in self.order:
            k = self.need[s]
            cands = [b for b in mine[s] if b & left]
            n = len(cands)
            if n < k:
                return None
            if s in weighed:
                w *= comb(n, k)
            chosen = 0
            for j in range(k):
                r = j + int(rnd() * (n - j))
                b = cands[r]
                cands[r] = cands[j]
                chosen |= b
            left &= ~chosen
            hands[s] |= chosen
        return hands, w


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def fill_hands(known: list[int], need: list[int], pool: int, allowed: list[int],
               rnd: random.Random) -> list[int]:
    """Each seat's ``known`` cards and ``need[s]`` more cards of ``pool``, each card one a
    seat may hold (``allowed[s]``; bit sets over the card table): a random complete matching
    (Kuhn's augmenting paths from the seats' slots, in random order): the last resort of a
    guess that keeps every void when :meth:`Sampler.sample` had to drop one.

    :raises RuntimeError: when no such deal exists.
    """
    slots = [s for s in range(len(need)) for _ in range(need[s])]
    rnd.shuffle(slots)
    cards = bit_indices(pool)
    owner: dict[int, int] = {}  # card -> slot

    def place(slot: int, seen: set[int]) -> bool:
        cands = [c for c in cards if (allowed[slots[slot]] >> c) & 1 and c not in seen]
        rnd.shuffle(cands)
        for c in cands:
            seen.add(c)
            if c not in owner or place(owner[c], seen):
                owner[c] = slot
                return True
        return False

    for slot in range(len(slots)):
        if not place(slot, set()):
            raise RuntimeError("the unseen cards do not fill the hands")
    hands = list(known)
    for c, slot in owner.items():
        hands[slots[slot]] |= 1 << c
    return hands
