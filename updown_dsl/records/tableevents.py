"""The table's events as data: who comes late, who leaves, who sits a deal out, a one-off
adjustment of a total, a deal played with another number of cards than the schedule's.

Each is a line in the block of the deal it is about, after the deal's line (or row)::

    deal 3 cards 9 dealer Boris trump C | 3 1 10 80 | 3 1 10 90 | 5 5 300 320 | - - - 0
    late Gleb                  # Gleb arrives: he plays from this deal (he sat out every deal before)
    leave Vera                 # Vera leaves: she sits out this deal and every later one
    out Boris                  # Boris sits this deal out
    adjust Anna -50 reason left the table for a call   # Anna's total changes by -50 at this deal
    schedule cards 5           # this deal is played with 5 cards each, not the schedule's

A seat keeps its place (the ``players`` header fixes the seats and the dealer goes round
them all: a player who sits a deal out may still deal it, as the dealer of a five-hand
game does). A player who sits a deal out has no bid, no tricks and no score in it (``-``
in a compact row; the total may be written and carries over). An adjustment counts in the
total written in its deal. :class:`TableLines` reads a record's table lines once;
:func:`play_table_deal` scores a deal with a player out or a changed hand size under the
variant's rules for the players who play it (the bid range, the last bidder's hook, the
tricks adding up, each score by the variant's formula) and moves the game on. The checker
and the keeper both use it, so a kept sheet and its check agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Callable, NamedTuple, Sequence

from ..cards import Suit
from ..diagnostics import Severity
from ..engine import Game, IllegalAction, Phase, trump_rule_for
from ..engine.bidding import Bidding
from ..engine.plan import DealPlan
from ..engine.scoring import seat_score, set_bonuses
from ..i18n import tr
from ..lang.formula import FormulaEvalError
from .model import NUMBER, Event, Transcript

#: The kinds of the table's lines.
KINDS = ("late", "leave", "out", "adjust", "schedule")
#: The kinds that take a player out of a deal.
ABSENCE = ("late", "leave", "out")
#: The largest adjustment, either way (far above any total a game reaches; it keeps the totals
#: within what the variant's formulas are checked for, ``V015``).
MAX_ADJUST = 1_000_000_000


# ---------------------------------------------------------------------------- reading


class LineError(Exception):
    """A line that cannot be read: code, message, the word it is at (its index) and a hint."""

    def __init__(self, code: str, message: str, index: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.index, self.hint = code, message, index, hint



def read_table_line(seat: Callable[[list[str], int], int], words: list[str], line: int, col: int,
                    comment: str | None, arg: int) -> Event:
    """The event of a ``late``, ``leave``, ``out``, ``adjust`` or ``schedule`` line (``seat``
    reads a player's name at a word's index).

    :raises LineError: when the line is not one of ``late NAME``, ``leave NAME``, ``out NAME``,
        ``adjust NAME +N reason TEXT``, ``schedule cards K``.
    """
    kind = words[0].lower()
    if kind in ABSENCE:
        if len(words) != 2:
            raise LineError("T002", tr("'{kind}' takes one player", kind=kind), 0,
                            hint=tr("e.g. '{kind} Gleb'", kind=kind))
        return Event(kind, line, col, actor=seat(words, 1), comment=comment, arg_col=arg)
    if kind == "adjust":
        hint = tr("e.g. 'adjust Gleb -50 reason left the table'")
        if len(words) < 5 or words[3].lower() != "reason":
            raise LineError("T002", tr("'adjust' takes a player, the points and 'reason' with the reason"), 0,
                            hint=hint)
        if not NUMBER.fullmatch(words[2]):
            raise LineError("T004", tr("not a whole number: {word!r}", word=words[2]), 2)
        if abs(int(words[2])) > MAX_ADJUST:
            raise LineError("T004", tr("an adjustment is at most {limit:,} points either way", limit=MAX_ADJUST), 2)
        return Event("adjust", line, col, actor=seat(words, 1), number=int(words[2]), text=" ".join(words[4:]),
                     comment=comment, arg_col=arg)
    # schedule
    if len(words) != 3 or words[1].lower() != "cards":
        raise LineError("T002", tr("'schedule' takes 'cards' and the number of cards each in this deal"), 0,
                        hint=tr("e.g. 'schedule cards 5'"))
    if not NUMBER.fullmatch(words[2]):
        raise LineError("T004", tr("not a whole number: {word!r}", word=words[2]), 2)
    return Event("schedule", line, col, size=int(words[2]), comment=comment, arg_col=arg)


def table_args(e: Event, players: Sequence[str]) -> str:
    """The words of a table line after its keyword."""
    who = players[e.actor] if e.actor is not None and 0 <= e.actor < len(players) else ""
    if e.kind == "adjust":
        points = e.number or 0
        return f"{who} {'+' if points >= 0 else ''}{points} reason {e.text}"
    if e.kind == "schedule":
        return f"cards {e.size}"
    return who


def table_line(e: Event, players: Sequence[str]) -> str:
    """A table line as the writer writes it (without its comment)."""
    return f"{e.kind} {table_args(e, players)}"


def json_entry(e: Event, players: Sequence[str]) -> dict[str, Any]:
    """The JSON form's entry of a table line (its words in ``text``)."""
    return {"kind": e.kind, "line": e.line, "text": table_args(e, players)}


# ---------------------------------------------------------------------------- the record


class Finding(NamedTuple):
    """A problem found with the table's lines, at ``event`` (``seat``: the number of a score,
    total or settlement line it is about)."""

    code: str
    message: str
    event: Event | None
    hint: str | None = None
    seat: int | None = None
    severity: Severity = Severity.ERROR


@dataclass
class TableLines:
    """The table's lines of a record, by deal block (the blocks of :meth:`Transcript.deals`)."""

    names: tuple[str, ...]
    blocks: int
    out: dict[int, set[int]] = field(default_factory=dict)
    """Block -> the seats that sit it out (from ``out``, ``late`` and ``leave``)."""
    cards: dict[int, Event] = field(default_factory=dict)
    """Block -> its ``schedule`` line."""
    adjust: dict[int, list[Event]] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)
    """Lines that contradict each other (``R057``), found on reading."""

    @classmethod
    def of(cls, t: Transcript) -> TableLines | None:
        """The table's lines of ``t`` (None: it has none)."""
        if frozenset(KINDS).isdisjoint(map(_kind, t.events)):  # (in C: every record asks)
            return None
        blocks = t.deals()
        table = cls(t.players, len(blocks))
        late: dict[int, tuple[int, Event]] = {}
        leave: dict[int, tuple[int, Event]] = {}
        for i, block in enumerate(blocks):
            for e in block[1:]:
                if e.kind not in KINDS:
                    continue
                seat = e.actor
                if e.kind == "adjust":
                    table.adjust.setdefault(i, []).append(e)
                    table.problems += adjustment_problems(e, t.players)
                elif e.kind == "schedule":
                    if i in table.cards:
                        table.problems.append(Finding("R058", tr("deal {number} changes its number of cards twice",
                                                                 number=block[0].number), e))
                    table.cards[i] = e
                elif seat is None:
                    continue
                elif e.kind == "out":
                    table.out.setdefault(i, set()).add(seat)
                else:
                    seen = late if e.kind == "late" else leave
                    if seat in seen:
                        table.problems.append(Finding(
                            "R057", tr("{player} arrives late twice (first at line {line})", player=table.who(seat),
                                       line=seen[seat][1].line) if e.kind == "late" else
                            tr("{player} leaves twice (first at line {line})", player=table.who(seat),
                               line=seen[seat][1].line), e))
                        continue
                    seen[seat] = (i, e)
        for seat, (i, e) in late.items():
            if seat in table.out.get(i, ()):
                table.problems.append(Finding("R057", tr("{player} arrives for deal {number} but sits it out",
                                                         player=table.who(seat), number=blocks[i][0].number), e,
                                              hint=tr("write 'late' in the first deal the player plays")))
            if seat in leave and leave[seat][0] <= i:
                table.problems.append(Finding("R057", tr("{player} arrives after leaving", player=table.who(seat)), e))
            for k in range(i):
                table.out.setdefault(k, set()).add(seat)
        for seat, (i, e) in leave.items():
            for k in range(i, len(blocks)):
                table.out.setdefault(k, set()).add(seat)
        table.out = {k: v for k, v in table.out.items() if v}
        return table

    def who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "?"

    def short(self, block: int) -> bool:
        """Deal block ``block`` is not played by the whole table as the schedule has it: a
        player sits it out or its number of cards changed."""
        return block in self.out or block in self.cards

    def absent(self, block: int) -> frozenset[int]:
        """The seats that sit deal block ``block`` out."""
        return frozenset(self.out.get(block, ()))

    def size(self, block: int) -> int | None:
        """The number of cards deal block ``block`` is played with, when the table changed it."""
        e = self.cards.get(block)
        return e.size if e is not None else None

    def play(self, game: Game, block: int, events: Sequence[Event], level: str) -> list[Finding]:
        """Check short deal block ``block`` (its ``events``) and move the game on
        (:func:`play_table_deal`, after the block's adjustments)."""
        self.apply_adjustments(game, block)
        return play_table_deal(game, events, self.absent(block), self.size(block), self.names, level,
                               last=block == self.blocks - 1)

    def apply_adjustments(self, game: Game, block: int) -> None:
        """Add the adjustments of deal block ``block`` to the game's totals (at the start of
        the deal: they count in the total written in it)."""
        for e in self.adjust.get(block, ()):
            if e.actor is not None and 0 <= e.actor < game.players:
                game.take_total_as_written(e.actor, game.totals[e.actor] + (e.number or 0))


def adjustment_problems(e: Event, names: Sequence[str]) -> list[Finding]:
    """What is wrong with an ``adjust`` line by itself: it must change the total (``R057``)."""
    if e.number == 0:
        who = names[e.actor] if e.actor is not None and 0 <= e.actor < len(names) else "?"
        return [Finding("R057", tr("the adjustment of {player}'s total changes nothing (0 points)", player=who), e)]
    return []


_kind = itemgetter(0)  # an event's kind (its first field)


# ---------------------------------------------------------------------------- a short deal


@dataclass(frozen=True)
class ShortDeal:
    """The rules of a deal a player sits out or played with another number of cards, for the
    players who play it (worked out from the game at the start of the deal)."""

    number: int
    cards: int
    players: tuple[int, ...]
    """The seats that play, in bidding order."""
    lo: int
    hi: int
    plan: DealPlan
    """The deal's rules (the hook, the rule on the total of the bids, the dash limit)."""
    bids: bool
    """The players bid in this deal."""

    @classmethod
    def of(cls, game: Game, absent: frozenset[int], cards: int | None = None) -> ShortDeal:
        """The deal ``game`` is at, without the seats ``absent``, with ``cards`` each when given."""
        plan = game.deal_plan
        size = game.deal.cards if cards is None else cards
        lo, hi = plan.lo, plan.hi
        if cards is not None:  # the bids run to the new number of cards (or the variant's cap below it)
            hi = size if hi >= game.deal.cards else min(hi, size)
        order = tuple(s for s in game.bidding_order() if s not in absent)
        return cls(game.deal.number, size, order, lo, hi, plan, game.kind.bidding != "none")

    def bidding_after(self, made: Sequence[int | None]) -> Bidding:
        """The engine's bidding of the players who play, in their order, after ``made`` (by
        seat): the one place the bid range, the hook and the dash limit are judged."""
        b = Bidding(self.plan, len(self.players), 0)
        b.hold_to(self.cards, self.hi)
        for pos, s in enumerate(self.players):
            if made[s] is not None:
                b.take(pos, made[s] or 0)
        return b

    def choices(self, made: Sequence[int | None]) -> tuple[tuple[int, ...], int | None]:
        """The bids the next player in order may make, after ``made`` (by seat), and the one
        the hook strikes out."""
        b = self.bidding_after(made)
        return tuple(x for x in range(self.lo, self.hi + 1) if b.refusal(x) is None), b.forbidden()

    def refusal(self, bid: int, made: Sequence[int | None]) -> tuple[str, str, str | None] | None:
        """Why the next player may not bid ``bid`` after ``made`` (by seat): ``(code, message,
        hint)``, the engine's words (``R020``, ``R021``, ``R023``), or None."""
        problem = self.bidding_after(made).refusal(bid)
        return None if problem is None else (problem.code, problem.message, problem.hint)

    def took_problem(self, took: Sequence[int | None]) -> str | None:
        """Why the tricks (by seat) cannot be right (the engine's words for ``R053``), or None."""
        given = [took[s] for s in self.players]
        if any(t is None or t < 0 for t in given) or sum(t or 0 for t in given) != self.cards:
            return tr("tricks taken {taken} = {sum} do not add up to the {cards} cards of deal {number}",
                      taken=" + ".join("-" if t is None else str(t) for t in given),
                      sum=sum(t or 0 for t in given), cards=self.cards, number=self.number)
        return None


def size_problem(game: Game, absent: frozenset[int], cards: int | None) -> str | None:
    """Why a deal cannot be played so (``R057``: fewer than two players; ``R058``: a number of
    cards the pack cannot give), as ``code: message``; None when it can."""
    playing = game.players - len(absent)
    if playing < 2:
        return "R057:" + tr("only {count} of the players would play deal {number}: a deal needs two at least",
                            number=game.deal.number, count=playing)
    size = game.deal.cards if cards is None else cards
    if size < 1 or size * playing > game.table.size:
        return "R058:" + tr("deal {number} cannot be played with {cards} cards each: {count} players need {needs} "
                            "and the pack has {size}", number=game.deal.number, cards=size, count=playing,
                            needs=size * playing, size=game.table.size)
    return None


def start_short_deal(game: Game, trump: Suit | None) -> None:
    """Deal the short deal ``game`` is at without its cards: trump as the table gives it (a
    rule that fixes it wins)."""
    if game.phase is not Phase.DEAL:
        return
    rules, rule = trump_rule_for(game.variant, game.deal, game.players, game.table.size)
    if rule == "fixed":
        trump = rules.suit
    elif rule == "none":
        trump = None
    game.deal_unknown(trump=trump)


def short_scores(game: Game, deal: ShortDeal, bids: Sequence[int | None], took: Sequence[int]) -> list[int]:
    """Each seat's points for the short deal (0 for a seat that sits out), by the variant's
    formula with the deal's number of cards."""
    env = dict(game.deal_plan.env)
    env["cards"] = deal.cards
    made = sum(1 for s in deal.players if not deal.bids or bids[s] == took[s])
    points = [0] * game.players
    for s in deal.players:
        points[s] = seat_score(game.variant, game.kind, env, bid=bids[s] if deal.bids else None, taken=took[s],
                               total=game.totals[s], is_dealer=s == game.dealer, made_count=made)
    return points


def finish_short_deal(game: Game, points: Sequence[int]) -> None:
    """Score the short deal ``game`` is at with ``points`` and go on to the next deal. A deal
    played short does not count towards a set's premium; when it ends a set, the premium
    is worked out over the set's other deals."""
    deal, plan = game.deal, game.deal_plan
    last_of_set, env = plan.last_of_set, dict(plan.env)
    game.abandon_deal(list(points))
    if last_of_set and not game.is_over:
        bonus = set_bonuses(game.variant, deal, env, game.results, game.totals)
        for s, b in enumerate(bonus or ()):
            if b:
                game.take_total_as_written(s, game.totals[s] + b)


def play_table_deal(game: Game, block: Sequence[Event], absent: frozenset[int], cards: int | None,
                    names: Sequence[str], level: str = "sheet", last: bool = False) -> list[Finding]:
    """Check a deal block that a player sits out or that is played with ``cards`` each, for
    the players who play it, and move ``game`` on to the next deal with its scores; what is
    wrong, as findings (the checker reports them at their lines). The ``last`` block of a
    record may stop before its tricks: it is checked as far as it goes and left unfinished."""
    out: list[Finding] = []
    head = block[0]
    stops = last and not any(e.kind in ("took", "score", "total") for e in block)

    def who(s: int | None) -> str:
        return names[s] if s is not None and 0 <= s < len(names) else "?"

    g = game
    number = g.deal.number
    if head.number != number:
        out.append(Finding("R040", tr("deal {number} is written where deal {number2} comes next",
                                      number=head.number, number2=number), head))
    size = g.deal.cards if cards is None else cards
    if head.size is not None and head.size != size:
        out.append(Finding("R041", tr("deal {number} has {cards} cards each, not {size}",
                                      number=number, cards=size, size=head.size), head,
                           hint=tr("the table changed the number of cards: write 'schedule cards {size}' in the deal",
                                   size=head.size) if cards is None else None))
    if head.actor is not None and head.actor != g.dealer:
        out.append(Finding("R042", tr("{player} deals deal {number}, not {player2}",
                                      player=who(g.dealer), number=number, player2=who(head.actor)), head))
    bids: list[int | None] = [None] * g.players
    took: list[int | None] = [None] * g.players
    score: Event | None = None
    total: Event | None = None
    trump: Suit | None = None
    for e in block[1:]:
        if e.kind in ("bid", "took") and e.actor is not None and 0 <= e.actor < g.players:
            if e.actor in absent:
                out.append(Finding("R057", tr("{player} sits deal {number} out, but the deal gives {player}'s bid",
                                              player=who(e.actor), number=number) if e.kind == "bid" else
                                   tr("{player} sits deal {number} out, but the deal gives the tricks {player} took",
                                      player=who(e.actor), number=number), e,
                                   hint=tr("a player who sits a deal out has no bid, tricks or score in it ('-')")))
            elif e.kind == "bid":
                bids[e.actor] = e.number
            else:
                took[e.actor] = e.number
        elif e.kind == "call":
            out.append(Finding("R057", tr("deal {number} has an auction: it cannot be played with a player out or "
                                          "with another number of cards", number=number), e))
        elif e.kind == "score" and score is None:
            score = e
        elif e.kind == "total" and total is None:
            total = e
        elif e.kind == "trump" and e.actor is None:
            trump = None if e.no_trump else e.suit
    if level != "sheet" and any(e.kind in ("hand", "play") for e in block):
        out.append(Finding("T021", tr("deal {number} is not played by the whole table as scheduled: its cards are "
                                      "not checked, only its numbers", number=number), head,
                           severity=Severity.NOTE))
    problem = size_problem(g, absent, cards)
    if problem is not None:
        code, message = problem.split(":", 1)
        out.append(Finding(code, message, next((e for e in block if e.kind in KINDS), head)))
    points: list[int] | None = None
    gap: dict[int, int] = {}  # a score reported wrong: a total that adds it is the same mistake
    if problem is None and not any(f.code == "R057" and f.event is not None and f.event.kind == "call" for f in out):
        try:
            start_short_deal(g, trump)
        except IllegalAction as exc:  # pragma: no cover - a sheet deal is always dealt
            out.append(Finding(exc.diagnostics[0].code, exc.diagnostics[0].message, head))
        deal = ShortDeal.of(g, absent, cards)
        made: list[int | None] = [None] * g.players
        broken = set()
        for s in deal.players if deal.bids else ():
            line = next((e for e in block if e.kind == "bid" and e.actor == s), score or head)
            if bids[s] is None:
                if stops:
                    break  # the record stops during the bidding
                out.append(Finding("R001", tr("no bid is written for {player} in deal {number}", player=who(s),
                                              number=number), line))
                broken.add(s)
                bids[s] = 0
            else:
                refused = deal.refusal(bids[s] or 0, made)
                if refused is not None:
                    code, message, hint = refused
                    out.append(Finding(code, f"{who(s)} ({tr('deal {number}', number=number)}): {message}", line,
                                       hint=hint))
                    broken.add(s)
            made[s] = bids[s]
        if stops:
            return out
        if any(took[s] is None for s in deal.players):
            out.append(Finding("R053", tr("tricks taken are not written for every player in deal {number}",
                                          number=number), score or head))
        else:
            wrong = deal.took_problem(took)
            if wrong is not None:
                out.append(Finding("R053", wrong, score or head))
            else:
                try:
                    points = short_scores(g, deal, bids, [t or 0 for t in took])
                except FormulaEvalError as exc:  # (only a total outside what the loader tried)
                    out.append(Finding("F005", f"{tr('deal {number}', number=number)}: {exc.diagnostics[0].message}",
                                       score or head))
                    points = None
                if points is not None and score is not None:
                    for s, written in enumerate(score.amounts):
                        if written is None or s in broken:
                            continue
                        if s in absent:
                            if written != 0:
                                out.append(Finding("R057", tr("{player} sits deal {number} out and scores nothing in it, not {written}",
                                                              player=who(s), number=number, written=written),
                                                   score, seat=s))
                            continue
                        if written != points[s]:
                            gap[s] = written - points[s]
                            detail = tr("bid {bid}, took {taken}", bid=bids[s], taken=took[s]) if deal.bids \
                                else tr("took {taken}", taken=took[s])
                            out.append(Finding("R050", tr("{player} scores {actual} in deal {number} ({detail}), not {written}",
                                                          player=who(s), actual=points[s], number=number,
                                                          detail=detail, written=written), score, seat=s))
                    for s in broken:
                        if s < len(score.amounts) and score.amounts[s] is not None:
                            points[s] = score.amounts[s] or 0
    if points is None:  # the deal cannot be scored: its written points stand
        points = [a or 0 for a in score.amounts] if score is not None else [0] * g.players
    if g.phase is not Phase.OVER:
        finish_short_deal(g, points)
    if total is not None:
        for s, written in enumerate(total.amounts):
            if written is None or s >= g.players:
                continue
            true = g.totals[s]
            if written not in (true, true + gap.get(s, 0)):
                out.append(Finding("R051", tr("{player}'s total after deal {deal_number} is {true}, not {written}",
                                              player=who(s), deal_number=number, true=true, written=written),
                                   total, seat=s))
            if written != true:
                g.take_total_as_written(s, written)
    return out
