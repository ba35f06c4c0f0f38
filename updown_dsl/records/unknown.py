"""The audit's part for the cards a record leaves unknown: hands taken from the plays, and
the unknown cards read as those that fit the record best (:mod:`~updown_dsl.records.infer`).

:class:`~updown_dsl.records.checker.Audit` is made of this part and the others in
:mod:`~updown_dsl.records.audit` and :mod:`~updown_dsl.records.penalty`.
"""

from __future__ import annotations

from math import perm

from ..i18n import tr
from ..actions import ChooseTrump
from ..cards import Card, Suit
from ..diagnostics import Severity
from ..engine.bidding import bid_of
from . import infer
from .audit import _Record
from .infer import Step, read_unknown
from .model import Event


class _Unknowns(_Record):
    """A deal's unknown cards: known from the plays, or read."""

    def hands_from_plays(self, events: list[Event]) -> None:
        """A full record with unknown cards in its hands: when every card of the deal is
        played and the plays hold the cards the hands show, the hands are the plays (as at
        the plays level), so the unknown cards are known, or read."""
        g = self.game
        plays = [e for e in events if e.kind == "play" and e.actor is not None and e not in self.taken_back]
        by_seat: dict[int, list[Event]] = {s: [e for e in plays if e.actor == s] for s in range(g.players)}
        if any(len(by_seat[s]) != g.deal.cards or s not in self.hands for s in range(g.players)):
            return  # not every card is played: the deal stays unchecked
        seen: dict[Card, Event] = {}
        rebuilt: dict[int, list[Card | None]] = {}
        for s, mine in by_seat.items():
            cards: list[Card | None] = []
            for e in mine:
                c = e.play.card if e.play is not None else None
                if c is not None and (c not in g.table.index or c in seen):
                    self.report("R044" if c not in g.table.index else "R043",
                                tr("{c} is not in the {size}-card pack",
                                   c=c, size=g.table.size) if c not in g.table.index else tr("{c} appears twice in deal {number} (first at line {line})", c=c, number=g.deal.number, line=seen[c].line), e)
                    self.as_unknown.add(e)
                    c = None
                if c is not None:
                    seen[c] = e
                cards.append(c)
            held = [c for c in self.hands[s] if c is not None]
            if any(c not in cards for c in held):
                return  # a card of the hand is never played: the record does not add up
            rebuilt[s] = cards
        self.hands = rebuilt
        self.hands_played = True

    def read_unknown_cards(self, at: Event, turned: Card | None, cut: Card | None, trump: Suit | None) -> bool:
        """Fill in the unknown cards of a deal of plays with the reading that fits the record
        best (:mod:`~updown_dsl.records.infer`); False when it cannot be read."""
        g = self.game
        self.unread = ""
        if any(e.kind in ("penalty", "replay") for e in self.block):
            return False
        hands = [list(self.hands.get(s, ())) for s in range(g.players)]
        if self.trump_rule == "last_dealt" and turned is not None:
            own = hands[g.dealer]
            if turned not in own:
                return False  # reported as R046 once the deal is dealt
            own.remove(turned)
            own.append(turned)
        known = {c for cards in hands for c in cards if c is not None}
        if self.trump_rule == "turned" and turned is not None:
            known.add(turned)
        pool = [c for c in g.table.cards if c not in known]
        start = self.block.index(at) if at in self.block else 1
        unknown_steps: list[Event] = []
        steps: list[Step] = []
        for e in self.block[start:]:
            if e.kind == "play" and e not in self.taken_back:
                if e.play is None or e in self.as_unknown:
                    unknown_steps.append(e)
                    steps.append(Step(e.actor, None))
                else:
                    steps.append(Step(e.actor, e.play))
            elif e.kind == "bid":
                steps.append(Step(e.actor, bid_of(e.number or 0)))
            elif e.kind == "call":
                steps.append(Step(e.actor, e.as_call()))
            elif e.kind == "trump" and e.actor is not None:
                steps.append(Step(e.actor, ChooseTrump(None if e.no_trump else e.suit)))
        score = next((e.amounts for e in self.block if e.kind == "score"), ())
        ways = perm(len(pool), len(unknown_steps))
        if self.readings_left < 0:  # (first use in this record)
            self.readings_left = infer.RECORD_READINGS
        limit = min(infer.READINGS, self.readings_left)
        reading = read_unknown(g, hands, pool, steps, dict(turned=turned, cut_card=cut, random_trump=trump,
                               recorded_trump=trump), self.took, score, limit=limit)
        self.readings_left -= min(ways, limit)
        if reading is None:
            self.unread = (tr("; no reading of them fits the record") if ways <= limit else
                           tr("; there are {ways} ways to read them, too many to try", ways=ways)
                           if limit == infer.READINGS else tr("; the record has too many unknown cards to read them all"))
            return False
        self.hands = {s: list[Card | None](h) for s, h in enumerate(reading.hands)}
        self.inferred = dict(zip(unknown_steps, reading.plays))
        many = len(unknown_steps) > 1
        cards = " ".join(str(p.card) for p in reading.plays)
        fits = (tr("a reading that fits the record") if reading.cost == (0, 0) else
                tr("the reading that fits the record best of the {n} there are", n=reading.readings))
        bad = sum(e in self.as_unknown for e in unknown_steps)
        what = ((tr("unknown cards (??)") if many else tr("unknown card (??)")) if not bad else
                (tr("cards that cannot be") if many else tr("card that cannot be")) if bad == len(unknown_steps)
                else tr("unknown or impossible cards") if many else tr("unknown or impossible card"))
        self.report("T021", tr("deal {number} holds {count} {what}: checked with {value} read as {cards}, {fits}",
                               number=g.deal.number, count=len(unknown_steps), what=what, value=tr("them") if many else tr("it"), cards=cards, fits=fits), unknown_steps[0], severity=Severity.NOTE)
        return True

