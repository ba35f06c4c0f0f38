"""Deals as a record writes them: the hands given card by card, or not known at all (a score sheet).

An explicit deal (:meth:`RecordedDeals.deal_cards`) is checked before anything changes, so a
refused deal leaves the game as it was.
"""

from __future__ import annotations

from typing import Sequence

from ..cards import Card, Suit
from .dealing import Dealing, _phase_error
from ..i18n import tr
from .state import CardFault, IllegalAction, Phase, violation
from .tables import SUIT_ID


class RecordedDeals(Dealing):
    """Starting a deal from the cards (or only the trump) a record gives."""

    def deal_from_order(
        self,
        order: Sequence[Card],
        *,
        cut_card: Card | None = None,
        random_trump: Suit | None = None,
    ) -> None:
        """Deal from a pack in this order (top first), one card at a time from eldest.

        The card after the hands is the turned card when the variant turns one;
        a random trump not given is drawn from the game's random generator.
        """
        n, k = self.players, self._deal.cards
        hands = [[order[i * n + s] for i in range(k)] for s in range(n)]
        # Seat s receives from position (s - eldest) mod n of each round.
        hands = [hands[(s - self.eldest) % n] for s in range(n)]
        rest = list(order[n * k:])
        rules = self._dp.trump_rules
        if random_trump is None and rules.rule == "random":
            random_trump = self._draw_random_trump(rules)
        self.deal_cards(hands, turned=rest[0] if rest else None, cut_card=cut_card,
                        random_trump=random_trump)

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
        :raises IllegalAction: for a wrong hand size or a card not in the pack or dealt twice.
        """
        if self.phase is not Phase.DEAL:
            raise _phase_error(self.phase)
        n, k = self.players, self._deal.cards
        table = self.table
        masks, dealt, seen = self._dealt_masks(hands, k)
        if len(masks) != n:
            raise IllegalAction(violation("R002", tr("{hands} hands for {n} players", hands=len(masks), n=n)))
        # Find trump before changing anything, so a refused deal leaves the game as it was.
        dp = self._dp
        rules, rule = dp.trump_rules, dp.trump_rule
        trump, shown = -1, None
        if rule == "fixed":
            trump = SUIT_ID[rules.suit] if rules.suit is not None else -1
        elif rule == "random":
            if random_trump is None and not rules.random_no_trump:
                raise IllegalAction(violation("R002", tr("the randomly drawn trump suit must be given")))
            trump = -1 if random_trump is None else SUIT_ID[random_trump]
        elif rule in ("turned", "last_dealt"):
            shown = turned if rule == "turned" else hands[self.dealer][-1]
            if shown is None and recorded_trump is not None:
                trump = SUIT_ID[recorded_trump]
            else:
                if shown is None:
                    raise IllegalAction(violation("R002", tr("no card was turned for trump")))
                i = table.index.get(shown, -1)
                if i < 0:
                    raise IllegalAction(violation("R013", tr("the turned card {card} is not in this pack", card=shown)))
                if rule == "turned" and (seen >> i) & 1:
                    raise IllegalAction(violation("R013", tr("the turned card {card} was also dealt", card=shown)))
                trump = table.turned_suit[i]
        cut_index = table.index.get(cut_card) if cut_card is not None else None
        if cut_card is not None and cut_index is None:
            raise IllegalAction(violation("R013", tr("the cut card {card} is not in this pack", card=cut_card)))
        self._install(masks, dealt, rules, rule, trump, shown, cut_index)

    def _dealt_masks(self, hands: Sequence[Sequence[Card]], k: int
                     ) -> tuple[list[int], list[tuple[int, ...]], int]:
        """Bit sets and card indices of hands given as cards, and the set of all of them.

        :raises IllegalAction: for a wrong hand size, a card not in the pack or dealt twice.
        """
        by_id, bit = self.table.by_id, self.table.bit
        seen = 0
        masks = []
        dealt: list[tuple[int, ...]] = []
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
        # Something is wrong: find the first problem card by card, for its message.
        seen = 0
        for s, h in enumerate(hands):
            if len(h) != k:
                raise IllegalAction(violation("R002", tr("seat {seat} was dealt {dealt} cards, deal {number} has {k}",
                                                         seat=s, dealt=len(h), number=self._deal.number, k=k)))
            for c in h:
                i = by_id[c.id] if isinstance(c, Card) else -1
                if i < 0:
                    raise IllegalAction(violation("R013", tr("{card} is not in this pack", card=c)),
                                        CardFault.NOT_IN_PACK)
                if (seen >> i) & 1:
                    raise IllegalAction(violation("R013", tr("{card} was dealt twice", card=c)),
                                        CardFault.DEALT_TWICE)
                seen |= 1 << i
        raise AssertionError("unreachable: the hands were found good card by card")  # pragma: no cover

    def deal_unknown(self, *, trump: Suit | None = None, turned: Card | None = None,
                     chosen: bool = False, cut_card: Card | None = None) -> None:
        """Start the deal without knowing the cards (a score sheet): trump as written.

        With ``chosen`` (and rules that let a player name trump) the game waits for
        that player's :class:`ChooseTrump`. Bids are then checked as usual; finish the
        deal with :meth:`record_tricks`.

        :raises IllegalAction: outside phase ``DEAL``.
        """
        if self.phase is not Phase.DEAL:
            raise _phase_error(self.phase)
        self.kernel.deal([0] * self.players, None)
        cut_index = self.table.index.get(cut_card) if cut_card is not None else None
        if cut_card is not None and cut_index is None:
            raise IllegalAction(violation("R013", tr("the cut card {card} is not in this pack", card=cut_card)))
        self._apply_cut(cut_index)
        self.turned = turned
        self.kernel.set_trump(-1 if trump is None else SUIT_ID[trump])
        dp = self._dp
        if chosen and dp.trump_rule == "chosen" and not dp.trump_rules.after_bidding:
            self._choose_trump()
            return
        if not chosen:
            self._trump_chooser = -2  # the record gives the trump: nobody names it after the bids
        self._after_trump()
