"""The search bot's roll-out policy: every seat plays a world to the end of its deal, fast.

It acts on the kernel's bit sets and card indices, never through a seat view (a view per
roll-out decision would cost more than the rest of the roll-out). The technique is the
heuristic's in a few rules:

* a seat *wants* a trick while short of its bid, or when one more trick scores more under
  the deal's formula (over its bid in Oh Hell, a no-bid deal that pays tricks);
* wanting: lead its strongest card; follow with the cheapest card that takes the trick
  when last to play, else the strongest that takes it; when nothing takes it, throw the
  weakest card (a low side card before a trump);
* not wanting: lead its weakest card; follow with the strongest card that loses; when
  every card wins, play the weakest (hoping to be over-taken) unless last (then the strongest:
  the trick is taken anyway, so the card that might win later goes);
* bids: the nearest legal bid to a count of the hand's honours and trumps; trump: the suit
  with most cards.

Declared plays (jokers, and a variant's ``special_card``) go through the same rules with
:meth:`~updown_dsl.engine.Game.would_win` and a strength for each declaration.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

from ..actions import Bid, ChooseTrump, Play
from ..engine import Phase
from ..engine.tables import SUIT_ID

if TYPE_CHECKING:
    from ..engine import Game

_PLAY, _BID, _TRUMP, _DEAL = Phase.PLAY, Phase.BID, Phase.TRUMP, Phase.DEAL
#: Strength of a declared play, beside ordinary cards (rank 2..14, trumps + 20).
_DECLARED = {"high": 60, "highest": 60, "takes": 55, "demand": 58, "free": 30, "open": 30, "low": -1}
#: Declarations that take a trick they lead (unless a later wild card beats them).
_WINS = frozenset({"high", "highest", "takes", "demand"})
#: Chance to take a trick of an ordinary card by rank (2..14): side suits, trumps.
_SIDE = (0.0,) * 11 + (0.1, 0.25, 0.55, 0.9)
_TRUMPS = (0.0,) * 2 + (0.2,) * 7 + (0.3, 0.4, 0.55, 0.7, 0.85, 0.97)


class Rollout:
    """Plays games of one card table to the end of the current deal (see the module)."""

    def __init__(self, game: Game, rng: random.Random | None = None) -> None:
        t = game.table
        self.rng = rng or random.Random(0)
        self.n = game.players
        self.suit_of = t.suit_of
        self.rank_of = t.rank_of
        self.plays = t.plays
        self.wild_of = t.wild_of
        self.bit = t.bit
        self.joker_mask = t.joker_mask
        self.wild_mask = t.wild_mask
        self.suit_mask = t.suit_mask
        self.size = t.size
        self._sure = False  # whether the last ordinary card chosen surely takes (or loses) the trick
        self._want: dict[tuple[int, int | None, int, int, int], bool] = {}

    # -- one deal ----------------------------------------------------------------------------
    def run(self, game: Game, seat: int) -> int:
        """Play ``game`` to the end of its deal; the points ``seat`` scored in it."""
        return self.outcome(game, seat, len(game.results))[0]

    def outcome(self, game: Game, seat: int, start: int) -> tuple[int, int]:
        """Play ``game`` to the end of its deal; ``seat``'s points and tricks in the deal scored
        after result ``start`` ((0, -1) when none was scored)."""
        self.playout(game)
        for r in game.results[start:]:
            if r.event == "deal":
                mine = r.seats[seat]
                return mine.points, mine.taken
        return 0, -1

    def playout(self, game: Game, rng: random.Random | None = None) -> None:
        """Play ``game`` to the end of its deal, every seat by this policy (the tree search's
        play-out). ``rng`` is not used: the policy's choices follow from the position (an
        auction's call, which a play-out does not meet, comes from the policy's generator)."""
        index = game.deal_index
        while not game.is_over and game.deal_index == index:
            phase = game.phase
            if phase is _PLAY:
                if not game.play_out_by(self._pick):  # (the kernel plays plain deals out)
                    self.play(game)
            elif phase is _BID:
                game.apply(self.bid(game))
            elif phase is _TRUMP:
                game.apply(self.trump(game))
            elif phase is _DEAL:
                game.deal_random()
            else:  # an auction's calls (none are left once the play-out starts): at random
                legal = game.legal_actions()
                game.apply(legal[int(self.rng.random() * len(legal))])

    def bid(self, game: Game) -> Bid:
        """The nearest legal bid to the hand's count (a blind hand: its share of the tricks)."""
        legal = game.legal_actions()
        seat = game.to_act
        hand = game.kernel.hands[seat]
        if hand:
            want = self.count(hand, game.kernel.trump)
        else:
            want = game.deal.cards / self.n
        bids = [b for b in legal if isinstance(b, Bid)]
        return min(bids, key=lambda b: abs(b.tricks - want))

    def count(self, hand: int, trump: int) -> float:
        """Expected tricks of a hand by a table of honours and trumps."""
        suit_of, rank_of = self.suit_of, self.rank_of
        total = 0.0
        m = hand
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            s = suit_of[i]
            if s < 0:
                total += 0.95
            elif s == trump:
                total += _TRUMPS[rank_of[i]]
            else:
                total += _SIDE[rank_of[i]]
        return total

    def values(self, trump: int) -> list[float]:
        """:meth:`count`'s expected tricks of each card index alone, with ``trump``."""
        return [self.count(self.bit[i], trump) for i in range(self.size)]

    def trump(self, game: Game) -> ChooseTrump:
        """The suit with most cards in the chooser's hand."""
        legal = game.legal_actions()
        hand = game.kernel.hands[game.to_act]
        counts = [0, 0, 0, 0]
        m = hand
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            if self.suit_of[i] >= 0:
                counts[self.suit_of[i]] += 1
        best = max(range(4), key=counts.__getitem__)
        for a in legal:
            if isinstance(a, ChooseTrump) and a.suit is not None and SUIT_ID[a.suit] == best:
                return a
        return legal[0]  # type: ignore[return-value]

    def wants(self, game: Game, seat: int) -> bool:
        """Whether ``seat`` would rather take the next trick."""
        bid = game.bidding.bids[seat]
        taken = game.kernel.taken[seat]
        if bid is not None and taken < bid:
            return True
        total = game.totals[seat]
        key = (game.deal_index, bid, taken, seat, total)
        hit = self._want.get(key)
        if hit is None:
            dp = game.deal_plan
            dealer = seat == game.dealer
            hit = self._want[key] = dp.points(bid, taken + 1, total, dealer) > dp.points(bid, taken, total, dealer)
        return hit

    # -- cards -------------------------------------------------------------------------------
    def _pick(self, game: Game, seat: int, legal: int) -> int:
        """The card index of :meth:`choose` in a plain deal, from the legal bit set."""
        return self._plain_index(game, seat, legal, self.wants(game, seat))

    def play(self, game: Game) -> None:
        """Play the card :meth:`choose` picks."""
        game.apply(self.choose(game))

    def choose(self, game: Game) -> Play:
        """The roll-out's card for the seat to act (phase ``PLAY``)."""
        seat = game.to_act
        kern = game.kernel
        if not kern.general and not kern.hands[seat] & self.wild_mask:
            # No wild card in hand and no declared lead: ordinary cards only, without listing
            # the plays (listing them is a fifth of a play-out with jokers in the pack).
            mask = kern.legal()
            if not mask & (mask - 1):
                return self.plays[mask.bit_length() - 1]
            return self.plays[self._plain_index(game, seat, mask, self.wants(game, seat))]
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]  # type: ignore[return-value]
        want = self.wants(game, seat)
        if kern.general:
            return _declared(self, game, legal, want)
        mask = 0
        index, bit, suit_of = game.table.index, self.bit, self.suit_of
        special = []
        for p in legal:
            i = index[p.card]  # type: ignore[union-attr]
            if p.declare is None and suit_of[i] >= 0:  # type: ignore[union-attr]
                mask |= bit[i]
            else:
                special.append(p)
        if not special:
            return self.plays[self._plain_index(game, seat, mask, want)]
        if not mask:
            return _declared(self, game, legal, want)
        # Ordinary cards first; a joker only where no ordinary card does the job for sure.
        choice = self.plays[self._plain_index(game, seat, mask, want)]
        if self._sure:
            return choice
        if want:
            if kern.count == 0:
                strong = [p for p in special if p.declare in _WINS]  # type: ignore[union-attr,operator]
            else:
                strong = [p for p in special if game.would_win(p)]  # type: ignore[arg-type]
            return _declared(self, game, tuple(strong), want) if strong else choice
        low = [p for p in special if p.declare == "low"]  # type: ignore[union-attr]
        return low[0] if low else choice  # type: ignore[return-value]

    def _reply(self, answers: Callable[[int, int], int], trump_mask: int, hand: int, led: int,
               keys: tuple[int, ...], eager: bool) -> int:
        """The key a hand will put on a trick led in ``led``: wanting a trick (``eager``), the
        strongest card the rules let it play (``answers``: the kernel's
        :meth:`~updown_dsl.engine.PlayKernel.answers`); else the weakest. ``trump_mask``: the
        trump suit's cards (0 without trump)."""
        joker_mask = self.joker_mask
        if eager and hand & joker_mask:
            return 1 << 20  # a joker may take any trick
        legal = answers(hand & ~joker_mask, led)
        trumps = legal & trump_mask
        ins = legal & self.suit_mask[led]
        if eager:
            best = keys[ins.bit_length() - 1] if ins else 0
            if trumps:
                k = keys[trumps.bit_length() - 1]
                if k > best:
                    best = k
            return best
        if legal & ~ins & ~trumps:
            return 0  # a discard
        if ins:
            return keys[(ins & -ins).bit_length() - 1]
        return keys[(trumps & -trumps).bit_length() - 1] if trumps else 0

    def _plain_index(self, game: Game, seat: int, mask: int, want: bool) -> int:
        """The index of the ordinary card to play from ``mask``, every hand of the world in
        sight (see the module)."""
        suit_of, rank_of = self.suit_of, self.rank_of
        kern = game.kernel
        trump = kern.trump
        count = kern.count
        hands = kern.hands
        n = self.n
        reply = self._reply
        wants = self.wants
        answers = kern.answers
        trump_mask = self.suit_mask[trump] if trump >= 0 else 0
        if count == 0:
            keytabs, row = kern.keytabs, kern.keyrow
            others = [(hands[j], wants(game, j)) for j in ((seat + k) % n for k in range(1, n))]
            sure_i, sure_k = -1, 1 << 30
            weak_i, weak_k = -1, 1 << 30
            tops = [-1] * 4  # the others' best reply to a lead of each suit (the same for its cards)
            m = mask
            while m:
                low = m & -m
                i = low.bit_length() - 1
                m ^= low
                s = suit_of[i]
                power = rank_of[i] + (20 if s == trump else 0)
                if power < weak_k:
                    weak_i, weak_k = i, power
                keys = keytabs[row + s]
                k = keys[i]
                top = tops[s]
                if top < 0:
                    top = 0
                    for h, eager in others:
                        r = reply(answers, trump_mask, h, s, keys, eager)
                        if r > top:
                            top = r
                    tops[s] = top
                if want:
                    if k > top and power < sure_k:
                        sure_i, sure_k = i, power
                elif k < top and -power < sure_k:  # a sure loser, the highest first
                    sure_i, sure_k = i, -power
            self._sure = sure_i >= 0
            return sure_i if sure_i >= 0 else weak_i
        keys, best = kern.keys, kern.best
        led = kern.led
        nxt = kern.rules.next_seat
        top = best
        j = nxt[seat]
        for _ in range(n - 1 - count):
            r = reply(answers, trump_mask, hands[j], led, keys, wants(game, j))
            if r > top:
                top = r
            j = nxt[j]
        last = count == n - 1
        sure_i = -1  # want: the cheapest card that holds; else the strongest that loses
        sure_k = 1 << 30
        lose_i, lose_k = -1, -1
        weak_i, weak_k = -1, 1 << 30
        strong_i, strong_k = -1, -1
        m = mask
        while m:
            low = m & -m
            i = low.bit_length() - 1
            m ^= low
            k = keys[i]
            power = rank_of[i] + (20 if suit_of[i] == trump else 0)
            if power < weak_k:
                weak_i, weak_k = i, power
            if power > strong_k:
                strong_i, strong_k = i, power
            if k > top:
                if k < sure_k:
                    sure_i, sure_k = i, k
            elif k < best and power > lose_k:
                lose_i, lose_k = i, power
        self._sure = sure_i >= 0 if want else lose_i >= 0
        if want:
            choice = sure_i if sure_i >= 0 else weak_i
        elif lose_i >= 0:
            choice = lose_i
        elif last or sure_i < 0:
            choice = strong_i if last else weak_i
        else:
            choice = weak_i
        return choice


def _declared(policy: Rollout, game: Game, legal: tuple, want: bool) -> Play:  # type: ignore[type-arg]
    """The roll-out's rules over plays with declarations (wild cards, open and demand leads):
    a function of its own beside the class, which keeps the rules of ordinary cards."""
    suit_of, rank_of = policy.suit_of, policy.rank_of
    trump = game.kernel.trump
    count = game.kernel.count
    last = count == policy.n - 1
    would_win = game.would_win
    index = game.table.index
    best = None
    best_key: tuple[int, int] | None = None
    for p in legal:
        if not isinstance(p, Play):
            continue
        i = index[p.card]
        decl = p.declare
        if decl is None:
            power = rank_of[i] + (20 if suit_of[i] == trump else 0) if suit_of[i] >= 0 else 30
        elif decl == "as" and p.as_card is not None and p.as_card.rank is not None:
            power = p.as_card.rank.order
        else:
            power = _DECLARED.get(decl, 30)
        if count == 0:
            key = (0, power if want else -power)
        else:
            wins = would_win(p)
            if want:
                key = (1, -power if last else power) if wins else (0, -power)
            elif not wins:
                key = (1, power)
            else:
                key = (0, power if last else -power)
        if best_key is None or key > best_key:
            best, best_key = p, key
    assert best is not None
    return best
