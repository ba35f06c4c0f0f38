"""The bidding of one deal: the bids, the dealer's hook, the dash limit and an auction for trump.

A :class:`Bidding` is made fresh for each deal by the game. It knows which bids and calls
are legal, why one is not (a diagnostic naming the rule) and records them; the game moves
from phase to phase. An auction (``bidding: auction``): every player calls once, in bidding
order, a number of tricks with a trump suit or no trump, or a dash (no tricks). The highest
call wins (more tricks; on as many, the higher trump of ``bidding.auction.order``; on an
equal call, the first made): its trump is the deal's and its tricks its caller's bid. A dash
is its caller's bid of 0. Then the others bid, from the declarer's left, at most the highest
call's tricks. ``bidding.dash_limit`` counts the zeros of both rounds (and of any deal,
auction or not).
"""

from __future__ import annotations

from collections import deque
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from ..actions import Bid, Call, ChooseTrump
from ..diagnostics import Diagnostic
from ..i18n import tr
from .auction import DASH, highest_call
from .state import violation
from .tables import SUITS

if TYPE_CHECKING:
    from ..lang.variant import TrumpRules
    from .plan import DealPlan

_BIDS = tuple(Bid(n) for n in range(64))
_BID_SETS: dict[tuple[int, int, int | None], tuple[Bid, ...]] = {}
_TRUMP_CHOICES = (tuple(ChooseTrump(s) for s in SUITS),
                  tuple(ChooseTrump(s) for s in SUITS) + (ChooseTrump(None),))


def bid_of(tricks: int) -> Bid:
    """The shared :class:`Bid` of ``tricks``."""
    return _BIDS[tricks] if 0 <= tricks < len(_BIDS) else Bid(tricks)


def bid_choices(lo: int, hi: int, forbidden: int | None) -> tuple[Bid, ...]:
    """The bids ``lo``..``hi`` without ``forbidden`` (shared tuples)."""
    key = (lo, hi, forbidden)
    bids = _BID_SETS.get(key)
    if bids is None:  # a new range: made once
        bids = tuple(_BIDS[b] if b < len(_BIDS) else Bid(b) for b in range(lo, hi + 1) if b != forbidden)
        if len(_BID_SETS) < 4096:
            _BID_SETS[key] = bids
    return bids


def trump_choices(rules: TrumpRules) -> tuple[ChooseTrump, ...]:
    """The trumps a player may name under ``rules`` (no trump where it is allowed)."""
    return _TRUMP_CHOICES[rules.choose_no_trump]


class Bidding:
    """The bids (and an auction's calls) of one deal. The attributes are public and read-only
    to everyone but this object.

    :param plan: the deal's rules (bid range, hook, dash limit, the auction's calls).
    :param players: the table size.
    :param first: the seat that bids first.
    """

    __slots__ = ("plan", "players", "first", "cards", "bids", "made", "total", "lo", "hi", "hook", "zeros",
                 "counted", "calls", "declarer", "seat_lo", "seat_hi")

    plan: DealPlan
    players: int
    first: int
    """The seat that bids (or calls) first."""
    cards: int
    """The cards each player holds (the deal's, or as :meth:`hold_to` says)."""
    bids: list[int | None]
    """Each seat's bid (None: not yet bid)."""
    made: int
    """How many bids are in."""
    total: int
    """The sum of the bids so far."""
    lo: int
    hi: int
    """The bid range (an auction lowers ``hi`` to the winning call's tricks)."""
    hook: bool
    """The last bidder is hooked (the bids may not total the cards, or must total more or less)."""
    zeros: int
    """Bids of 0 (and dashes) so far, against ``bidding.dash_limit``."""
    counted: bool
    """Zeros are counted or an auction is held: the bids leave the game's fast path."""
    calls: list[Call | None]
    """An auction's calls by seat (empty outside an auction)."""
    declarer: int
    """The seat whose call won the auction (-1: none)."""
    seat_lo: list[int] | None
    seat_hi: list[int] | None
    """Each seat's own bid range, where it reads the seat's history (:meth:`bound_by_seat`);
    ``lo`` and ``hi`` are then the next bidder's."""

    def __init__(self, plan: DealPlan, players: int, first: int) -> None:
        self.players = players
        self.reset(plan, first)

    def reset(self, plan: DealPlan, first: int) -> None:
        """Start the bidding of a new deal (of rules ``plan``, ``first`` to bid)."""
        players = self.players
        self.plan = plan
        self.first = first
        self.cards = plan.cards
        self.bids = [None] * players
        self.made = 0
        self.total = 0
        self.lo = plan.lo
        self.hi = plan.hi
        self.hook = plan.hook
        self.zeros = 0
        self.counted = plan.counted
        self.calls = []
        self.declarer = -1
        self.seat_lo = self.seat_hi = None

    def bound_by_seat(self, lo: Sequence[int], hi: Sequence[int]) -> None:
        """Give each seat its own bid range (``bidding.min`` or ``max`` reads the bidder's own
        history, such as ``zeros_in_row``); ``lo`` and ``hi`` follow the next bidder."""
        self.seat_lo, self.seat_hi = list(lo), list(hi)
        self.lo, self.hi = self.seat_lo[self.first], self.seat_hi[self.first]

    def hold_to(self, cards: int, hi: int) -> None:
        """Hold the bidding to ``cards`` cards each and bids up to ``hi``: a deal the table
        played with another number of cards than the schedule's (a score keeper's
        ``schedule`` line)."""
        self.cards = cards
        self.hi = hi

    def copy(self) -> Bidding:
        """An independent copy (for :meth:`~updown_dsl.engine.Game.clone`)."""
        new = object.__new__(Bidding)
        # Slot by slot, but in C (a copy of a game copies its bidding: search makes thousands).
        _consume(map(setattr, repeat(new, len(_SLOTS)), _SLOTS, _get_slots(self)))
        new.bids = list(self.bids)
        new.calls = list(self.calls)
        return new

    def order(self) -> list[int]:
        """Seats in the order they bid."""
        return [(self.first + i) % self.players for i in range(self.players)]

    # ------------------------------------------------------------------ bids
    def last_range(self) -> tuple[int, int, int | None]:
        """The last bidder's bids under the deal's rule on the total: lowest, highest and the
        one forbidden. A last bidder who cannot make the total over (under) may bid anything."""
        rest = self.cards - self.total
        lo, hi = self.lo, self.hi
        rule = self.plan.total
        if rule == "over":
            return (max(lo, rest + 1), hi, None) if max(lo, rest + 1) <= hi else (lo, hi, None)
        if rule == "under":
            return (lo, min(hi, rest - 1), None) if lo <= min(hi, rest - 1) else (lo, hi, None)
        return lo, hi, rest if lo <= rest <= hi else None

    def hooked(self) -> bool:
        """The next bid is the hooked last bid."""
        return self.hook and self.made == self.players - 1

    def hook_restricts(self) -> bool:
        """The hook takes at least one bid of the range away from the next bidder (the bid
        that would make the total, or under ``bidding.total: over``/``under`` the bids on the
        wrong side of it)."""
        if not self.hooked():
            return False
        lo, hi, forbidden = self.last_range()
        return forbidden is not None or lo > self.lo or hi < self.hi

    def allows(self, tricks: int) -> bool:
        """Whether the next bid may be ``tricks`` (the range and the hook; :meth:`refusal` also
        checks the dash limit and an auction's cap)."""
        if not self.lo <= tricks <= self.hi:
            return False
        if self.hook and self.made == self.players - 1:
            lo, hi, forbidden = self.last_range()
            return lo <= tricks <= hi and tricks != forbidden
        return True

    def legal(self) -> tuple[Bid, ...]:
        """The bids the next bidder may make."""
        if self.counted:
            return bid_choices(*self._counted_range())
        if not self.hook or self.made != self.players - 1:  # (not hooked(), without its call)
            # every bid of the range (the deal's, unless each seat has its own)
            return self.plan.bids if self.seat_lo is None else bid_choices(self.lo, self.hi, None)
        return bid_choices(*self.last_range())

    def forbidden(self) -> int | None:
        """The bid the hook forbids to the next bidder, if any (``bidding.total: differ``; with
        ``over`` or ``under`` the legal bids say what is allowed)."""
        if not self.hooked() or self.plan.total != "differ":
            return None
        rest = self.cards - self.total
        return rest if self.lo <= rest <= self.hi else None

    def take(self, seat: int, tricks: int) -> int:
        """Record ``seat``'s bid (unchecked); the next bidder, or -1 when every bid is in."""
        self.bids[seat] = tricks
        self.made += 1
        self.total += tricks
        if not tricks:
            self.zeros += 1
        if self.made == self.players:
            return -1
        nxt = seat + 1 if seat + 1 < self.players else 0
        if self.bids[nxt] is not None:
            nxt = self.next_bidder(nxt)
        if self.seat_lo is not None and self.seat_hi is not None:
            self.lo, self.hi = self.seat_lo[nxt], self.seat_hi[nxt]
        return nxt

    def next_bidder(self, seat: int) -> int:
        """The next seat after ``seat`` that has not bid."""
        n, bids = self.players, self.bids
        nxt = (seat + 1) % n
        while bids[nxt] is not None:
            nxt = (nxt + 1) % n
        return nxt

    def refusal(self, tricks: int) -> Diagnostic | None:
        """Why the next bid may not be ``tricks`` (a diagnostic naming the rule), or None."""
        lo, hi = self.lo, self.hi
        if self.counted:
            problem = self._counted_refusal(tricks)
            if problem is not None:
                return problem
        if not lo <= tricks <= hi:
            own = self.seat_lo is not None and (lo, hi) != (self.plan.lo, min(self.plan.hi, self.cards))
            return violation("R020", tr("bid {bid} is out of range {lo}..{hi}", bid=tricks, lo=lo, hi=hi),
                             hint=tr("this player's range is {lo}..{hi} in this deal: the variant's bid range "
                                     "reads the player's own bids before it (zeros_in_row)", lo=lo, hi=hi)
                             if own else None)
        if self.hooked() and not self.allows(tricks):
            cards, total = self.cards, self.total + tricks
            rule = self.plan.total
            if rule == "differ":
                return violation(
                    "R021",
                    tr("the last bidder may not bid {bid}: the bids would total {cards}, the number of cards",
                       bid=tricks, cards=cards),
                    hint=tr("bid any other number (the hook, «не сходимся»)"),
                )
            lo, hi, _ = self.last_range()
            return violation(
                "R021",
                tr("the last bidder may not bid {bid}: the bids would total {total}, and they must total more "
                   "than the {cards} cards", bid=tricks, total=total, cards=cards) if rule == "over" else
                tr("the last bidder may not bid {bid}: the bids would total {total}, and they must total less "
                   "than the {cards} cards", bid=tricks, total=total, cards=cards),
                hint=tr("bid {lo} to {hi}", lo=lo, hi=hi) if hi > lo else tr("bid {lo}", lo=lo),
            )
        return None

    # -- the dash limit
    def zero_allowed(self) -> bool:
        """Another bid of 0 (or dash) is within ``bidding.dash_limit``."""
        limit = self.plan.dash_limit
        return limit is None or self.zeros < limit

    def _counted_range(self) -> tuple[int, int, int | None]:
        """The bids allowed now when zeros are counted: lowest, highest and one forbidden."""
        lo, hi, forbidden = self.last_range() if self.hooked() else (self.lo, self.hi, None)
        if lo == 0 and not self.zero_allowed():
            lo = 1
            if lo > hi or (lo == hi and forbidden == lo):
                forbidden = None  # (nothing else is left: the hook gives way to the dash limit)
                hi = max(hi, lo)
        return lo, hi, forbidden

    def _counted_refusal(self, tricks: int) -> Diagnostic | None:
        if tricks == 0 and not self.zero_allowed():
            return violation("R023", tr("no more bids of 0 in this deal: {count} players have already bid 0 (a dash)",
                                        count=self.plan.dash_limit), hint=tr("bid 1 or more"))
        if self.declarer >= 0 and tricks > self.hi:
            won = self.calls[self.declarer]
            return violation("R020", tr("bid {bid} is more than the highest call, {tricks} tricks", bid=tricks,
                                        tricks=won.tricks if won else 0),
                             hint=tr("bid {lo} to {hi}", lo=self.lo, hi=self.hi))
        return None

    # ------------------------------------------------------------------ an auction
    def start_auction(self) -> None:
        """The auction begins: nobody has called."""
        self.calls = [None] * self.players

    def dash_allowed(self) -> bool:
        """A dash may be called now."""
        if not self.plan.dash or not self.zero_allowed():
            return False
        # Somebody must call tricks: the last caller may not dash after every other did.
        called = sum(c is not None for c in self.calls)
        return not (called == self.players - 1 and self.zeros == called)

    def legal_calls(self) -> tuple[Call, ...]:
        """The calls the next caller may make."""
        calls = self.plan.calls
        return (DASH,) + calls if self.dash_allowed() else calls

    def call_refusal(self, call: Call) -> Diagnostic | None:
        """Why the next call may not be ``call`` (a diagnostic naming the rule), or None."""
        dp = self.plan
        if call.tricks == 0:
            if not dp.dash:
                return violation("R023", tr("a dash may not be called in this variant"))
            if not self.zero_allowed():
                return violation("R023", tr("no more dashes in this deal: {count} players have already bid 0",
                                            count=dp.dash_limit), hint=tr("call a number of tricks with a trump"))
            if not self.dash_allowed():
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

    def can_take_call(self, call: Call) -> bool:
        """Whether a call the rules refuse can still be taken as a record shows it (0 to the
        cards, and not a last dash after every other player's)."""
        if not 0 <= call.tricks <= self.cards:
            return False
        called = sum(c is not None for c in self.calls)
        return not (call.tricks == 0 and called == self.players - 1 and self.zeros == called)

    def take_call(self, seat: int, call: Call) -> int:
        """Record ``seat``'s call (unchecked); the next caller, or -1 when every seat has called
        (then :attr:`declarer` holds the winner, its tricks are its bid and :attr:`hi` is capped)."""
        self.calls[seat] = call
        if call.tricks == 0:  # a dash is its caller's bid
            self.zeros += 1
            self.bids[seat] = 0
            self.made += 1
        if any(c is None for c in self.calls):
            return (seat + 1) % self.players
        best = highest_call(self.calls, self.order(), self.plan.calls_rank)
        won = self.calls[best]
        assert won is not None
        self.declarer = best
        self.bids[best] = won.tricks
        self.made += 1
        self.total += won.tricks
        self.hi = min(self.hi, won.tricks)
        return -1


_SLOTS = Bidding.__slots__
_get_slots = attrgetter(*_SLOTS)
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend
