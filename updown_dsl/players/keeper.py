"""Keeping the score of a game played with real cards: the sheet being kept, deal by deal.

A :class:`Keeper` holds what the table has said so far, deal by deal (:class:`KeptDeal`:
the trump, the bids, the tricks each player took) and drives the engine with it, so every
entry is checked by the variant's own rules as it is made (the dealer's forbidden bid, the
bid range, dashes, blind and no-bid deals, an auction's calls, the tricks adding up to the
hand size) and every score comes from the variant's formulas. :meth:`Keeper.step` says what
the table must give next; :meth:`Keeper.edit` corrects a past deal, re-scores the rest and
keeps the change as a :class:`Correction`; :meth:`Keeper.transcript` is the game as a
sheet-level record (one row per deal, the corrections after their rows) that the checker
reads. Nothing here reads, writes or prints.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Sequence

from ..actions import Bid, Call, ChooseTrump
from ..cards import Suit
from ..diagnostics import Diagnostic, Severity
from ..engine import Game, IllegalAction, Phase, seat_by_rule, trump_rule_for
from ..i18n import tr
from ..lang.variant import Deal, Variant
from ..records.model import Event, Header, Transcript
from ..records.record import game_transcript
from ..records.tableevents import MAX_ADJUST, ShortDeal, finish_short_deal, short_scores, size_problem, start_short_deal
from ..records.tablelines import Correction, KeptDeal, correction_event, sheet_deals

__all__ = ["Field", "KeepError", "Keeper", "KeptDeal", "Need", "Step", "kept_deals", "kept_transcript", "restored",
           "sheet_deals"]


class Need(enum.StrEnum):
    """What the keeper waits for."""

    TRUMP = "trump"
    """The trump suit (or none): turned up at the table, or named by :attr:`Step.seat`."""
    CALL = "call"
    """A call of the auction for trump, by :attr:`Step.seat`."""
    BID = "bid"
    """A bid, by :attr:`Step.seat`."""
    TRICKS = "tricks"
    """The tricks each player took."""
    OVER = "over"
    """The game is over."""


class Field(enum.StrEnum):
    """The numbers of a deal that can be corrected."""

    BID = "bid"
    TOOK = "took"


class KeepError(ValueError):
    """An entry the rules refuse; ``diagnostic`` names the rule (its code, its words)."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _refusal(code: str, message: str, hint: str | None = None) -> KeepError:
    return KeepError(Diagnostic(code, message, Severity.ERROR, hint=hint))


@dataclass(frozen=True)
class Step:
    """What the keeper needs next, and what a screen shows while asking for it."""

    need: Need
    deal: Deal
    dealer: int
    seat: int
    """The seat to act (-1: the table, e.g. a turned card or the tricks)."""
    order: tuple[int, ...]
    """The seats in bidding order this deal."""
    bids: tuple[int | None, ...]
    """The bids made so far, by seat."""
    choices: tuple[int, ...] = ()
    """:attr:`Need.BID`: the bids allowed."""
    forbidden: int | None = None
    """:attr:`Need.BID`: the bid the dealer's hook strikes out."""
    low: int = 0
    high: int = 0
    """:attr:`Need.BID`: the lowest and the highest bid of the deal."""
    trump: Suit | None = None
    trump_known: bool = False
    trump_rule: str = ""
    """How this deal's trump is found (``turned``, ``chosen``, ``random``, ``last_dealt``, ...)."""
    no_trump: bool = True
    """:attr:`Need.TRUMP`: no trump may be given."""
    blind: bool = False
    """The bids come before the cards are dealt."""


#: Trump rules under which the table says the trump (the card turned, drawn or last dealt).
_TABLE_TRUMP = frozenset({"turned", "random", "last_dealt", "forbid"})


class Keeper:
    """The score sheet of one game being kept at a table.

    :param variant: the rules.
    :param names: the players in seat order (each player's left-hand neighbour next).
    :param first_dealer: seat of the first dealer (default the last seat).
    :param label: the variant as the record names it (a bundled name or a file).
    """

    def __init__(self, variant: Variant, names: Sequence[str], *, first_dealer: int | None = None,
                 label: str | None = None) -> None:
        self.variant = variant
        self.names = tuple(names)
        self.first_dealer = len(self.names) - 1 if first_dealer is None else first_dealer % len(self.names)
        self.label = label
        self.waiting: set[int] = set()
        """Seats not at the table yet (late): they sit out every deal until they join."""
        self.left: set[int] = set()
        """Seats that left the table."""
        self.deals: list[KeptDeal] = []
        """The finished deals."""
        self.current = self.blank_deal()
        """The deal being kept (what of it the table has said)."""
        self.corrections: list[Correction] = []
        self.headers: tuple[Header, ...] = ()
        """Extra header lines to write (``date``, ``event``…)."""
        self._given: list[tuple[str, int]] = []  # the entries of the deal in hand, in order
        self.game = self._new_game()
        _advance(self.game, self.current)

    # ------------------------------------------------------------------ the game
    def _new_game(self) -> Game:
        return Game(self.variant, len(self.names), first_dealer=self.first_dealer, auto_deal=False)

    def blank_deal(self) -> KeptDeal:
        """A deal with nothing given yet (the players not at the table sit it out)."""
        n = len(self.names)
        if not self.waiting and not self.left:
            return KeptDeal(bids=(None,) * n)
        return KeptDeal(bids=(None,) * n, out=frozenset(self.waiting | self.left),
                        table=tuple(Event("out", actor=s) for s in sorted(self.waiting)))

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.game.totals)

    def step(self) -> Step:
        """What the table must say next."""
        g = self.game
        deal = g.deal
        rules, rule = trump_rule_for(g.variant, deal, g.players, g.table.size)
        order = tuple(g.bidding_order())
        base = dict(deal=deal, dealer=g.dealer, order=order, bids=tuple(g.bids), trump_rule=rule,
                    blind=g.kind.bidding == "before_deal", no_trump=rules.choose_no_trump or rule != "chosen")
        phase = g.phase
        if phase is Phase.OVER:
            return Step(Need.OVER, seat=-1, **base)  # type: ignore[arg-type]
        if self.current.short:
            return self._short_step(base)
        known = phase not in (Phase.DEAL, Phase.TRUMP)
        base.update(trump=g.trump if known else None, trump_known=known)
        if phase is Phase.DEAL:
            return Step(Need.TRUMP, seat=-1, **base)  # type: ignore[arg-type]
        if phase is Phase.TRUMP:
            return Step(Need.TRUMP, seat=g.to_act, **base)  # type: ignore[arg-type]
        if phase is Phase.AUCTION:
            return Step(Need.CALL, seat=g.to_act, **base)  # type: ignore[arg-type]
        if phase is Phase.BID:
            choices = tuple(a.tricks for a in g.legal_actions() if isinstance(a, Bid))
            lo, hi = g.bid_range()
            return Step(Need.BID, seat=g.to_act, choices=choices, forbidden=g.forbidden_bid(), low=lo,
                        high=hi, **base)  # type: ignore[arg-type]
        return Step(Need.TRICKS, seat=-1, **base)  # type: ignore[arg-type]

    def short_deal(self) -> ShortDeal:
        """The rules of the deal in hand for the players who play it (a deal a player sits out
        or played with another number of cards)."""
        return ShortDeal.of(self.game, self.current.out, self.current.cards)

    def _short_step(self, base: dict[str, object]) -> Step:
        g, d = self.game, self.current
        sd = self.short_deal()
        base.update(order=sd.players, deal=g.deal._replace(cards=sd.cards), no_trump=True)
        if g.phase is Phase.DEAL:
            return Step(Need.TRUMP, seat=-1, **base)  # type: ignore[arg-type]
        base.update(trump=g.trump, trump_known=True)
        if sd.bids:
            for seat in sd.players:
                if d.bids[seat] is None:
                    choices, forbidden = sd.choices(d.bids)
                    return Step(Need.BID, seat=seat, choices=choices, forbidden=forbidden, low=sd.lo, high=sd.hi,
                                **base)  # type: ignore[arg-type]
        return Step(Need.TRICKS, seat=-1, **base)  # type: ignore[arg-type]

    def calls(self) -> tuple[Call, ...]:
        """The calls the rules allow the seat to act in an auction."""
        return tuple(a for a in self.game.legal_actions() if isinstance(a, Call))

    # ------------------------------------------------------------------ entries
    def give_trump(self, suit: Suit | None) -> None:
        """The trump of the deal (None: no trump), turned at the table or named by a player.

        :raises KeepError: when the rules do not let it be so (R022, R046).
        """
        g = self.game
        if g.phase is Phase.TRUMP:
            problem = g.check(ChooseTrump(suit))
            if problem is not None:
                raise KeepError(problem)
        elif g.phase is not Phase.DEAL:
            raise _refusal("R002", tr("the trump of deal {number} is known already", number=g.deal.number))
        self._enter(replace(self.current, trump=suit, trump_given=True), ("trump", -1))

    def give_bid(self, tricks: int) -> None:
        """The bid of the player to bid.

        :raises KeepError: naming the rule (R020 out of range, R021 the hook, R023 dashes).
        """
        g = self.game
        if self.current.short:
            step = self.step()
            if step.need is not Need.BID:
                raise _refusal("R002", tr("no bid is asked now in deal {number}", number=g.deal.number))
            refused = self.short_deal().refusal(tricks, self.current.bids)
            if refused is not None:
                raise _refusal(*refused)
            seat = step.seat
        else:
            problem = g.check(Bid(tricks))
            if problem is not None:
                raise KeepError(problem)
            seat = g.to_act
        bids = list(self.current.bids)
        bids[seat] = tricks
        self._enter(replace(self.current, bids=tuple(bids)), ("bid", seat))

    def give_bids(self, in_order: Sequence[int]) -> None:
        """Several bids at once, in bidding order from the player to bid (a deal typed as one
        line); none is taken when one is refused."""
        before, given = self.current, list(self._given)
        try:
            for b in in_order:
                if self.step().need is not Need.BID:
                    raise _refusal("R002", tr("{count} bids given, but only {count2} are made in this deal",
                                              count=len(in_order), count2=sum(1 for x in self.current.bids
                                                                              if x is not None)))
                self.give_bid(b)
        except KeepError:
            self._reset_current(before)
            self._given = given
            raise

    def give_call(self, call: Call) -> None:
        """A call of the auction by the player to call.

        :raises KeepError: naming the rule (R024).
        """
        g = self.game
        problem = g.check(call)
        if problem is not None:
            raise KeepError(problem)
        calls: list[Call | None] = list(self.current.calls) if self.current.calls else [None] * self.players
        calls[g.to_act] = call
        self._enter(replace(self.current, calls=tuple(calls)), ("call", g.to_act))

    def cards(self) -> int:
        """The number of cards each in the deal in hand (the table may have changed it)."""
        return self.current.cards if self.current.cards is not None else self.game.deal.cards

    def tricks_left(self, some: Sequence[int]) -> int:
        """Tricks not yet given to anyone, after ``some`` players' tricks."""
        return self.cards() - sum(some)

    def check_took(self, given: Sequence[int], more: Sequence[int] = ()) -> None:
        """Refuse tricks that cannot be right already: ``more`` after the ``given`` ones make a
        negative number, or more tricks than the deal has (R053), before all are in.

        :raises KeepError: naming the rule.
        """
        cards, number = self.cards(), self.game.deal.number
        some = [*given, *more]
        if any(t < 0 for t in some) or sum(some) > cards:
            raise _refusal("R053", tr("tricks taken {taken} = {sum} do not add up to the {cards} cards of deal {number}",
                                      taken=" + ".join(map(str, some)), sum=sum(some), cards=cards, number=number),
                           hint=tr("{left} tricks are left to give", left=max(cards - sum(given), 0)))

    def give_tricks(self, taken: Sequence[int]) -> None:
        """The tricks each player took, by seat: the deal is scored.

        :raises KeepError: when they do not add up to the hand size (R053), or before the bids.
        """
        g = self.game
        if g.phase is not Phase.PLAY and not (self.current.short and g.phase is Phase.BID):
            raise _refusal("R002", tr("the tricks of deal {number} come after its bids", number=g.deal.number))
        if len(taken) != self.players:
            raise _refusal("R053", tr("{count} numbers of tricks for {count2} players",
                                      count=len(taken), count2=self.players))
        if self.current.short:
            if self.step().need is not Need.TRICKS:
                raise _refusal("R002", tr("the tricks of deal {number} come after its bids", number=g.deal.number))
            taken = [0 if s in self.current.out else t for s, t in enumerate(taken)]
            wrong = self.short_deal().took_problem(taken)
            if wrong is not None:
                raise _refusal("R053", wrong)
            self._enter(replace(self.current, took=tuple(taken)))
            return
        probe = g.clone()
        try:
            probe.record_tricks(list(taken))
        except IllegalAction as exc:
            raise KeepError(exc.diagnostics[0]) from None
        self._enter(replace(self.current, took=tuple(taken)))

    def undo(self) -> bool:
        """Take back the last entry of the deal being kept (False: nothing to take back)."""
        if not self._given:
            return False
        kind, seat = self._given.pop()
        cur = self.current
        if kind == "trump":
            cur = replace(cur, trump=None, trump_given=False)
        elif kind == "bid":
            cur = replace(cur, bids=tuple(None if s == seat else b for s, b in enumerate(cur.bids)))
        else:
            cur = replace(cur, calls=tuple(None if s == seat else c for s, c in enumerate(cur.calls)))
        given = self._given
        self._reset_current(cur)
        self._given = given
        return True

    def _enter(self, kept: KeptDeal, given: tuple[str, int] | None = None) -> None:
        self.current = kept
        _advance(self.game, kept)
        if given is not None:
            self._given.append(given)
        if kept.done:
            self.deals.append(kept)
            self.current = self.blank_deal()
            self._given = []
            _advance(self.game, self.current)

    def _reset_current(self, kept: KeptDeal) -> None:
        self.game = self.replay(self.deals)
        self.current = kept
        self._given = []
        _begin(self.game, kept)
        _advance(self.game, kept)

    def replay(self, deals: Sequence[KeptDeal]) -> Game:
        """A new game with ``deals`` applied, each checked by the rules.

        :raises KeepError: naming the deal and the rule the first refused entry breaks.
        """
        g = self._new_game()
        for k, d in enumerate(deals):
            if g.is_over:
                raise _refusal("R047", tr("the game ends after deal {number}, before deal {number2}",
                                          number=k, number2=k + 1))
            number = g.deal.number
            try:
                _begin(g, d)
                _advance(g, d)
            except IllegalAction as exc:
                problem = exc.diagnostics[0]
                raise KeepError(replace(problem, message=tr("deal {number}: {message}", number=number,
                                                            message=problem.message))) from None
        return g

    # ------------------------------------------------------------------ the table's events
    def sit_out(self, seat: int) -> None:
        """``seat`` sits the deal in hand out (``out``).

        :raises KeepError: after the deal's first bid, or when too few would play (R057).
        """
        if seat in self.current.out:
            raise _refusal("R057", tr("{player} sits deal {number} out already",
                                      player=self.names[seat], number=self.game.deal.number))
        self._table_change(replace(self.current, out=self.current.out | {seat},
                                   table=(*self.current.table, Event("out", actor=seat))))

    def late(self, seat: int) -> None:
        """``seat`` is not at the table yet: the player sits out every deal from this one until
        :meth:`join` (the record has an ``out`` line in each, and ``late`` in the first deal the
        player plays).

        :raises KeepError: when the player has played a deal already, or after the deal's first bid.
        """
        if any(seat not in d.out for d in self.deals) or seat in self.waiting:
            raise _refusal("R057", tr("{player} is at the table already: 'out {player}' sits one deal out",
                                      player=self.names[seat]))
        self.waiting.add(seat)
        try:
            self._table_change(replace(self.current, out=self.current.out | {seat},
                                       table=(*self.current.table, Event("out", actor=seat))))
        except KeepError:
            self.waiting.discard(seat)
            raise

    def join(self, seat: int) -> None:
        """``seat``, late, arrives: the player plays from the deal in hand (``late``).

        :raises KeepError: when the player was not waiting, or after the deal's first bid.
        """
        if seat not in self.waiting:
            raise _refusal("R057", tr("{player} is not waiting to join ('late {player}' says a player comes later)",
                                      player=self.names[seat]))
        table = tuple(e for e in self.current.table if not (e.kind == "out" and e.actor == seat))
        self._table_change(replace(self.current, out=self.current.out - {seat},
                                   table=(*table, Event("late", actor=seat))))
        self.waiting.discard(seat)

    def leave(self, seat: int) -> None:
        """``seat`` leaves the table: the player sits out the deal in hand and every later one.

        :raises KeepError: when the player left already, or after the deal's first bid.
        """
        if seat in self.left:
            raise _refusal("R057", tr("{player} left the table already", player=self.names[seat]))
        table = tuple(e for e in self.current.table if not (e.kind == "out" and e.actor == seat))
        self._table_change(replace(self.current, out=self.current.out | {seat},
                                   table=(*table, Event("leave", actor=seat))))
        self.left.add(seat)
        self.waiting.discard(seat)

    def adjust(self, seat: int, points: int, reason: str) -> None:
        """A one-off adjustment of ``seat``'s total by ``points`` (``reason``: why), counted in
        the total of the deal in hand.

        :raises KeepError: for 0 points or no reason (R057).
        """
        reason = " ".join(reason.replace("#", " ").split())
        if abs(points) > MAX_ADJUST:
            raise _refusal("T004", tr("an adjustment is at most {limit:,} points either way", limit=MAX_ADJUST))
        if not points or not reason:
            raise _refusal("R057", tr("an adjustment changes a total by some points and gives its reason"),
                           hint=tr("e.g. 'adjust Gleb -50 left the table'"))
        kept = replace(self.current, table=(*self.current.table, Event("adjust", actor=seat, number=points,
                                                                      text=reason)))
        self._reset_current(kept)

    def schedule(self, cards: int) -> None:
        """The deal in hand is played with ``cards`` each, not the schedule's (``schedule``).

        :raises KeepError: after the deal's first bid, or for a number the pack cannot give (R058).
        """
        table = tuple(e for e in self.current.table if e.kind != "schedule")
        self._table_change(replace(self.current, cards=None if cards == self.game.deal.cards else cards,
                                   table=(*table, Event("schedule", size=cards))
                                   if cards != self.game.deal.cards else table))

    def _table_change(self, kept: KeptDeal) -> None:
        """The deal in hand with other players or another number of cards (before its bids)."""
        cur = self.current
        if any(b is not None for b in cur.bids) or any(c is not None for c in cur.calls) or cur.took is not None:
            raise _refusal("R057", tr("who plays deal {number} and with how many cards is said before its first "
                                      "bid: undo the bids first", number=self.game.deal.number))
        problem = size_problem(self.game, kept.out, kept.cards)
        if problem is not None:
            code, message = problem.split(":", 1)
            raise _refusal(code, message)
        self._reset_current(kept)

    # ------------------------------------------------------------------ corrections
    def edit(self, number: int, *, bids: Sequence[int | None] | None = None,
             took: Sequence[int] | None = None, when: str = "") -> list[Correction]:
        """Correct finished deal ``number``: its bids and/or its tricks (by seat). The deals
        after it are scored again; the changed numbers are kept as corrections made at the
        deal now being kept (``when``: the time, as the caller writes it).

        :raises KeepError: when the corrected sheet breaks a rule (the rule named, the deal
            given), or ``number`` is not a finished deal; nothing is changed then.
        """
        if not 1 <= number <= len(self.deals):
            raise _refusal("R040", tr("deal {number} is not a finished deal of this game (1 to {last})",
                                      number=number, last=len(self.deals)))
        old = self.deals[number - 1]
        if old.out:  # a player who sat the deal out has no numbers in it
            bids = [None if s in old.out else b for s, b in enumerate(bids)] if bids is not None else None
            took = [0 if s in old.out else t for s, t in enumerate(took)] if took is not None else None
        new = replace(old, bids=tuple(bids) if bids is not None else old.bids,
                      took=tuple(took) if took is not None else old.took)
        deals = list(self.deals)
        deals[number - 1] = new
        game = self.replay(deals)
        at = self.game.deal.number if not self.game.is_over else len(self.deals)
        made: list[Correction] = []
        for field, before, after in ((Field.BID, old.bids, new.bids), (Field.TOOK, old.took, new.took)):
            for seat, (a, b) in enumerate(zip(before or (), after or ())):
                if a != b and b is not None:
                    made.append(Correction(number, seat, field.value, a, b, at, when))
        self.deals = deals
        self.game = game
        current = self.current
        self.current = self.blank_deal()
        try:
            _begin(game, current)
            _advance(game, current)
            self.current = current
        except IllegalAction:
            self.game = self.replay(deals)  # the deal in hand no longer fits: it starts again
            _advance(self.game, self.current)
        self.corrections += made
        return made

    def order_of(self, number: int) -> tuple[int, ...]:
        """The seats in the order they bid in finished deal ``number``."""
        dealer = self.game.results[number - 1].dealer
        first = seat_by_rule(self.variant.bidding.first_bidder, dealer, self.players)
        out = self.deals[number - 1].out if number <= len(self.deals) else frozenset()
        return tuple(s for s in ((first + i) % self.players for i in range(self.players)) if s not in out)

    def corrected(self) -> dict[tuple[int, int, str], Correction]:
        """The last correction of each corrected number: (deal, seat, field) -> correction."""
        return {(c.deal, c.seat, c.field): c for c in self.corrections}

    # ------------------------------------------------------------------ the record
    def transcript(self) -> Transcript:
        """The game so far as a sheet-level record: a row per deal, each deal's corrections after
        its row, the deal in hand as far as it went."""
        return kept_transcript(self)

    @classmethod
    def from_transcript(cls, t: Transcript, variant: Variant, label: str | None = None) -> Keeper:
        """The keeper of a sheet-level record, to go on keeping it.

        :raises KeepError: when a deal of the record breaks a rule.
        """
        deals, corrections = sheet_deals(t)
        headers = tuple(h for h in t.headers if h.key in ("date", "event") or h.key.startswith("_"))
        return restored(cls(variant, t.players, first_dealer=t.first_dealer, label=label or t.variant),
                        deals, corrections, headers)


def restored(keeper: Keeper, deals: Sequence[KeptDeal], corrections: Sequence[Correction],
             headers: Sequence[Header] = ()) -> Keeper:
    """``keeper`` (new) with the deals of a saved sheet given again (the last may be
    unfinished), its corrections and its extra header lines.

    :raises KeepError: when a deal breaks a rule.
    """
    kept = list(deals)
    for e in (e for d in kept for e in d.table):
        if e.kind == "leave" and e.actor is not None:
            keeper.left.add(e.actor)
    for seat in range(keeper.players):  # out of every deal so far, and not arrived: still late
        if seat not in keeper.left and kept and all(seat in d.out for d in kept) \
                and not any(e.kind == "late" and e.actor == seat for d in kept for e in d.table):
            keeper.waiting.add(seat)
    current = kept.pop() if kept and not kept[-1].done else keeper.blank_deal()
    keeper.deals = kept
    keeper.game = keeper.replay(kept)
    try:
        _begin(keeper.game, current)
        _advance(keeper.game, current)
    except IllegalAction as exc:
        raise KeepError(exc.diagnostics[0]) from None
    keeper.current = current
    if current.done:
        keeper.deals.append(current)
        keeper.current = keeper.blank_deal()
        _advance(keeper.game, keeper.current)
    keeper.corrections = list(corrections)
    keeper.headers = tuple(headers)
    return keeper

def kept_deals(keeper: Keeper) -> list[KeptDeal]:
    """The deals of the sheet as the table gave them: the finished ones, and the deal in hand
    when anything of it was given."""
    current = keeper.current
    return [*keeper.deals] + ([current] if current != keeper.blank_deal() else [])


def _advance(g: Game, d: KeptDeal) -> None:
    """Apply to ``g`` what of deal ``d`` it has not taken yet, as far as ``d`` goes.

    :raises IllegalAction: where the engine refuses an entry (a sheet replayed after a
        correction; entries given one by one were checked first).
    """
    if d.short:
        _advance_short(g, d)
        return
    start = len(g.results)
    while not g.is_over and len(g.results) == start:
        phase = g.phase
        if phase is Phase.DEAL:
            rules, rule = trump_rule_for(g.variant, g.deal, g.players, g.table.size)
            if rule == "chosen":
                g.deal_unknown(chosen=True)
            elif rule == "fixed":
                g.deal_unknown(trump=rules.suit)
            elif rule == "none":
                g.deal_unknown()
            elif d.trump_given:
                g.deal_unknown(trump=d.trump)
            else:
                return
        elif phase is Phase.TRUMP:
            if not d.trump_given:
                return
            g.apply(ChooseTrump(d.trump))
        elif phase is Phase.AUCTION:
            call = d.calls[g.to_act] if d.calls else None
            if call is None:
                return
            g.apply(call)
        elif phase is Phase.BID:
            bid = d.bids[g.to_act] if d.bids else None
            if bid is None:
                return
            g.apply(Bid(bid))
        elif phase is Phase.PLAY:
            if d.took is None:
                return
            g.record_tricks(list(d.took))
        else:  # pragma: no cover - phases are closed
            return


def _begin(g: Game, d: KeptDeal) -> None:
    """Start deal ``d`` on ``g``: its adjustments count in its total."""
    for e in d.table:
        if e.kind == "adjust" and e.actor is not None:
            g.take_total_as_written(e.actor, g.totals[e.actor] + (e.number or 0))


def _advance_short(g: Game, d: KeptDeal) -> None:
    """:func:`_advance` for a deal a player sits out or played with another number of cards:
    the engine is dealt the deal and given its scores when its tricks are in
    (:mod:`~updown_dsl.records.tableevents`)."""
    if g.is_over:
        return
    if g.phase is Phase.DEAL:
        rules, rule = trump_rule_for(g.variant, g.deal, g.players, g.table.size)
        if rule not in ("fixed", "none") and not d.trump_given:
            return
        start_short_deal(g, d.trump)
    if d.took is None:
        return
    sd = ShortDeal.of(g, d.out, d.cards)
    bids = [None if s in d.out else b for s, b in enumerate(d.bids)] if d.bids else [None] * g.players
    finish_short_deal(g, short_scores(g, sd, bids, list(d.took)))


def kept_transcript(keeper: Keeper) -> Transcript:
    """:meth:`Keeper.transcript`."""
    t = game_transcript(keeper.game, keeper.names, level="sheet", variant=keeper.label,
                        extra=[(h.key, h.value) for h in keeper.headers], compact=True)
    by_deal: dict[int, list[Event]] = {}
    for c in keeper.corrections:
        by_deal.setdefault(c.deal, []).append(correction_event(c))
    deals = kept_deals(keeper)
    if any(d.table or d.short for d in deals):
        return _with_table(keeper, t, deals, by_deal)
    events: list[Event] = []
    number = 0
    for e in t.events:
        if e.kind in ("deal", "settlement"):
            events += by_deal.pop(number, [])
            number = e.number or 0
        events.append(e)
    events += by_deal.pop(number, [])
    return Transcript(t.headers, t.players, tuple(events))


def deal_totals(keeper: Keeper) -> list[tuple[int, ...]]:
    """Every player's total after each finished deal (adjustments and short deals counted)."""
    g = keeper.replay([])
    out = []
    for d in keeper.deals:
        _begin(g, d)
        _advance(g, d)
        out.append(tuple(g.totals))
    return out


def _with_table(keeper: Keeper, t: Transcript, deals: Sequence[KeptDeal],
                by_deal: dict[int, list[Event]]) -> Transcript:
    """:func:`kept_transcript` of a sheet with the table's events: a short deal's row written
    from what the table gave (``-`` for a player out), every total as the game has it, each
    deal's table lines and corrections after its row."""
    totals = deal_totals(keeper)
    results = [r for r in keeper.game.results if r.event in ("deal", "abandoned")]
    blocks: list[list[Event]] = []
    tail: list[Event] = []
    for e in t.events:
        if e.kind == "deal":
            blocks.append([e])
        elif e.kind == "settlement":
            tail.append(e)
        elif blocks:
            blocks[-1].append(e)
    events: list[Event] = []
    n = keeper.players
    for k, d in enumerate(deals):
        if d.short or k >= len(blocks):
            dealer = results[k].dealer if k < len(results) else keeper.game.dealer
            size = d.cards if d.cards is not None else keeper.game.deals[k].cards
            block = [Event("deal", number=k + 1, size=size, actor=dealer, row=True)]
            trump = results[k].trump if k < len(results) else keeper.game.trump if keeper.game.phase not in (
                Phase.DEAL, Phase.TRUMP) else None
            if d.trump_given or k < len(results) or keeper.game.phase not in (Phase.DEAL, Phase.TRUMP):
                block.append(Event("trump", suit=trump, no_trump=trump is None, row=True))
            block += [Event("bid", actor=s, number=b, row=True) for s, b in enumerate(d.bids)
                      if b is not None and s not in d.out]
            if d.took is not None and k < len(totals):
                block += [Event("took", actor=s, number=x, row=True) for s, x in enumerate(d.took) if s not in d.out]
                points = results[k].seats
                block.append(Event("score", amounts=tuple(None if s in d.out else points[s].points for s in range(n)),
                                   row=True))
                block.append(Event("total", amounts=totals[k], row=True))
        else:
            block = [e._replace(amounts=totals[k]) if e.kind == "total" and k < len(totals) else e
                     for e in blocks[k]]
        events += block + list(d.table) + by_deal.pop(k + 1, [])
    return Transcript(t.headers, t.players, tuple(events + tail))
