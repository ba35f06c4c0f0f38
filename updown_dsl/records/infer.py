"""Reading the cards nobody wrote down: the unknown cards (``??``) of a deal, inferred.

A record of the plays may miss a card or a whole trick. The cards each player did show
still prove most mistakes: a player who did not follow hearts and later plays a heart
revoked, whatever the missing cards were. :func:`read_unknown` finds the reading of the
missing cards that fits the record best: every way of giving them cards from those the
deal leaves unseen is replayed through the engine, and the one the record contradicts
least wins (first the rules broken, then the written tricks and scores that disagree).
The checker then walks the deal with that reading, so a mistake it reports is there
whatever the missing cards were, and nothing is reported that some reading explains.

There are no rules here: the engine judges each replay, as it judges the record.
"""

from __future__ import annotations

from itertools import permutations
from math import perm
from typing import Any, Iterable, NamedTuple, Sequence

from ..actions import Bid, Call, ChooseTrump, Play
from ..cards import Card
from ..engine import Game, IllegalAction, Phase

# A reading the record cannot be followed under (a wrong leader, a card the player
# cannot have): worse than any number of broken rules.
_LOST = 1000
# Readings tried at most for one deal (a replay costs 60 to 150 µs: a deal's readings take
# at most about a second); a deal with more ways to read it is left unchecked, and says so.
READINGS = 8_000
#: Readings tried at most for one record, over all its deals (the budget: a deal after it is
#: spent is left unchecked with a note that says so).
RECORD_READINGS = 12_000
# Readings put in order at most, when only the last trick is unknown.
_ENUMERATED = 100_000


class Step(NamedTuple):
    """One action of the deal as written: who, and what (None: an unknown card)."""

    actor: int | None
    action: Bid | Call | ChooseTrump | Play | None


Cost = tuple[int, int, int]
"""What a reading costs: rules broken, numbers contradicted, totals that do not add up."""


class Reading(NamedTuple):
    """The unknown cards read: the hands with them filled in, and each unknown play."""

    hands: list[list[Card]]
    plays: tuple[Play, ...]
    """The plays of the unknown steps, in order (a wild card with its declaration)."""
    cost: Cost
    """Rules broken (or the record lost) under this reading, written tricks and scores it
    contradicts, and totals that do not add its scores."""
    readings: int
    """How many readings there are (the ways of giving the unknown cards cards of the pool)."""


def read_unknown(game: Game, hands: Sequence[Sequence[Card | None]], pool: Sequence[Card],
                 steps: Sequence[Step], deal: dict[str, Any], took: dict[int, int],
                 scores: Sequence[int | None], limit: int = READINGS, added: Sequence[int | None] = ()
                 ) -> Reading | None:
    """The reading of the unknown cards (``None`` in ``hands``) that fits the record best.

    ``game`` stands before the deal (it is not changed); ``pool`` holds the cards the
    unknown ones may be; ``steps`` are the deal's actions in order; ``deal`` the other
    arguments of :meth:`~updown_dsl.engine.Game.deal_cards`; ``took`` and ``scores`` what
    the record writes after the deal, ``added`` what its totals add to the totals written
    before (of two readings that fit as well, the one the totals agree with wins). None
    when there are more than ``limit`` readings or none the record can be followed under.
    """
    slots = [(s, j) for s, cards in enumerate(hands) for j, c in enumerate(cards) if c is None]
    if not slots:
        return None
    ways = perm(len(pool), len(slots))
    order: Iterable[tuple[Card, ...]]
    exact = None
    if ways <= limit:
        order = permutations(pool, len(slots))
    elif _last_trick_only(steps, len(hands)) and ways <= _ENUMERATED and len(slots) * len(pool) <= limit:
        # Every unknown card is in the last trick, each its player's last: it breaks no rule
        # itself, and the rules its holder broke earlier depend on it alone. So the rules a
        # reading breaks add up player by player, and readings tried in order of that sum
        # are done once the sum passes the best reading's.
        own = [[_broken_by(game, hands, slots, i, c, pool, steps, deal) for c in pool]
               for i in range(len(slots))]
        index = {c: k for k, c in enumerate(pool)}
        exact = {combo: sum(own[i][index[c]] for i, c in enumerate(combo))
                 for combo in permutations(pool, len(slots))}
        order = sorted(exact, key=exact.__getitem__)
    else:
        return None
    best: Reading | None = None
    tried = 0
    for combo in order:
        if exact is not None and (tried >= limit or (best is not None and exact[combo] > best.cost[0])):
            break
        tried += 1
        filled, queue = _filled(hands, slots, combo)
        bound = best.cost[0] if best is not None else _LOST
        result = _replay(game, filled, steps, deal, took, scores, queue, bound, added=added)
        if result is None:
            continue
        cost, plays = result
        if best is None or cost < best.cost:
            best = Reading(filled, plays, cost, tried)
            if cost == (0, 0, 0) or (exact is not None and cost[1:] == (0, 0)):
                break  # (in order of the rules broken, no later reading does better)
    return best._replace(readings=ways) if best is not None else None


def _filled(hands: Sequence[Sequence[Card | None]], slots: list[tuple[int, int]], cards: Sequence[Card]
            ) -> tuple[list[list[Any]], dict[int, list[Card]]]:
    """The hands with the unknown slots given ``cards``, and each player's unknown plays'
    cards in the order the player played them."""
    filled: list[list[Any]] = [list(h) for h in hands]
    for (s, j), card in zip(slots, cards):
        filled[s][j] = card
    return filled, {s: [filled[s][j] for (t, j) in slots if t == s] for s in {t for t, _ in slots}}


def _last_trick_only(steps: Sequence[Step], players: int) -> bool:
    """Whether every unknown card of the deal is played in its last trick."""
    plays = [st for st in steps if st.action is None or isinstance(st.action, Play)]
    return all(st.action is not None for st in plays[:-players])


def _broken_by(game: Game, hands: Sequence[Sequence[Card | None]], slots: list[tuple[int, int]], i: int,
               card: Card, pool: Sequence[Card], steps: Sequence[Step], deal: dict[str, Any]) -> int:
    """The rules slot ``i``'s player breaks when its unknown card is ``card`` (the other
    unknown cards given any other cards of the pool: they change nothing for this player)."""
    others = iter(c for c in pool if c is not card)
    filled, queue = _filled(hands, slots, [card if k == i else next(others) for k in range(len(slots))])
    result = _replay(game, filled, steps, deal, {}, (), queue, _LOST, who=slots[i][0])
    return _LOST if result is None else result[0][0]


def _replay(game: Game, hands: list[list[Card]], steps: Sequence[Step], deal: dict[str, Any],
            took: dict[int, int], scores: Sequence[int | None], queue: dict[int, list[Card]],
            bound: int, who: int | None = None, added: Sequence[int | None] = ()
            ) -> tuple[Cost, tuple[Play, ...]] | None:
    g = game.clone()
    try:
        g.deal_cards(hands, **deal)
    except IllegalAction:
        return None
    start = len(g.results)
    return _go_on(g, steps, 0, 0, (), queue, took, scores, start, bound, who, added)


def _go_on(g: Game, steps: Sequence[Step], k: int, broken: int, plays: tuple[Play, ...],
           queue: dict[int, list[Card]], took: dict[int, int], scores: Sequence[int | None],
           start: int, bound: int, who: int | None = None, added: Sequence[int | None] = (),
           misled: int = -1) -> tuple[Cost, tuple[Play, ...]] | None:
    """Replay ``steps[k:]``; branch where an unknown card could be played in several ways.
    None: the reading is impossible, or breaks more rules than ``bound``. ``who``: count
    only the rules that seat breaks. A trick led by another player than the rules say is
    one rule broken and goes on as written (``misled``: the last such trick); what the
    others had to play in it follows from that lead, so its cards break none."""
    while k < len(steps):
        if broken > bound:
            return None
        actor, action = steps[k]
        k += 1
        if len(g.results) > start or g.is_over:
            break  # (the deal is over: what follows is the record's business)
        if actor != g.to_act:
            if k < len(steps) and steps[k].actor == g.to_act and steps[k].actor is not None:
                # (two lines the wrong way round: the checker takes them in the rules' order,
                # and reports them, so a reading that needs it breaks one rule)
                steps = [*steps[:k - 1], steps[k], steps[k - 1], *steps[k + 1:]]
                k -= 1
                broken += who is None or actor == who
                continue
            if actor is None or g.phase is not Phase.PLAY or g.trick or not g.tricks or not g.lead_as_written(actor):
                return (broken + _LOST, 0, 0), plays
            broken += who is None or actor == who
            misled = len(g.tricks)
        if action is None:
            card = queue[actor].pop(0)
            options = [p for p in g.legal_actions() if isinstance(p, Play) and p.card == card]
            if not options and misled == len(g.tricks) and g.play_as_written(Play(card)):
                plays += (Play(card),)
                continue
            if not options:
                return None  # the unknown card would break a rule: read it otherwise
            if len(options) == 1:
                g.apply(options[0])
                plays += (options[0],)
                continue
            best = None
            for option in options:
                branch = g.clone()
                branch.apply(option)
                result = _go_on(branch, steps, k, broken, plays + (option,),
                                {s: list(q) for s, q in queue.items()}, took, scores, start, bound, who, added,
                                misled)
                if result is not None and (best is None or result[0] < best[0]):
                    best = result
            return best
        try:
            g.apply(action)
        except IllegalAction as exc:
            code = exc.diagnostics[0].code
            if not (isinstance(action, Play) and misled == len(g.tricks)):
                broken += who is None or actor == who
            if g.take_as_written(action, code):
                continue
            return (broken + _LOST, 0, 0), plays
    return (broken, *_disagreements(g, start, took, scores, added)), plays


def _disagreements(g: Game, start: int, took: dict[int, int], scores: Sequence[int | None],
                   added: Sequence[int | None]) -> tuple[int, int]:
    """Written tricks and scores of the deal that this reading does not give, and totals
    that do not add its score."""
    done = [r for r in g.results[start:] if r.event == "deal"]
    if not done:
        return 0, 0
    seats = done[0].seats
    wrong = sum(1 for s, n in took.items() if seats[s].taken != n)
    wrong += sum(1 for s, n in enumerate(scores) if n is not None and seats[s].points + seats[s].bonus != n)
    return wrong, sum(1 for s, n in enumerate(added) if n is not None and seats[s].points + seats[s].bonus != n)


__all__ = ["READINGS", "RECORD_READINGS", "Reading", "Step", "read_unknown"]
