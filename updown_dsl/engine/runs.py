"""Cards played many at a time, without a Play object each: a checker's replay of a whole
plain deal (:meth:`Runs._play_cards`) and a search's play-outs, random (:meth:`Runs.play_out_random`) or
by a policy that picks each card (:meth:`Runs.play_out_by`). They play exactly as
:meth:`~updown_dsl.engine.Game.apply` would, inlined, because they are the hot path of checking
records and of searching. With wild cards a play-out goes card by card
(:meth:`Runs.play_random_card`).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .state import Phase, State


class Runs(State):
    """Runs of plain cards (see the module)."""

    def play_out_random(self, rnd: Callable[[], float]) -> bool:
        """Play uniformly random legal cards to the end of the deal, for search play-outs.

        Each card is the one ``legal_actions()[int(rnd() * len(legal))]`` would give (the
        plain plays come in pack order; ``rnd`` is drawn for every card, a single legal one
        too), played by :meth:`play_out_by`. Returns False, playing nothing, where the deal is
        not plain play (declarations, or not the play phase): the caller then goes action by
        action.
        """
        def pick(game: Any, seat: int, legal: int) -> int:
            k = int(rnd() * legal.bit_count())
            while k:
                legal &= legal - 1
                k -= 1
            return (legal & -legal).bit_length() - 1

        return self.play_out_by(pick, every_card=True)

    def play_out_by(self, choose: Callable[[Any, int, int], int], every_card: bool = False) -> bool:
        """Play plain cards to the end of the deal, each the card index ``choose(game, seat,
        legal)`` picks from the bit set ``legal`` of the cards ``seat`` may play (a single legal
        card is played without asking, unless ``every_card``), for a search's play-outs.

        The game is up to date at every call (hands, the trick, the tricks taken), so the
        policy reads it as it would between two :meth:`apply` calls; the card must be one of
        ``legal`` (it is not checked). Returns False, playing nothing, where the deal is not
        plain play, as :meth:`play_out_random` does.
        """
        if not self._plain or self.phase is not Phase.PLAY or self._general:
            return False
        n = self.players
        hands, order, winners, taken = self._hands, self._order, self._winners, self._taken
        bit, suit_of, suit_mask, next_seat = self._bit, self._suit_of, self._suit_mask, self._next_seat
        must_follow, trump = self._must_follow, self._trump
        ruff = suit_mask[trump] if trump >= 0 and self._must_trump else 0
        keytabs, keyrow = self._keytabs, self._keyrow
        tricks = self._deal.cards
        self._legal_mask = self._plays_cache = None
        seat, count = self.to_act, self._tcount
        while True:
            hand = legal = hands[seat]
            if count:
                in_suit = hand & suit_mask[self._led]
                if in_suit:
                    if must_follow:
                        legal = in_suit
                elif ruff:
                    legal = hand & ruff or hand
            if every_card or legal & (legal - 1):
                self._legal_mask = legal  # (what _legal_now gives the policy here)
                i = choose(self, seat, legal)
            else:
                i = legal.bit_length() - 1
            hands[seat] = hand ^ bit[i]
            order.append(i)
            if count == 0:
                self._leader = self._win = seat
                self._led = led = suit_of[i]
                self._keys = keys = keytabs[keyrow + led]
                self._best = keys[i]
            else:
                k = self._keys[i]
                if k > self._best:
                    self._best = k
                    self._win = seat
            count += 1
            if count == n:  # the trick ends as _end_trick ends a plain one
                win = self._win
                taken[win] += 1
                winners.append(win)
                count = self._tcount = 0
                self._led = -1
                self._leader = self.to_act = seat = win
                if len(winners) == tricks:
                    break
            else:
                self._tcount = count
                self.to_act = seat = next_seat[seat]
        self._legal_mask = None
        self._finish_deal()
        return True

    def play_random_card(self, rnd: Callable[[], float]) -> None:
        """Play a uniformly random legal *card*, a wild card with a uniformly random one of its
        legal declarations, for search play-outs in the play phase.

        A wild card counts once, however many declarations it may make: drawing among the
        actions would play a joker with ten declarations ten times as often as a plain card.
        Declared plays are made only for the wild card drawn.
        """
        ordinary = self._legal_now()
        wild = self._hands[self.to_act] & self.table.wild_mask if self._has_wild else 0
        cards = ordinary | wild
        plays = self.table.plays
        while cards:
            k = int(rnd() * cards.bit_count())
            pick = cards
            while k:
                pick &= pick - 1
                k -= 1
            low = pick & -pick
            i = low.bit_length() - 1
            if not wild & low:
                self.apply(plays[i])
                return
            w = self.table.wild_of[i]
            # (in the order of legal_actions(): the plain play first, then the declarations)
            options = [plays[i]] if ordinary & low else []
            if w is not None:
                options += self._declared_plays(i, w, not self._tcount, ordinary)
            if options:
                self.apply(options[int(rnd() * len(options))])
                return
            cards ^= low  # a wild card with nothing it may declare here
        self.apply(self.legal_actions()[0])  # type: ignore[arg-type]  # (never reached in play: some card is legal)

    def _play_cards(self, cards: Sequence[tuple[int, int, object]]) -> bool:
        """Play every card of the deal, each (seat, card index, play) of a plain card, one
        after another exactly as :meth:`apply` would, for a checker replaying a record.

        Returns False at the first card :meth:`apply` would refuse, or when the variant has
        declarations, cards were already played, or ``cards`` is not the whole deal; the
        game is then left part way and the caller drops it. About twice as cheap per card
        as :meth:`apply` (cards are half of the time of checking a clean record).
        """
        n = self.players
        if not self._plain or self.phase is not Phase.PLAY or self._order or len(cards) != n * self._deal.cards:
            return False
        hands, order = self._hands, self._order
        bit, suit_of, suit_mask, next_seat = self._bit, self._suit_of, self._suit_mask, self._next_seat
        must_follow, must_trump, trump = self._must_follow, self._must_trump, self._trump
        keytabs, keyrow = self._keytabs, self._keyrow
        self._legal_mask = self._plays_cache = None
        # The trick as it stands, in locals; written back at the end of each trick and on a refusal.
        to_act, count, leader, led = self.to_act, 0, self._leader, -1
        keys, best, win = self._keys, self._best, self._win
        for seat, i, play in cards:
            if seat != to_act or i < 0 or play.declare is not None:  # type: ignore[attr-defined]
                break
            hand = hands[seat]
            if not (hand >> i) & 1:
                break
            if count:
                suit = suit_of[i]
                if suit != led:
                    if hand & suit_mask[led]:
                        if must_follow:
                            break
                    elif trump >= 0 and must_trump and suit != trump and hand & suit_mask[trump]:
                        break
                if keys[i] > best:
                    best = keys[i]
                    win = seat
            else:
                leader = seat
                led = suit_of[i]
                keys = keytabs[keyrow + led]
                best = keys[i]
                win = seat
            hands[seat] = hand ^ bit[i]
            order.append(i)
            count += 1
            if count == n:
                self._leader, self._led, self._keys, self._best, self._win = leader, led, keys, best, win
                self._end_trick()  # after the last trick: the deal is scored, the next begins
                to_act, count, leader, led = self.to_act, 0, self._leader, -1
            else:
                to_act = next_seat[seat]
        else:
            return True
        self.to_act, self._tcount, self._leader, self._led = to_act, count, leader, led
        self._keys, self._best, self._win = keys, best, win
        return False
