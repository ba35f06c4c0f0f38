"""The audit of a record, in parts: what each deal's cards are and what the written
numbers say, checked against the engine. :class:`~updown_dsl.records.checker.Audit`
joins the parts into the visitor the checker walks a record with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn, cast

from ..i18n import tr
from ..cards import Card, Suit
from ..diagnostics import Diagnostic, Severity
from ..engine import CardFault, Game, IllegalAction, Phase, trump_rule_for
from ..engine.scoring import settle
from .model import Event, Transcript


class Abandon(Exception):
    """Leave the rest of the current deal (after reporting why, if need be): the audit goes on
    with the next deal."""


class StopWalk(Exception):
    """Stop at this deal: no further deal is checked (the settlement and the end still are)."""


class _Stop(Abandon):
    """Give up on the current deal (after reporting why)."""


class _Skip(Abandon):
    """Leave the current deal unchecked without an error (its cards are not known)."""


class _Record:
    """What every part of the audit shares: the record, the game and the diagnostics."""

    # The deal being walked (set by Audit.begin_deal for each block).
    start_results: int
    block: list[Event]
    is_last: bool
    stops_here: bool
    deal_number: int
    totals_before: list[int]
    hands: dict[int, list[Card | None]]
    hand_events: dict[int, Event]
    score_gap: dict[int, int]
    """Per seat, how far a written score reported wrong (R050) is from the right one."""
    turned: Event | None
    trump_line: Event | None
    cut: Event | None
    took: dict[int, int]
    dealt: bool
    unknown: bool
    pending: tuple[Event, Diagnostic] | None
    penalized: bool
    violated: bool
    """A rule was broken in this deal (reported): the deal goes on with the action as written."""
    decided: bool
    """A penalty stopped the deal (``then: abandon``): its written score is the table's decision."""
    bad_bids: set[int]
    """Seats whose bid broke a rule in this deal (their score is not compared)."""
    replayed: bool
    sheet_bids_done: bool
    level_of_deal: str
    trump_rule: str
    trump_rules: Any
    taken_back: set[Event]
    as_unknown: set[Event]
    """Plays of a card that cannot be (not in the pack, or seen twice): read as unknown."""
    hands_played: bool
    """A full record's hands with unknown cards, taken from the plays instead."""
    inferred: dict[Event, Any]
    """The plays an unknown card was read as (:meth:`_Cards.read_unknown_cards`)."""
    unread: str
    """Why the unknown cards of the deal could not be read (for the T021 note)."""
    readings_left: int
    """Readings of unknown cards the rest of the record may still try (a bound on the time
    a record full of them takes)."""

    if TYPE_CHECKING:  # each part calls the others'
        def refused(self, problem: Diagnostic, e: Event) -> NoReturn: ...
        def settle_pending(self) -> None: ...
        def ensure_dealt(self, at: Event) -> None: ...
        def hands_from_plays(self, events: list[Event]) -> None: ...
        def read_unknown_cards(self, at: Event, turned: Card | None, cut: Card | None, trump: Suit | None) -> bool: ...

    def __init__(self, t: Transcript, game: Game, diags: list[Diagnostic]) -> None:
        self.t = t
        self.game = game
        self.diags = diags
        self.level = t.level
        self.names = t.players
        self.last_written: list[int | None] = [None] * game.players
        self.readings_left = -1  # set at the first deal with unknown cards
        # Lines the reader could not read in full (their numbers are missing, not wrong).
        self.unreadable = {d.line for d in diags if d.severity is Severity.ERROR and d.code.startswith("T")}

    # -- reporting ------------------------------------------------------------------------
    def report(self, code: str, message: str, event: Event | None, hint: str | None = None,
               severity: Severity = Severity.ERROR, at_arg: bool = False, seat: int | None = None) -> None:
        """Add a diagnostic at ``event``'s line: at its first argument with ``at_arg``, or at
        ``seat``'s number of a score, total or settlement line."""
        line = event.line if event is not None else None
        col = event.col if event is not None else None
        if at_arg and event is not None and event.arg_col:
            col = event.arg_col
        if seat is not None and event is not None and seat < len(event.cells) and event.cells[seat]:
            col = event.cells[seat]
        self.diags.append(Diagnostic(code, message, severity, self.t.path, line, col, hint=hint))

    def who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None else "?"

    def where(self) -> str:
        g = self.game
        trick = len(g.tricks) + 1
        return tr("deal {number}, trick {trick}", number=g.deal.number, trick=trick) if g.phase is Phase.PLAY \
            else tr("deal {number}", number=g.deal.number)


class _Cards(_Record):
    """Each deal's cards: the hands, shown and played cards gathered from its block, then dealt to the engine."""

    def deal_done(self, start: int) -> bool:
        return any(r.event in ("deal", "abandoned") or (r.event == "revoke" and r.annulled)
                   for r in self.game.results[start:])

    def collect(self, events: list[Event]) -> None:
        """Hands, turned card, trump and cut, wherever they stand in the block."""
        g = self.game
        self.trump_rules, self.trump_rule = trump_rule_for(g.variant, g.deal, g.players, g.table.size)
        # A play followed by its player's penalty in a deal that goes on was taken back.
        annulled = any(e.kind == "replay" for e in events)
        body = [e for e in events if e.kind != "comment"]
        self.taken_back = {
            e for e, nxt in zip(body, body[1:])
            if e.kind == "play" and nxt.kind == "penalty" and nxt.actor == e.actor and not annulled
        }
        seen: dict[Card, Event] = {}
        for e in events:
            if e.kind == "hand" and e.actor is not None:
                if e.actor in self.hands:
                    self.report("R041", tr("{player} has two hands in deal {number}",
                                           player=self.who(e.actor), number=self.game.deal.number), e)
                self.hands[e.actor] = list(e.cards)
                self.hand_events[e.actor] = e
                if len(e.cards) != self.game.deal.cards:
                    self.report("R041", tr("{player} was dealt {count} cards; deal {number} has {cards} each",
                                           player=self.who(e.actor), count=len(e.cards), number=self.game.deal.number, cards=self.game.deal.cards), e)
            elif e.kind == "turned":
                self.turned = e
            elif e.kind == "trump" and e.actor is None:
                self.trump_line = e
            elif e.kind == "cut":
                self.cut = e
            elif e.kind == "took" and e.actor is not None:
                self.took[e.actor] = e.number or 0
            if e.kind == "turned" and self.trump_rule == "last_dealt":
                continue  # the dealer's last card, shown: it is in a hand too
            if e.kind == "play" and e in self.taken_back:
                continue  # an illegal card taken back and played again later
            if e.kind in ("hand", "turned") or (e.kind == "play" and self.level == "plays"):
                cards = e.cards if e.kind != "play" else ((e.play.card,) if e.play else (None,))
                for c in cards:
                    if c is None:
                        self.unknown = True
                        continue
                    if c not in self.game.table.index:
                        self.report("R044", tr("{c} is not in the {size}-card pack",
                                               c=c, size=self.game.table.size), e)
                    elif c in seen:
                        self.report("R043", tr("{c} appears twice in deal {number} (first at line {line})",
                                               c=c, number=self.game.deal.number, line=seen[c].line), e)
                    else:
                        seen[c] = e
                        continue
                    if e.kind == "turned":
                        raise _Stop
                    # A card that cannot be: read it as a card nobody wrote down, so that the
                    # rest of the deal is still checked.
                    if e.kind == "hand" and e.actor is not None:
                        self.hands[e.actor] = [None if x == c else x for x in self.hands[e.actor]]
                    else:
                        self.as_unknown.add(e)
                    self.unknown = True
        if self.level == "full" and self.unknown and not (self.turned and None in self.turned.cards):
            self.hands_from_plays(events)
        if self.level == "plays":
            for e in events:
                if e.kind == "play" and e.actor is not None and e not in self.taken_back:
                    self.hands.setdefault(e.actor, []).append(
                        e.play.card if e.play and e not in self.as_unknown else None)

    def ensure_dealt(self, at: Event) -> None:
        g = self.game
        if self.dealt or g.phase is not Phase.DEAL:
            return
        self.dealt = True
        trump = self.trump_suit()
        turned = self.turned.cards[0] if self.turned and self.turned.cards else None
        cut = self.cut.cards[0] if self.cut and self.cut.cards else None
        if self.cut is not None:
            cutter = self.cut.actor
            expected = _seat_by_cut(g)
            if cutter is not None and cutter != expected:
                self.report("R001", tr("{player} cuts before deal {number}, not {player2}",
                                       player=self.who(expected), number=g.deal.number, player2=self.who(cutter)), self.cut)
        short = self.level == "plays" and any(
            len(self.hands.get(s, ())) != g.deal.cards for s in range(g.players))
        rules = g.variant.revoke
        annulled = any(e.kind == "replay" for e in self.block) or (
            rules is not None and rules.then == "abandon" and any(e.kind == "penalty" for e in self.block))
        if short and annulled:
            self.unknown = True  # a deal stopped by a revoke: not every card was played
        elif short and self.is_last and self.stops_here and \
                all(len(c) <= g.deal.cards for c in self.hands.values()):
            # The record stops inside this deal: the hands are not all known yet.
            self.report("T021", tr("the record stops inside deal {number}: its cards are not checked",
                                   number=g.deal.number), at, severity=Severity.NOTE)
            self.unknown = True
        if self.hands_played and not any(None in h for h in self.hands.values()):
            self.unknown = False  # the plays show every card the hands did not
        if (self.level == "plays" or self.hands_played) and self.unknown and not short and not annulled and \
                self.read_unknown_cards(at, turned, cut, trump):
            self.unknown = False
        if self.level == "sheet" or self.unknown or not self.hands:
            if self.level != "sheet" and self.unknown and not short and not annulled:
                first = next((e for e in self.block if e.kind in ("hand", "turned", "play") and (
                    e in self.as_unknown or None in e.cards or (e.kind == "play" and e.play is None))), at)
                self.report("T021", tr("deal {number} holds unknown cards (??){unread}: its cards are not checked",
                                       number=g.deal.number, unread=self.unread), first, severity=Severity.NOTE)
            self.level_of_deal = "sheet"
            trump = self.sheet_trump(trump)
            try:
                chosen = any(e.kind == "trump" and e.actor is not None for e in self.block)
                g.deal_unknown(trump=trump, turned=turned, chosen=chosen, cut_card=cut)
            except IllegalAction as exc:
                self.refused(exc.diagnostics[0], at)
            return
        self.level_of_deal = "cards"
        missing = [s for s in range(g.players) if s not in self.hands]
        if missing:
            self.report("R041", tr("no cards recorded for {items} in deal {number}",
                                   items=', '.join(self.who(s) for s in missing), number=g.deal.number), self.block[0])
            raise _Stop
        if self.level == "plays":
            for s, cards in self.hands.items():
                if len(cards) != g.deal.cards:
                    self.report("R045", tr("{player} played {count} cards in deal {number}, which has {cards} each",
                                           player=self.who(s), count=len(cards), number=g.deal.number, cards=g.deal.cards), self.block[0])
                    raise _Stop
        elif any(len(self.hands[s]) != g.deal.cards for s in range(g.players)):
            raise _Stop  # reported as R041 at the hand line, by name: the engine would only say "seat 1"
        hands = [[c for c in self.hands[s] if c is not None] for s in range(g.players)]
        if self.trump_rule == "last_dealt" and turned is not None:
            # The shown card was dealt last: hands rebuilt from plays are in play order, and a
            # full-level hand may be written sorted, so the turned line says which card it was.
            own = hands[g.dealer]
            if turned in own:
                own.remove(turned)
                own.append(turned)
            else:
                self.report("R046", tr("the card shown for trump, {turned}, is not the dealer {player}'s",
                                       turned=turned, player=self.who(g.dealer)), self.turned)
                raise _Stop
        try:
            g.deal_cards(hands, turned=turned, cut_card=cut, random_trump=trump, recorded_trump=trump)
        except IllegalAction as exc:
            d = exc.diagnostics[0]
            code = "R043" if exc.fault is CardFault.DEALT_TWICE else "R044" if exc.fault is CardFault.NOT_IN_PACK \
                else "R046"
            self.report(code, tr("deal {number}: {message}",
                                 number=g.deal.number, message=d.message), self.turned or at)
            raise _Stop from None
        if self.trump_line is not None and self.turned is not None and cast(Phase, g.phase) is not Phase.TRUMP:
            written = None if self.trump_line.no_trump else self.trump_line.suit
            if written != g.trump:
                self.report("R046", tr("trump in deal {number} is {value} by the rules, not {value2}",
                                       number=g.deal.number, value=g.trump.name.lower() if g.trump else 'none', value2=written.name.lower() if written else 'none'), self.trump_line)

    def sheet_trump(self, written: Suit | None) -> Suit | None:
        """The trump of a deal whose cards are not known: as written, unless the rules fix it
        (no trump, or always one suit) and the record says otherwise (R046)."""
        g = self.game
        if self.trump_line is None or self.trump_line.actor is not None:
            return written
        rules, rule = self.trump_rules, self.trump_rule
        def name(s: Suit | None) -> str:
            return s.name.lower() if s is not None else "none"

        if rule == "none" and written is not None:
            self.report("R046", tr("deal {number} is played without trump, not with {name}",
                                   number=g.deal.number, name=name(written)),
                        self.trump_line, hint=tr("write 'trump none'"))
            return None
        if rule == "fixed" and written != rules.suit:
            self.report("R046", tr("trump in deal {number} is {name} by the rules, not {name2}",
                                   number=g.deal.number, name=name(rules.suit), name2=name(written)), self.trump_line)
            suit: Suit | None = rules.suit
            return suit
        return written

    def trump_suit(self) -> Suit | None:
        e = self.trump_line
        if e is None or e.no_trump:
            return None
        return e.suit

    def abandon(self, start: int) -> None:
        """Skip the rest of a broken deal, keeping its written score and total."""
        g = self.game
        if self.deal_done(start) or g.is_over:
            return
        score = next((e for e in self.block if e.kind == "score"), None)
        total = next((e for e in self.block if e.kind == "total"), None)
        points = [a or 0 for a in score.amounts] if score is not None else None
        try:
            g.abandon_deal(points)
        except IllegalAction:
            return
        if total is not None:
            for s, a in enumerate(total.amounts):
                if a is not None:
                    g.take_total_as_written(s, a)


class _Scores(_Record):
    """The written numbers: tricks taken, scores, running totals and the settlement, against the engine's."""

    def finish_sheet(self, at: Event) -> None:
        """At a score line of a deal whose cards are not known: record the tricks taken."""
        g = self.game
        if g.phase is Phase.DEAL:
            self.ensure_dealt(at)
        if g.phase is Phase.PLAY and not g.tricks and not g.trick and \
                self.level_of_deal == "sheet":
            if len(self.took) != g.players:
                if self.level != "sheet" and not self.took:
                    raise _Skip  # unknown cards and no tricks written: nothing to score here
                if self.is_last and at is self.block[-1] and at.kind == "took":
                    raise _Skip  # the record stops while the tricks are written down
                if any(e.kind == "raw" or e.line in self.unreadable for e in self.block):
                    raise _Skip  # a number the reader could not read (reported): not a second mistake
                self.report("R053", tr("tricks taken are not written for every player in deal {number}",
                                       number=g.deal.number), at)
                raise _Stop
            try:
                g.record_tricks([self.took[s] for s in range(g.players)])
            except IllegalAction as exc:
                self.report(exc.diagnostics[0].code, exc.diagnostics[0].message, at)
                raise _Stop from None

    def last_deal_record(self) -> Any:
        for r in reversed(self.game.results):
            if r.event == "deal":
                return r
        return None

    def compare(self, e: Event) -> None:
        g = self.game
        if self.pending is not None:
            self.settle_pending()
        if e.kind == "score" and self.decided:
            return  # the table's decision: nothing to compare
        if e.kind == "score":
            r = self.last_deal_record()
            if r is None or r.deal.number != self.deal_number or g.phase is Phase.PLAY:
                if self.violated:
                    raise _Stop  # the record stopped the deal at the mistake already reported
                self.report("R047", tr("a score is written before deal {deal_number} is over",
                                       deal_number=self.deal_number), e)
                raise _Stop
            for s, written in enumerate(e.amounts):
                if written is None:
                    continue
                seat = r.seats[s]
                if s in self.bad_bids:
                    # A bid in question: its written score stands (as for a deal left unchecked).
                    g.take_total_as_written(s, g.totals[s] + written - (seat.points + seat.bonus))
                    continue
                actual = seat.points + seat.bonus
                if written != actual:
                    self.score_gap[s] = written - actual
                    detail = tr("bid {bid}, took {taken}", bid=seat.bid, taken=seat.taken) if seat.bid is not None \
                        else tr("took {taken}", taken=seat.taken)
                    self.report("R050", tr("{player} scores {actual} in deal {number} ({detail}), not {written}",
                                           player=self.who(s), actual=actual, number=r.deal.number, detail=detail, written=written), e, seat=s)
            self.check_took(r)
        else:
            for s, written in enumerate(e.amounts):
                if written is None:
                    continue
                true = g.totals[s]
                # A wrong total carried on from an earlier deal by adding the right points, or a
                # total that adds a wrong score written above it (reported as R050), is right
                # arithmetic on a mistake already reported: the same mistake, reported once.
                carried = self.last_written[s]
                drift = carried - self.totals_before[s] if carried is not None else 0
                gap = self.score_gap.get(s, 0)
                if written not in (true, true + drift, true + gap, true + drift + gap):
                    self.report("R051", tr("{player}'s total after deal {deal_number} is {true}, not {written}",
                                           player=self.who(s), deal_number=self.deal_number, true=true, written=written), e, seat=s)
                self.last_written[s] = written

    def check_took(self, r: Any) -> None:
        for s, n in self.took.items():
            if r.seats[s].taken != n:
                line = next(x for x in self.block if x.kind == "took" and x.actor == s)
                self.report("R052", tr("{player} took {taken} tricks in deal {number}, not {n}",
                                       player=self.who(s), taken=r.seats[s].taken, number=r.deal.number, n=n), line)
        self.took = {}

    def settlement(self, e: Event) -> None:
        g = self.game
        if not g.is_over:
            self.report("R054", tr("a settlement is written but the game is not over"), e)
            return
        actual = g.settlement()
        # A settlement worked out from totals already reported wrong is that mistake again.
        sheet_totals = [w if w is not None else t for w, t in zip(self.last_written, g.totals)]
        from_sheet = settle(g.variant, sheet_totals) if sheet_totals != list(g.totals) else actual
        for s, written in enumerate(e.amounts):
            if written is not None and written != actual[s] and written != from_sheet[s]:
                self.report("R054", tr("{player} settles {value}, not {written}",
                                       player=self.who(s), value=actual[s], written=written), e, seat=s)


def _seat_by_cut(game: Game) -> int:
    from ..engine import seat_by_rule

    return seat_by_rule(game.variant.cut_by, game.dealer, game.players)
