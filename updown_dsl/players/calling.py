"""A bot's call in an auction for trump (``bidding: auction``): which trump, how many tricks.

The heuristic bot's trick chances read the deal's trump, which an auction has not named
yet, so a call is judged from the hand alone: honours and length counted for each trump a
call may name (a long trump suit and short side suits make tricks by ruffing; without a
trump, long suits headed by an honour run). A hand too weak for any call dashes when it may.
"""

from __future__ import annotations

from typing import Sequence

from ..actions import Call
from ..cards import Card, Suit
from ..engine.view import SeatView

#: Tricks an honour is worth in a side suit, by rank order (ace 14) and how long the suit is.
_SIDE = {14: (1.0, 1.0, 1.0), 13: (0.3, 0.75, 0.8), 12: (0.05, 0.2, 0.45)}
#: Tricks a trump honour is worth (ace, king, queen, jack).
_TRUMP_HONOUR = {14: 1.0, 13: 0.9, 12: 0.7, 11: 0.45}
#: Below this many expected tricks a hand dashes, when a dash may be called.
DASH_BELOW = 1.0


def tricks_with(hand: Sequence[Card], trump: Suit | None) -> float:
    """Expected tricks from ``hand`` with ``trump`` (None: no trump), from honours and length."""
    suits: dict[Suit, list[int]] = {s: [] for s in Suit}
    wild = 0
    for c in hand:
        if c.suit is None or c.rank is None:
            wild += 1  # a joker takes a trick when its holder wants it
        else:
            suits[c.suit].append(c.rank.order)
    total = float(wild)
    for suit, ranks in suits.items():
        length = len(ranks)
        if suit == trump:
            honours = sum(_TRUMP_HONOUR.get(r, 0.0) for r in ranks)
            small = max(0, length - sum(1 for r in ranks if r in _TRUMP_HONOUR))
            total += honours + 0.75 * max(0, length - 3)
            # Short side suits let the small trumps ruff.
            shortness = sum(max(0, 2 - len(suits[s])) for s in Suit if s != trump)
            total += 0.6 * min(small, shortness)
            continue
        for r in ranks:
            worth = _SIDE.get(r)
            if worth is not None:
                total += worth[min(length, 3) - 1]
        if trump is None and length >= 5 and max(ranks) >= 13:
            total += 0.6 * (length - 4)  # a long suit runs when nobody can ruff it
    return total


def choose_call(view: SeatView) -> Call:
    """The call a careful player would make: the trump worth the most tricks and that many
    tricks (at least the fewest a call may name), or a dash with a hand too weak to call."""
    legal = [a for a in view.legal if isinstance(a, Call)]
    calls = [c for c in legal if c.tricks]
    if not calls:
        return legal[0]
    trumps = list(dict.fromkeys(c.suit for c in calls))
    worth = {t: tricks_with(view.hand, t) for t in trumps}
    best = max(trumps, key=lambda t: (worth[t], -trumps.index(t)))
    if worth[best] < DASH_BELOW and any(not c.tricks for c in legal):
        return next(c for c in legal if not c.tricks)
    want = round(worth[best])
    of_best = [c for c in calls if c.suit == best]
    return min(of_best, key=lambda c: (abs(c.tricks - want), c.tricks))
