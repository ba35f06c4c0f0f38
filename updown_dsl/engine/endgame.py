"""The end of a deal and of the game: scores, set premiums, penalties, the stop-loss.

Scores come from the deal plan's compiled formula (memoised per bid and tricks when the
formula does not read the seat's total); results keep the deal's compact log, from which
their tricks and hands are built only when someone looks.
"""

from __future__ import annotations

from typing import Sequence

from ..actions import Action, Bid, Call, Play
from .scoring import DealResult, SeatResult, set_bonuses, settle
from ..i18n import tr
from .state import IllegalAction, Phase, State, violation


class EndOfDeal(State):
    """Scoring, penalties and moving on to the next deal."""

    __slots__ = ()

    def _finish_deal(self) -> None:
        dp = self._dp
        n = self.players
        bids, taken, totals, dealer = self._bids, self.kernel.taken, self.totals, self.dealer
        seat_result = dp.seat_result
        if dp.reads_made_count:
            made = sum(1 for s in range(n) if bids[s] is None or bids[s] == taken[s])
            seats = [seat_result(bids[s], taken[s], totals[s], s == dealer, made) for s in range(n)]
        else:
            seats = [seat_result(bids[s], taken[s], totals[s], s == dealer) for s in range(n)]
        result = DealResult(self._deal, dealer, tuple(seats), self.trump, self.turned,
                            calls=tuple(self._calls) if self._calls else (), log=self.kernel.log)
        self.results.append(result)
        for s in range(n):
            totals[s] += seats[s].points
        if dp.last_of_set and self.variant.scoring.set_bonus is not None:
            bonus = set_bonuses(self.variant, self._deal, dp.env, self.results, totals)
            if bonus is not None:
                self.results[-1] = result.with_bonus(bonus)
                for s in range(n):
                    totals[s] += bonus[s]
        self._next_deal()

    def record_tricks(self, taken: Sequence[int]) -> None:
        """Finish a deal whose cards are not known from the tricks each player took.

        :raises IllegalAction: before the play or after a card was played (R002), or
            when the tricks do not add up to the hand size (R053).
        """
        if self.phase is not Phase.PLAY or self.kernel.order:
            raise IllegalAction(violation("R002", tr("tricks taken can be recorded only before any card is played")))
        cards = self._deal.cards
        if len(taken) != self.players or any(t < 0 for t in taken) or sum(taken) != cards:
            raise IllegalAction(violation(
                "R053", tr("tricks taken {taken} = {sum} do not add up to the {cards} cards of deal {number}",
                           taken=" + ".join(map(str, taken)), sum=sum(taken), cards=cards, number=self._deal.number)))
        self.kernel.taken = list(taken)
        self._finish_deal()

    def abandon_deal(self, points: Sequence[int] | None = None) -> None:
        """Give up on the current deal (a record too broken to follow) and go on to the next.

        ``points`` (as written in the record, if any) are added to the totals.
        """
        if self.phase is Phase.OVER:
            raise IllegalAction(violation("R030", tr("the game is over")))
        pts = list(points) if points is not None else [0] * self.players
        taken = self.kernel.taken
        seats = tuple(SeatResult(self._bids[s], taken[s], pts[s]) for s in range(self.players))
        self.results.append(DealResult(self._deal, self.dealer, seats, self.trump, self.turned,
                                       event="abandoned", log=self.kernel.log))
        for s in range(self.players):
            self.totals[s] += pts[s]
        self._next_deal()

    def _next_deal(self) -> None:
        end = self.variant.end
        stop = end.stop_loss
        if stop is not None and (end.stop_check == "deal" or self._dp.last_of_set) \
                and self._stop_loss_reached(stop):
            self._end("stop-loss reached («просчет»)")
            return
        target = end.target
        if target is not None and self._target_reached(target) and not (
                end.tie_break == "extra_deals" and len(self.winners()) > 1):
            self._end(f"a total reached {target}")
            return
        self.deal_index += 1
        if self.deal_index >= len(self.deals):
            # Past the schedule: a game to a target goes round it again; a tie is broken
            # by one more deal.
            more = target is not None or (end.tie_break == "extra_deals" and len(self.winners()) > 1)
            if not more or not self._plan.more_deals(self.deal_index + 1):
                self._end("schedule complete" if not more else f"{end.max_deals} deals played")
                return
            self.deals = self._plan.deals[:self.deal_index + 1]  # this game's deals: one more
        self.dealer = (self.dealer + 1) % self.players
        self._start_deal()

    def _target_reached(self, target: int) -> bool:
        if self.variant.end.target_exact:
            return target in self.totals
        return max(self.totals) >= target

    def _stop_loss_reached(self, stop: int) -> bool:
        if self.variant.end.stop_on == "total":
            return min(self.totals) <= -stop
        n, s = self.players, sum(self.totals)
        return min(n * x - s for x in self.totals) <= -stop

    def _end(self, reason: str) -> None:
        self._changed()
        self.phase = Phase.OVER
        self.is_over = True
        self.to_act = -1
        self.over_reason = reason

    # ------------------------------------------------------------------ penalties
    def take_as_written(self, action: Action, code: str) -> bool:
        """Put ``action``, refused for breaking rule ``code``, into the game as a record shows
        it was taken, when the game can go on from it: a card that broke a follow, trump,
        demand, lead or over-trump rule (:meth:`play_as_written`), a bid against the range or
        the hook or the dash limit (:meth:`bid_as_written`), a call out of the auction's range or
        a dash too many (:meth:`call_as_written`). A declaration not allowed (R015) changes what the
        others must play, so nothing goes on from it. False: nothing changed."""
        if isinstance(action, Play):
            return code in _PLAY_AS_WRITTEN and self.play_as_written(action)
        if isinstance(action, Bid):
            return code in _BID_AS_WRITTEN and self.bid_as_written(action.tricks)
        if isinstance(action, Call):
            return code in _CALL_AS_WRITTEN and self.call_as_written(action)
        return False

    def revoke(self, seat: int, code: str = "R010", play: Play | None = None,
               scores: Sequence[int] | None = None) -> int:
        """Apply the variant's penalty for an illegal card by ``seat`` caught at the table.

        Adds the penalty to the offender's total; then, as the variant says
        (``penalties.revoke.then``), the deal is annulled and dealt again by the same
        dealer, goes on (the card taken back), or stops and is scored as the table
        decides: ``scores``, each player's points for it (none when not given). ``play``
        (the illegal card) is kept in the record. Returns the points.

        :raises IllegalAction: when the variant has no penalty for ``code``.
        """
        rules = self.variant.revoke
        if rules is None or code not in rules.covers:
            raise IllegalAction(violation(code, tr("this variant has no penalty for {code}; the card is refused",
                                                   code=code)))
        if self.phase is not Phase.PLAY:
            raise IllegalAction(violation("R002", tr("a revoke can only happen while cards are played")))
        points = rules.points * (self._kind.multiplier if rules.multiplied else 1)
        self.totals[seat] += points
        played: list[tuple[int, object]] = list(self.kernel.log.played())
        if play is not None:
            played.append((seat, play))
        record = DealResult.penalty(self._deal, self.dealer, self.players, seat, points, code,
                                    annulled=rules.replay, bids=self._bids, hands=self.kernel.log.hands(),
                                    trump=self.trump, turned=self.turned, played=tuple(played))
        self.results.append(record)
        self._changed()
        if rules.replay:
            self._start_deal()
        elif rules.then == "abandon":
            self.abandon_deal(scores)
        return points

    # ------------------------------------------------------------------ results
    def settlement(self) -> list[int]:
        """Each seat's result by the variant's settlement (in money: points × stake)."""
        return settle(self.variant, self.totals)

    def winners(self) -> list[int]:
        """Seats with the highest total (several on a tie): in a game to an exact target, those
        who reached it; with ``end.tie_break: most_made``, those of them who made the most bids."""
        end = self.variant.end
        totals = self.totals
        if end.target is not None and end.target_exact and end.target in totals:
            best = end.target
        else:
            best = max(totals)
        seats = [s for s, x in enumerate(totals) if x == best]
        if end.tie_break == "most_made" and len(seats) > 1:
            made = [0] * self.players
            for r in self.results:
                if r.event == "deal":
                    for s, seat in enumerate(r.seats):
                        made[s] += seat.bid is not None and seat.bid == seat.taken
            most = max(made[s] for s in seats)
            seats = [s for s in seats if made[s] == most]
        return seats


# The rules an action may break and still be taken as made (take_as_written).
_PLAY_AS_WRITTEN = frozenset({"R010", "R011", "R012", "R014", "R016", "R017"})
_BID_AS_WRITTEN = frozenset({"R020", "R021", "R023"})
_CALL_AS_WRITTEN = frozenset({"R023", "R024"})
