"""The values of an auction for trump (``bidding: auction`` deals): which call wins, and the
rank of each trump a call may name. The auction itself is :class:`~updown_dsl.engine.bidding.Bidding`'s.

Every player calls once, in bidding order: a number of tricks with a trump suit or no trump,
or a dash (no tricks). The highest call wins (more tricks; on as many, the higher trump of
``bidding.auction.order``; on an equal call, the first made): its trump is the deal's and
its tricks its caller's bid. A dash is its caller's bid of 0. Then the others bid, from the
declarer's left, at most the highest call's tricks. ``bidding.dash_limit`` counts the zeros
of both rounds (and of any deal, auction or not).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from ..actions import Call
from ..cards import Suit

DASH = Call(0)


def highest_call(calls: Sequence[Call | None], order: Sequence[int], rank: Mapping[Suit | None, int]) -> int:
    """The seat of the call that wins an auction: the most tricks, then the higher trump by
    ``rank``, then the first made in bidding ``order``; -1 when nobody called tricks."""
    best, key = -1, (-1, -1)
    for s in order:
        c = calls[s]
        if c is not None and c.tricks and (c.tricks, rank.get(c.suit, 0)) > key:
            best, key = s, (c.tricks, rank.get(c.suit, 0))
    return best


def call_ranks(trumps: Sequence[Suit | None]) -> dict[Suit | None, int]:
    """The rank of each trump a call may name, from ``bidding.auction.order`` (highest first)."""
    return {suit: len(trumps) - i for i, suit in enumerate(trumps)}
