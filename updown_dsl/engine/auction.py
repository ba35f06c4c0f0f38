"""An auction for trump (``bidding: auction`` deals) and the counted bids around it.

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
from ..diagnostics import Diagnostic
from ..i18n import tr
from .state import Phase, State, violation
from .tables import SUIT_ID

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


class Auction(State):
    """The auction's calls, the declarer, and the dash limit."""

    __slots__ = ()

    @property
    def calls(self) -> tuple[Call | None, ...]:
        """Each seat's call in this deal's auction (None: not yet called); empty outside one."""
        return tuple(self._calls)

    @property
    def declarer(self) -> int | None:
        """The seat whose call won this deal's auction (None before its end, or without one)."""
        return self._declarer if self._declarer >= 0 else None

    def _begin_auction(self) -> None:
        self.phase = Phase.AUCTION
        self._calls = [None] * self.players
        self.to_act = self._first_bidder

    def _zero_allowed(self) -> bool:
        limit = self._dp.dash_limit
        return limit is None or self._zeros < limit

    def _dash_allowed(self) -> bool:
        if not self._dp.dash or not self._zero_allowed():
            return False
        # Somebody must call tricks: the last caller may not dash after every other did.
        called = sum(c is not None for c in self._calls)
        return not (called == self.players - 1 and self._zeros == called)

    def _legal_calls(self) -> tuple[Call, ...]:
        calls = self._dp.calls
        return (DASH,) + calls if self._dash_allowed() else calls

    def _check_call(self, call: Call) -> Diagnostic | None:
        if self.phase is not Phase.AUCTION:
            return violation("R002", tr("no call can be made in the {phase} phase", phase=self.phase))
        dp = self._dp
        if call.tricks == 0:
            if not dp.dash:
                return violation("R023", tr("a dash may not be called in this variant"))
            if not self._zero_allowed():
                return violation("R023", tr("no more dashes in this deal: {count} players have already bid 0",
                                            count=dp.dash_limit), hint=tr("call a number of tricks with a trump"))
            if not self._dash_allowed():
                return violation("R023", tr("the last caller may not dash when every other player did: "
                                            "somebody must name trump"),
                                 hint=tr("call a number of tricks with a trump"))
            return None
        if call in dp.calls:
            return None
        low, high = (dp.calls[0].tricks, dp.calls[-1].tricks) if dp.calls else (1, 0)
        if not low <= call.tricks <= high:
            return violation("R024", tr("a call of {tricks} tricks is not allowed: calls run from {lo} to {hi} "
                                        "tricks, or a dash", tricks=call.tricks, lo=low, hi=high) if dp.dash else
                             tr("a call of {tricks} tricks is not allowed: calls run from {lo} to {hi} tricks",
                                tricks=call.tricks, lo=low, hi=high))
        trumps = ", ".join(c.suit.value if c.suit else "none" for c in dp.calls if c.tricks == low)
        return violation("R024", tr("a call may not name {trump}", trump=call.suit.value if call.suit else "none"),
                         hint=tr("the calls name {trumps}", trumps=trumps))

    def call_as_written(self, call: Call) -> bool:
        """Take a call the rules refuse (a dash too many, tricks below the auction's minimum, a
        trump it does not name), as a recorded game shows it was made, so that a checker can
        report it and go on with the deal. Only a call of 0 to the number of cards can be
        taken so, and not a last dash after every other player's; otherwise the answer is False."""
        if self.phase is not Phase.AUCTION or not 0 <= call.tricks <= self._deal.cards:
            return False
        called = sum(c is not None for c in self._calls)
        if call.tricks == 0 and called == self.players - 1 and self._zeros == called:
            return False  # nobody would name trump
        self._apply_call(call)
        return True

    def _apply_call(self, call: Call) -> None:
        self._changed()
        seat = self.to_act
        self._calls[seat] = call
        if call.tricks == 0:  # a dash is its caller's bid
            self._zeros += 1
            self._bids[seat] = 0
            self._bids_made += 1
        if all(c is not None for c in self._calls):
            self._end_auction()
        else:
            self.to_act = (seat + 1) % self.players

    def _end_auction(self) -> None:
        order = [(self._first_bidder + k) % self.players for k in range(self.players)]
        best = highest_call(self._calls, order, self._dp.calls_rank)
        won = self._calls[best]
        assert won is not None
        self._declarer = best
        self.kernel.set_trump(-1 if won.suit is None else SUIT_ID[won.suit])
        self._bids[best] = won.tricks
        self._bids_made += 1
        self._bid_sum += won.tricks
        self._hi = min(self._hi, won.tricks)
        self.phase = Phase.BID
        if self._bids_made == self.players:
            self._after_bids()
        else:
            self.to_act = self._next_bidder(best)

    def _next_bidder(self, seat: int) -> int:
        """The next seat after ``seat`` that has not bid."""
        n, bids = self.players, self._bids
        nxt = (seat + 1) % n
        while bids[nxt] is not None:
            nxt = (nxt + 1) % n
        return nxt

    def _counted_range(self) -> tuple[int, int, int | None]:
        """The bids allowed now when zeros are counted: lowest, highest and one forbidden."""
        lo, hi, forbidden = (self._last_range() if self._hook and self._bids_made == self.players - 1
                             else (self._lo, self._hi, None))
        if lo == 0 and not self._zero_allowed():
            lo = 1
            if lo > hi or (lo == hi and forbidden == lo):
                forbidden = None  # (nothing else is left: the hook gives way to the dash limit)
                hi = max(hi, lo)
        return lo, hi, forbidden

    def _check_counted(self, tricks: int) -> Diagnostic | None:
        if tricks == 0 and not self._zero_allowed():
            return violation("R023", tr("no more bids of 0 in this deal: {count} players have already bid 0 (a dash)",
                                        count=self._dp.dash_limit), hint=tr("bid 1 or more"))
        if self._declarer >= 0 and tricks > self._hi:
            won = self._calls[self._declarer]
            return violation("R020", tr("bid {bid} is more than the highest call, {tricks} tricks", bid=tricks,
                                        tricks=won.tricks if won else 0),
                             hint=tr("bid {lo} to {hi}", lo=self._lo, hi=self._hi))
        return None
