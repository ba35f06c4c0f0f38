"""Audit a recorded game: replay every transcript line through the engine.

The entry points read records (one game, a file, a stream of many), take the quick path
(:mod:`~updown_dsl.records.quickcheck`) for a record in canonical form and walk any other
with :class:`Audit`, the visitor that replays each line.

There is no second copy of the rules here: deals, bids, cards, trick winners,
scores and totals are all judged by :class:`~updown_dsl.engine.Game`. The checker
only walks the record, feeds the engine, compares what is written with what the
engine computes, and turns refusals into diagnostics with the line they came from.
After a broken rule it goes on with the deal as written (the card as played, the bid as
made), so that every independent mistake is reported and none of the consequences of one
already reported: where the record no longer follows from it (another player leads, the
deal stops there) the deal is left, keeping its written score and total.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, NoReturn, Sequence

from ..i18n import tr
from ..actions import Bid, Call, ChooseTrump, Play
from ..diagnostics import Diagnostic, Severity
from ..engine import IllegalAction, Phase
from ..lang.formula import FormulaEvalError
from .audit import Abandon, StopWalk, _Cards, _Scores, _Stop
from .penalty import _Penalties
from .unknown import _Unknowns
from .report import CheckReport, Headers, prepare_game, transcript_variant
from .archive import GameLines, Peeked, split_games
from .jsonform import read_json_bytes
from .model import Event, Transcript
from .tableevents import TableLines
from .tablelines import correction_problems
from .reader import parse_transcript, read_game, text_lines


def check_text(text: str | bytes, path: str | None = None, *, variant_path: Sequence[str | Path] = ()) -> CheckReport:
    """Read and check a transcript of one game given as text.

    ``variant_path``: folders, besides the record's own, where the variant file it names may
    be (every entry point takes it; see :func:`~updown_dsl.records.report.transcript_variant`).
    """
    from .quickcheck import quick_check

    lines = text_lines(text)
    if lines is not None:
        report = quick_check(GameLines(lines, 1), path, variant_path)
        if report is not None:
            return report
    t, diags = parse_transcript(text, path)
    if t is None:
        return CheckReport(path, tuple(diags), readable=False)
    return check_transcript(t, diags, variant_path=variant_path)


def check_file(path: str | Path, *, variant_path: Sequence[str | Path] = ()) -> CheckReport:
    """Read and check a one-game transcript file (text or the JSON form).

    For archives of many games use :func:`check_games`.
    """
    return next(check_games(path, variant_path=variant_path))


def check_games(path: str | Path, *, variant_path: Sequence[str | Path] = ()) -> Iterator[CheckReport]:
    """Check every game of a file (an archive may hold many), one at a time.

    The JSON form holds one game (or a list of games). A file that cannot be read
    gives one unreadable report.
    """
    name = str(path)
    try:
        handle = open(path, "rb")
    except OSError as exc:
        yield CheckReport(name, (Diagnostic("T001", tr("cannot read the file: {strerror}",
                                                       strerror=exc.strerror), path=name),),
                          readable=False)
        return
    with handle:
        stream = Peeked(handle, 64)  # no seek back: a FIFO or a pipe is read like a file
        if stream.head.lstrip()[:1] in (b"{", b"["):
            yield from _check_json(read_json_bytes(stream), name, variant_path)
            return
        yield from check_lines(stream, name, variant_path=variant_path)


def check_lines(lines: Iterable[str | bytes], path: str | None = None, *,
                variant_path: Sequence[str | Path] = ()) -> Iterator[CheckReport]:
    """Check the games of an archive given as lines (text or bytes), one at a time.

    A clean game is checked by the quick path (:mod:`updown_dsl.records.quickcheck`); any game it
    does not vouch for is read and walked in full, with the same result as if the quick
    path did not exist.
    """
    from .quickcheck import quick_check

    headers = Headers(variant_path)
    for game in split_games(lines, path):
        if isinstance(game, Diagnostic):
            yield CheckReport(path, (game,), readable=False)
            continue
        report = quick_check(game, path, variant_path, headers)
        if report is None:
            t, diags = read_game(game.lines, game.first_line, path)
            report = check_transcript(t, diags, variant_path=variant_path)
        yield report


def _check_json(data: bytes, name: str, variant_path: Sequence[str | Path]) -> Iterator[CheckReport]:
    from .jsonform import load_json, transcript_from_json

    obj, problem = load_json(data, name)
    if problem is not None:
        yield CheckReport(name, (problem,), readable=False)
        return
    for item in obj if isinstance(obj, list) else [obj]:
        t, diags = transcript_from_json(item, name)
        if t is None:
            yield CheckReport(name, tuple(diags), readable=False)
        else:
            yield check_transcript(t, diags, variant_path=variant_path)


def check_transcript(t: Transcript, reader_diags: Sequence[Diagnostic] = (), *,
                     variant_path: Sequence[str | Path] = ()) -> CheckReport:
    """Check a transcript already read (``reader_diags``: what the reader reported)."""
    diags = list(reader_diags)
    game = prepare_game(t, diags, variant_path)
    if game is None:
        return CheckReport(t.path, tuple(diags), readable=False, transcript=t)
    Audit(t, game, diags).run()
    return CheckReport(t.path, tuple(diags), readable=True, level=t.level, finished=game.is_over,
                       game=game, transcript=t)


class Audit(_Cards, _Scores, _Penalties, _Unknowns):
    """The checker: each line of a record replayed through the engine.

    :meth:`run` goes through the lines before the first deal, every deal block (its ``deal``
    line and the lines up to the next one) and the settlement; the parts it is
    made of see to each deal's cards (:class:`~updown_dsl.records.audit._Cards`), to
    the written numbers (:class:`~updown_dsl.records.audit._Scores`), to illegal cards
    and their penalties (:class:`~updown_dsl.records.penalty._Penalties`) and to the cards
    a record leaves unknown (:class:`~updown_dsl.records.unknown._Unknowns`).
    """

    def run(self) -> None:
        """Check the record: the lines before the first deal, each deal (a deal left at a
        mistake is :meth:`abandoned`; a game over stops the deals), the settlement, the end."""
        t = self.t
        for e in t.events:
            if e.kind == "deal":
                break
            self.stray(e)
        table = TableLines.of(t)  # the table's events (records/tableevents.py)
        for f in table.problems if table is not None else ():
            self.report(f.code, f.message, f.event, hint=f.hint, severity=f.severity, seat=f.seat)
        blocks = t.deals()
        for i, block in enumerate(blocks):
            last = i == len(blocks) - 1
            if table is not None and table.short(i) and not self.game.is_over:
                for f in table.play(self.game, i, block, self.level):
                    self.report(f.code, f.message, f.event, hint=f.hint, severity=f.severity, seat=f.seat)
                self.last_written = list(self.game.totals)  # (a wrong total was reported and taken as written)
                continue
            try:
                self.begin_deal(block, last)
                if table is not None:
                    table.apply_adjustments(self.game, i)
                for e in block[1:]:
                    self.event(e)
                self.end_deal(block, last)
            except Abandon:
                self.abandoned(block)
            except StopWalk:
                break
        for e in t.events:
            if e.kind == "settlement":
                self.settlement(e)
        self.end_game()

    def stray(self, e: Event) -> None:
        """A line about a deal written before the first ``deal`` line."""
        if e.kind not in ("comment", "raw", "settlement"):
            self.report("T002", tr("a '{kind}' line must come after a 'deal' line", kind=e.kind), e,
                        hint=tr("start each deal with 'deal N cards K dealer NAME'"))

    def begin_deal(self, block: list[Event], last: bool) -> None:
        g = self.game
        if g.is_over:
            self.report("R047", tr("the game ended after deal {number} ({over_reason}) but the record goes on",
                                   number=g.deal.number, over_reason=g.over_reason), block[0])
            raise StopWalk
        head = block[0]
        self.start_results = len(g.results)
        if head.number != g.deal.number:
            self.report("R040", tr("deal {number} is written where deal {number2} comes next",
                                   number=head.number, number2=g.deal.number),
                        head)
        if head.size is not None and head.size != g.deal.cards:
            self.report("R041", tr("deal {number} has {cards} cards each, not {size}",
                                   number=g.deal.number, cards=g.deal.cards, size=head.size),
                        head)
        if head.actor is not None and head.actor != g.dealer:
            self.report("R042", tr("{player} deals deal {number}, not {player2}",
                                   player=self.who(g.dealer), number=g.deal.number, player2=self.who(head.actor)), head)
        self.block = block
        self.is_last = last
        # The record stops inside this deal: nothing after the cards.
        self.stops_here = last and not any(e.kind in ("took", "score", "total") for e in block) and \
            not any(e.kind == "settlement" for e in self.t.events)
        self.deal_number = g.deal.number
        self.totals_before = list(g.totals)
        self.hands = {}
        self.hand_events = {}
        self.turned = None
        self.trump_line = None
        self.cut = None
        self.took = {}
        self.score_gap = {}
        self.dealt = False
        self.unknown = False
        self.pending = None
        self.penalized = False
        self.violated = False
        self.decided = False
        self.as_unknown = set()
        self.hands_played = False
        self.inferred = {}
        self.unread = ""
        self.bad_bids = set()
        self.replayed = False
        self.sheet_bids_done = False
        self.level_of_deal = "cards"
        self.collect(block[1:])

    def end_deal(self, block: list[Event], last: bool) -> None:
        try:
            self._end_deal(block, last)
        except FormulaEvalError as exc:
            self.formula_failed(exc, block[-1])

    def formula_failed(self, exc: FormulaEvalError, e: Event) -> NoReturn:
        """A scoring formula failed on this record's numbers (only a running total outside
        every value the loader tried can do that): say so, and check no further."""
        self.report("F005", f"{self.where()}: {exc.diagnostics[0].message}", e,
                    hint=tr("the variant's formula cannot score this deal; the rest of the game is not checked"))
        raise StopWalk

    def _end_deal(self, block: list[Event], last: bool) -> None:
        if self.pending is not None:
            self.settle_pending()
        if not self.deal_done(self.start_results):
            self.finish_block(last)
        elif self.penalized and not self.replayed:
            self.report("R055", tr("deal {deal_number} was annulled by the penalty: write 'replay' and deal it again",
                                   deal_number=self.deal_number), block[-1])

    def abandoned(self, block: list[Event]) -> None:
        self.abandon(self.start_results)

    def end_game(self) -> None:
        g = self.game
        if not g.is_over:
            number = g.deal.number
            started = getattr(self, "deal_number", None) == number and len(g.results) == self.start_results
            where = (tr("in deal {number}", number=number) if started else
                     tr("after deal {number}", number=number - 1) if number > 1 else tr("before its first deal"))
            # at the record's last line, so that in an archive it names its game
            last = self.t.events[-1] if self.t.events else None
            end = g.variant.end
            of = (tr(", before a total reached {target}", target=end.target) if end.target is not None else
                  tr(" of {deals}", deals=len(g.deals)))
            self.report("T020", tr("the record stops {where}{of}: the game is unfinished",
                                   where=where, of=of), last,
                        severity=Severity.NOTE)

    def event(self, e: Event) -> None:
        try:
            self._event(e)
        except FormulaEvalError as exc:
            self.formula_failed(exc, e)

    def _event(self, e: Event) -> None:
        g = self.game
        kind = e.kind
        if kind in ("hand", "turned", "cut", "comment"):
            return
        if self.decided and kind in ("trump", "call", "bid", "play", "penalty", "replay"):
            self.report("R055", tr("deal {deal_number} stopped at the penalty and was scored as the table decided, but the record goes on with it",
                                   deal_number=self.deal_number), e,
                        hint=tr("after the penalty write only the deal's scores and totals"))
            raise _Stop
        if kind == "trump":
            if e.actor is None:
                return
            self.ensure_dealt(e)
            if g.phase is not Phase.TRUMP:
                self.report("R022", tr("{player} names trump in deal {number}, where the rules do not let a player name it",
                                       player=self.who(e.actor), number=g.deal.number), e)
                raise _Stop
            self.act(e, ChooseTrump(None if e.no_trump else e.suit))
        elif kind in ("bid", "call"):
            if g.phase is Phase.DEAL:
                self.ensure_dealt(e)
            if self.level == "sheet":
                self.sheet_bids(e)
                return
            self.act(e, Bid(e.number or 0) if kind == "bid" else e.as_call())
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
        elif kind == "correction":  # a keeper's note of a changed number: held to the deal's numbers
            for code, message, hint in correction_problems(e, self.block, self.deal_number, self.t.players):
                self.report(code, message, e, hint=hint)

    def sheet_bids(self, first: Event) -> None:
        """A paper sheet lists bids (and an auction's calls) by seat: take them in the order
        the players bid."""
        if self.sheet_bids_done:
            return
        self.sheet_bids_done = True
        g = self.game
        by_seat: dict[tuple[str, int], Event] = {}
        for e in self.block:
            if e.kind in ("bid", "call") and e.actor is not None:
                if (e.kind, e.actor) in by_seat:
                    message = tr("{player} bids twice in deal {number}", player=self.who(e.actor), number=g.deal.number) \
                        if e.kind == "bid" else tr("{player} calls twice in deal {number}", player=self.who(e.actor),
                                                   number=g.deal.number)
                    self.report("R001", message, e)
                    raise _Stop
                by_seat[(e.kind, e.actor)] = e
        while g.phase in (Phase.AUCTION, Phase.BID):
            seat, kind = g.to_act, "call" if g.phase is Phase.AUCTION else "bid"
            written = by_seat.pop((kind, seat), None)
            if written is None:
                if self.is_last and not any(x.kind in ("took", "score", "total") for x in self.block):
                    return  # the record stops during the bidding
                self.report("R001", tr("no bid is written for {player} in deal {number}",
                                       player=self.who(seat), number=g.deal.number) if kind == "bid" else
                            tr("no call is written for {player} in deal {number}", player=self.who(seat),
                               number=g.deal.number), first)
                raise _Stop
            self.act(written, Bid(written.number or 0) if kind == "bid" else written.as_call())
        for e in by_seat.values():  # a line the bidding had no turn for
            who, number = self.who(e.actor), g.deal.number
            self.report("R002", tr("{player} bids in deal {number}, a deal without bidding", player=who, number=number)
                        if g.kind.bidding == "none" else
                        tr("{player} calls in deal {number}, which has no auction", player=who, number=number)
                        if e.kind == "call" else
                        tr("{player} has no bid to make in deal {number}: {player}'s call is the bid", player=who,
                           number=number), e)
            raise _Stop

    def act(self, e: Event, action: Any) -> None:
        g = self.game
        if self.pending is not None:
            self.settle_pending()
        if g.phase is Phase.OVER:
            raise _Stop
        if e.actor != g.to_act and e.actor is not None and g.first_leader_unknown:
            g.set_first_leader(e.actor)  # the deal before was not played out: the record says
        if e.actor != g.to_act:
            if self.violated:
                # The record goes on from the card it was written with, not the one it
                # shows: a consequence of the mistake already reported. The deal is left.
                raise _Stop
            if g.phase is Phase.PLAY and not g.trick and g.tricks:
                won = g.tricks[-1].winner
                self.report("R003", tr("{player} leads trick {value} of deal {number}, but {player2} won trick {count} and leads",
                                       player=self.who(e.actor), value=len(g.tricks) + 1, number=g.deal.number, player2=self.who(won), count=len(g.tricks)),
                            e)
            else:
                what = {Phase.BID: "bid", Phase.PLAY: "play", Phase.TRUMP: "name trump",
                        Phase.AUCTION: "call"}.get(g.phase, "act")
                self.report("R001", tr("{player} cannot {what} now in {where}: it is {player2}'s turn",
                                       player=self.who(e.actor), what=what, where=self.where(), player2=self.who(g.to_act)) if g.to_act >= 0 else tr("{player} cannot act now in {where}", player=self.who(e.actor), where=self.where()), e)
            raise _Stop
        try:
            g.apply(action)  # the one legality test: a refused action leaves the game as it was
        except IllegalAction as exc:
            problem = exc.diagnostics[0]
            if self.violated and problem.code == "R013":
                raise _Stop from None  # (as above: a card the record's other version held)
            revoke = g.variant.revoke
            if revoke is not None and problem.code in revoke.covers and isinstance(action, Play):
                self.pending = (e, problem)  # a penalty line may follow
                return
            self.report(problem.code, f"{self.who(e.actor)} ({self.where()}): {problem.message}"
                        f"{self.evidence(problem, e)}", e, hint=problem.hint, at_arg=True)
            # Go on with the action as written, so that the deal's other mistakes are found
            # and the consequences of this one are not reported again.
            self.violated = True
            if isinstance(action, (Bid, Call)) and e.actor is not None:
                self.bad_bids.add(e.actor)  # the score of a bid in question says nothing more
            if g.take_as_written(action, problem.code):
                return
            raise _Stop

    def refused(self, problem: Diagnostic, e: Event) -> NoReturn:
        self.report(problem.code, f"{self.who(e.actor)} ({self.where()}): {problem.message}"
                    f"{self.evidence(problem, e)}", e, hint=problem.hint, at_arg=True)
        raise _Stop

    def finish_block(self, last: bool) -> None:
        g = self.game
        if g.phase is Phase.PLAY and self.level_of_deal == "sheet" and self.took:
            self.finish_sheet(self.block[-1])
            r = self.last_deal_record()
            if r is not None:
                self.check_took(r)
            return
        if last:
            return  # an unfinished game: checked as far as it goes
        if self.violated:
            raise _Stop  # the record stopped the deal at the mistake already reported
        self.report("R047", tr("deal {number} is incomplete but the record goes on",
                               number=g.deal.number), self.block[0])
        raise _Stop


__all__ = ["Audit", "CheckReport", "check_file", "check_games", "check_lines", "check_text", "check_transcript",
           "prepare_game", "transcript_variant"]
