"""Bots: players that choose an action from a :class:`~updown_dsl.engine.view.SeatView`.

A bot never sees the game, only its seat's view, so it cannot read another
hand. ``random`` picks a uniformly random legal action; ``heuristic`` bids and
plays for the best expected score under the variant's own scoring formula, from
a rough chance for each card in hand to take a trick; ``search`` looks ahead over guessed
deals (:mod:`.search`), bidding as the heuristic (see ``docs/bots.md``); ``exec:COMMAND`` is
another program, asked over the engine protocol (:mod:`.execbot`, ``docs/protocol.md``).
"""

from __future__ import annotations

import random
from typing import Callable, Iterable, Protocol, Sequence

from ..actions import Action, Bid, ChooseTrump, Play
from ..cards import Card, Suit
from ..engine import Phase, seat_by_rule
from ..i18n import tr
from ..engine.scoring import seat_score
from ..engine.tables import SUIT_ID
from ..lang.variant import Deal, DealKind, Variant
from ..engine.view import SeatView
from .calling import choose_call
from .dominance import first_keeping, keeping_chances
from .execbot import ExecBot, command_problem
from .knowledge import Knowledge
from .search import DEFAULT_LEVEL, LEVELS, SearchBot


class Bot(Protocol):
    """Anything that picks a legal action from a seat's view."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The action to take (one of ``view.legal``)."""
        ...


class RandomBot:
    """A uniformly random legal action."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def act(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)


#: Share of the probability of missing a bid by one trick (one over, one under) that careful
#: play turns into a made bid: the trick distribution is sharpened towards the target.
_STEER_OVER = 0.35
_STEER_UNDER = 0.1


def _forehead_chance(view: SeatView) -> float:
    """One card each, the own one unseen: the share of the cards it may be that would take the
    trick against the cards the others hold up (plain ranks: a wild card's powers are left out)."""
    table = view.table
    held = {s: h[0] for s, h in enumerate(view.seen_hands) if h}
    shown = set(held.values()) | ({view.turned} if view.turned is not None else set())
    maybe = [c for c in table.cards if c not in shown]
    if not maybe:
        return 0.0
    first = seat_by_rule(view.variant.play.first_leader, view.dealer, view.players,
                         seat_by_rule(view.variant.bidding.first_bidder, view.dealer, view.players))
    trump = view.trump

    def strength(card: Card, led: Suit | None) -> int:
        if card.suit is None or card.rank is None:
            return 0
        return (200 if card.suit == trump else 100 if card.suit == led else 0) + card.rank.order

    wins = 0
    for c in maybe:
        cards = {**held, view.seat: c}
        led = cards[first].suit if first in cards else c.suit
        mine = strength(c, led)
        wins += all(mine > strength(x, led) for s, x in cards.items() if s != view.seat)
    return wins / len(maybe)


def _distribution(ps: Sequence[float]) -> list[float]:
    """Poisson-binomial: chance of each number of successes of independent events."""
    dist = [1.0]
    for p in ps:
        nxt = [0.0] * (len(dist) + 1)
        q = 1.0 - p
        for k, x in enumerate(dist):
            nxt[k] += x * q
            nxt[k + 1] += x * p
        dist = nxt
    return dist


#: A card at least this likely to take a trick is a sure trick: no care in play can lose it.
_SURE = 0.999


def _rest(values: Iterable[float]) -> tuple[int, list[float]]:
    """The sure tricks among the chances of the rest of the hand, and the distribution of the
    others: only the uncertain cards can be steered towards the bid."""
    sure, ps = 0, []
    for p in values:
        if p >= _SURE:
            sure += 1
        else:
            ps.append(p)
    return sure, _distribution(ps)


def _bounded(points: int) -> float:
    """``points`` as a float that cannot overflow (a score past 1e300 counts as 1e300: only the
    order of the bids' expected scores matters, and a loaded variant's stay far below)."""
    return float(max(-_HUGE, min(_HUGE, points)))


_HUGE = 10**300


def _steer(dist: list[float], target: int) -> list[float]:
    """Move part of the one-off mass next to ``target`` onto it (the player's control)."""
    if not 0 <= target < len(dist):
        return dist
    out = list(dist)
    if target + 1 < len(out):
        moved = out[target + 1] * _STEER_OVER
        out[target + 1] -= moved
        out[target] += moved
    if target - 1 >= 0:
        moved = out[target - 1] * _STEER_UNDER
        out[target - 1] -= moved
        out[target] += moved
    return out


class HeuristicBot:
    """Bids and plays for the best expected score of the deal.

    Each card in hand gets a chance to take a trick (from the unseen cards higher than it,
    the chance that an opponent is void and can trump, jokers still out, and what the
    play so far showed); the hand's trick count is then a Poisson-binomial distribution.
    The bid is the legal bid with the best expected score under the variant's formula,
    and each card is chosen the same way: the chance that it takes this trick plus the
    distribution of the tricks the rest of the hand will take. Jokers that may play high
    or low count as tricks taken or not at will.
    """

    name = "heuristic"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self._score_key: tuple[object, ...] | None = None
        self._scores: dict[tuple[int | None, int], int] = {}
        self._env: dict[str, int] = {}
        self._kind: DealKind | None = None

    def act(self, view: SeatView) -> Action:
        if view.phase is Phase.BID:
            return self.bid(view)
        if view.phase is Phase.AUCTION:
            return choose_call(view)
        if view.phase is Phase.TRUMP:
            return self.trump(view)
        return self.play(view)

    # -- scoring -------------------------------------------------------------------------------
    def score(self, view: SeatView, bid: int | None, taken: int) -> int:
        """Points this seat would score in this deal with ``bid`` and ``taken`` tricks."""
        key = (id(view.variant), view.players, view.deal.number, view.totals[view.seat],
               view.seat == view.dealer)
        if key != self._score_key:
            self._score_key = key
            self._scores = {}
            self._env = dict(view.deal_env)
            self._kind = view.variant.kinds[view.deal.kind]
        hit = self._scores.get((bid, taken))
        if hit is None:
            assert self._kind is not None
            hit = self._scores[(bid, taken)] = seat_score(
                view.variant, self._kind, self._env, bid=bid, taken=taken,
                total=view.totals[view.seat], is_dealer=view.seat == view.dealer)
        return hit

    def expected(self, view: SeatView, bid: int | None, taken: int, dist: Sequence[float],
                 flexible: int) -> float:
        """Expected score when ``taken`` plus a number of tricks drawn from ``dist`` are taken,
        with ``flexible`` jokers that add 0..flexible tricks at the best choice."""
        if bid is not None:
            dist = _steer(list(dist), bid - taken)
        total = 0.0
        for k, p in enumerate(dist):
            if p <= 0.0:
                continue
            best = self.score(view, bid, taken + k)
            for extra in range(1, flexible + 1):
                best = max(best, self.score(view, bid, taken + k + extra))
            total += p * _bounded(best)
        return total

    # -- bidding -------------------------------------------------------------------------------
    def chances(self, view: SeatView, know: Knowledge | None = None) -> tuple[list[float], int]:
        """Each card's chance to take a trick (flexible jokers apart) and the flexible jokers."""
        if not view.hand:  # blind, or the own cards held to the forehead: none seen
            if view.deal.cards == 1 and any(h for h in view.seen_hands):
                return [_forehead_chance(view)], 0
            return [1.0 / view.players] * view.deal.cards, 0
        know = know or Knowledge(view)
        first = seat_by_rule(view.variant.play.first_leader, view.dealer, view.players,
                             seat_by_rule(view.variant.bidding.first_bidder, view.dealer, view.players))
        leader = view.trick[0].seat if view.trick else (first if not view.tricks else view.tricks[-1].winner)
        ps, flex = [], 0
        for i in know.hand:
            if know.flexible(i) and know.value(i, leader == view.seat) > 0.9:
                flex += 1
            else:
                ps.append(know.value(i, leader == view.seat))
        return ps, flex

    def bid(self, view: SeatView) -> Action:
        legal = [a for a in view.legal if isinstance(a, Bid)]
        # A bid the hand cannot make in any world (below its sure trumps) is never the choice
        # while another bid can be made: the hook may leave only such bids and bids above.
        legal = keeping_chances(view, legal)
        ps, flex = self.chances(view)
        # Sure tricks count as taken, as in play: careful play steers only the uncertain cards
        # towards the bid (steering them all would make a bid below the sure tricks look
        # makeable: the hooked dealer bidding 0 with the ace of trumps).
        sure, dist = _rest(ps)
        mean = sum(ps) + flex / 2
        return max(legal, key=lambda b: (round(self.expected(view, b.tricks, sure, dist, flex), 6),
                                          -abs(b.tricks - mean)))

    def trump(self, view: SeatView) -> Action:
        strength: dict[Suit, float] = {s: 0.0 for s in Suit}
        for c in view.hand:
            if c.suit is not None and not _is_joker(view, c):
                strength[c.suit] += 1 + (c.rank.order - 8) / 6  # type: ignore[union-attr]
        best = max(Suit, key=lambda s: strength[s])
        options = [a for a in view.legal if isinstance(a, ChooseTrump)]
        if strength[best] < 1.5 and any(a.suit is None for a in options):
            return ChooseTrump(None)
        return ChooseTrump(best)

    # -- play ----------------------------------------------------------------------------------
    def play(self, view: SeatView) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if len(plays) == 1:
            return plays[0]
        know = Knowledge(view)
        t = know.t
        bid = view.bids[view.seat] if view.deal_kind_bidding != "none" else None
        taken = view.taken[view.seat]
        leading = not view.trick
        led = -1 if leading else _led_suit(know, view)
        later = know.later(len(view.trick))
        leader_now = view.seat if leading else view.trick[0].seat
        values = {i: know.value(i, leader_now == view.seat) for i in know.hand}
        flexible = {i for i in know.hand if know.flexible(i) and values[i] > 0.9}
        want_more = bid is None or bid - taken > 0
        # a card that loses leaves the trick to the seat winning it now, if no later seat beats it
        gift = self._gift(view, know, led, later) if not leading else 0.0
        keys: dict[Play, tuple[float, ...]] = {}
        rest_cache: dict[int, tuple[int, list[float]]] = {}
        for p in plays:
            i = t.index[p.card]
            if leading or p in view.winning_plays:
                win = know.holds(p, led, later)
            else:
                win = 0.0
            hit = rest_cache.get(i)
            if hit is None:
                hit = rest_cache[i] = _rest(values[k] for k in know.hand if k != i and k not in flexible)
            sure, dist = hit
            flex = len(flexible) - (i in flexible)
            # sure tricks count as taken: steering (careful play) moves only the uncertain ones
            ev = (1.0 - win) * self.expected(view, bid, taken + sure, dist, flex)
            if win > 0.0:
                ev += win * self.expected(view, bid, taken + sure + 1, dist, flex)
            ev -= _SPITE * (1.0 - win) * gift
            keys[p] = (round(ev, 6), *self._tiebreak(know, p, values[i], want_more))
        # never a card after which the bid cannot be made while another card keeps a chance
        return first_keeping(view, sorted(plays, key=keys.__getitem__, reverse=True))

    def _gift(self, view: SeatView, know: Knowledge, led: int, later: Sequence[int]) -> float:
        """What the trick is worth to the opponent now winning it (ordinary cards only): a seat
        still short of its bid gains, one holding its bid is put over."""
        w = _current_winner(know, view)
        bid = None if w is None else view.bids[w]
        if w is None or bid is None:
            return 0.0
        keep = 1.0
        if later:
            card = next(tp.play for tp in view.trick if tp.seat == w)
            keep = know.holds(card, led, later)
        b, got = bid, view.taken[w]
        r = len(view.hand) - 1  # tricks left after this one
        kind = view.variant.kinds[view.deal.kind]
        env = dict(view.deal_env)

        def sc(t: int) -> int:
            return seat_score(view.variant, kind, env, bid=b, taken=t, total=view.totals[w],
                              is_dealer=w == view.dealer)

        def value(need: int, have: int) -> float:
            if need < 0 or need > r:
                miss = have + (0 if need < 0 else r)
                return float(sc(miss))
            p = 0.9 ** r if need == 0 else 0.6 ** need if need == r else 0.55
            return p * sc(b) + (1.0 - p) * sc(b + 1 if need == 0 else max(0, b - 1))
        need = b - got
        return keep * (value(need - 1, got + 1) - value(need, got))

    def _tiebreak(self, know: Knowledge, p: Play, value: float, want_more: bool) -> tuple[float, ...]:
        """Among plays of equal value: keep jokers, then shed high cards when ducking, low ones
        when still short of the bid; name a suit that helps the rest of the hand."""
        t = know.t
        i = t.index[p.card]
        plain = 1.0 if p.declare is None else 0.0
        rank = t.rank_of[i] + (20 if t.suit_of[i] == know.trump and know.trump >= 0 else 0)
        suit_bonus = 0.0
        if p.suit is not None:
            s = SUIT_ID[p.suit]
            mine = [k for k in know.hand if t.suit_of[k] == s]
            if p.declare == "demand":
                # pull the others' high cards of a suit where this hand has cards to promote
                suit_bonus = len(mine) + (0.5 if s == know.trump else 0.0)
            else:
                suit_bonus = -len(mine) + (0.5 if s == know.trump else 0.0)
        return (plain, suit_bonus, -rank if want_more else rank)


#: Weight of what a trick is worth to the opponent it would go to, against this seat's own
#: expected score (measured: 0.3 and 0.5 beat 0 and 1.0 head to head).
_SPITE = 0.5


def _current_winner(know: Knowledge, view: SeatView) -> int | None:
    """The seat winning the trick so far when it holds only ordinary cards played plainly."""
    t = know.t
    for tp in view.trick:
        i = t.index.get(tp.play.card)
        if i is None or tp.play.declare is not None or t.suit_of[i] < 0 or t.wild_of[i] is not None:
            return None
    return view.trick_winner


def _led_suit(know: Knowledge, view: SeatView) -> int:
    t = know.t
    first = view.trick[0].play
    i = t.index[first.card]
    if first.declare is None:
        return t.suit_of[i]
    if first.declare == "as" and first.as_card is not None:
        return SUIT_ID[first.as_card.suit]  # type: ignore[index]
    if first.suit is not None:
        return SUIT_ID[first.suit]
    for tp in view.trick[1:]:
        if tp.play.declare is None and t.suit_of[t.index[tp.play.card]] >= 0:
            return t.suit_of[t.index[tp.play.card]]
    return -1


def _is_joker(view: SeatView, card: Card) -> bool:
    return card.is_joker or card in view.variant.deck.designated_jokers


def _search_bot(rng: random.Random | None = None, level: int | None = None, budget: float | None = None) -> Bot:
    """The search bot (its default level unless given), bidding as the heuristic does where
    no guess fits the plays seen."""
    rng = rng or random.Random()
    return SearchBot(rng, level or DEFAULT_LEVEL, budget, bidder=HeuristicBot(rng))


BOTS: dict[str, Callable[[random.Random | None], Bot]] = {
    "random": RandomBot, "heuristic": HeuristicBot, "search": _search_bot}
"""Bot kinds by name: each makes a bot from an optional random generator."""


#: The prefix of a bot that is another program: ``exec:COMMAND`` (see :mod:`.execbot`).
EXEC = "exec"


def bot_problem(kind: str) -> str | None:
    """Why ``kind`` names no bot (None when it does): a name of :data:`BOTS`,
    ``search:LEVEL`` (1 to 5) or ``search:LEVEL:SECONDS`` (a CPU budget per move), or
    ``exec:COMMAND`` (a program that speaks the engine protocol, ``docs/protocol.md``)."""
    name, _, rest = kind.partition(":")
    if name == EXEC:
        return command_problem(rest)
    if name not in BOTS:
        return tr("no bot named {bot!r} (bots: {items})", bot=kind,
                  items=", ".join([*BOTS, "search:LEVEL", "search:LEVEL:SECONDS", "exec:COMMAND"]))
    if not rest:
        return None
    if name != "search":
        return tr("only the search bot takes a level: {bot!r}", bot=kind)
    level, _, budget = rest.partition(":")
    if level not in {str(k) for k in LEVELS}:
        return tr("search levels are {items}, not {level!r}", items=", ".join(map(str, LEVELS)), level=level)
    if budget:
        try:
            seconds = float(budget)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds < 3600:
            return tr("a search budget is CPU seconds per move (such as 0.5), not {budget!r}", budget=budget)
    return None


def make_bot(kind: str, rng: random.Random | None = None) -> Bot:
    """A bot by name: ``random``, ``heuristic``, ``search``, ``search:LEVEL``,
    ``search:LEVEL:SECONDS`` or ``exec:COMMAND`` (see :func:`bot_problem`; an external program,
    with the heuristic bot playing the decisions it forfeits).

    :raises ValueError: for another name.
    """
    problem = bot_problem(kind)
    if problem is not None:
        raise ValueError(problem)
    name, _, rest = kind.partition(":")
    if name == EXEC:
        return ExecBot(rest, HeuristicBot(rng))
    if rest:
        level, _, budget = rest.partition(":")
        return _search_bot(rng, int(level), float(budget) if budget else None)
    return BOTS[name](rng)
