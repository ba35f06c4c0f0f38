"""Playing cards: legal plays, the cards on the table and who wins each trick.

The plain path (no declaration in the trick) never touches joker logic: the legal
cards come from the led suit's bit set, and the trick's winner is kept as the cards
fall by comparing one precomputed key per card. A trick with a declared card (a joker,
the seven of spades) is resolved by :mod:`updown_dsl.engine.wild` when it is complete.
"""

from __future__ import annotations

from ..actions import Play
from ..cards import Card, Suit
from ..diagnostics import Diagnostic
from ..lang.variant import WildRules
from ..i18n import tr
from .state import Phase, State, Trick, TrickPlay, violation
from .tables import SUIT_ID, SUITS


class Playing(State):
    """Legal plays, playing a card and finishing tricks."""

    __slots__ = ()

    # ------------------------------------------------------------------ reading
    @property
    def leader(self) -> int:
        """Who leads (or led) the current trick."""
        return self._leader

    @property
    def led_suit(self) -> Suit | None:
        """The suit the current trick asks for (led, or named by a led wild card); None before
        the lead or when nothing is asked for."""
        return SUITS[self._led] if self._tcount and self._led >= 0 else None

    @property
    def trick(self) -> tuple[TrickPlay, ...]:
        """The cards on the table in the current trick."""
        if not self._tcount:
            return ()
        return self._log.trick_plays(len(self._winners), self._tcount)

    @property
    def tricks(self) -> list[Trick]:
        """Finished tricks of the current deal."""
        return list(self._log.tricks())

    def _begin_play(self) -> None:
        self.phase = Phase.PLAY
        rule = self._plan.first_leader
        leader = self._last_trick_winner() if rule == "last_trick_winner" else self._seat_by(rule)
        self._leader = leader if leader >= 0 else self._seat_by("eldest")
        self._log.first_leader = self._leader
        self.to_act = self._leader

    # ------------------------------------------------------------------ legality
    def _ordinary_legal(self, hand: int) -> int:
        """Bit set of the cards in ``hand`` the follow and trump obligations (and a wild lead's
        demand) let be played without a declaration now; :meth:`_legal_now` adds the lead and
        over-trump rules of :mod:`~updown_dsl.engine.restrict`."""
        ordinary = hand & self._nonjoker
        if not self._tcount or not ordinary:
            return ordinary
        mode = self._lead_mode
        if mode is not None:
            special = self._answer_legal(ordinary, mode)
            if special >= 0:
                return special
        led = self._led
        if led < 0:
            return ordinary
        in_suit = ordinary & self._suit_mask[led]
        if in_suit:
            return in_suit if self._must_follow else ordinary
        trump = self._trump
        if trump >= 0 and self._must_trump:
            trumps = ordinary & self._suit_mask[trump]
            if trumps:
                return trumps
        return ordinary

    def _legal_now(self) -> int:
        """The cards the player to act may play without a declaration, memoised per state change."""
        mask = self._legal_mask
        if mask is None:
            hand = self._hands[self.to_act]
            mask = self._ordinary_legal(hand)
            if self._restricted:
                mask = self._restricted_legal(hand, mask)
            self._legal_mask = mask
        return mask

    def _legal_plays(self) -> tuple[Play, ...]:
        legal = self._legal_now()
        out = self.table.plays_of(legal)
        if self._has_wild:
            wild = self._hands[self.to_act] & self.table.wild_mask
            if wild:
                out += self._declared_in_hand(wild, legal)
        return out

    # ------------------------------------------------------------------ playing
    def _play_declared(self, i: int, play: Play) -> None:
        """Play card ``i`` with the declaration of ``play`` (known legal)."""
        seat = self.to_act
        self._hands[seat] ^= self._bit[i]
        pos = len(self._order)
        self._order.append(i)
        self._decl[pos] = play
        self._changed()
        count = self._tcount
        self._general = True
        if count == 0:
            decl = play.declare
            self._leader = seat
            self._lead_mode = decl
            self._lead_wild = self.table.wild_of[i]
            if decl == "as":
                assert play.as_card is not None and play.as_card.suit is not None
                self._led = SUIT_ID[play.as_card.suit]
                self._lead_mode = None
            elif play.suit is not None:
                self._led = SUIT_ID[play.suit]
            else:
                self._led = -1
        count += 1
        if count == self.players:
            self._end_trick()
        else:
            self._tcount = count
            self.to_act = self._next_seat[seat]

    def play_as_written(self, play: Play) -> bool:
        """Put ``play`` on the table although the rules forbid it here, as a recorded game
        shows it was played.

        A checker reports the broken rule, then goes on with the card as played, so that
        later mistakes are still found and the consequences of this one (who wins the
        trick, the scores) are not reported again. Only a card in the hand of the player
        to act can be played so, with a declaration that card can make in this position;
        otherwise nothing changes and the answer is False.
        """
        if self.phase is not Phase.PLAY or not isinstance(play.card, Card):
            return False
        t = self.table
        i = t.index.get(play.card)
        if i is None or not (self._hands[self.to_act] >> i) & 1:
            return False
        if play.declare is None:
            if (t.joker_mask >> i) & 1:
                return False  # an undeclared joker: nothing says how it counts
            self._legal_mask = self._bit[i]  # (apply then takes it as the one legal card)
            self.apply(t.plays[i])
            return True
        w = t.wild_of[i]
        if w is None or not _fits(play, w, leading=not self._tcount):
            return False
        self._play_declared(i, play)
        return True

    def _end_trick(self) -> None:
        winner = self._general_winner() if self._general else self._win
        self._taken[winner] += 1
        self._winners.append(winner)
        self._tcount = 0
        self._led = -1
        if self._general:  # (a plain trick never set these)
            self._lead_mode = None
            self._lead_wild = None
            self._general = False
        self._leader = winner
        self.to_act = winner
        if len(self._winners) == self._deal.cards:
            self._finish_deal()

    def would_win(self, play: Play) -> bool:
        """Whether ``play`` by the player to act would hold the trick as it stands now.

        Cards still to come are not considered; a lead always holds the trick so far.
        """
        if self.phase is not Phase.PLAY or not self._tcount:
            return self.phase is Phase.PLAY
        t = self.table
        i = t.index[play.card]
        if not self._general and play.declare is None:
            return self._keys[i] > self._best
        entries = self._trick_entries()
        led = self._led
        if self._lead_mode == "open" and led < 0 and play.declare is None:
            led = t.suit_of[i]
        entries.append((i, play))
        return self._winner_pos(entries, led) == len(entries) - 1

    def _trick_entries(self) -> list[tuple[int, Play]]:
        """(card index, play) of the cards on the table."""
        start = len(self._winners) * self.players
        log = self._log
        order = self._order
        return [(order[p], log.play_at(p)) for p in range(start, len(order))]

    def _general_winner(self) -> int:
        entries = self._trick_entries()
        return (self._leader + self._winner_pos(entries, self._led)) % self.players

    # ------------------------------------------------------------------ refusals
    def _check_play(self, play: Play) -> Diagnostic | None:
        t = self.table
        i = t.index.get(play.card) if isinstance(play.card, Card) else None
        seat = self.to_act
        hand = self._hands[seat]
        if i is None or not (hand >> i) & 1:
            return violation("R013", tr("{card} is not in the hand of seat {seat}", card=play.card, seat=seat + 1))
        if play.declare is None:
            if (t.joker_mask >> i) & 1:
                return violation("R015", tr("a joker must be declared: {choices}", choices=self._wild_choices(i)),
                                 hint=tr("e.g. 'JK high' or 'JK demand H'"))
            if (self._legal_now() >> i) & 1:
                return None
            return self._obligation_violation(hand, play.card)
        return self._check_declared(i, play, hand)

    def _obligation_violation(self, hand: int, card: Card) -> Diagnostic:
        t = self.table
        if self._restricted and (self._ordinary_legal(hand) >> t.index[card]) & 1:
            problem = self._restriction_violation(hand, card)
            if problem is not None:
                return problem
        trump = self._trump
        ordinary = hand & ~t.joker_mask
        led = self._led
        suit = t.suit_of[t.index[card]]
        if self._lead_mode == "highest":
            return violation("R014", tr("{card} does not answer the 'highest' lead: play {cards}", card=card,
                                        cards=" or ".join(str(c) for c in t.cards_of(self._ordinary_legal(hand)))))
        if self._lead_mode == "demand" and led >= 0 and ordinary & t.suit_mask[led]:
            best = t.cards[(ordinary & t.suit_mask[led]).bit_length() - 1]
            if suit == led:
                return violation("R014", tr("the joker demands the highest {suit}: play {best}, not {card}",
                                            suit=SUITS[led].word, best=best, card=card))
            return violation("R010", tr("must follow {suit} with {best} (joker demand)", suit=SUITS[led].word,
                                        best=best))
        if led >= 0 and ordinary & t.suit_mask[led]:
            if trump >= 0 and suit == trump:
                return violation("R012", tr("{card} trumps while holding {suit}", card=card, suit=SUITS[led].word),
                                 hint=tr("follow suit: {suit}", suit=SUITS[led].value))
            return violation("R010", tr("{card} does not follow the led suit, {suit}, which the player holds",
                                        card=card, suit=SUITS[led].word),
                             hint=tr("play a card of {suit}", suit=SUITS[led].value))
        if trump >= 0:
            return violation("R011", tr("{card}: void in {suit} and holding a trump, the player must trump",
                                        card=card, suit=SUITS[led].word if led >= 0 else tr("the led suit")),
                             hint=tr("play a card of {suit}", suit=SUITS[trump].value))
        return violation("R015", tr("{card} cannot be played now", card=card))


def _fits(play: Play, w: WildRules, *, leading: bool) -> bool:
    """Whether ``play``'s declaration is one its wild card can make leading (or following),
    whatever the obligations of the moment."""
    decl = play.declare
    if decl == "as":
        return w.impersonate and play.as_card is not None and play.as_card.suit is not None
    if leading:
        return decl in w.lead and (play.suit is not None) == (decl in ("demand", "high", "takes"))
    return decl in w.follow and play.suit is None
