"""Jokers and special cards: declared plays, the answers they demand, and who wins a
trick that holds one.

Only variants with wild cards (``jokers:`` or a special card such as the seven of
spades) come here; a trick of plain cards never does.
"""

from __future__ import annotations

from ..actions import Play
from ..diagnostics import Diagnostic
from ..lang.variant import WildRules
from ..i18n import tr
from .state import IllegalAction, State, violation
from .tables import KEY_LED, KEY_TRUMP, SUIT_ID, SUITS

#: Keys of declared plays, above any plain card: ``highest`` wins outright; high jokers
#: are ordered by position (later or earlier wins, by ``two_high``).
KEY_WIN = 1 << 20
KEY_HIGH = 5000


class Wild(State):
    """Declarations of jokers and special cards."""

    __slots__ = ()

    def _apply_other_play(self, play: Play) -> None:
        """A declared card (the engine's slow path for plays)."""
        try:
            i = self._by_id[play.card.id]
        except (AttributeError, IndexError, TypeError):
            i = -1  # not a card in this pack
        if i >= 0 and (self._hands[self.to_act] >> i) & 1 and play in self.legal_actions():
            self._play_declared(i, play)
            return
        problem = self.check(play)
        if problem is None:  # pragma: no cover - check and legal_actions agree
            problem = violation("R015", tr("{card} cannot be played now", card=play))
        raise IllegalAction(problem)

    # ------------------------------------------------------------------ legality
    def _answer_legal(self, ordinary: int, mode: str) -> int:
        """Cards that answer a ``highest`` or ``demand`` lead, or -1 for other leads."""
        t = self.table
        trump = self._trump
        if mode == "highest":
            w = self._lead_wild
            assert w is not None
            own = t.suit_of[t.index[w.cards[0]]]
            if w.answer == "highest_of_suit" and own >= 0:
                in_suit = ordinary & t.suit_mask[own]
                return (1 << (in_suit.bit_length() - 1)) if in_suit else ordinary
            if w.answer == "highest_trump" and trump >= 0 and ordinary & t.suit_mask[trump]:
                return 1 << ((ordinary & t.suit_mask[trump]).bit_length() - 1)
            bits = _bits(ordinary)
            best = max(t.rank_of[i] for i in bits)
            return sum(1 << i for i in bits if t.rank_of[i] == best)
        if mode == "demand":
            led = self._led
            if led < 0:
                return ordinary
            in_suit = ordinary & t.suit_mask[led]
            if in_suit:
                return 1 << (in_suit.bit_length() - 1)
            w = self._lead_wild
            if w is not None and w.demand_void != "any" and trump >= 0:
                trumps = ordinary & t.suit_mask[trump]
                if trumps:
                    if w.demand_void == "highest_trump":
                        return 1 << (trumps.bit_length() - 1)
                    return trumps
            return ordinary
        return -1

    def _declared_in_hand(self, wild: int, legal: int) -> tuple[Play, ...]:
        """The declared plays of the wild cards in ``wild`` (a subset of the hand)."""
        t = self.table
        leading = not self._tcount
        extra: list[Play] = []
        for i in _bits(wild):
            w = t.wild_of[i]
            if w is not None:
                extra.extend(self._declared_plays(i, w, leading, legal))
        return tuple(extra)

    def _declared_plays(self, i: int, w: WildRules, leading: bool, legal: int) -> list[Play]:
        t = self.table
        card = t.cards[i]
        out: list[Play] = []
        if leading:
            for decl in w.lead:
                if decl in ("demand", "highest") and not self._demand_allowed(w):
                    continue
                if decl in ("demand", "high", "takes"):
                    out.extend(Play(card, decl, s) for s in SUITS)
                else:
                    out.append(Play(card, decl))
        elif w.exempt or (not w.ordinary and self._no_obligation()) or (legal >> i) & 1:
            out.extend(Play(card, decl) for decl in w.follow)
        if w.impersonate:
            rest = self._hands[self.to_act] & ~(1 << i)
            for ci, c in enumerate(t.cards):
                if c.is_joker or t.suit_of[ci] < 0:
                    continue
                if leading or w.exempt or (self._ordinary_legal((1 << ci) | rest) >> ci) & 1:
                    out.append(Play(card, "as", None, c))
        return out

    def _no_obligation(self) -> bool:
        """The player holds neither the led (or demanded) suit nor a trump they must play."""
        t = self.table
        led = self._led
        if self._lead_mode == "highest" or led < 0:
            return self._lead_mode != "highest"
        hand = self._hands[self.to_act] & ~t.joker_mask
        if hand & t.suit_mask[led]:
            return False
        trump = self._trump
        return not (trump >= 0 and self._must_trump and hand & t.suit_mask[trump])

    def _demand_allowed(self, w: WildRules) -> bool:
        if w.lead_on == "never":
            return False
        if w.lead_on == "first_trick":
            return not self._winners
        return True

    # ------------------------------------------------------------------ refusals
    def _check_declared(self, i: int, play: Play, hand: int) -> Diagnostic | None:
        w = self.table.wild_of[i]
        if w is None:
            return violation("R015", tr("{card} is an ordinary card and cannot be declared {declare!r}", card=play.card,
                                        declare=play.declare))
        leading = not self._tcount
        if play in self._declared_plays(i, w, leading, self._legal_now()):
            return None
        if leading and play.declare in ("demand", "highest") and not self._demand_allowed(w):
            if w.lead_on == "first_trick":
                return violation("R015", tr("a {declare!r} lead is allowed only on the first trick of a deal",
                                            declare=play.declare))
            return violation("R015", tr("a {declare!r} lead is not allowed in this variant", declare=play.declare))
        if not w.exempt and play.declare in w.follow and not leading:
            return self._obligation_violation(hand, play.card)
        return violation("R015", tr("{play} is not a declaration allowed here: {choices}", play=play,
                                    choices=self._wild_choices(i)))

    def _wild_choices(self, i: int) -> str:
        w = self.table.wild_of[i]
        if w is None:
            return "none"
        plays = self._declared_plays(i, w, not self._tcount, self._legal_now())
        return ", ".join(f"'{p}'" for p in plays) or tr("none now")

    # ------------------------------------------------------------------ the winner
    def _winner_pos(self, entries: list[tuple[int, Play]], led: int) -> int:
        """Position of the winning card among ``entries`` (card index, play), led suit ``led``."""
        keys = [self._key(p, entries, led) for p in range(len(entries))]
        return max(range(len(keys)), key=keys.__getitem__)

    def _key(self, pos: int, entries: list[tuple[int, Play]], led: int) -> int:
        t = self.table
        i, play = entries[pos]
        decl = play.declare
        trump = self._trump
        if decl is None or decl == "as":
            if decl == "as":
                c = play.as_card
                assert c is not None and c.suit is not None and c.rank is not None
                suit, rank = SUIT_ID[c.suit], c.rank.order
            else:
                suit, rank = t.suit_of[i], t.rank_of[i]
            if suit == trump and trump >= 0:
                return KEY_TRUMP + rank
            if suit == led:
                return KEY_LED + rank
            return 0
        if decl == "low":
            return -1
        if decl == "highest":
            return KEY_WIN
        if decl == "takes":
            suit = SUIT_ID[play.suit] if play.suit is not None else -1
            return KEY_TRUMP if suit == trump and trump >= 0 else KEY_LED
        w = t.wild_of[i]
        later = w is None or w.two_high == "later_wins"
        if pos == 0 and w is not None and w.beaten_by_trump and trump >= 0 and led != trump:
            # A high joker led in a plain suit loses to any trump played after it.
            others = (self._key(p, entries, led) for p in range(1, len(entries))
                      if entries[p][1].declare in (None, "as", "takes"))
            if any(KEY_TRUMP <= k < KEY_HIGH for k in others):
                return KEY_TRUMP - 1
        return KEY_HIGH + (pos if later else -pos)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
