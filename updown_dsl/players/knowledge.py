"""What a bot knows at its seat: the cards it has seen, which seats are void, and a rough chance
for each card in hand to take a trick (see ``docs/bots.md``)."""

from __future__ import annotations

from typing import Sequence

from ..actions import Play
from ..engine import Phase, trump_rule_for
from ..engine.tables import SUIT_ID
from ..engine.view import SeatView

#: How likely an opponent holding a joker that may beat a card is to spend it on that trick.
_JOKER_USE = 0.6
#: Chance that a card with higher unseen cards of its suit out still wins later, when the hand
#: holds more cards of the suit than there are higher ones out (trumps / other suits). Measured
#: against random opponents, any promotion of plain-suit cards made the bids worse.
_PROMOTE_TRUMP = 0.45
_PROMOTE_SIDE = 0.0
#: Long trumps: each trump past the first wins back this share, times the share of the pack
#: left undealt, of what is left of a trump's chance to lose (compounded). Measured: on 7-card
#: Oh Hell deals (46 % of the pack undealt) hands of three or four trumps bid half a trick below
#: what they took without it; where the whole pack is dealt (Estimation, Georgian's 9-card
#: deals) they did not, and a length bonus there made the bids worse.
_LONG_TRUMP = 0.45
#: How often an opponent who holds exactly its bid still beats a card on the current trick
#: when it could (it ducks where it can; it wins only when every card it holds would win).
_CONTENT_BEATS = 0.4


class Knowledge:
    """What one seat knows during a deal: unseen cards, opponents' hand sizes, known voids.

    Cards are the card table's indices. An opponent is *void* in a suit once they failed to
    follow it with an ordinary card (and void in trumps once they then did not trump where
    the rules made them).
    """

    def __init__(self, view: SeatView) -> None:
        v = view.variant
        t = view.table
        self.view = view
        self.t = t
        self.players = n = view.players
        self.seat = view.seat
        self.trump = -1 if view.trump is None else SUIT_ID[view.trump]
        self.hand = t.indices(view.hand)
        self._seen = sum(1 << i for i in self.hand)
        """The cards seen (each copy of a card of two packs once): the hand, then the plays."""
        played = [0] * n
        self.voids: list[set[int]] = [set() for _ in range(n)]
        for trick in view.tricks:
            self._note(trick.plays, played)
        self._note(view.trick, played)
        if view.turned is not None and view.turned in t.index:
            _, rule = trump_rule_for(v, view.deal, n, t.size)
            if rule == "turned":  # the turned card is out of play (with last_dealt the dealer holds it)
                self._seen |= 1 << t.free(view.turned, self._seen)
        seen = self._seen
        self.unseen = [i for i in range(t.size) if not (seen >> i) & 1]
        self.u_suit = [0, 0, 0, 0]
        self.u_ranks: list[list[int]] = [[], [], [], []]
        self.u_jokers = 0
        for i in self.unseen:
            s = t.suit_of[i]
            if s < 0:
                self.u_jokers += 1
            else:
                self.u_suit[s] += 1
                self.u_ranks[s].append(t.rank_of[i])
        cards = view.deal.cards
        self.left = [max(0, cards - played[s]) for s in range(n)]
        self.left[self.seat] = len(self.hand)
        self.nu = len(self.unseen)
        self.undealt = max(0.0, 1.0 - cards * n / t.size)
        # Unseen cards of each suit lie outside the hands shown void in it.
        self.room = [self.nu - sum(self.left[x] for x in range(n) if x != self.seat and s in self.voids[x])
                     for s in range(4)]
        # Jokers an opponent may throw on any trick to take it (exempt "high" follows).
        self.joker_rules = [w for w in v.wild if not w.ordinary]
        self.jokers_follow_high = any("high" in w.follow and w.exempt for w in self.joker_rules)
        # Opponents who hold exactly their bid want no more tricks: they beat a card only if forced.
        self.content = [b is not None and s != self.seat and view.taken[s] == b
                        for s, b in enumerate(view.bids)] if view.phase is Phase.PLAY else [False] * n

    def _note(self, plays: Sequence[object], played: list[int]) -> None:
        t = self.t
        led, mode, wild = -1, None, None
        for pos, tp in enumerate(plays):
            seat, play = tp.seat, tp.play  # type: ignore[attr-defined]
            if play.card not in t.index:
                continue
            i = t.free(play.card, self._seen)
            self._seen |= 1 << i
            played[seat] += 1
            decl = play.declare
            if pos == 0:
                wild = t.wild_of[i]
                if decl is None:
                    led, mode = t.suit_of[i], "plain"
                elif decl == "as" and play.as_card is not None:
                    led, mode = SUIT_ID[play.as_card.suit], "plain"
                elif decl in ("high", "takes") and play.suit is not None:
                    led, mode = SUIT_ID[play.suit], "plain"
                elif decl == "demand" and play.suit is not None:
                    led, mode = SUIT_ID[play.suit], "demand"
                else:
                    led, mode = -1, None  # "highest", "free", "open": no inference
                continue
            if decl is not None or led < 0:
                continue
            suit = t.suit_of[i]
            if suit == led:
                continue
            self.voids[seat].add(led)
            trump = self.trump
            if trump < 0 or suit == trump or led == trump:
                continue
            if mode == "plain" and self.view.variant.play.must_trump:
                self.voids[seat].add(trump)
            elif mode == "demand" and wild is not None and wild.demand_void != "any":
                self.voids[seat].add(trump)

    # -- probabilities for one opponent ------------------------------------------------------
    def share(self, j: int, suit: int = -1) -> float:
        """Chance that a given unseen card (of ``suit``) is in seat ``j``'s hand: the seats shown
        void in the suit hold none of it, so it lies among the other hands and the stock."""
        room = self.room[suit] if suit >= 0 else self.nu
        return min(1.0, self.left[j] / room) if room > 0 else 0.0

    def has_any(self, j: int, k: int, suit: int = -1) -> float:
        """Chance that seat ``j`` holds at least one of ``k`` given unseen cards (of ``suit``)."""
        if k <= 0:
            return 0.0
        return 1.0 - (1.0 - self.share(j, suit)) ** k

    def void(self, j: int, suit: int, rounds: int = 0) -> float:
        """Chance that seat ``j`` holds no card of ``suit`` (``rounds`` of it played first)."""
        if suit < 0:
            return 0.0
        if suit in self.voids[j]:
            return 1.0
        k = max(0, self.u_suit[suit] - rounds * (self.players - 1))
        return (1.0 - self.share(j, suit)) ** k

    def trumps(self, j: int) -> float:
        trump = self.trump
        if trump < 0 or trump in self.voids[j]:
            return 0.0
        return self.has_any(j, self.u_suit[trump], trump)

    def higher(self, suit: int, rank: int) -> int:
        return sum(1 for r in self.u_ranks[suit] if r > rank)

    def joker_threat(self, j: int) -> float:
        """Chance that seat ``j`` throws a joker on a given trick: each joker takes one trick."""
        if not self.jokers_follow_high or not self.u_jokers:
            return 0.0
        return self.has_any(j, self.u_jokers) * min(1.0, _JOKER_USE * 2 / max(1, self.left[j]))

    # -- beating a card ------------------------------------------------------------------------
    def beat_ordinary(self, j: int, suit: int, rank: int, led: int, rounds: int = 0) -> float:
        """Chance that seat ``j``, playing later, beats an ordinary card in a trick led in ``led``."""
        trump = self.trump
        if led < 0:
            led = suit
        if suit == led:
            higher = self.higher(suit, rank)
            if suit == trump:
                p = self.has_any(j, higher, suit) if suit not in self.voids[j] else 0.0
            else:
                p_hi = 0.0 if suit in self.voids[j] else self.has_any(j, higher, suit)
                p_ruff = self.void(j, suit, rounds) * self.trumps(j) if trump >= 0 else 0.0
                p = 1.0 - (1.0 - p_hi) * (1.0 - p_ruff)
        elif suit == trump:  # ruffing: beaten by an over-ruff from a player also void in the led suit
            p = self.void(j, led) * self.has_any(j, self.higher(trump, rank), trump)
        else:
            return 1.0
        threat = self.joker_threat(j)
        return 1.0 - (1.0 - p) * (1.0 - threat)

    def later(self, after: int) -> list[int]:
        """Seats still to play in the current trick after ``after`` cards are on the table."""
        leader = self.view.trick[0].seat if self.view.trick else self.seat
        return [(leader + k) % self.players for k in range(after + 1, self.players)]

    def holds(self, play: Play, led: int, later: Sequence[int]) -> float:
        """Chance that ``play``, winning the trick so far, still wins it after ``later`` play."""
        t = self.t
        i = t.index[play.card]  # (either copy of a card of two packs: the same suit and rank)
        decl = play.declare
        leading = not self.view.trick
        if decl is None or decl == "as":
            card = play.as_card if decl == "as" and play.as_card is not None else play.card
            if decl is None and t.suit_of[i] < 0:
                return 0.0
            suit, rank = SUIT_ID[card.suit], card.rank.order  # type: ignore[index, union-attr]
            if leading:
                led = suit
            out = 1.0
            for j in later:
                beat = self.beat_ordinary(j, suit, rank, led)
                out *= 1.0 - (beat * _CONTENT_BEATS if self.content[j] else beat)
            return out
        w = t.wild_of[i]
        if decl == "low":
            return 0.0
        if decl == "highest":
            return 1.0
        if decl == "takes":
            s = SUIT_ID[play.suit] if play.suit is not None else -1
            out = 1.0
            for j in later:
                keep = self.void(j, s)
                if s != self.trump:
                    keep *= 1.0 - self.trumps(j)
                out *= keep
            return out
        if decl in ("high", "demand"):
            out = 1.0
            later_wins = w is None or w.two_high == "later_wins"
            s = SUIT_ID[play.suit] if play.suit is not None else -1
            for j in later:
                beat = self.joker_threat(j) / _JOKER_USE * 0.9 if later_wins else 0.0
                if leading and w is not None and w.beaten_by_trump and self.trump >= 0 and s != self.trump:
                    ruff = self.void(j, s) * self.trumps(j)
                    beat = 1.0 - (1.0 - beat) * (1.0 - ruff)
                out *= 1.0 - beat
            return out
        return 0.5

    # -- future value of a card in hand --------------------------------------------------------
    def value(self, i: int, first_leader: bool) -> float:
        """Chance that card ``i`` of the hand takes a trick when its time comes.

        ``first_leader``: this seat leads the current (or first) trick.
        """
        t = self.t
        w = t.wild_of[i]
        others = [s for s in range(self.players) if s != self.seat]
        suit = t.suit_of[i]
        left = len(self.hand)
        if suit < 0:  # a joker
            if w is None:
                return 0.9
            if "high" in w.follow or any(d in w.lead for d in ("demand", "high", "highest")):
                other = self.u_jokers if w.two_high == "later_wins" else 0
                out = 1.0
                for j in others:
                    out *= 1.0 - self.has_any(j, other) * min(1.0, 1.0 / max(1, self.left[j]))
                return 0.97 * out
            return 0.5
        rank = t.rank_of[i]
        trump = self.trump
        mine = sorted((t.rank_of[k] for k in self.hand if t.suit_of[k] == suit), reverse=True)
        rounds = mine.index(rank) if rank in mine else 0
        out = 1.0
        for j in others:
            out *= 1.0 - self.beat_ordinary(j, suit, rank, suit, rounds)
        higher = self.higher(suit, rank)
        if higher and len(mine) > higher:
            out += (1.0 - out) * (_PROMOTE_TRUMP if suit == trump else _PROMOTE_SIDE)
        if suit == trump:
            out += (1.0 - out) * self._ruff_chance(rank, mine)
            # long trumps: once the others' trumps are drawn, the last ones win
            out += (1.0 - out) * self._long_trumps(len(mine))
        else:
            out *= self._suit_led_chance(suit, left, first_leader)
        if w is not None and w.ordinary and "highest" in w.lead:  # the seven of spades
            lead_value = 0.75 if left > 1 else float(first_leader)
            out = max(out, lead_value)
        return out

    def _long_trumps(self, length: int) -> float:
        """Share of a trump's chance to lose won back by the hand's length in trumps."""
        return 1.0 - (1.0 - _LONG_TRUMP * self.undealt) ** (length - 1)

    def _suit_led_chance(self, suit: int, left: int, leading: bool) -> float:
        """Chance that a card of ``suit`` gets played in a trick led in its suit (by this seat
        or another) before the hand runs out."""
        n = self.players
        not_me = 0.0 if leading else (1.0 - 1.0 / n) ** (left - 1)
        in_play = self.nu + left
        share = (self.u_suit[suit] / in_play) if in_play else 0.0
        not_others: float = (1.0 - share) ** (left * (n - 1) / n)
        return 1.0 - not_me * not_others

    def _ruff_chance(self, rank: int, trumps: list[int]) -> float:
        """Chance that a trump of ``rank`` wins by ruffing a side suit this hand is out of."""
        t = self.t
        left = len(self.hand)
        if left <= 1:
            return 0.0
        in_play = self.nu + left
        chances = 0.0
        for s in range(4):
            if s == self.trump:
                continue
            mine = sum(1 for k in self.hand if t.suit_of[k] == s)
            share = (self.u_suit[s] + mine) / in_play if in_play else 0.0
            chances += max(0.0, (left - 1) * share - 0.7 * mine)
        lower = sum(1 for r in trumps if r < rank)  # the lowest trumps ruff first
        return max(0.0, min(1.0, chances - lower)) * 0.5
    def flexible(self, i: int) -> bool:
        """A joker that may win or lose at its holder's choice (follows ``high`` or ``low``)."""
        w = self.t.wild_of[i]
        return (self.t.suit_of[i] < 0 and w is not None and w.exempt
                and "high" in w.follow and "low" in w.follow)
