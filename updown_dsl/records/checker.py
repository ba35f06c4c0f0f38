"""Audit a recorded game: replay every transcript line through the engine.

There is no second copy of the rules here: deals, bids, cards, trick winners,
scores and totals are all judged by :class:`~updown_dsl.engine.Game`. The checker
only walks the record, feeds the engine, compares what is written with what the
engine computes, and turns refusals into diagnostics with the line they came from.
After a rule violation it gives up on that deal (keeping the written score and
total, if any) and resumes at the next deal header, so one run reports every problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, NoReturn, Sequence

from ..actions import Bid, ChooseTrump
from ..cards import Card, Suit
from ..diagnostics import CATALOGUE, Diagnostic, Severity
from ..engine import Game, IllegalAction, Phase
from .transcript import Event, GameLines, Transcript, parse_transcript, read_game, split_games, text_lines
from ..lang.variant import Variant


class CheckReport:
    """What a check found, and the game as the engine replayed it."""

    __slots__ = ("path", "diagnostics", "readable", "level", "finished", "game", "_transcript", "_source")

    path: str | None
    diagnostics: tuple[Diagnostic, ...]
    readable: bool
    """False when the input could not be read at all (exit status 3)."""
    level: str
    finished: bool
    game: Game | None

    def __init__(self, path: str | None, diagnostics: tuple[Diagnostic, ...], readable: bool,
                 level: str = "full", finished: bool = False, game: Game | None = None,
                 transcript: Transcript | None = None, *, source: GameLines | None = None) -> None:
        self.path = path
        self.diagnostics = diagnostics
        self.readable = readable
        self.level = level
        self.finished = finished
        self.game = game
        self._transcript = transcript
        self._source = source

    @property
    def transcript(self) -> Transcript | None:
        """The record as read (read again from its lines when the quick check did not need it)."""
        if self._transcript is None and self._source is not None:
            self._transcript = read_game(self._source.lines, self._source.first_line, self.path)[0]
        return self._transcript

    def __repr__(self) -> str:
        return (f"CheckReport(path={self.path!r}, diagnostics={len(self.diagnostics)}, "
                f"readable={self.readable}, level={self.level!r}, finished={self.finished})")

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity error."""
        return [d for d in self.diagnostics if d.severity == Severity.ERROR]

    @property
    def clean(self) -> bool:
        """Readable and no errors (warnings and notes allowed)."""
        return self.readable and not self.errors


def check_text(text: str | bytes, path: str | None = None) -> CheckReport:
    """Read and check a transcript of one game given as text."""
    from .quickcheck import quick_check

    lines = text_lines(text)
    if lines is not None:
        report = quick_check(GameLines(lines, 1), path)
        if report is not None:
            return report
    t, diags = parse_transcript(text, path)
    if t is None:
        return CheckReport(path, tuple(diags), readable=False)
    return check_transcript(t, diags)


def check_file(path: str | Path) -> CheckReport:
    """Read and check a one-game transcript file (text or the JSON form).

    For archives of many games use :func:`check_games`.
    """
    return next(check_games(path))


def check_games(path: str | Path) -> Iterator[CheckReport]:
    """Check every game of a file (an archive may hold many), one at a time.

    The JSON form holds one game (or a list of games). A file that cannot be read
    gives one unreadable report.
    """
    name = str(path)
    try:
        handle = open(path, "rb")
    except OSError as exc:
        yield CheckReport(name, (Diagnostic("T001", f"cannot read the file: {exc.strerror}", path=name),),
                          readable=False)
        return
    with handle:
        head = handle.read(64)
        handle.seek(0)
        if head.lstrip()[:1] in (b"{", b"["):
            yield from _check_json(handle.read(), name)
            return
        yield from check_lines(handle, name)


def check_lines(lines: Iterable[str | bytes], path: str | None = None) -> Iterator[CheckReport]:
    """Check the games of an archive given as lines (text or bytes), one at a time.

    A clean game is checked by the quick path (:mod:`updown_dsl.records.quickcheck`); any game it
    does not vouch for is read and walked in full, with the same result as if the quick
    path did not exist.
    """
    from .quickcheck import quick_check

    for game in split_games(lines, path):
        if isinstance(game, Diagnostic):
            yield CheckReport(path, (game,), readable=False)
            continue
        report = quick_check(game, path)
        if report is None:
            t, diags = read_game(game.lines, game.first_line, path)
            report = check_transcript(t, diags)
        yield report


def _check_json(data: bytes, name: str) -> Iterator[CheckReport]:
    import json

    from .transcript import transcript_from_json

    try:
        obj = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        yield CheckReport(name, (Diagnostic("T001", f"not valid JSON: {exc}", path=name, line=1, col=1),),
                          readable=False)
        return
    for item in obj if isinstance(obj, list) else [obj]:
        t, diags = transcript_from_json(item, name)
        if t is None:
            yield CheckReport(name, tuple(diags), readable=False)
        else:
            yield check_transcript(t, diags)


_VARIANTS: dict[tuple[str, str, tuple[tuple[str, str], ...]], tuple[Variant | None, list[Diagnostic]]] = {}


def transcript_variant(t: Transcript) -> tuple[Variant | None, list[Diagnostic]]:
    """The variant a transcript names, with its ``option`` overrides applied.

    Loaded variants are kept for the games that follow (an archive names the same
    variant over and over), a few at a time.
    """
    key = (t.variant or "", str(Path(t.path).parent) if t.path else "", t.options)
    hit = _VARIANTS.get(key)
    if hit is not None and hit[0] is not None:
        return hit[0], []
    result = _load_transcript_variant(t)
    if result[0] is not None:
        if len(_VARIANTS) >= 16:
            del _VARIANTS[next(iter(_VARIANTS))]
        _VARIANTS[key] = result
    return result


def _load_transcript_variant(t: Transcript) -> tuple[Variant | None, list[Diagnostic]]:
    from ..lang.loader import load_with_options, resolve_variant_path, try_load_variant

    name = t.variant
    if name is None:
        return None, []
    base = Path(t.path).parent if t.path else None
    found = resolve_variant_path(name, base)
    target = found if found is not None else name
    variant, diags = try_load_variant(target)
    if variant is None:
        unknown = [d for d in diags if d.code == "V010" and d.path is None]
        if unknown:  # no such variant: one diagnostic, at the header line
            return None, [_at(t, "variant", "T010", f"cannot load the variant {name!r}: "
                              f"{unknown[0].message}", unknown[0].hint)]
        return None, [_at(t, "variant", "T010", f"cannot load the variant {name!r}")] + diags
    if not t.options:
        return variant, []
    variant, diags = load_with_options(target, list(t.options), f"{t.path or '<transcript>'} options")
    if variant is None:
        msgs = "; ".join(d.message for d in diags)
        return None, [_at(t, "option", "T011", f"the option lines cannot be applied: {msgs}")]
    return variant, []


def _at(t: Transcript, key: str, code: str, message: str, hint: str | None = None) -> Diagnostic:
    line = next((h.line for h in t.headers if h.key == key), 1)
    return Diagnostic(code, message, path=t.path, line=line, col=1, hint=hint)


def check_transcript(t: Transcript, reader_diags: Sequence[Diagnostic] = ()) -> CheckReport:
    """Check a transcript already read (``reader_diags``: what the reader reported)."""
    diags = list(reader_diags)
    game = prepare_game(t, diags)
    if game is None:
        return CheckReport(t.path, tuple(diags), readable=False, transcript=t)
    walker = _Walker(t, game, diags)
    walker.run()
    return CheckReport(t.path, tuple(diags), readable=True, level=t.level, finished=game.is_over,
                       game=game, transcript=t)


def prepare_game(t: Transcript, diags: list[Diagnostic]) -> Game | None:
    """The game a record's header describes, ready to be fed its deals (or None when the
    record cannot be checked); header problems are added to ``diags``."""
    if any(d.code in ("T001", "T006") for d in diags):
        return None
    variant, vdiags = transcript_variant(t)
    diags.extend(vdiags)
    if variant is None:
        return None
    n = len(t.players)
    if not variant.min_players <= n <= variant.max_players:
        diags.append(_at(t, "players", "T012", f"{variant.name} is for {variant.min_players} to "
                         f"{variant.max_players} players, the record has {n}"))
        return None
    written_hash = t.header("rules")
    if written_hash is not None and written_hash not in _known_hashes(t, variant):
        d = _at(t, "rules", "T013", f"the rules of {t.variant!r} differ from those the record was "
                f"written with (rules: {written_hash})",
                "the variant file changed since the game was written; the check uses the rules as they are now")
        diags.append(Diagnostic(d.code, d.message, Severity.WARNING, d.path, d.line, d.col, hint=d.hint))
    first = t.first_dealer
    if first is None:  # no header: the first deal line may name the dealer
        first = next((e.actor for e in t.events if e.kind == "deal"), None)
    return Game(variant, n, first_dealer=first, auto_deal=False)


def _known_hashes(t: Transcript, variant: Variant) -> tuple[str, ...]:
    """The rules hashes a record of ``variant`` may carry: of the rules as checked, and of
    the named variant before its option lines."""
    from .record import rules_hash

    hashes = [rules_hash(variant)]
    if t.options:
        from ..lang.loader import resolve_variant_path, try_load_variant

        found = resolve_variant_path(t.variant or "", Path(t.path).parent if t.path else None)
        base = try_load_variant(found if found is not None else (t.variant or ""))[0]
        if base is not None:
            hashes.append(rules_hash(base))
    return tuple(hashes)


class _Stop(Exception):
    """Give up on the current deal (after reporting why)."""


class _Skip(Exception):
    """Leave the current deal unchecked without an error (its cards are not known)."""


class _Record:
    """What every part of the walk shares: the record, the game and the diagnostics."""

    # The deal being walked (set by _Walker.deal for each block).
    block: list[Event]
    is_last: bool
    stops_here: bool
    deal_number: int
    totals_before: list[int]
    hands: dict[int, list[Card | None]]
    hand_events: dict[int, Event]
    turned: Event | None
    trump_line: Event | None
    cut: Event | None
    took: dict[int, int]
    dealt: bool
    unknown: bool
    pending: tuple[Event, Diagnostic] | None
    penalized: bool
    replayed: bool
    sheet_bids_done: bool
    level_of_deal: str
    trump_rule: str
    taken_back: set[Event]

    if TYPE_CHECKING:  # each part calls the others'
        def refused(self, problem: Diagnostic, e: Event) -> NoReturn: ...
        def report_pending(self) -> None: ...
        def ensure_dealt(self, at: Event) -> None: ...

    def __init__(self, t: Transcript, game: Game, diags: list[Diagnostic]) -> None:
        self.t = t
        self.game = game
        self.diags = diags
        self.level = t.level
        self.names = t.players
        self.last_written: list[int | None] = [None] * game.players

    # -- reporting ------------------------------------------------------------------------
    def report(self, code: str, message: str, event: Event | None, hint: str | None = None,
               severity: Severity = Severity.ERROR, at_arg: bool = False) -> None:
        line = event.line if event is not None else None
        col = event.col if event is not None else None
        if at_arg and event is not None and event.arg_col:
            col = event.arg_col
        self.diags.append(Diagnostic(code, message, severity, self.t.path, line, col, hint=hint))

    def who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None else "?"

    def where(self) -> str:
        g = self.game
        trick = len(g.tricks) + 1
        return f"deal {g.deal.number}, trick {trick}" if g.phase is Phase.PLAY else f"deal {g.deal.number}"


class _Cards(_Record):
    """Each deal's cards: the hands, shown and played cards gathered from its block, then dealt to the engine."""

    def deal_done(self, start: int) -> bool:
        return any(r.event in ("deal", "abandoned") or (r.event == "revoke" and r.annulled)
                   for r in self.game.results[start:])

    def collect(self, events: list[Event]) -> None:
        """Hands, turned card, trump and cut, wherever they stand in the block."""
        from ..engine import trump_rule_for

        g = self.game
        self.trump_rule = trump_rule_for(g.variant, g.deal, g.players, g.table.size)[1]
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
                    self.report("R041", f"{self.who(e.actor)} has two hands in deal {self.game.deal.number}", e)
                self.hands[e.actor] = list(e.cards)
                self.hand_events[e.actor] = e
                if len(e.cards) != self.game.deal.cards:
                    self.report("R041", f"{self.who(e.actor)} was dealt {len(e.cards)} cards; deal "
                                f"{self.game.deal.number} has {self.game.deal.cards} each", e)
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
                        self.report("R044", f"{c} is not in the {self.game.table.size}-card pack", e)
                        raise _Stop
                    if c in seen:
                        self.report("R043", f"{c} appears twice in deal {self.game.deal.number} "
                                    f"(first at line {seen[c].line})", e)
                        raise _Stop
                    seen[c] = e
        if self.level == "plays":
            for e in events:
                if e.kind == "play" and e.actor is not None and e not in self.taken_back:
                    self.hands.setdefault(e.actor, []).append(e.play.card if e.play else None)

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
                self.report("R001", f"{self.who(expected)} cuts before deal {g.deal.number}, not "
                            f"{self.who(cutter)}", self.cut)
        short = self.level == "plays" and any(
            len(self.hands.get(s, ())) != g.deal.cards for s in range(g.players))
        annulled = any(e.kind == "replay" for e in self.block)
        if short and annulled:
            self.unknown = True  # a deal stopped by a revoke: not every card was played
        elif short and self.is_last and self.stops_here and \
                all(len(c) <= g.deal.cards for c in self.hands.values()):
            # The record stops inside this deal: the hands are not all known yet.
            self.report("T021", f"the record stops inside deal {g.deal.number}: its cards are not "
                        "checked", at, severity=Severity.NOTE)
            self.unknown = True
        if self.level == "sheet" or self.unknown or not self.hands:
            if self.level != "sheet" and self.unknown and not short and not annulled:
                self.report("T021", f"deal {g.deal.number} holds unknown cards (??): its cards are "
                            "not checked", at, severity=Severity.NOTE)
            self.level_of_deal = "sheet"
            try:
                chosen = any(e.kind == "trump" and e.actor is not None for e in self.block)
                g.deal_unknown(trump=trump, turned=turned, chosen=chosen, cut_card=cut)
            except IllegalAction as exc:
                self.refused(exc.diagnostics[0], at)
            return
        self.level_of_deal = "cards"
        missing = [s for s in range(g.players) if s not in self.hands]
        if missing:
            self.report("R041", f"no cards recorded for {', '.join(self.who(s) for s in missing)} in deal "
                        f"{g.deal.number}", self.block[0])
            raise _Stop
        if self.level == "plays":
            for s, cards in self.hands.items():
                if len(cards) != g.deal.cards:
                    self.report("R045", f"{self.who(s)} played {len(cards)} cards in deal {g.deal.number}, "
                                f"which has {g.deal.cards} each", self.block[0])
                    raise _Stop
        hands = [[c for c in self.hands[s] if c is not None] for s in range(g.players)]
        if self.level == "plays" and self.trump_rule == "last_dealt" and turned is not None:
            # Hands rebuilt from plays are in play order: the shown card was dealt last.
            own = hands[g.dealer]
            if turned in own:
                own.remove(turned)
                own.append(turned)
            else:
                self.report("R046", f"the card shown for trump, {turned}, is not the dealer "
                            f"{self.who(g.dealer)}'s", self.turned)
                raise _Stop
        try:
            g.deal_cards(hands, turned=turned, cut_card=cut, random_trump=trump, recorded_trump=trump)
        except IllegalAction as exc:
            d = exc.diagnostics[0]
            code = {"R013": "R043" if "twice" in d.message else "R044"}.get(d.code, "R046")
            self.report(code, f"deal {g.deal.number}: {d.message}", self.turned or at)
            raise _Stop from None
        if self.trump_line is not None and self.turned is not None and g.phase is not Phase.TRUMP:
            written = None if self.trump_line.no_trump else self.trump_line.suit
            if written != g.trump:
                self.report("R046", f"trump in deal {g.deal.number} is "
                            f"{g.trump.name.lower() if g.trump else 'none'} by the rules, not "
                            f"{written.name.lower() if written else 'none'}", self.trump_line)

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
                    g.totals[s] = a


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
                self.report("R053", f"tricks taken are not written for every player in deal "
                            f"{g.deal.number}", at)
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
            self.report_pending()
            raise _Stop
        if e.kind == "score":
            r = self.last_deal_record()
            if r is None or r.deal.number != self.deal_number or g.phase is Phase.PLAY:
                self.report("R047", f"a score is written before deal {self.deal_number} is over", e)
                raise _Stop
            for s, written in enumerate(e.amounts):
                if written is None:
                    continue
                seat = r.seats[s]
                actual = seat.points + seat.bonus
                if written != actual:
                    detail = f"bid {seat.bid}, took {seat.taken}" if seat.bid is not None else f"took {seat.taken}"
                    self.report("R050", f"{self.who(s)} scores {actual} in deal {r.deal.number} ({detail}), "
                                f"not {written}", e)
            self.check_took(r)
        else:
            for s, written in enumerate(e.amounts):
                if written is None:
                    continue
                true = g.totals[s]
                # A wrong total carried on by adding the right deal points is the same mistake:
                # report it once.
                carried = self.last_written[s]
                carried_ok = carried is not None and written == carried + (true - self.totals_before[s])
                if written != true and not carried_ok:
                    self.report("R051", f"{self.who(s)}'s total after deal {self.deal_number} is "
                                f"{true}, not {written}", e)
                self.last_written[s] = written

    def check_took(self, r: Any) -> None:
        for s, n in self.took.items():
            if r.seats[s].taken != n:
                line = next(x for x in self.block if x.kind == "took" and x.actor == s)
                self.report("R052", f"{self.who(s)} took {r.seats[s].taken} tricks in deal {r.deal.number}, "
                            f"not {n}", line)
        self.took = {}

    def settlement(self) -> None:
        g = self.game
        for e in self.t.events:
            if e.kind != "settlement":
                continue
            if not g.is_over:
                self.report("R054", "a settlement is written but the game is not over", e)
                continue
            actual = g.settlement()
            for s, written in enumerate(e.amounts):
                if written is not None and written != actual[s]:
                    self.report("R054", f"{self.who(s)} settles {actual[s]}, not {written}", e)


class _Walker(_Cards, _Scores):
    """The walk over a record, deal block by deal block, line by line."""

    # -- walking --------------------------------------------------------------------------
    def run(self) -> None:
        self.stray_lines()
        blocks = self.t.deals()
        for i, block in enumerate(blocks):
            if self.game.is_over:
                self.report("R047", f"the game ended after deal {self.game.deal.number} "
                            f"({self.game.over_reason}) but the record goes on", block[0])
                break
            self.deal(block, last=i == len(blocks) - 1)
        self.settlement()
        if not self.game.is_over:
            g = self.game
            self.report("T020", f"the record stops in deal {g.deal.number} of {len(g.deals)}: "
                        "the game is unfinished", None, severity=Severity.NOTE)

    def deal(self, block: list[Event], last: bool) -> None:
        g = self.game
        head = block[0]
        start_results = len(g.results)
        if head.number != g.deal.number:
            self.report("R040", f"deal {head.number} is written where deal {g.deal.number} comes next",
                        head)
        if head.size is not None and head.size != g.deal.cards:
            self.report("R041", f"deal {g.deal.number} has {g.deal.cards} cards each, not {head.size}",
                        head)
        if head.actor is not None and head.actor != g.dealer:
            self.report("R042", f"{self.who(g.dealer)} deals deal {g.deal.number}, not "
                        f"{self.who(head.actor)}", head)
        self.block = block
        self.is_last = last
        # The record stops inside this deal: nothing after the cards.
        self.stops_here = last and not any(e.kind in ("took", "score", "total") for e in block) and \
            not any(e.kind == "settlement" for e in self.t.events)
        self.deal_number = g.deal.number
        self.totals_before = list(g.totals)
        self.hands: dict[int, list[Card | None]] = {}
        self.hand_events: dict[int, Event] = {}
        self.turned: Event | None = None
        self.trump_line: Event | None = None
        self.cut: Event | None = None
        self.took: dict[int, int] = {}
        self.dealt = False
        self.unknown = False
        self.pending: tuple[Event, Diagnostic] | None = None
        self.penalized = False
        self.replayed = False
        self.sheet_bids_done = False
        self.level_of_deal = "cards"
        events = block[1:]
        try:
            self.collect(events)
            for e in events:
                self.event(e)
            if not self.deal_done(start_results):
                self.finish_block(last)
            elif self.penalized and not self.replayed:
                self.report("R055", f"deal {self.deal_number} was annulled by the penalty: write "
                            "'replay' and deal it again", block[-1])
        except _Stop:
            self.abandon(start_results)
        except _Skip:
            self.abandon(start_results)

    def event(self, e: Event) -> None:
        g = self.game
        kind = e.kind
        if kind in ("hand", "turned", "cut", "comment"):
            return
        if kind == "trump":
            if e.actor is None:
                return
            self.ensure_dealt(e)
            if g.phase is not Phase.TRUMP:
                self.report("R022", f"{self.who(e.actor)} names trump in deal {g.deal.number}, where the "
                            "rules do not let a player name it", e)
                raise _Stop
            self.act(e, ChooseTrump(None if e.no_trump else e.suit))
        elif kind == "bid":
            if g.phase is Phase.DEAL:
                self.ensure_dealt(e)
            if self.level == "sheet":
                self.sheet_bids(e)
                return
            self.act(e, Bid(e.number or 0))
        elif kind == "play":
            self.ensure_dealt(e)
            if self.level_of_deal == "sheet":
                return
            if e.play is None:
                return
            self.act(e, e.play)
        elif kind == "took":
            return
        elif kind in ("score", "total"):
            self.finish_sheet(e)
            self.compare(e)
        elif kind == "penalty":
            self.penalty(e)
        elif kind == "replay":
            self.replay(e)

    def sheet_bids(self, first: Event) -> None:
        """A paper sheet lists bids by seat: take them in bidding order."""
        if self.sheet_bids_done:
            return
        self.sheet_bids_done = True
        g = self.game
        by_seat: dict[int, Event] = {}
        for e in self.block:
            if e.kind == "bid" and e.actor is not None:
                if e.actor in by_seat:
                    self.report("R001", f"{self.who(e.actor)} bids twice in deal {g.deal.number}", e)
                    raise _Stop
                by_seat[e.actor] = e
        for seat in g.bidding_order():
            if g.phase is not Phase.BID:
                break
            written = by_seat.get(seat)
            if written is None:
                if self.is_last and not any(x.kind in ("took", "score", "total") for x in self.block):
                    return  # the record stops during the bidding
                self.report("R001", f"no bid is written for {self.who(seat)} in deal {g.deal.number}", first)
                raise _Stop
            self.act(written, Bid(written.number or 0))

    def act(self, e: Event, action: Any) -> None:
        g = self.game
        if self.pending is not None:
            self.report_pending()
            raise _Stop
        if g.phase is Phase.OVER:
            raise _Stop
        if e.actor != g.to_act:
            if g.phase is Phase.PLAY and not g.trick and g.tricks:
                won = g.tricks[-1].winner
                self.report("R003", f"{self.who(e.actor)} leads trick {len(g.tricks) + 1} of deal "
                            f"{g.deal.number}, but {self.who(won)} won trick {len(g.tricks)} and leads",
                            e)
            else:
                what = {Phase.BID: "bid", Phase.PLAY: "play", Phase.TRUMP: "name trump"}.get(g.phase, "act")
                self.report("R001", f"{self.who(e.actor)} cannot {what} now in {self.where()}: it is "
                            f"{self.who(g.to_act)}'s turn" if g.to_act >= 0 else
                            f"{self.who(e.actor)} cannot act now in {self.where()}", e)
            raise _Stop
        try:
            g.apply(action)  # the one legality test: a refused action leaves the game as it was
        except IllegalAction as exc:
            problem = exc.diagnostics[0]
            revoke = g.variant.revoke
            if revoke is not None and problem.code in revoke.covers:
                self.pending = (e, problem)  # a penalty line may follow
                return
            self.refused(problem, e)

    def refused(self, problem: Diagnostic, e: Event) -> NoReturn:
        self.report(problem.code, f"{self.who(e.actor)} ({self.where()}): {problem.message}", e,
                    hint=problem.hint, at_arg=True)
        raise _Stop

    def report_pending(self) -> None:
        assert self.pending is not None
        e, problem = self.pending
        self.pending = None
        rules = self.game.variant.revoke
        hint = None
        if rules is not None:
            hint = (f"the penalty is 'penalty {self.who(e.actor)} {rules.points} {problem.code}'"
                    + (" and the deal is replayed" if rules.replay else ""))
        self.report(problem.code, f"{self.who(e.actor)} ({self.where()}): {problem.message}", e, hint=hint,
                    at_arg=True)

    def penalty(self, e: Event) -> None:
        g = self.game
        if self.pending is None and self.level_of_deal == "sheet" and g.phase is Phase.DEAL:
            self.ensure_dealt(e)
        if self.pending is None and self.level_of_deal == "sheet" and g.phase is Phase.PLAY:
            # The cards are not known: the record's word that a card was illegal stands.
            self.written_penalty(e)
            return
        if self.pending is None:
            self.report("R055", f"a penalty for {self.who(e.actor)} is written but no illegal card "
                        f"was played in deal {g.deal.number}", e)
            raise _Stop
        offence, problem = self.pending
        self.pending = None
        if e.code is not None and e.code != problem.code:
            self.report("R055", f"the illegal card broke {problem.code} ({CATALOGUE.get(problem.code, '')}), "
                        f"not {e.code}", e)
        if e.actor != offence.actor:
            self.report("R055", f"the penalty is {self.who(e.actor)}'s, but {self.who(offence.actor)} "
                        "played the illegal card", e)
        rules = g.variant.revoke
        assert rules is not None
        points = g.revoke(offence.actor if offence.actor is not None else 0, problem.code,
                          offence.play)
        if e.number != points:
            self.report("R055", f"the penalty for {problem.code} is {points}, not {e.number}", e)
        self.penalized = rules.replay

    def written_penalty(self, e: Event) -> None:
        g = self.game
        rules = g.variant.revoke
        code = e.code or "R010"
        if rules is None or code not in rules.covers:
            self.report("R055", f"{g.variant.name} has no penalty for {code}", e)
            raise _Stop
        points = g.revoke(e.actor if e.actor is not None else 0, code)
        if e.number != points:
            self.report("R055", f"the penalty for {code} is {points}, not {e.number}", e)
        self.penalized = rules.replay

    def replay(self, e: Event) -> None:
        if not self.penalized:
            self.report("R055", "'replay' without a penalty that annuls the deal", e)
        self.penalized = False
        self.replayed = True

    def finish_block(self, last: bool) -> None:
        g = self.game
        if self.pending is not None:
            self.report_pending()
            raise _Stop
        if g.phase is Phase.PLAY and self.level_of_deal == "sheet" and self.took:
            self.finish_sheet(self.block[-1])
            r = self.last_deal_record()
            if r is not None:
                self.check_took(r)
            return
        if last:
            return  # an unfinished game: checked as far as it goes
        self.report("R047", f"deal {g.deal.number} is incomplete but the record goes on", self.block[0])
        raise _Stop

    def stray_lines(self) -> None:
        """Lines about a deal written before the first ``deal`` line."""
        for e in self.t.events:
            if e.kind == "deal":
                return
            if e.kind not in ("comment", "raw", "settlement"):
                self.report("T002", f"a '{e.kind}' line must come after a 'deal' line", e,
                            hint="start each deal with 'deal N cards K dealer NAME'")


def _seat_by_cut(game: Game) -> int:
    from ..engine import seat_by_rule

    return seat_by_rule(game.variant.cut_by, game.dealer, game.players)


__all__ = ["CheckReport", "check_file", "check_games", "check_lines", "check_text", "check_transcript",
           "prepare_game", "transcript_variant"]
