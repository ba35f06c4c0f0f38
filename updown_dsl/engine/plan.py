"""The rules of one variant for one table size, worked out once and shared by every game.

A :class:`TablePlan` holds what never changes during a game of a variant with a given
number of players: the card table, the schedule and, deal by deal (worked out when the
deal is first reached, so a formula that fails fails in that deal), the bid range,
whether the hook applies, the trump rule and the scoring formula with a memo of its
values. ``Game(...)`` looks its plan up in a dictionary instead of recomputing it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..actions import Call
from ..lang.schedule import bid_names, deal_names, for_players, resolve_schedule
from ..lang.variant import Deal, DealKind, TrumpRules, Variant
from .auction import call_ranks
from .bidding import bid_choices
from .scoring import SeatResult
from .tables import CardTable, card_table

if TYPE_CHECKING:
    from ..cards import Suit
    from ..lang.formula import Formula

#: Names a score formula may read that change from seat to seat beyond bid and tricks (or,
#: ``made_count``, from deal to deal).
_PER_SEAT = frozenset({"total", "is_dealer", "made_count"})


class DealPlan:
    """The constant rules of one deal of a schedule."""

    __slots__ = ("deal", "kind", "env", "lo", "hi", "hook", "total", "bidding", "trump_rules", "trump_rule",
                 "multiplier", "formula", "memo", "last_of_set", "cards", "bids", "_seat_env", "reads_made_count",
                 "dash_limit", "counted", "calls", "dash", "calls_rank", "seat_bounds", "play")

    def __init__(self, plan: TablePlan, index: int) -> None:
        variant = plan.variant
        deals = plan.deals
        deal = deals[index]
        self.deal = deal
        self.cards = deal.cards
        self.kind = kind = variant.kinds[deal.kind]
        from .kernel import play_rules  # (the kernel reads plans)

        self.play = play_rules(plan, card_table(variant, deal.kind))
        """The rules of play of this deal (its kind may make cards wild or ordinary)."""
        self.env: dict[str, int] = deal_names(variant, plan.schedule, deal, plan.players, plan.table.size,
                                              plan.set_sizes.get(deal.set, 1))
        b = variant.bidding
        self.lo = max(0, b.min_bid(bid_names(self.env)))
        self.hi = min(deal.cards, b.max_bid(bid_names(self.env)))
        # The range reads a bidder's own history: each seat's is found when the bidding starts.
        self.seat_bounds = "zeros_in_row" in b.min_bid.names_used | b.max_bid.names_used
        hook = kind.hook if kind.hook is not None else b.hook
        # Sealed bids are made at once: the last bidder cannot see what the others bid.
        self.hook = bool(hook) and kind.bidding != "sealed" and not (
            b.hook_exempt is not None and b.hook_exempt(self.env))
        # What the last bidder must see the bids total (a kind's `hook: true` is the hook itself).
        self.total = (b.total if b.total != "any" else "differ") if self.hook else "any"
        self.bids = bid_choices(self.lo, self.hi, None)  # all but a hooked last bidder may bid these
        self.bidding = kind.bidding
        self.trump_rules, self.trump_rule = trump_rule_for(variant, deal, plan.players, plan.table.size)
        self.multiplier = kind.multiplier
        self.formula: Formula = kind.score if kind.score is not None else variant.scoring.deal
        # Points depend only on (bid, taken) unless the formula reads the seat's total or
        # dealership: then every seat is computed afresh.
        self.memo: dict[tuple[int | None, int], SeatResult] | None = \
            None if self.formula.names_used & _PER_SEAT else {}
        self.last_of_set = index + 1 >= len(deals) or deals[index + 1].set != deal.set
        self._seat_env = dict(self.env)
        self.reads_made_count = "made_count" in self.formula.names_used
        self.dash_limit = b.dash_limit
        self.calls: tuple[Call, ...] = ()
        """``bidding: auction``: every call but the dash, in a fixed order."""
        self.dash = False
        self.calls_rank: dict[Suit | None, int] = {}
        """Each trump a call may name by rank (higher wins)."""
        if kind.bidding == "auction" and b.auction is not None:
            a = b.auction
            self.calls_rank = call_ranks(a.order)
            low = max(1, a.min_call(self.env))
            self.calls = tuple(Call(n, suit) for n in range(low, deal.cards + 1) for suit in a.order)
            self.dash = a.dash
        # Bids that must be counted as they come (zeros against the dash limit, an auction's
        # second round) leave the engine's fast path for bids.
        self.counted = self.dash_limit is not None or kind.bidding == "auction"

    def points(self, bid: int | None, taken: int, total: int, is_dealer: bool, made_count: int = 1) -> int:
        """One seat's points (multiplier included), as :func:`~updown_dsl.engine.scoring.seat_score`."""
        b = 0 if bid is None else bid
        env = self._seat_env  # the deal's names and the seat's, rewritten for each seat
        env["bid"] = b
        env["taken"] = taken
        env["made"] = 1 if bid is None or b == taken else 0
        env["total"] = total
        env["is_dealer"] = 1 if is_dealer else 0
        env["made_count"] = made_count
        return self.formula.fn(env) * self.multiplier

    def seat_result(self, bid: int | None, taken: int, total: int, is_dealer: bool,
                    made_count: int = 1) -> SeatResult:
        """One seat's line of the score sheet (shared values when they depend on bid and tricks only)."""
        memo = self.memo
        if memo is None:
            return SeatResult(bid, taken, self.points(bid, taken, total, is_dealer, made_count))
        seat = memo.get((bid, taken))
        if seat is None:
            seat = memo[(bid, taken)] = SeatResult(bid, taken, self.points(bid, taken, total, is_dealer))
        return seat


class TablePlan:
    """Everything constant about a variant played by a number of players."""

    __slots__ = ("variant", "players", "table", "schedule", "deals", "set_sizes", "_deal_plans", "cut_rule",
                 "cut_shows", "has_wild", "must_follow", "must_trump", "first_bidder", "first_leader",
                 "next_seat", "lead_trump", "must_overtrump", "restricted")

    def __init__(self, variant: Variant, players: int) -> None:
        variant = for_players(variant, players)  # (a pack that follows the player count made concrete)
        self.variant = variant
        self.players = players
        self.table: CardTable = card_table(variant)
        self.schedule: tuple[Deal, ...] = resolve_schedule(variant, players)
        self.deals: list[Deal] = list(self.schedule)
        """The schedule, and the deals games have gone on to after it (:meth:`more_deals`)."""
        sizes: dict[int, int] = {}
        for d in self.deals:
            sizes[d.set] = sizes.get(d.set, 0) + 1
        self.set_sizes = sizes
        self._deal_plans: list[DealPlan | None] = [None] * len(self.deals)
        self.cut_rule = any(w.cut_zeroes_total for w in variant.wild)
        self.cut_shows = next((w.cut_shows for w in variant.wild if w.cut_zeroes_total), "")
        self.has_wild = bool(self.table.wild_mask)
        self.must_follow = variant.play.must_follow
        self.must_trump = variant.play.must_trump
        self.first_bidder = variant.bidding.first_bidder
        self.first_leader = variant.play.first_leader
        self.lead_trump = variant.play.lead_trump
        self.must_overtrump = variant.play.must_overtrump
        self.restricted = self.lead_trump != "any" or self.must_overtrump
        """A lead or over-trump rule applies (:mod:`~updown_dsl.engine.restrict`)."""
        self.next_seat = tuple((s + 1) % players for s in range(players))
        """The seat on the left of each seat (who plays next)."""

    def more_deals(self, count: int) -> bool:
        """See that there are ``count`` deals, adding deals past the schedule's end as needed:
        the schedule again from its start (a game played to a target score), or more deals
        at its largest size (a tie-break).

        Every game of the plan would add the same deals in the same order, so they are made
        once; a game takes as many as it plays. False beyond ``end.max_deals`` deals.
        """
        if count > self.variant.end.max_deals or not self.schedule:
            return False
        while len(self.deals) < count:
            self._add_deal()
        return True

    def _add_deal(self) -> None:
        n, schedule = len(self.deals), self.schedule
        if self.variant.end.target is not None:
            base = schedule[n % len(schedule)]
            sets = schedule[-1].set
            number_of_set = base.set + (n // len(schedule)) * sets
        else:
            base = max(schedule, key=lambda d: d.cards)
            number_of_set = self.deals[-1].set + 1
        self.deals.append(Deal(n + 1, base.cards, base.kind, number_of_set, base.set_deal))
        self.set_sizes[number_of_set] = self.set_sizes.get(number_of_set, 0) + 1
        self._deal_plans.append(None)

    def deal_plan(self, index: int) -> DealPlan:
        """The plan of deal ``index`` (0-based), worked out on first use."""
        dp = self._deal_plans[index]
        if dp is None:
            dp = self._deal_plans[index] = DealPlan(self, index)
        return dp


def seat_by_rule(rule: str, dealer: int, players: int, first_bidder: int | None = None) -> int:
    """The seat a rule word names relative to the dealer (``eldest`` is left of the dealer)."""
    if rule == "dealer":
        return dealer
    if rule == "dealer_right":
        return (dealer - 1) % players
    if rule == "first_bidder":
        return first_bidder if first_bidder is not None else (dealer + 1) % players
    if rule == "first_bidder_left":
        return ((first_bidder if first_bidder is not None else (dealer + 1) % players) + 1) % players
    return (dealer + 1) % players  # eldest, dealer_left (and highest_bidder before the bids)


def highest_bidder(bids: Sequence[int | None], order: Sequence[int]) -> int:
    """The seat that bid the most; on a tie, the first of them in bidding ``order``."""
    best = max((bids[s] or 0) for s in order)
    return next(s for s in order if (bids[s] or 0) == best)


def trump_rule_for(variant: Variant, deal: Deal, players: int, pack: int) -> tuple[TrumpRules, str]:
    """The trump rules of ``deal`` and the rule that applies once the cards are dealt.

    With ``turned`` and every card dealt, ``when_exhausted`` decides: ``last_dealt``,
    ``none`` (no trump) or ``chosen``. A ``cycle`` deal is ``fixed`` to its suit of the cycle
    (``none`` for a no-trump place).
    """
    kind: DealKind = variant.kinds[deal.kind]
    rules = kind.trump if kind.trump is not None else variant.trump
    rule = rules.rule
    if rule == "cycle" and rules.cycle:
        # The deal's place in the cycle makes it a deal of one fixed trump (or none).
        suit = rules.cycle_trump(deal)
        return rules._replace(rule="fixed", suit=suit), "fixed" if suit is not None else "none"
    if rule == "turned" and players * deal.cards >= pack:
        rule = {"last_dealt": "last_dealt", "no_trump": "none", "chosen": "chosen"}.get(
            rules.when_exhausted, "none"
        )
    return rules, rule


# Plans by (variant, players); the variant is kept beside its entry so ids stay unique.
_PLANS: dict[tuple[int, int], tuple[Variant, TablePlan]] = {}


def table_plan(variant: Variant, players: int) -> TablePlan:
    """The (cached) plan of ``variant`` for ``players`` players.

    :raises ValueError: when the schedule cannot be resolved.
    """
    key = (id(variant), players)
    hit = _PLANS.get(key)
    if hit is None or hit[0] is not variant:
        if len(_PLANS) >= 256:  # bounded: a long archive loads many variants
            del _PLANS[next(iter(_PLANS))]
        hit = _PLANS[key] = (variant, TablePlan(variant, players))
    return hit[1]
