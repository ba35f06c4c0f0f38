"""Restrictions some relatives add to the play: when trump may be led, and over-trumping.

``play.lead_trump`` keeps trumps from being led to the first trick (``not_first_trick``) or
until a trump has been played to an earlier trick (``when_broken``), unless the leader holds
nothing else. ``play.must_overtrump`` makes a player who plays a trump to a trick a trump
already wins play a higher one when able. A variant with either rule leaves the engine's
plain path (:attr:`~updown_dsl.engine.state.State._plain`), so the bundled games without them
pay nothing for them.
"""

from __future__ import annotations

from ..cards import Card
from ..diagnostics import Diagnostic
from ..i18n import tr
from .state import State, violation
from .tables import KEY_TRUMP, SUITS


class Restrictions(State):
    """The lead and over-trump rules on top of the follow and trump obligations."""

    __slots__ = ()

    def _restricted_legal(self, hand: int, legal: int) -> int:
        """``legal`` (the cards the follow and trump rules allow) less what these rules forbid."""
        trump = self._trump
        if trump < 0:
            return legal
        trumps = self._suit_mask[trump]
        if not self._tcount:
            if self._trump_lead_barred() and legal & ~trumps:
                return legal & ~trumps
            return legal
        higher = self._higher_trumps(hand)
        if higher:
            return (legal & ~trumps) | (legal & higher) or legal
        return legal

    def _trump_lead_barred(self) -> bool:
        rule = self._plan.lead_trump
        if rule == "not_first_trick":
            return not self._winners
        if rule == "when_broken":
            trump, suit_of = self._trump, self._suit_of
            done = len(self._winners) * self.players
            return not any(suit_of[i] == trump for i in self._order[:done])
        return False

    def _higher_trumps(self, hand: int) -> int:
        """With ``must_overtrump``, and a trump winning the trick so far: the trumps in ``hand``
        that beat it (0 otherwise, or when a wild card is in the trick)."""
        if not self._plan.must_overtrump or self._general or self._best < KEY_TRUMP:
            return 0
        keys, best = self._keys, self._best
        mine = hand & self._suit_mask[self._trump]
        higher = 0
        while mine:
            low = mine & -mine
            i = low.bit_length() - 1
            if keys[i] > best:
                higher |= low
            mine ^= low
        return higher

    def _restriction_violation(self, hand: int, card: Card) -> Diagnostic | None:
        """Why ``card`` breaks a lead or over-trump rule, when it does."""
        trump = self._trump
        i = self.table.index[card]
        if trump < 0 or self.table.suit_of[i] != trump:
            return None
        if not self._tcount:
            if self._trump_lead_barred() and hand & ~self._suit_mask[trump] & self._nonjoker:
                return violation("R017", tr("{card}: a trump may not be led to the first trick", card=card)
                                 if self._plan.lead_trump == "not_first_trick" else
                                 tr("{card}: a trump may not be led before trumps are broken (a trump played to "
                                    "an earlier trick)", card=card),
                                 hint=tr("lead another suit"))
            return None
        higher = self._higher_trumps(hand)
        if higher and not (higher >> i) & 1:
            beat = " or ".join(str(c) for c in self.table.cards_of(higher))
            return violation("R016", tr("{card} does not beat the {suit} already in the trick: the player must "
                                        "over-trump with {beat}", card=card, suit=SUITS[trump].word, beat=beat),
                             hint=tr("play {beat}", beat=beat))
        return None
