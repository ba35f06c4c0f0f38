"""Deal scores, set premiums and the final settlement, through compiled formulas."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from itertools import repeat
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from ..actions import Call
from ..cards import Card, Suit
from ..lang.variant import Deal, DealKind, Variant
from .display import draw


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's line of a deal on the score sheet."""

    bid: int | None
    taken: int
    points: int
    """Deal points, multiplier included (set bonus excluded)."""
    bonus: int = 0
    """Set premium added after this deal."""
    penalty: int = 0


class DealResult:
    """A scored deal (or a penalty record for an annulled deal).

    A value like a frozen dataclass. The engine hands over the deal's compact log
    (card indices and trick winners); ``tricks`` and ``hands`` are built from it on
    first use, so a simulation that never looks at them never pays for them.
    """

    __slots__ = ("deal", "dealer", "seats", "trump", "turned", "_tricks", "_hands", "annulled",
                 "offence", "reset", "actor", "played", "event", "calls", "_log")

    deal: Deal
    dealer: int
    seats: tuple[SeatResult, ...]
    trump: Suit | None
    turned: Card | None
    annulled: bool
    """True for a deal stopped by a revoke (only the penalty counts)."""
    offence: str | None
    reset: tuple[int, ...]
    """Seats whose running total was set to 0 by this record (the cut rule)."""
    actor: int | None
    """``revoke``: the offender's seat."""
    played: tuple[tuple[int, object], ...]
    """``revoke``: (seat, play) of every card played in the deal up to and including the
    illegal one, in order."""
    event: str
    """``deal`` (a scored deal), ``revoke`` (a penalty), ``cut`` (totals zeroed at the cut) or
    ``abandoned`` (a deal a checker could not follow; points as written)."""
    calls: tuple[Call | None, ...]
    """``bidding: auction`` deals: each seat's :class:`~updown_dsl.actions.Call` (None where the
    seat did not call); empty for other deals."""
    _tricks: tuple[object, ...] | None
    _hands: tuple[tuple[Card, ...], ...] | None
    _log: DealLog | None

    def __init__(self, deal: Deal, dealer: int, seats: tuple[SeatResult, ...], trump: Suit | None = None,
                 turned: Card | None = None, tricks: tuple[object, ...] | None = (),
                 hands: tuple[tuple[Card, ...], ...] | None = (), annulled: bool = False,
                 offence: str | None = None, reset: tuple[int, ...] = (), actor: int | None = None,
                 played: tuple[tuple[int, object], ...] = (), event: str = "deal",
                 calls: tuple[Call | None, ...] = (), *, log: DealLog | None = None) -> None:
        # Field by field, but in C (one result a deal: a simulation makes millions).
        _consume(map(_setattr, repeat(self, len(_INIT_NAMES)), _INIT_NAMES, (
            deal, dealer, seats, trump, turned,
            None if log is not None else tuple(tricks or ()), None if log is not None else tuple(hands or ()),
            annulled, offence, reset, actor, played, event, calls, log)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a deal result is a frozen value")

    @property
    def tricks(self) -> tuple[object, ...]:
        """The deal's tricks in order (:class:`~updown_dsl.engine.Trick` values)."""
        tricks = self._tricks
        if tricks is None:
            tricks = self._log.tricks() if self._log is not None else ()
            object.__setattr__(self, "_tricks", tricks)
        return tricks

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards as dealt, in dealing order (empty when not known)."""
        hands = self._hands
        if hands is None:
            hands = self._log.hands() if self._log is not None else ()
            object.__setattr__(self, "_hands", hands)
        return hands

    _FIELDS = ("deal", "dealer", "seats", "trump", "turned", "tricks", "hands", "annulled", "offence",
               "reset", "actor", "played", "event", "calls")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, f) for f in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealResult):
            return NotImplemented
        return self is other or self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def _repr_html_(self) -> str | None:
        """The deal for a notebook: the hands, the bids, every trick and the points (:mod:`.display`)."""
        return draw("deal", "html", self)

    def _repr_svg_(self) -> str | None:
        """The hands as dealt, as a picture."""
        return draw("deal", "svg", self)

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._FIELDS)
        return f"DealResult({inner})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return DealResult, self._values()

    @classmethod
    def penalty(cls, deal: Deal, dealer: int, players: int, seat: int, points: int,
                code: str, *, annulled: bool = True, bids: Sequence[int | None] = (),
                hands: tuple[tuple[Card, ...], ...] = (), trump: Suit | None = None,
                turned: Card | None = None, played: tuple[tuple[int, object], ...] = ()) -> DealResult:
        """The record of a revoke penalty (``annulled``: the deal is dealt again).

        It keeps the deal as far as it went (hands, bids, cards played, the illegal card
        last) so that a transcript can show it.
        """
        seats = tuple(
            SeatResult(bids[s] if bids else None, 0, 0, penalty=points if s == seat else 0)
            for s in range(players)
        )
        return cls(deal, dealer, seats, trump, turned, hands=hands, annulled=annulled, offence=code,
                   actor=seat, played=played, event="revoke")

    @classmethod
    def redeal(cls, deal: Deal, dealer: int, players: int, seat: int, *, bids: Sequence[int | None] = (),
               hands: tuple[tuple[Card, ...], ...] = (), trump: Suit | None = None, turned: Card | None = None,
               calls: Sequence[Call | None] = ()) -> DealResult:
        """The record of a redeal ``seat`` asked for, void in a suit: the deal as far as it went
        (hands, trump, the bids and calls made), annulled; nobody scores."""
        seats = tuple(SeatResult(bids[s] if bids else None, 0, 0) for s in range(players))
        return cls(deal, dealer, seats, trump, turned, hands=hands, annulled=True, actor=seat, event="redeal",
                   calls=tuple(calls))

    @classmethod
    def cut(cls, deal: Deal, dealer: int, players: int, seat: int, card: Card) -> DealResult:
        """The record of a cut that exposed the special card: ``seat``'s total becomes 0."""
        seats = tuple(SeatResult(None, 0, 0) for _ in range(players))
        return cls(deal, dealer, seats, turned=card, reset=(seat,), event="cut")

    def with_bonus(self, bonus: Sequence[int]) -> DealResult:
        """This result with set premiums attached."""
        out = object.__new__(DealResult)
        for name in DealResult.__slots__:
            object.__setattr__(out, name, getattr(self, name))
        object.__setattr__(out, "seats", tuple(replace(r, bonus=b) for r, b in zip(self.seats, bonus)))
        return out

    def total(self, seat: int) -> int:
        """Everything this record adds to a seat's total."""
        r = self.seats[seat]
        return r.points + r.bonus + r.penalty

    def apply_to(self, totals: list[int]) -> None:
        """Update running totals with this record (resets first, then points)."""
        for s in self.reset:
            totals[s] = 0
        for s in range(len(totals)):
            totals[s] += self.total(s)


_INIT_NAMES = ("deal", "dealer", "seats", "trump", "turned", "_tricks", "_hands", "annulled", "offence", "reset",
               "actor", "played", "event", "calls", "_log")
_setattr = object.__setattr__
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend


class DealLog(Protocol):
    """What the engine keeps of a deal: enough to build its tricks and hands on demand."""

    def tricks(self) -> tuple[object, ...]:
        """The finished tricks."""

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The hands as dealt."""


def seat_score(
    variant: Variant,
    kind: DealKind,
    env: Mapping[str, int],
    *,
    bid: int | None,
    taken: int,
    total: int = 0,
    is_dealer: bool = False,
    made_count: int | None = None,
) -> int:
    """One player's points for one deal (multiplier included).

    ``made_count``, how many players made their bid in the deal, is 1 unless given (one
    seat scored alone: this one if it made its bid, or one other).
    """
    formula = kind.score if kind.score is not None else variant.scoring.deal
    b = 0 if bid is None else bid
    full = dict(env)
    full.update(bid=b, taken=taken, made=int(bid is None or b == taken), total=total,
                is_dealer=int(is_dealer), made_count=1 if made_count is None else made_count)
    return formula(full) * kind.multiplier


def set_bonuses(
    variant: Variant,
    deal: Deal,
    env: Mapping[str, int],
    results: Sequence[DealResult],
    totals: Sequence[int],
) -> list[int] | None:
    """Premiums at the end of ``deal``'s set, or None when the variant has none."""
    formula = variant.scoring.set_bonus
    if formula is None:
        return None
    in_set = [r for r in results if r.deal.set == deal.set and r.event == "deal"]
    out = []
    for s in range(len(totals)):
        points = [r.seats[s].points for r in in_set]
        made = sum(1 for r in in_set if r.seats[s].bid is None or r.seats[s].bid == r.seats[s].taken)
        e = dict(env)
        e.update(
            set_best=max(points) if points else 0,
            set_total=sum(points),
            set_made=made,
            set_all_made=int(bool(in_set) and made == len(in_set)),
            total=totals[s],
        )
        out.append(formula(e))
    return out


def settle(variant: Variant, totals: Sequence[int]) -> list[int]:
    """Final results by the variant's settlement rule, times the stake.

    ``highest``: the totals themselves; ``pairwise``: N·S_i − ΣS, each player
    settling the difference with every other. In a pairwise settlement money balances:
    when a cap limits a loss or a negative total doubles it, the winners share what the
    losers pay, in proportion to what each won, to the point (largest remainders first,
    the earlier seat on a tie), so the results always sum to zero.
    """
    rules = variant.settlement
    n = len(totals)
    if rules.method == "places":
        return [a * rules.stake for a in by_place(rules.places, totals)]
    if rules.method != "pairwise":
        amounts = list(totals)
        if rules.negative_doubles:
            amounts = [a * 2 if a < 0 else a for a in amounts]
        return [a * rules.stake for a in amounts]
    s = sum(totals)
    amounts = [n * x - s for x in totals]
    paid = [max(-a, 0) for a in amounts]
    if rules.cap is not None:
        paid = [min(x, rules.cap) for x in paid]
    if rules.negative_doubles:
        paid = [x * 2 if t < 0 else x for x, t in zip(paid, totals)]
    gains = [max(a, 0) for a in amounts]
    if sum(gains) == 0:  # everyone level: nobody pays
        return [0] * n
    shares = _share(sum(paid), gains)
    return [(shares[i] if amounts[i] > 0 else -paid[i]) * rules.stake for i in range(n)]


def by_place(places: Sequence[int], totals: Sequence[int]) -> list[int]:
    """Each seat's amount of ``places`` (first place first) by where its total finishes; seats
    tied on their totals share the amounts of the places they cover in equal parts, an odd
    point to the earlier seats."""
    n = len(totals)
    out = [0] * n
    ranked = sorted(range(n), key=lambda i: (-totals[i], i))
    k = 0
    while k < n:
        tied = [i for i in ranked if totals[i] == totals[ranked[k]]]
        pot = sum(places[k:k + len(tied)])
        base, odd = divmod(pot, len(tied))
        for j, seat in enumerate(sorted(tied)):
            out[seat] = base + (1 if j < odd else 0)
        k += len(tied)
    return out


def _share(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` split in proportion to ``weights`` in whole points that add up to ``total``
    (largest remainders first; the earlier seat on a tie)."""
    w = sum(weights)
    floors = [total * x // w for x in weights]
    rest = total - sum(floors)
    order = sorted(range(len(weights)), key=lambda i: (-(total * weights[i] % w), i))
    for i in order[:rest]:
        floors[i] += 1
    return floors
