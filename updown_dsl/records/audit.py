"""The audit of a record: its lines replayed through the engine, deal by deal.

:class:`Audit` goes through a whole record (the lines before the first deal, each deal
block, the settlement and the end); each deal block is checked by its own
:class:`DealAudit`, which gathers what the block says (hands, shown and played cards,
tricks written), deals it to the engine, applies its bids and cards, and compares the
written numbers with the engine's. There is no second copy of the rules here: deals,
bids, cards, trick winners, scores and totals are all judged by
:class:`~updown_dsl.engine.Game`.

After a broken rule a deal goes on with the action as written (the card as played, the
bid as made), so that every independent mistake is reported and none of the consequences
of one already reported: where the record no longer follows from it (another player
leads, the deal stops there) the deal is left, keeping its written score and total.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from math import perm, prod
from operator import itemgetter
from typing import Any, Callable, NoReturn, Sequence, cast

from ..i18n import tr
from ..actions import Bid, Call, Play
from ..cards import Card, Suit
from ..diagnostics import CATALOGUE, Cause, Diagnostic, Severity
from ..engine import CardFault, Game, IllegalAction, Phase, seat_by_rule, trump_rule_for
from ..engine.scoring import settle
from ..engine.tables import SUITS
from ..lang.formula import FormulaEvalError
from . import infer
from .infer import Step, read_unknown
from .model import IMPLIED, Event, Transcript
from .tableevents import TableLines
from .tablelines import correction_problems


class Abandon(Exception):
    """Leave the rest of the current deal (after reporting why, if need be): the audit goes on
    with the next deal, the deal keeping its written score and total."""


class StopWalk(Exception):
    """Stop at this deal: no further deal is checked (the settlement and the end still are)."""


class _Skip(Abandon):
    """Leave the current deal unchecked without an error (its cards are not known)."""


_kind = itemgetter(0)  # an event's kind (its first field), in C


def _suit_name(suit: Suit | None) -> str:
    return suit.name.lower() if suit is not None else "none"

_VERB = {Phase.BID: "bid", Phase.PLAY: "play", Phase.TRUMP: "name trump", Phase.AUCTION: "call"}


_PLAY_RULES = frozenset(("R001", "R003", "R010", "R011", "R012", "R013", "R014", "R015", "R016", "R017"))




def _weigh(diags: Sequence[Diagnostic]) -> tuple[int, int]:
    """The errors among ``diags``, and those of them about cards or leads."""
    errors = [d.code for d in diags if d.severity is Severity.ERROR]
    return len(errors), sum(1 for c in errors if c in _PLAY_RULES)


def _leads(diags: Sequence[Diagnostic]) -> int:
    """The errors among ``diags`` about who led a trick."""
    return sum(1 for d in diags if d.severity is Severity.ERROR and d.code == "R003")


def _with_turned(block: list[Event], card: Card) -> list[Event]:
    """``block`` with ``card`` on its turned line."""
    return [e._replace(cards=(card,)) if e.kind == "turned" else e for e in block]


class Audit:
    """The checker of one record: its lines replayed through ``game``, each problem added to
    ``diags`` (:meth:`run`).

    It holds what goes from one deal to the next: the totals last written, the readings of
    unknown cards the record may still try, and the lines the reader could not read.
    ``batch_plays``: a deal's run of plain cards goes to the engine at once
    (:meth:`DealAudit.play_run`), with the same report as card by card (``False``, which
    the tests compare it with).
    """

    def __init__(self, t: Transcript, game: Game, diags: list[Diagnostic], *, batch_plays: bool = True,
                 start: Callable[[], Game] | None = None) -> None:
        self.t = t
        if start is None:
            first = game.clone()
            start = first.clone
        self.start = start
        """A new game of the record, as ``game`` stands before its first deal (to walk the
        record again up to a deal)."""
        self.weighing = True
        """Whether a deal the card shown for trump may explain is checked again (not in a
        quiet walk for the state before a deal)."""
        self.reread: dict[int, Card] = {}
        """Deal blocks checked with another card shown for trump than written (by index)."""
        self.table: TableLines | None = None
        self.batch_plays = batch_plays
        self.game = game
        self.diags = diags
        self.level = t.level
        self.names = t.players
        self.last_written: list[int | None] = [None] * game.players
        """Each seat's total as last written (a wrong one carried on is not a second mistake)."""
        self.readings_left = -1
        """Readings of unknown cards the rest of the record may still try (a bound on the time a
        record full of them takes; set at the first deal with unknown cards)."""
        # Lines the reader could not read in full (their numbers are missing, not wrong).
        self.unreadable = {d.line for d in diags if d.severity is Severity.ERROR and d.code.startswith("T")}
        self.settled = False
        """The record writes a settlement."""
        self.last_trick_in_question = False
        """Who took the last trick of the deal before is in question (so who leads the next
        deal, where its winner leads)."""
        self.deal: DealAudit | None = None
        """The deal block being checked (the last one, once the walk is over)."""

    # -- reporting ------------------------------------------------------------------------
    def report(self, code: str, message: str, event: Event | None, hint: str | None = None,
               severity: Severity = Severity.ERROR, at_arg: bool = False, seat: int | None = None,
               caused_by: Cause | None = None) -> None:
        """Add a diagnostic at ``event``'s line: at its first argument with ``at_arg``, or at
        ``seat``'s number of a score, total or settlement line; ``caused_by``: the mistake it
        follows from."""
        line = event.line if event is not None else None
        col = event.col if event is not None else None
        if at_arg and event is not None and event.arg_col:
            col = event.arg_col
        if seat is not None and event is not None and seat < len(event.cells) and event.cells[seat]:
            col = event.cells[seat]
        self.diags.append(Diagnostic(code, message, severity, self.t.path, line, col, hint=hint, caused_by=caused_by))

    def who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None else "?"

    # -- the walk -------------------------------------------------------------------------
    def run(self) -> None:
        """Check the record: the lines before the first deal, each deal (a deal left at a
        mistake keeps its written score and total; a game over stops the deals), the
        settlement, the end."""
        t, g = self.t, self.game
        self.settled = "settlement" in map(_kind, t.events)
        for e in t.events:
            if e.kind == "deal":
                break
            if e.kind not in ("comment", "raw", "settlement"):
                self.report("T002", tr("a '{kind}' line must come after a 'deal' line", kind=e.kind), e,
                            hint=tr("start each deal with 'deal N cards K dealer NAME'"))
        table = self.table = TableLines.of(t)  # the table's events (records/tableevents.py)
        for f in table.problems if table is not None else ():
            self.report(f.code, f.message, f.event, hint=f.hint, severity=f.severity, seat=f.seat)
        for _, e, back in t.annotations():
            if e.kind == "undo" and not back:
                self.undo_misfit(e)
        blocks = t.deals()
        self.walk(blocks, len(blocks))
        if self.settled:
            for e in t.events:
                if e.kind == "settlement":
                    self.settlement(e)
        self.end_game()

    def undo_misfit(self, e: Event) -> None:
        """An ``undo`` line that takes nothing back (:func:`~.model.as_played`)."""
        block = next(b for b in self.t.deals_as_written() if e in b)
        actions = sum(1 for x in block[:block.index(e)] if x.action is not None or x.kind == "play")
        name, number = self.t.players[e.actor or 0], block[0].number
        if (e.number or 0) > actions:
            message = tr("{player}'s 'undo {count}' takes back more action lines than deal {number} holds "
                         "before it ({actions}): it takes nothing back", player=name, count=e.number,
                         number=number, actions=actions)
        else:
            message = tr("{player}'s 'undo {count}' would take back a line of another player first: it "
                         "takes nothing back", player=name, count=e.number)
        self.report("T022", message, e, hint=tr("'undo N' follows the N action lines it takes back, the "
                                                "first of them the player's own"))

    def walk(self, blocks: list[list[Event]], upto: int) -> None:
        """Check the deal blocks before ``upto`` (a game over stops them)."""
        table = self.table
        for i, block in enumerate(blocks[:upto]):
            g = self.game
            if g.is_over:
                self.report("R047", tr("the game ended after deal {number} ({over_reason}) but the record goes on",
                                       number=g.deal.number, over_reason=g.over_reason), block[0])
                break
            if table is not None and table.short(i):  # a player out, or another number of cards
                for f in table.play(g, i, block, self.level):
                    self.report(f.code, f.message, f.event, hint=f.hint, severity=f.severity, seat=f.seat)
                self.last_written = list(g.totals)  # (a wrong total was reported and taken as written)
                continue
            card = self.reread.get(i)
            before = len(self.diags)
            deal = self.check_block(_with_turned(block, card) if card is not None else block, i, len(blocks))
            if deal is None:
                break
            if self.weighing and card is None and deal.turned is not None:
                self.weigh_turned(deal, blocks, i, before)

    def check_block(self, block: list[Event], i: int, count: int) -> DealAudit | None:
        """Check deal block ``i`` of ``count`` (None: the walk stops)."""
        deal = self.deal = DealAudit(self, block, i == count - 1)
        if block[0].code == IMPLIED:  # the deal dealt again after a redeal, with no 'deal' line of its own
            self.report("R025", tr("deal {number} is dealt again after a redeal: write the new deal under its "
                                   "own 'deal {number}' line", number=block[0].number), block[0])
        if self.table is not None:
            self.table.apply_adjustments(self.game, i)  # counted in the deal's total (after its totals_before)
        try:
            deal.run()
        except Abandon:
            deal.abandon()
        except StopWalk:
            return None
        return deal

    def trial(self, game: Game) -> Audit:
        """A quiet audit of this record from ``game``, with this one's state: to check a deal
        again."""
        other = Audit(self.t, game, [], batch_plays=self.batch_plays, start=self.start)
        other.weighing = False
        other.reread = self.reread
        other.table = self.table
        other.unreadable = self.unreadable
        other.settled = self.settled
        other.last_written = list(self.last_written)
        other.readings_left = self.readings_left
        other.last_trick_in_question = self.last_trick_in_question
        return other

    def weigh_turned(self, deal: DealAudit, blocks: list[list[Event]], i: int, before: int) -> None:
        """Where the card shown for trump gives deal block ``i`` two or more cards or leads
        against the rules: check the
        deal again as if a card of another suit the rules could have shown had been shown (the
        dealer's, or one of the cards left over). If the deal then has fewer mistakes,
        counting the turned line as one and leaving out the leads, and no card or lead against
        the rules, that line is the mistake: it is reported (R046) and
        the deal's check is the one under that card (and the walk goes on from it). The
        record up to the deal is walked again, quietly, for the state before it: a clean
        record pays nothing for this."""
        errors, broken = _weigh(self.diags[before:])
        # (a lead against the rules is often no mistake of its own but a trick won otherwise: an
        # illegal card earlier, or the trump; so the mistakes weighed leave the leads out)
        errors -= _leads(self.diags[before:])
        turned = deal.turned
        # (one card or lead against the rules is as likely one card played wrong as the
        # card shown written wrong: there the record's word stands)
        if broken < 2 or turned is None or len(turned.cards) != 1 or turned.cards[0] is None \
                or deal.trump_rule not in ("turned", "last_dealt") \
                or any(d.code == "R046" for d in self.diags[before:]) or not deal.kinds.isdisjoint(("penalty", "replay", "redeal")):
            return
        written = turned.cards[0]
        if deal.trump_rule == "last_dealt":
            shown = [c for c in deal.hands.get(deal.dealer, ()) if c is not None]
        else:
            held = {c for h in deal.hands.values() for c in h if c is not None}
            shown = [c for c in self.game.table.cards if c not in held and c != written]
        margin = 0 if deal.trump_rule == "last_dealt" else 1
        prefix: Audit | None = None
        best: tuple[int, Audit, Card] | None = None
        seen = {written.suit}
        for card in shown:
            if card.suit in seen or card.suit is None:
                continue
            seen.add(card.suit)
            if prefix is None:
                prefix = self.trial(self.start())
                prefix.last_written = [None] * prefix.game.players
                prefix.readings_left = -1
                prefix.last_trick_in_question = False
                prefix.walk(blocks, i)
            trial = prefix.trial(prefix.game.clone())
            if trial.check_block(_with_turned(deal.block, card), i, len(blocks)) is None:
                continue
            found, rules = _weigh(trial.diags)
            found -= _leads(trial.diags)
            # (fewer mistakes in all, counting the turned line, and every card and lead by the
            # rules: an illegal card's consequences are errors too, so another suit that leaves
            # cards against the rules explains the deal no better than the one written (one
            # card played wrong can leave a second card and a lead against them); a card left
            # over could be any of many, every suit among them, so it takes one mistake more)
            if found + 1 + margin < errors and rules == 0 and (best is None or found < best[0]):
                best = (found, trial, card)
        if best is None:
            return
        _, trial, card = best
        names = dict(turned=written, number=deal.number, suit=_suit_name(written.suit), suit2=_suit_name(card.suit),
                     sym=written.suit.symbol if written.suit else "", sym2=card.suit.symbol if card.suit else "")
        del self.diags[before:]
        self.report("R046", tr("the card shown for trump, {turned}, does not fit deal {number}: with {suit} "
                               "({sym}) as trump cards of the deal break the rules, with {suit2} ({sym2}) none "
                               "does", **names)
                    if not trial.diags else
                    tr("the card shown for trump, {turned}, does not fit deal {number}: with {suit} ({sym}) "
                       "as trump the deal has more mistakes than with {suit2} ({sym2})", **names),
                    turned, hint=tr("the dealer's last card is the trump shown: a card of {suit2} ({sym2})?", **names)
                    if deal.trump_rule == "last_dealt" else
                    tr("the card turned up shows trump: a card of {suit2} ({sym2})?", **names))
        self.diags.extend(trial.diags)
        self.reread[i] = card
        self.game = trial.game
        self.last_written = trial.last_written
        self.readings_left = trial.readings_left
        self.last_trick_in_question = trial.last_trick_in_question
        self.deal = trial.deal

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

    def end_game(self) -> None:
        g = self.game
        if g.is_over:
            return
        number = g.deal.number
        d = self.deal
        started = d is not None and d.number == number and len(g.results) == d.start_results
        where = (tr("in deal {number}", number=number) if started else
                 tr("after deal {number}", number=number - 1) if number > 1 else tr("before its first deal"))
        # at the record's last line, so that in an archive it names its game
        last = self.t.events[-1] if self.t.events else None
        end = g.variant.end
        of = (tr(", before a total reached {target}", target=end.target) if end.target is not None else
              tr(" of {deals}", deals=len(g.deals)))
        self.report("T020", tr("the record stops {where}{of}: the game is unfinished", where=where, of=of), last,
                    severity=Severity.NOTE)


class DealAudit:
    """The check of one deal block: its ``deal`` line and the lines up to the next one.

    Made for the block when the walk reaches it (the cards, shown cards, trump and tricks
    it writes are gathered at once, wherever they stand in it); :meth:`run` then deals it
    to the engine at its first action and goes through its lines.
    """

    def __init__(self, audit: Audit, block: list[Event], last: bool) -> None:
        self.audit = audit
        self.game = g = audit.game
        self.level = audit.level
        self.block = block
        self.kinds = kinds = frozenset(map(_kind, block))
        """The kinds of line the block holds."""
        self.is_last = last
        self.report = audit.report
        self.batch = audit.batch_plays
        self.who = audit.who
        head = block[0]
        if head.number != g.deal.number:
            self.report("R040", tr("deal {number} is written where deal {number2} comes next",
                                   number=head.number, number2=g.deal.number), head)
        if head.size is not None and head.size != g.deal.cards:
            self.report("R041", tr("deal {number} has {cards} cards each, not {size}",
                                   number=g.deal.number, cards=g.deal.cards, size=head.size), head)
        if head.actor is not None and head.actor != g.dealer:
            self.report("R042", tr("{player} deals deal {number}, not {player2}",
                                   player=self.who(g.dealer), number=g.deal.number, player2=self.who(head.actor)), head)
        self.number = g.deal.number
        self.dealer = g.dealer
        """The dealer of this deal, as the rules go."""
        self.cannot_be: Cause | None = None
        """The first card of the deal that cannot be (R043, R044): read as unknown, the note
        saying how follows from it."""
        self.start_results = len(g.results)
        self.totals_before = list(g.totals)
        # The record stops inside this deal: nothing after the cards.
        self.stops_here = last and kinds.isdisjoint(("took", "score", "total")) and not audit.settled
        # What the block writes (gathered by collect).
        self.hands: dict[int, list[Card | None]] = {}
        self.turned: Event | None = None
        self.trump_line: Event | None = None
        self.cut: Event | None = None
        self.took: dict[int, int] = {}
        self.taken_back: set[Event] = set()
        """Plays followed by their player's penalty in a deal that goes on: taken back."""
        self.as_unknown: set[Event] = set()
        """Plays of a card that cannot be (not in the pack, or seen twice): read as unknown."""
        self.unknown = False
        self.hands_played = False
        """A full record's hands with unknown cards, taken from the plays instead."""
        self.inferred: dict[Event, Any] = {}
        """The plays an unknown card was read as (:meth:`read_unknown_cards`)."""
        self.unread = ""
        """Why the unknown cards of the deal could not be read (for the T021 note)."""
        # How the deal goes.
        self.dealt = False
        self.level_of_deal = "cards"
        """``sheet`` once dealt without its cards (they are not all known)."""
        self.pending: tuple[Event, Diagnostic] | None = None
        """An illegal card a penalty line may follow."""
        self.penalized = False
        self.replayed = False
        self.violated = False
        """A rule was broken in this deal (reported): the deal goes on with the action as written."""
        self.decided = False
        """A penalty stopped the deal (``then: abandon``): its written score is the table's decision."""
        self.in_question: set[int] = set()
        """Seats whose score this deal's mistakes put in question (a bid that broke a rule):
        their written score stands."""
        self.violated_trick = -1
        """The trick (0-based) of the last illegal card played as written in this deal."""
        self.disputed: list[tuple[int, int, Card | None]] = []
        """(trick, seat, the card it was likely written for) of each card a hand did not hold,
        played as written: who took that trick is in question."""
        self.misled: dict[int, int] = {}
        """The tricks led by another player than the rules say, with who should have led
        them: who took them is in question."""
        self.call_refused = False
        """A call against the rules was taken as written (the auction's order follows from it)."""
        self.rotated: dict[int, int] = {}
        """The tricks whose wrong leader follows from a mistake just before, with who should
        have led them: the reading of their lines in the rules' order."""
        self.table_winners: dict[int, set[int]] = {}
        """Per trick in question, who the record shows leading the next one: the table's own
        reading of who took it."""
        self.misled_trick = -1
        """The trick (0-based) last led by another player than the one the rules say: what the
        others had to play in it depends on who led, so its illegal cards are not reported."""
        self.score_gap: dict[int, int] = {}
        """Per seat, how far a written score reported wrong (R050) is from the right one."""
        self.sheet_bids_done = False
        self.totals_as_written = False
        """A written score was taken in place of the engine's: the end of the game is worked out
        again from the totals as they then stand."""
        self.trump_rules, self.trump_rule = trump_rule_for(g.variant, g.deal, g.players, g.table.size)

    def run(self) -> None:
        """Gather what the block writes, go through its lines (a mistake may leave the rest:
        :class:`Abandon`), then its end."""
        block = self.block
        self.collect(block[1:])
        try:
            i, n = 1, len(block)
            while i < n:
                e = block[i]
                if self.swapped(i):
                    i += 2
                elif e.kind == "play" and self.batch and self.level_of_deal == "cards" and self.dealt:
                    i = self.play_run(i)
                else:
                    self.event(e)
                    i += 1
            if self.pending is not None:
                self.settle_pending()
            if not self.deal_done():
                self.finish_block()
            elif self.penalized and not self.replayed:
                self.report("R055", tr("deal {deal_number} was annulled by the penalty: write 'replay' and deal it again",
                                       deal_number=self.number), block[-1])
            if self.totals_as_written:
                self.game.end_as_written()
        except FormulaEvalError as exc:
            self.formula_failed(exc, e if i < n else block[-1])

    def swapped(self, i: int) -> bool:
        """Whether ``block[i]`` is the action of another player than the one whose turn it
        is, and the next line that player's action of the same kind: the two lines written
        the wrong way round. That is reported once (R001), and they are taken in the rules'
        order. (The first two cards of a trick are not: that is a wrong leader.)"""
        g = self.game
        block = self.block
        e = block[i]
        if e.actor == g.to_act or e.actor is None or i + 1 >= len(block) or e.kind not in ("bid", "call", "play"):
            return False  # (the common case first: a line by the player whose turn it is)
        nxt = block[i + 1]
        if nxt.kind != e.kind or nxt.actor is None or nxt.actor == e.actor:
            return False
        if self.pending is not None:
            self.settle_pending()  # (an illegal card no penalty line follows: it was played)
        if e.kind == "play":
            # (in a trick led by the wrong player, who plays when follows from that lead)
            if g.phase is not Phase.PLAY or not g.trick or self.level_of_deal == "sheet" \
                    or self.misled_trick == len(g.tricks):
                return False
        elif self.level == "sheet" or self.decided or self.call_refused:
            return False  # (after a call against the rules, who calls or bids next follows from it)
        elif g.phase is Phase.DEAL:
            self.ensure_dealt(e)
        if g.phase not in (Phase.BID, Phase.PLAY) or e.actor == g.to_act or nxt.actor != g.to_act:
            return False
        self.report("R001", tr("{player} acts before {player2}, whose turn it is: the two lines are written the wrong way round",
                               player=self.who(e.actor), player2=self.who(nxt.actor)), e,
                    hint=tr("write {player2}'s line first", player2=self.who(nxt.actor)))
        self.event(nxt)
        self.event(e)
        return True

    def formula_failed(self, exc: FormulaEvalError, e: Event) -> NoReturn:
        """A scoring formula failed on this record's numbers (only a running total outside
        every value the loader tried can do that): say so, and check no further."""
        self.report("F005", f"{self.where()}: {exc.diagnostics[0].message}", e,
                    hint=tr("the variant's formula cannot score this deal; the rest of the game is not checked"))
        raise StopWalk

    def where(self) -> str:
        g = self.game
        return tr("deal {number}, trick {trick}", number=g.deal.number, trick=len(g.tricks) + 1) \
            if g.phase is Phase.PLAY else tr("deal {number}", number=g.deal.number)

    def deal_done(self) -> bool:
        return any(r.event in ("deal", "abandoned", "redeal") or (r.event == "revoke" and r.annulled)
                   for r in self.game.results[self.start_results:])

    # -- the block's cards ----------------------------------------------------------------
    def collect(self, events: list[Event]) -> None:
        """Hands, turned card, trump, cut and tricks taken, wherever they stand in the block."""
        g = self.game
        table = g.table
        level = self.level
        # A play followed by its player's penalty in a deal that goes on was taken back.
        if "penalty" in self.kinds and "replay" not in self.kinds:
            body = [e for e in events if e.kind != "comment"]
            self.taken_back = {e for e, nxt in zip(body, body[1:])
                               if e.kind == "play" and nxt.kind == "penalty" and nxt.actor == e.actor}
        seen: dict[int, list[Event]] = {}  # by card id (a card's id is its hash, without a call)
        by_id = table.by_id
        copies = table.copies
        last_dealt = self.trump_rule == "last_dealt"
        for e in events:
            kind = e.kind
            if kind == "play":
                if level != "plays" or e in self.taken_back:
                    continue  # (taken back: an illegal card played again later)
                cards: tuple[Card | None, ...] = (e.play.card,) if e.play else (None,)
            elif kind == "hand":
                if e.actor is None:
                    continue
                if e.actor in self.hands:
                    self.report("R041", tr("{player} has two hands in deal {number}",
                                           player=self.who(e.actor), number=self.number), e)
                self.hands[e.actor] = list(e.cards)
                if len(e.cards) != g.deal.cards:
                    self.report("R041", tr("{player} was dealt {count} cards; deal {number} has {cards} each",
                                           player=self.who(e.actor), count=len(e.cards), number=self.number,
                                           cards=g.deal.cards), e)
                    self.hands[e.actor] = self.hand_as_played(e, events)
                cards = e.cards
            elif kind == "turned":
                self.turned = e
                if last_dealt:
                    continue  # the dealer's last card, shown: it is in a hand too
                cards = e.cards
            else:
                if kind == "trump" and e.actor is None:
                    self.trump_line = e
                elif kind == "cut":
                    self.cut = e
                elif kind == "took" and e.actor is not None:
                    self.took[e.actor] = e.number or 0
                continue
            for c in cards:
                if c is None:
                    self.unknown = True
                    continue
                if by_id[c.id] < 0:
                    self.report("R044", tr("{c} is not in the {size}-card pack", c=c, size=table.size), e)
                elif len(seen.get(c.id, ())) >= copies:
                    self.report("R043", self.repeated(c, seen[c.id][0]), e)
                else:
                    seen.setdefault(c.id, []).append(e)
                    continue
                self.cannot_be = self.cannot_be or Cause(e.line, self.audit.diags[-1].code)
                if kind == "turned":
                    raise Abandon
                # A card that cannot be: read it as a card nobody wrote down, so that the
                # rest of the deal is still checked.
                if kind == "hand" and e.actor is not None:
                    self.hands[e.actor] = [None if x == c else x for x in self.hands[e.actor]]
                else:
                    self.as_unknown.add(e)
                self.unknown = True
        if level == "full" and self.unknown and not (self.turned and None in self.turned.cards):
            self.hands_from_plays(events)
        if level == "plays":
            for e in events:
                if e.kind == "play" and e.actor is not None and e not in self.taken_back:
                    self.hands.setdefault(e.actor, []).append(
                        e.play.card if e.play and e not in self.as_unknown else None)

    def repeated(self, c: Card, first: Event) -> str:
        """The message of a card written more often than the pack holds it (R043)."""
        if self.game.table.copies == 1:
            return tr("{c} appears twice in deal {number} (first at line {line})",
                      c=c, number=self.number, line=first.line)
        return tr("{c} appears more often in deal {number} than the {copies} packs hold it (first at line {line})",
                  c=c, number=self.number, copies=self.game.table.copies, line=first.line)

    def hand_as_played(self, e: Event, events: list[Event]) -> list[Card | None]:
        """A hand line with too few or too many cards, as the player's plays show it was: the
        cards written and those played that it misses, or without those never played (as
        written where the plays do not tell)."""
        written = list(e.cards)
        played = [x.play.card for x in events if x.kind == "play" and x.actor == e.actor and x.play is not None]
        # (counted: with two packs a hand may hold a card twice)
        have: Counter[Card | None] = Counter(written)
        gone: Counter[Card | None] = Counter(played)
        if len(played) != self.game.deal.cards or max(gone.values(), default=0) > self.game.table.copies:
            return written
        if len(written) < len(played) and not have - gone:
            return written + list((gone - have).elements())
        if len(written) > len(played) and not gone - have:
            out: list[Card | None] = []
            left = Counter(gone)
            for c in written:
                if left[c]:
                    left[c] -= 1
                    out.append(c)
            return out
        return written

    def hands_from_plays(self, events: list[Event]) -> None:
        """A full record with unknown cards in its hands: when every card of the deal is
        played and the plays hold the cards the hands show, the hands are the plays (as at
        the plays level), so the unknown cards are known, or read."""
        g = self.game
        plays = [e for e in events if e.kind == "play" and e.actor is not None and e not in self.taken_back]
        by_seat: dict[int, list[Event]] = {s: [e for e in plays if e.actor == s] for s in range(g.players)}
        if any(len(by_seat[s]) != g.deal.cards or s not in self.hands for s in range(g.players)):
            return  # not every card is played: the deal stays unchecked
        seen: dict[Card, list[Event]] = {}
        copies = g.table.copies
        rebuilt: dict[int, list[Card | None]] = {}
        for s, mine in by_seat.items():
            cards: list[Card | None] = []
            for e in mine:
                c = e.play.card if e.play is not None else None
                if c is not None and (c not in g.table.index or len(seen.get(c, ())) >= copies):
                    self.report("R044" if c not in g.table.index else "R043",
                                tr("{c} is not in the {size}-card pack", c=c, size=g.table.size)
                                if c not in g.table.index else self.repeated(c, seen[c][0]), e)
                    self.as_unknown.add(e)
                    c = None
                if c is not None:
                    seen.setdefault(c, []).append(e)
                cards.append(c)
            held = [c for c in self.hands[s] if c is not None]
            if any(c not in cards for c in held):
                return  # a card of the hand is never played: the record does not add up
            rebuilt[s] = cards
        self.hands = rebuilt
        self.hands_played = True

    def ensure_dealt(self, at: Event) -> None:
        """Deal the block's cards to the engine (at its first action): the hands as written
        or as played, or, where they are not all known, a deal of unknown cards."""
        g = self.game
        if self.dealt or g.phase is not Phase.DEAL:
            return
        self.dealt = True
        trump = self.trump_suit()
        turned = self.turned.cards[0] if self.turned and self.turned.cards else None
        cut = self.cut.cards[0] if self.cut and self.cut.cards else None
        if self.cut is not None:
            cutter = self.cut.actor
            expected = seat_by_rule(g.variant.cut_by, g.dealer, g.players)
            if cutter is not None and cutter != expected:
                self.report("R001", tr("{player} cuts before deal {number}, not {player2}",
                                       player=self.who(expected), number=g.deal.number, player2=self.who(cutter)),
                            self.cut)
        short = self.level == "plays" and any(
            len(self.hands.get(s, ())) != g.deal.cards for s in range(g.players))
        rules = g.variant.revoke
        annulled = "replay" in self.kinds or "redeal" in self.kinds or (
            rules is not None and rules.then == "abandon" and "penalty" in self.kinds)
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
        missing = [s for s in range(g.players) if s not in self.hands]
        if missing:
            self.report("R041", tr("no cards recorded for {items} in deal {number}",
                                   items=', '.join(self.who(s) for s in missing), number=g.deal.number), self.block[0])
            raise Abandon
        if self.level == "plays":
            for s, cards in self.hands.items():
                if len(cards) != g.deal.cards:
                    self.report("R045", tr("{player} played {count} cards in deal {number}, which has {cards} each",
                                           player=self.who(s), count=len(cards), number=g.deal.number,
                                           cards=g.deal.cards), self.block[0])
                    raise Abandon
        elif any(len(self.hands[s]) != g.deal.cards for s in range(g.players)):
            raise Abandon  # reported as R041 at the hand line, by name: the engine would only say "seat 1"
        hands = [[c for c in self.hands[s] if c is not None] for s in range(g.players)]
        last_dealt = self.trump_rule == "last_dealt" and turned is not None
        if last_dealt and turned not in hands[g.dealer]:
            self.report("R046", tr("the card shown for trump, {turned}, is not the dealer {player}'s",
                                   turned=turned, player=self.who(g.dealer)), self.turned)
            raise Abandon
        if last_dealt and turned is not None:
            # The shown card was dealt last: hands rebuilt from plays are in play order, and a
            # full-level hand may be written sorted, so the turned line says which card it was.
            own = hands[g.dealer]
            own.remove(turned)
            own.append(turned)
        try:
            g.deal_cards(hands, turned=turned, cut_card=cut, random_trump=trump, recorded_trump=trump)
        except IllegalAction as exc:
            d = exc.diagnostics[0]
            code = "R043" if exc.fault is CardFault.DEALT_TWICE else "R044" if exc.fault is CardFault.NOT_IN_PACK \
                else "R046"
            self.report(code, tr("deal {number}: {message}", number=g.deal.number, message=d.message),
                        self.turned or at)
            raise Abandon from None
        if self.trump_line is not None and self.turned is not None and cast(Phase, g.phase) is not Phase.TRUMP:
            written = None if self.trump_line.no_trump else self.trump_line.suit
            if written != g.trump:
                self.report("R046", tr("trump in deal {number} is {value} by the rules, not {value2}",
                                       number=g.deal.number, value=g.trump.name.lower() if g.trump else 'none',
                                       value2=written.name.lower() if written else 'none'), self.trump_line)

    def sheet_trump(self, written: Suit | None) -> Suit | None:
        """The trump of a deal whose cards are not known: as written, unless the rules fix it
        (no trump, or always one suit) and the record says otherwise (R046)."""
        if self.trump_line is None or self.trump_line.actor is not None:
            return written
        rules, rule = self.trump_rules, self.trump_rule

        def name(s: Suit | None) -> str:
            return s.name.lower() if s is not None else "none"

        if rule == "none" and written is not None:
            self.report("R046", tr("deal {number} is played without trump, not with {name}",
                                   number=self.number, name=name(written)),
                        self.trump_line, hint=tr("write 'trump none'"))
            return None
        if rule == "fixed" and written != rules.suit:
            self.report("R046", tr("trump in deal {number} is {name} by the rules, not {name2}",
                                   number=self.number, name=name(rules.suit), name2=name(written)), self.trump_line)
            suit: Suit | None = rules.suit
            return suit
        return written

    def trump_suit(self) -> Suit | None:
        e = self.trump_line
        if e is None or e.no_trump:
            return None
        return e.suit

    def steps(self, at: Event) -> tuple[list[Step], list[Event]]:
        """The block's actions from ``at`` on, as a replay takes them, and the plays of an
        unknown card among them (their steps have no action)."""
        start = self.block.index(at) if at in self.block else 1
        unknown: list[Event] = []
        steps: list[Step] = []
        for e in self.block[start:]:
            if e.kind == "play" and e not in self.taken_back:
                if e.play is None or e in self.as_unknown:
                    unknown.append(e)
                    steps.append(Step(e.actor, None))
                else:
                    steps.append(Step(e.actor, e.play))
            elif e.kind in ("bid", "call") or (e.kind == "trump" and e.actor is not None):
                steps.append(Step(e.actor, e.action))
        return steps, unknown

    def read_unknown_cards(self, at: Event, turned: Card | None, cut: Card | None, trump: Suit | None) -> bool:
        """Fill in the unknown cards of a deal of plays with the reading that fits the record
        best (:mod:`~updown_dsl.records.infer`); False when it cannot be read."""
        g = self.game
        audit = self.audit
        self.unread = ""
        if not self.kinds.isdisjoint(("penalty", "replay", "redeal")):
            return False
        hands = [list(self.hands.get(s, ())) for s in range(g.players)]
        if self.trump_rule == "last_dealt" and turned is not None:
            own = hands[g.dealer]
            if turned not in own and None not in own:
                return False  # reported as R046 once the deal is dealt
            # (the dealer's last card: the one shown, or an unknown one, which must then be it)
            own.append(own.pop(own.index(turned if turned in own else None)))
        known = {c for cards in hands for c in cards if c is not None}
        if self.trump_rule == "turned" and turned is not None:
            known.add(turned)
        pool = [c for c in g.table.cards if c not in known]
        steps, unknown_steps = self.steps(at)
        score = next((e.amounts for e in self.block if e.kind == "score"), ())
        ways = perm(len(pool), len(unknown_steps))
        if audit.readings_left < 0:  # (first use in this record)
            audit.readings_left = infer.RECORD_READINGS
        limit = min(infer.READINGS, audit.readings_left)
        reading = read_unknown(g, hands, pool, steps, dict(turned=turned, cut_card=cut, random_trump=trump,
                               recorded_trump=trump), self.took, score, limit=limit, added=self.added())
        audit.readings_left -= min(ways, limit)
        if reading is None:
            self.unread = (tr("; no reading of them fits the record") if ways <= limit else
                           tr("; there are {ways} ways to read them, too many to try", ways=ways)
                           if limit == infer.READINGS else tr("; the record has too many unknown cards to read them all"))
            return False
        self.hands = {s: list[Card | None](h) for s, h in enumerate(reading.hands)}
        self.inferred = dict(zip(unknown_steps, reading.plays))
        many = len(unknown_steps) > 1
        cards = " ".join(str(p.card) for p in reading.plays)
        fits = (tr("a reading that fits the record") if reading.cost[:2] == (0, 0) else
                tr("the reading that fits the record best of the {n} there are", n=reading.readings))
        bad = sum(e in self.as_unknown for e in unknown_steps)
        what = ((tr("unknown cards (??)") if many else tr("unknown card (??)")) if not bad else
                (tr("cards that cannot be") if many else tr("card that cannot be")) if bad == len(unknown_steps)
                else tr("unknown or impossible cards") if many else tr("unknown or impossible card"))
        self.report("T021", tr("deal {number} holds {count} {what}: checked with {value} read as {cards}, {fits}",
                               number=g.deal.number, count=len(unknown_steps), what=what,
                               value=tr("them") if many else tr("it"), cards=cards, fits=fits),
                    unknown_steps[0], severity=Severity.NOTE, caused_by=self.cannot_be if bad else None)
        return True

    # -- the block's lines ----------------------------------------------------------------
    def event(self, e: Event) -> None:
        g = self.game
        kind = e.kind
        if kind in ("hand", "turned", "cut", "comment"):
            return
        if self.decided and kind in ("trump", "call", "bid", "play", "penalty", "replay"):
            self.report("R055", tr("deal {deal_number} stopped at the penalty and was scored as the table decided, but the record goes on with it",
                                   deal_number=self.number), e,
                        hint=tr("after the penalty write only the deal's scores and totals"))
            raise Abandon
        if kind == "trump":
            if e.actor is None:
                return
            self.ensure_dealt(e)
            if g.phase is not Phase.TRUMP:
                self.report("R022", tr("{player} names trump in deal {number}, where the rules do not let a player name it",
                                       player=self.who(e.actor), number=g.deal.number), e)
                raise Abandon
            self.act(e, e.action)
        elif kind in ("bid", "call"):
            if g.phase is Phase.DEAL:
                self.ensure_dealt(e)
            if self.level == "sheet":
                self.sheet_bids(e)
                return
            self.act(e, e.action)
        elif kind == "play":
            self.ensure_dealt(e)
            if self.level_of_deal == "sheet":
                return
            play = self.inferred.get(e) if e.play is None or e in self.as_unknown else e.play
            if play is None:
                return
            self.act(e, play)
        elif kind == "took":
            if g.phase is Phase.DEAL and self.level == "sheet":
                self.ensure_dealt(e)  # a deal without bids (a minimum deal) and no score line: dealt all the same
            return
        elif kind in ("score", "total"):
            self.finish_sheet(e)
            self.compare(e)
        elif kind == "penalty":
            self.penalty(e)
        elif kind == "replay":
            self.replay(e)
        elif kind == "redeal":
            self.redeal(e)
        elif kind == "correction":  # a keeper's note of a changed number: held to the deal's numbers
            for code, message, hint in correction_problems(e, self.block, self.number, self.audit.t.players):
                self.report(code, message, e, hint=hint)

    def play_run(self, i: int) -> int:
        """The plain cards written from ``block[i]`` on, played at once through
        :meth:`~updown_dsl.engine.Game.play_cards` (the checks and the play of :meth:`act`
        for each, one after another); the index of the first line not taken. A card the
        engine refuses is left to :meth:`event`, which reports it."""
        block = self.block
        g = self.game
        if self.decided or self.pending is not None or self.inferred or self.taken_back or self.as_unknown \
                or g.phase is not Phase.PLAY:
            self.event(block[i])
            return i + 1
        # The run: the play lines from here, up to the deal's last card.
        end = min(len(block), i + g.players * g.kernel.tricks - len(g.kernel.order))
        j = i + 1
        while j < end and block[j][0] == "play":
            j += 1
        by_id = g.table.by_id
        try:
            # (actor, card index, play); an actor or a play that is None stops the run where it is
            cards = cast("list[tuple[int, int, Play]]",
                         [(e[3], by_id[e[7].card.id], e[7]) for e in block[i:j]])  # type: ignore[union-attr]
        except AttributeError:  # an unknown card (??): line by line
            self.event(block[i])
            return i + 1
        try:
            played = g.play_cards(cards)
        except FormulaEvalError as exc:  # (scoring the deal, at its last card)
            self.formula_failed(exc, block[j - 1])
        if played == 0:  # the first card: through the line-by-line path, which reports it
            self.event(block[i])
            return i + 1
        return i + played

    def act(self, e: Event, action: Any) -> None:
        g = self.game
        if self.pending is not None:
            self.settle_pending()
        if g.phase is Phase.OVER:
            raise Abandon
        if e.actor != g.to_act:
            self.wrong_turn(e)
        try:
            g.apply(action)  # the one legality test: a refused action leaves the game as it was
        except IllegalAction as exc:
            problem = exc.diagnostics[0]
            not_held = problem.code == "R013" and isinstance(action, Play)
            if not_held and e.actor is not None:
                self.disputed.append((len(g.tricks), e.actor, self.never_played(e)))
            if not_held and not g.trick:
                self.misled_trick = len(g.tricks)  # a lead the hand cannot have made: the trick follows it
            # In a trick led by another player than the rules say, what the others had to play
            # follows from that lead: its illegal cards are not reported, only played as written.
            misled = isinstance(action, Play) and self.misled_trick == len(g.tricks) and not not_held
            revoke = g.variant.revoke
            if revoke is not None and problem.code in revoke.covers and isinstance(action, Play) and not misled:
                self.pending = (e, problem)  # a penalty line may follow
                return
            if not misled:
                message = self.not_held(e, action) if not_held else f"{problem.message}{self.evidence(problem, e)}"
                self.report(problem.code, f"{self.who(e.actor)} ({self.where()}): {message}", e, hint=problem.hint,
                            at_arg=True)
            # Go on with the action as written, so that the deal's other mistakes are found
            # and the consequences of this one are not reported again.
            self.violated = True
            if isinstance(action, Play):
                self.violated_trick = len(g.tricks)
            if isinstance(action, (Bid, Call)) and e.actor is not None:
                self.in_question.add(e.actor)  # the score of a bid in question says nothing more
            self.call_refused = self.call_refused or isinstance(action, Call)
            if g.take_as_written(action, problem.code, self.never_played(e) if not_held else None):
                return
            raise Abandon

    def wrong_turn(self, e: Event) -> None:
        """``e``'s player acts where the rules say another does: the deal goes on as written
        where the record still follows (a trick led by another player), or is left."""
        g = self.game
        seat = e.actor
        if seat is not None and g.first_leader_unknown:
            g.set_first_leader(seat)  # the deal before was not played out: the record says
            return
        leading = seat is not None and g.phase is Phase.PLAY and not g.trick
        if seat is not None and leading and not g.tricks and self.audit.last_trick_in_question \
                and g.lead_as_written(seat):
            return  # who won the deal before's last trick, and so leads this deal, is in question
        if seat is not None and leading and g.tricks:
            won = g.tricks[-1].winner
            # A wrong leader right after an illegal card, or after a trick led by the wrong
            # player, may follow from it (the table judged that trick otherwise); at any later
            # trick it is a mistake of its own.
            after_mistake = self.violated_trick == len(g.tricks) - 1
            if not after_mistake:
                self.report("R003", tr("{player} leads trick {value} of deal {number}, but {player2} won trick {count} and leads",
                                       player=self.who(seat), value=len(g.tricks) + 1, number=g.deal.number,
                                       player2=self.who(won), count=len(g.tricks)), e)
            if not g.lead_as_written(seat):
                raise Abandon
            self.violated = True
            if after_mistake:
                # The table took the trick before as won by this player: one reading of a
                # trick in question. This trick is played as the record shows it is led; had
                # its lines been written the wrong way round, the rightful leader took it.
                self.table_winners.setdefault(len(g.tricks) - 1, set()).add(seat)
                self.rotated[len(g.tricks)] = won
                return
            # The deal goes on as written; who takes the trick led now is in question, and what
            # the others had to play in it depends on who led.
            self.misled_trick = self.violated_trick = len(g.tricks)
            self.misled[len(g.tricks)] = won
            return
        if self.violated:
            # The record goes on from the card it was written with, not the one it shows: a
            # consequence of the mistake already reported. The deal is left.
            raise Abandon
        what = _VERB.get(g.phase, "act")
        self.report("R001", tr("{player} cannot {what} now in {where}: it is {player2}'s turn",
                               player=self.who(seat), what=what, where=self.where(),
                               player2=self.who(g.to_act)) if g.to_act >= 0 else
                    tr("{player} cannot act now in {where}", player=self.who(seat), where=self.where()), e)
        raise Abandon

    def not_held(self, e: Event, play: Play) -> str:
        """A card the hand does not hold, in words: and where it is (another hand, or played
        before in the deal)."""
        g = self.game
        card = play.card
        text = tr("{card} is not in {player}'s hand", card=card, player=self.who(e.actor))
        holder = next((s for s in range(g.players) if card in g.hand(s)), None)
        if holder is not None:
            return text + tr("; {player} holds it", player=self.who(holder))
        before = next((x for x in self.block if x.kind == "play" and x.line < e.line and x.play is not None
                       and x.play.card == card and x not in self.as_unknown), None)
        if before is not None:
            return text + tr("; it was played at line {line}", line=before.line)
        return text

    def never_played(self, e: Event) -> Card | None:
        """A card of ``e``'s player's hand the rest of the block never shows played: the card a
        card not in the hand was most likely written for (None: every card is played later)."""
        later = {x.play.card for x in self.block if x.kind == "play" and x.actor == e.actor and x.line > e.line
                 and x.play is not None}
        return next((c for c in self.game.hand(e.actor) if c not in later), None) if e.actor is not None else None

    def refused(self, problem: Diagnostic, e: Event) -> NoReturn:
        self.report(problem.code, f"{self.who(e.actor)} ({self.where()}): {problem.message}"
                    f"{self.evidence(problem, e)}", e, hint=problem.hint, at_arg=True)
        raise Abandon

    def sheet_bids(self, first: Event) -> None:
        """A paper sheet lists bids (and an auction's calls) by seat: take them in the order
        the players bid."""
        if self.sheet_bids_done:
            return
        self.sheet_bids_done = True
        g = self.game
        by_seat: dict[tuple[str, int], Event] = {}
        for e in self.block:
            if e.kind == "redeal":
                break  # (the deal is dealt again: what follows is not its bidding)
            if e.kind in ("bid", "call") and e.actor is not None:
                if (e.kind, e.actor) in by_seat:
                    message = tr("{player} bids twice in deal {number}", player=self.who(e.actor), number=g.deal.number) \
                        if e.kind == "bid" else tr("{player} calls twice in deal {number}", player=self.who(e.actor),
                                                   number=g.deal.number)
                    self.report("R001", message, e)
                    raise Abandon
                by_seat[(e.kind, e.actor)] = e
        redealer = next((e.actor for e in self.block if e.kind == "redeal"), None)
        while g.phase in (Phase.AUCTION, Phase.BID):
            seat, kind = g.to_act, "call" if g.phase is Phase.AUCTION else "bid"
            written = by_seat.pop((kind, seat), None)
            if written is None and seat == redealer:
                return  # the player asks for a redeal here (its line follows)
            if written is None:
                if self.is_last and self.kinds.isdisjoint(("took", "score", "total")):
                    return  # the record stops during the bidding
                self.report("R001", tr("no bid is written for {player} in deal {number}",
                                       player=self.who(seat), number=g.deal.number) if kind == "bid" else
                            tr("no call is written for {player} in deal {number}", player=self.who(seat),
                               number=g.deal.number), first)
                raise Abandon
            self.act(written, written.action)
        for e in by_seat.values():  # a line the bidding had no turn for
            who, number = self.who(e.actor), g.deal.number
            self.report("R002", tr("{player} bids in deal {number}, a deal without bidding", player=who, number=number)
                        if g.kind.bidding == "none" else
                        tr("{player} calls in deal {number}, which has no auction", player=who, number=number)
                        if e.kind == "call" else
                        tr("{player} has no bid to make in deal {number}: {player}'s call is the bid", player=who,
                           number=number), e)
            raise Abandon

    # -- illegal cards and penalties -------------------------------------------------------
    def settle_pending(self) -> None:
        """An illegal card no penalty line follows: report it, and go on with it played."""
        assert self.pending is not None
        e, problem = self.pending
        self.pending = None
        rules = self.game.variant.revoke
        hint = None
        if rules is not None:
            line = f"'penalty {self.who(e.actor)} {rules.points} {problem.code}'"
            hint = (tr("if the table caught it, write {line} on the next line, then 'replay', the totals, and deal "
                       "{number} dealt again as a new 'deal' block", line=line, number=self.game.deal.number)
                    if rules.then == "replay" else
                    tr("if the table caught it, write {line} on the next line, then the deal's scores as the table "
                       "decided them and the totals", line=line) if rules.then == "abandon" else
                    tr("if the table caught it, write {line} on the next line; the deal goes on", line=line))
        self.report(problem.code, f"{self.who(e.actor)} ({self.where()}): {problem.message}"
                    f"{self.evidence(problem, e)}", e, hint=hint, at_arg=True)
        self.violated = True
        self.violated_trick = len(self.game.tricks)
        if e.play is None or not self.game.take_as_written(e.play, problem.code):
            raise Abandon

    def evidence(self, problem: Diagnostic, e: Event) -> str:
        """What shows a player held the suit asked for (R010, R012): the cards of it in the hand
        as dealt, or, when only the plays are known, the first one played later in the deal."""
        g = self.game
        suit = g.led_suit
        if problem.code not in ("R010", "R012") or suit is None or e.actor is None:
            return ""

        table = g.table

        def of_suit(card: Any) -> bool:
            i = table.index.get(card)
            return i is not None and table.suit_of[i] >= 0 and SUITS[table.suit_of[i]] is suit

        if self.level == "full":
            held = [c for c in g.hand(e.actor) if of_suit(c)]
            if held:
                return tr("; the hand holds {cards}", cards=" ".join(str(c) for c in held))
        later = [x for x in self.block if x.kind == "play" and x.actor == e.actor and x.line > e.line
                 and x.play is not None and x not in self.as_unknown and of_suit(x.play.card)]
        if later:
            return tr("; {card} is played later in the deal (line {line})", card=later[0].play.card,  # type: ignore[union-attr]
                      line=later[0].line)
        return ""

    def penalty(self, e: Event) -> None:
        g = self.game
        if self.pending is None and self.level_of_deal == "sheet" and g.phase is Phase.DEAL:
            self.ensure_dealt(e)
        if self.pending is None and self.level_of_deal == "sheet" and g.phase is Phase.PLAY:
            # The cards are not known: the record's word that a card was illegal stands.
            self.written_penalty(e)
            return
        if self.pending is None:
            self.report("R055", tr("a penalty for {player} is written but no illegal card was played in deal {number}",
                                   player=self.who(e.actor), number=g.deal.number), e)
            raise Abandon
        offence, problem = self.pending
        self.pending = None
        if e.code is not None and e.code != problem.code:
            self.report("R055", tr("the illegal card broke {code} ({get}), not {code2}",
                                   code=problem.code, get=CATALOGUE.get(problem.code, ''), code2=e.code), e)
        if e.actor != offence.actor:
            self.report("R055", tr("the penalty is {player}'s, but {player2} played the illegal card",
                                   player=self.who(e.actor), player2=self.who(offence.actor)), e)
        rules = g.variant.revoke
        assert rules is not None
        points = g.revoke(offence.actor if offence.actor is not None else 0, problem.code,
                          offence.play, self.decided_scores(e))
        if e.number != points:
            self.report("R055", tr("the penalty for {code} is {points}, not {number}",
                                   code=problem.code, points=points, number=e.number), e)
        self.penalized = rules.replay

    def decided_scores(self, e: Event) -> list[int] | None:
        """For a deal the penalty stops (``then: abandon``): the scores the table decided, from
        the ``score`` line after the penalty (none written: nobody scores)."""
        rules = self.game.variant.revoke
        if rules is None or rules.then != "abandon":
            return None
        self.decided = True
        after = self.block[self.block.index(e):] if e in self.block else []
        score = next((x for x in after if x.kind == "score"), None)
        return None if score is None else [a or 0 for a in score.amounts]

    def written_penalty(self, e: Event) -> None:
        g = self.game
        rules = g.variant.revoke
        code = e.code or "R010"
        if rules is None or code not in rules.covers:
            self.report("R055", tr("{name} has no penalty for {code}", name=g.variant.name, code=code), e)
            raise Abandon
        points = g.revoke(e.actor if e.actor is not None else 0, code, None, self.decided_scores(e))
        if e.number != points:
            self.report("R055", tr("the penalty for {code} is {points}, not {number}",
                                   code=code, points=points, number=e.number), e)
        self.penalized = rules.replay

    def redeal(self, e: Event) -> None:
        """A player asks for the deal again, void in a suit: the rules are checked (the void only
        where the hands are known), and the deal is dealt again as the record shows."""
        g = self.game
        seat = e.actor if e.actor is not None else 0
        self.ensure_dealt(e)
        problem = g.redeal_refusal(seat, void_known=self.level == "full" and not self.unknown)
        if problem is not None:
            self.report(problem.code, tr("{player} asks for a redeal in deal {number}: {why}", player=self.who(seat),
                                         number=g.deal.number, why=problem.message), e, hint=problem.hint)
        try:
            g.redeal(seat, as_written=True)
        except IllegalAction:
            raise Abandon from None  # (not in the bidding: nothing to deal again)


    def replay(self, e: Event) -> None:
        if not self.penalized:
            self.report("R055", tr("'replay' without a penalty that annuls the deal"), e)
        self.penalized = False
        self.replayed = True

    # -- the written numbers --------------------------------------------------------------
    def finish_sheet(self, at: Event) -> None:
        """At a score line of a deal whose cards are not known: record the tricks taken."""
        g = self.game
        if g.phase is Phase.DEAL:
            self.ensure_dealt(at)
        if g.phase is Phase.PLAY and not g.tricks and not g.trick and self.level_of_deal == "sheet":
            if len(self.took) != g.players:
                if self.level != "sheet" and not self.took:
                    raise _Skip  # unknown cards and no tricks written: nothing to score here
                if self.is_last and at is self.block[-1] and at.kind == "took":
                    raise _Skip  # the record stops while the tricks are written down
                if any(e.kind == "raw" or e.line in self.audit.unreadable for e in self.block):
                    raise _Skip  # a number the reader could not read (reported): not a second mistake
                self.report("R053", tr("tricks taken are not written for every player in deal {number}",
                                       number=g.deal.number), at)
                raise Abandon
            taken = [self.took[s] for s in range(g.players)]
            for seat, right in self.took_written_wrong(taken):
                # Tricks written wrong, which the others' and the scores show: those lines
                # are the mistakes, and the deal is checked with the tricks the scores give.
                line = next(x for x in self.block if x.kind == "took" and x.actor == seat)
                self.report("R052", tr("{player} took {taken} tricks in deal {number}, not {n}",
                                       player=self.who(seat), taken=right, number=self.number,
                                       n=taken[seat]), line)
                taken[seat] = self.took[seat] = right
            try:
                g.record_tricks(taken)
            except IllegalAction as exc:
                self.report(exc.diagnostics[0].code, exc.diagnostics[0].message, at)
                raise Abandon from None

    def took_written_wrong(self, taken: list[int]) -> list[tuple[int, int]]:
        """Where the tricks written do not add up to the cards: the players whose numbers,
        changed so that they add up, give the scores written, as (seat, tricks) for one or two
        players: the fewest changes and scores left wrong, then the fewest totals that do not
        add up (nothing when no such change, or several, fit as well)."""
        g = self.game
        cards = g.deal.cards
        gap = cards - sum(taken)
        score = next((e.amounts for e in self.block if e.kind == "score"), None)
        added = self.added()
        if score is None and added:
            score, added = tuple(added), []  # (no score written: the totals say what was counted)
        if not gap or score is None or g.players < 2:
            return []
        trial = g.clone()
        fill = list(taken)
        for s in range(g.players):  # (any numbers that add up, to have the deal's result)
            fill[s] = max(0, fill[s] + cards - sum(fill))
        try:
            trial.record_tricks(fill)
        except IllegalAction:
            return []
        r = next(x for x in reversed(trial.results) if x.event == "deal")
        base = trial.points_if(r, fill, self.totals_before)
        bonus = [x.points + x.bonus - base[s] for s, x in enumerate(r.seats)]
        ranked: list[tuple[tuple[int, int], list[tuple[int, int]]]] = []
        seats = range(g.players)
        for who in [(s,) for s in seats] + [(a, b) for a in seats for b in seats if a < b]:
            for values in product(range(cards + 1), repeat=len(who)):
                t = list(taken)
                for s, v in zip(who, values):
                    t[s] = v
                if sum(t) != cards or any(t[s] == taken[s] for s in who):
                    continue
                pts = [p + b for p, b in zip(trial.points_if(r, t, self.totals_before), bonus)]
                # (the score of a bid in question stands as written: it says nothing here)
                wrong = sum(1 for s, (w, p) in enumerate(zip(score, pts))
                            if w is not None and w != p and s not in self.in_question)
                off = sum(1 for s, (w, p) in enumerate(zip(added, pts))
                          if w is not None and w != p and s not in self.in_question)
                ranked.append(((len(who) + wrong, off), list(zip(who, values))))
        ranked.sort(key=lambda x: x[0])
        if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
            return []
        return ranked[0][1]

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
            if r is None or r.deal.number != self.number or g.phase is Phase.PLAY:
                if self.violated:
                    raise Abandon  # the record stopped the deal at the mistake already reported
                self.report("R047", tr("a score is written before deal {deal_number} is over",
                                       deal_number=self.number), e)
                raise Abandon
            self.audit.last_trick_in_question = False
            readings = self.readings(r)
            if readings:
                self.audit.last_trick_in_question = len(r.tricks) - 1 in readings
            taken, scores = self.best_reading(r, readings, e.amounts)
            for s, written in enumerate(e.amounts):
                if written is None:
                    continue
                seat = r.seats[s]
                actual = seat.points + seat.bonus
                if s in self.in_question:
                    # A score in question (its bid broke a rule): the written score stands, as
                    # for a deal left unchecked, and the total may add it or the score the
                    # cards as written give.
                    g.take_total_as_written(s, g.totals[s] + written - actual)
                    self.totals_as_written = True
                    self.score_gap[s] = actual - written
                    continue
                score = scores[s]
                if score != actual:
                    # The reading of the tricks in question that fits the record best: its
                    # score counts.
                    g.take_total_as_written(s, g.totals[s] + score - actual)
                    self.totals_as_written = True
                if written != score:
                    self.score_gap[s] = written - score
                    detail = tr("bid {bid}, took {taken}", bid=seat.bid, taken=taken[s]) if seat.bid is not None \
                        else tr("took {taken}", taken=taken[s])
                    self.report("R050", tr("{player} scores {actual} in deal {number} ({detail}), not {written}",
                                           player=self.who(s), actual=score, number=r.deal.number, detail=detail,
                                           written=written), e, seat=s)
            self.check_took(taken)
        else:
            last_written = self.audit.last_written
            for s, written in enumerate(e.amounts):
                if written is None:
                    continue
                true = g.totals[s]
                # A wrong total carried on from an earlier deal by adding the right points, or a
                # total that adds a wrong score written above it (reported as R050), is right
                # arithmetic on a mistake already reported: the same mistake, reported once.
                carried = last_written[s]
                drift = carried - self.totals_before[s] if carried is not None else 0
                gap = self.score_gap.get(s, 0)
                if written not in (true, true + drift, true + gap, true + drift + gap):
                    self.report("R051", tr("{player}'s total after deal {deal_number} is {true}, not {written}",
                                           player=self.who(s), deal_number=self.number, true=true,
                                           written=written), e, seat=s)
                last_written[s] = written

    def readings(self, r: Any) -> dict[int, list[int]]:
        """Per trick of the deal of ``r`` that a mistake leaves in question, who may have taken
        it: the winner of the cards as written first, then the winner had the trick been led
        by the player the rules say, or had the hand played the card it held in place of the
        one written, and the player the record shows leading the next trick."""
        if not (self.misled or self.disputed or self.table_winners):
            return {}  # (a deal's tricks are made from its log: only when asked)
        led_by = {**self.rotated, **self.misled}
        tricks = r.tricks
        k = self.game.kernel
        out: dict[int, list[int]] = {}

        def add(t: int, seat: int) -> None:
            if t < len(tricks):
                who = out.setdefault(t, [tricks[t].winner])
                if seat not in who:
                    who.append(seat)

        for t, rightful in led_by.items():
            if t < len(tricks):
                plays = tricks[t].plays
                at = next((j for j, p in enumerate(plays) if p.seat == rightful), None)
                add(t, tricks[t].winner if at is None else
                    k.trick_winner(rightful, [p.play for p in plays[at:] + plays[:at]], r.trump))
        swaps: dict[int, dict[int, Card]] = {}
        for t, seat, held in self.disputed:
            if t < len(tricks) and held is not None:
                swaps.setdefault(t, {})[seat] = held
            elif t < len(tricks):
                add(t, tricks[t].winner)
        for t, held_by in swaps.items():
            # (each card the hand held in place of the one written, and all of them together)
            for swap in [held_by] + ([{s: c} for s, c in held_by.items()] if len(held_by) > 1 else []):
                add(t, k.trick_winner(tricks[t].leader, [Play(swap[p.seat]) if p.seat in swap else p.play
                                                         for p in tricks[t].plays], r.trump))
        for t, seats in self.table_winners.items():
            for seat in seats:
                add(t, seat)
        return out

    def added(self) -> list[int | None]:
        """Per seat, what the deal's written total adds to the total written before it (to
        the right total where none was written): the score the sheet counted."""
        total = next((e.amounts for e in self.block if e.kind == "total"), ())
        before = self.audit.last_written
        return [None if t is None else t - (b if (b := before[s]) is not None else self.totals_before[s])
                for s, t in enumerate(total)]

    def best_reading(self, r: Any, readings: dict[int, list[int]], written: Sequence[int | None]
                     ) -> tuple[list[int], list[int]]:
        """The tricks taken and the scores (bonus included) of the reading of the tricks and
        bids in question whose scores differ from the written ones for the fewest players, then
        whose scores the written totals add: the cards and bids as written where several fit
        as well. A bid in question may have been any number of tricks: the others' scores
        may depend on it."""
        seats = r.seats
        taken = [x.taken for x in seats]
        scores = [x.points + x.bonus for x in seats]
        bids = [x.bid for x in seats]
        added = self.added()

        def misses(sc: list[int]) -> tuple[int, int]:
            return (sum(1 for s, w in enumerate(written) if w is not None and s not in self.in_question and w != sc[s]),
                    sum(1 for s, w in enumerate(added) if w is not None and s not in self.in_question and w != sc[s]))

        best = (misses(scores), taken, scores)
        if best[0] == (0, 0):
            return taken, scores
        options = [w for w in readings.values() if len(w) > 1]
        tricks = [t for t, w in readings.items() if len(w) > 1]
        questioned = [s for s in sorted(self.in_question) if bids[s] is not None]
        values = [range(r.deal.cards + 1)] * len(questioned)
        if not options and not questioned or prod(len(w) for w in options + values) > 512:
            return taken, scores  # (nothing to weigh, or too many readings: the cards as written)
        g = self.game
        base = g.points_if(r, taken, self.totals_before)
        for choice in product(*options, *values):
            t = list(taken)
            for trick, winner in zip(tricks, choice):
                t[r.tricks[trick].winner] -= 1
                t[winner] += 1
            b = list(bids)
            for s, v in zip(questioned, choice[len(tricks):]):
                b[s] = v
            if t == taken and b == bids:
                continue
            points = g.points_if(r, t, self.totals_before, b)
            sc = [scores[s] + points[s] - base[s] for s in range(len(seats))]
            m = misses(sc)
            if m < best[0]:
                best = (m, t, sc)
        return best[1], best[2]

    def check_took(self, taken: list[int]) -> None:
        for s, n in self.took.items():
            if taken[s] != n:
                line = next(x for x in self.block if x.kind == "took" and x.actor == s)
                self.report("R052", tr("{player} took {taken} tricks in deal {number}, not {n}",
                                       player=self.who(s), taken=taken[s], number=self.number, n=n), line)
        self.took = {}

    def finish_block(self) -> None:
        g = self.game
        if g.phase is Phase.PLAY and self.level_of_deal == "sheet" and self.took:
            self.finish_sheet(self.block[-1])
            r = self.last_deal_record()
            if r is not None:
                self.check_took([x.taken for x in r.seats])
            return
        if self.is_last:
            return  # an unfinished game: checked as far as it goes
        if self.violated:
            raise Abandon  # the record stopped the deal at the mistake already reported
        self.report("R047", tr("deal {number} is incomplete but the record goes on", number=g.deal.number),
                    self.block[0])
        raise Abandon

    def abandon(self) -> None:
        """Skip the rest of a broken deal, keeping its written score and total."""
        g = self.game
        if self.deal_done() or g.is_over:
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
            g.end_as_written()  # (the totals as written may end the game, or not)
