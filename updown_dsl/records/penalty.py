"""The audit's part for an illegal card: its evidence, and the penalty a table takes for it.

A revoke caught at the table is written as it happened: the card as played, then
``penalty NAME N CODE``; then, as the variant's ``penalties.revoke.then`` says, ``replay``
and the deal dealt again, the deal going on (the card taken back), or the deal's scores as
the table decided them. An illegal card no penalty line follows is reported, and the deal
goes on with it played. :class:`~updown_dsl.records.checker.Audit` is made of this part and
the others in :mod:`~updown_dsl.records.audit`.
"""

from __future__ import annotations

from typing import Any

from ..i18n import tr
from ..diagnostics import CATALOGUE, Diagnostic
from ..engine import Phase
from ..engine.tables import SUITS
from .audit import _Record, _Stop
from .model import Event


class _Penalties(_Record):
    """Illegal cards: what shows them, and the penalty lines that follow them."""

    def settle_pending(self) -> None:
        """An illegal card no penalty line follows: report it, and go on with it played."""
        assert self.pending is not None
        e, problem = self.pending
        self.report_pending()
        self.violated = True
        if e.play is None or not self.game.take_as_written(e.play, problem.code):
            raise _Stop

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

    def report_pending(self) -> None:
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
            raise _Stop
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
            raise _Stop
        points = g.revoke(e.actor if e.actor is not None else 0, code, None, self.decided_scores(e))
        if e.number != points:
            self.report("R055", tr("the penalty for {code} is {points}, not {number}",
                                   code=code, points=points, number=e.number), e)
        self.penalized = rules.replay

    def replay(self, e: Event) -> None:
        if not self.penalized:
            self.report("R055", tr("'replay' without a penalty that annuls the deal"), e)
        self.penalized = False
        self.replayed = True

