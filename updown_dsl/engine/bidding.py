"""Bidding and naming trump: the bid range, the dealer's hook and the trump choice."""

from __future__ import annotations

from ..actions import Bid, ChooseTrump
from ..diagnostics import Diagnostic
from ..i18n import tr
from .state import Phase, State, violation
from .tables import SUIT_ID, SUITS

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


class Bidding(State):
    """Bids and the trump choice."""

    __slots__ = ()

    def bidding_order(self) -> list[int]:
        """Seats in the order they bid this deal."""
        return [(self._first_bidder + i) % self.players for i in range(self.players)]

    def bid_range(self) -> tuple[int, int]:
        """Lowest and highest bid allowed in this deal."""
        return self._lo, self._hi

    def forbidden_bid(self) -> int | None:
        """The bid the hook forbids to the player about to bid, if any (``bidding.total:
        differ``; with ``over`` or ``under`` the legal bids say what is allowed)."""
        if self.phase is not Phase.BID or self._bids_made != self.players - 1 or not self._hook \
                or self._dp.total != "differ":
            return None
        rest = self._deal.cards - self._bid_sum
        return rest if self._lo <= rest <= self._hi else None

    def _last_range(self) -> tuple[int, int, int | None]:
        """The last bidder's bids under the deal's rule on the total: lowest, highest and the
        one forbidden. A last bidder who cannot make the total over (under) may bid anything."""
        rest = self._deal.cards - self._bid_sum
        lo, hi = self._lo, self._hi
        rule = self._dp.total
        if rule == "over":
            return (max(lo, rest + 1), hi, None) if max(lo, rest + 1) <= hi else (lo, hi, None)
        if rule == "under":
            return (lo, min(hi, rest - 1), None) if lo <= min(hi, rest - 1) else (lo, hi, None)
        return lo, hi, rest if lo <= rest <= hi else None

    def _last_bid_ok(self, tricks: int) -> bool:
        lo, hi, forbidden = self._last_range()
        return lo <= tricks <= hi and tricks != forbidden

    def _begin_bidding(self) -> None:
        if self._dp.bidding == "none":
            self._begin_play()
            return
        if self._dp.bidding == "auction":
            self._begin_auction()
            return
        self.phase = Phase.BID
        self.to_act = self._first_bidder

    def _legal_trumps(self) -> tuple[ChooseTrump, ...]:
        return _TRUMP_CHOICES[self._dp.trump_rules.choose_no_trump]

    def _apply_bid(self, tricks: int) -> None:
        self._changed()
        self._bids[self.to_act] = tricks
        self._bids_made += 1
        self._bid_sum += tricks
        if not tricks:
            self._zeros += 1
        if self._bids_made == self.players:
            if self._dp.bidding == "before_deal":
                self._to_deal()
            else:
                self._after_bids()
        else:
            self.to_act = self._next_bidder(self.to_act)

    def bid_as_written(self, tricks: int) -> bool:
        """Take a bid the rules forbid (the hook, a bid out of this deal's range), as a recorded
        game shows it was made, so that a checker can report it and go on with the deal.

        Only a bid of 0 to the number of cards can be taken so; otherwise nothing changes
        and the answer is False.
        """
        if self.phase is not Phase.BID or not 0 <= tricks <= self._deal.cards:
            return False
        self._apply_bid(tricks)
        return True

    def _apply_trump(self, choice: ChooseTrump) -> None:
        self._changed()
        self.kernel.set_trump(-1 if choice.suit is None else SUIT_ID[choice.suit])
        self._after_trump()

    def _check_bid(self, bid: Bid) -> Diagnostic | None:
        if self.phase is not Phase.BID:
            return violation("R002", tr("no bid can be made in the {phase} phase", phase=self.phase))
        lo, hi = self._lo, self._hi
        if self._counted:
            problem = self._check_counted(bid.tricks)
            if problem is not None:
                return problem
        if not lo <= bid.tricks <= hi:
            return violation("R020", tr("bid {bid} is out of range {lo}..{hi}", bid=bid.tricks, lo=lo, hi=hi))
        if self._hook and self._bids_made == self.players - 1 and not self._last_bid_ok(bid.tricks):
            cards, total = self._deal.cards, self._bid_sum + bid.tricks
            rule = self._dp.total
            if rule == "differ":
                return violation(
                    "R021",
                    tr("the last bidder may not bid {bid}: the bids would total {cards}, the number of cards",
                       bid=bid.tricks, cards=cards),
                    hint=tr("bid any other number (the hook, «не сходимся»)"),
                )
            lo, hi, _ = self._last_range()
            return violation(
                "R021",
                tr("the last bidder may not bid {bid}: the bids would total {total}, and they must total more "
                   "than the {cards} cards", bid=bid.tricks, total=total, cards=cards) if rule == "over" else
                tr("the last bidder may not bid {bid}: the bids would total {total}, and they must total less "
                   "than the {cards} cards", bid=bid.tricks, total=total, cards=cards),
                hint=tr("bid {lo} to {hi}", lo=lo, hi=hi) if hi > lo else tr("bid {lo}", lo=lo),
            )
        return None

    def _check_trump(self, choice: ChooseTrump) -> Diagnostic | None:
        if self.phase is not Phase.TRUMP:
            return violation("R022", tr("trump cannot be named in the {phase} phase", phase=self.phase))
        if choice.suit is None and not self._dp.trump_rules.choose_no_trump:
            return violation("R022", tr("no trump may not be named in this variant"))
        return None
