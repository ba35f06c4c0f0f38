"""Dominated decisions: a legal action that misses the bid in every world the seat's view
allows, where another legal action keeps a chance to make it.

A *world* is a filling of the cards the seat cannot see (the other hands, consistent with
its view: :class:`~.sampling.Sampler`), rebuilt at the view's position by
:class:`~updown_dsl.engine.worlds.Worlds`. An action is a **certain miss** when, in every
world and whatever every seat (this one included) plays afterwards, the seat's tricks at
the end of the deal cannot equal its bid; an action **keeps a chance** when some world
and some continuation make the bid. A certain miss beside an action with a chance is
dominated: no world rewards it with the bid's premium.

A certain miss is proved from the view alone (:func:`trick_bounds`: the tricks already
taken, the sure tricks of the hand, a trick on the table that a card can no longer take or
cannot lose) or, when the worlds are few (:func:`all_worlds`), by playing every one of them
out; a chance is shown by a world and a continuation that make the bid (a witness, found in
the worlds enumerated or guessed). Pure: no I/O; guesses draw from the generator given.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Iterator, Sequence, TypeVar

from ..actions import Action, Bid, Play
from ..engine import IllegalAction, Phase
from ..engine.game import Game
from ..engine.tables import SUIT_ID, bit_indices
from ..engine.view import SeatView
from ..engine.worlds import Worlds
from .knowledge import Knowledge
from .sampling import Sampler

_A = TypeVar("_A", bound=Action)

#: Worlds enumerated at most for an exact verdict (else the bounds and guessed witnesses).
EXACT_LIMIT = 400
#: Bots' play: worlds enumerated at most, with at most this many cards in hand, to drop a
#: card after which the bid cannot be made (more would cost a bot too much time a card).
PLAY_LIMIT = 60
PLAY_CARDS = 3
#: Worlds guessed at most when looking for a witness that an action keeps a chance.
WITNESS_TRIES = 60


class Kind(enum.Enum):
    """What makes a decision dominated."""

    MISSED_BID = "bid that cannot be made"
    """A bid the hand cannot make in any world, while another legal bid can be made."""
    TRICK_GIVEN_AWAY = "trick given away"
    """A card that cannot take the trick when every trick left is needed for the bid."""
    TRICK_TAKEN = "trick taken over the bid"
    """A card that must take the trick when the bid is already made and no more may be taken."""
    CERTAIN_MISS = "play that cannot make the bid"
    """Another card after which the bid cannot be made in any world (found by enumeration)."""


@dataclass(frozen=True)
class Dominated:
    """A dominated decision: ``action`` misses the bid in every world, ``better`` (legal in the
    same position) makes it in at least one (``witness``: its hands, bit sets per seat)."""

    action: Action
    better: Action
    kind: Kind
    exact: bool
    """True when every world was played out; False when the miss is proved by the bounds."""
    witness: tuple[int, ...]


def _plain(view: SeatView) -> bool:
    """No jokers, no wild cards in the pack and no super trump: a trick goes to the highest
    trump, else to the highest card of the suit led."""
    t = view.table
    return not any(w is not None for w in t.wild_of) and all(t.suit_of[k] >= 0 for k in range(t.size)) \
        and (view.variant.kinds[view.deal.kind].trump or view.variant.trump).super_trump == "none"


def sure_tricks(view: SeatView, without: int | None = None) -> int:
    """Tricks the seat's hand takes in every world and whatever anyone plays: trumps that no
    card still unseen can beat (none above them out, no jokers or wild cards in the pack),
    ``without`` the card of that table index. 0 while the trump is not known."""
    if view.trump is None or not view.trump_known or not view.hand or not _plain(view):
        return 0
    t = view.table
    trump = SUIT_ID[view.trump]
    know = Knowledge(view)
    top_out = max((t.rank_of[i] for i in know.unseen if t.suit_of[i] == trump), default=0)
    return sum(1 for i in know.hand if i != without and t.suit_of[i] == trump and t.rank_of[i] > top_out)


def _takes_trick(view: SeatView, play: Play) -> bool:
    """Whether ``play`` takes the trick now on the table in every world (a plain pack): it
    holds the trick (or leads it) and no card still unseen could beat it, or nobody plays
    after it."""
    if play not in view.winning_plays and view.trick:
        return False
    if len(view.trick) + 1 == view.players:
        return True
    t = view.table
    i = t.index[play.card]
    suit, rank = t.suit_of[i], t.rank_of[i]
    trump = -1 if view.trump is None else SUIT_ID[view.trump]
    for k in Knowledge(view).unseen:
        if (t.suit_of[k] == suit and t.rank_of[k] > rank) or (trump >= 0 and suit != trump and t.suit_of[k] == trump):
            return False
    return True


def trick_bounds(view: SeatView, play: Play | None = None) -> tuple[int, int]:
    """The fewest and the most tricks the seat can end the deal with, in any world and any
    continuation, proved from the view alone (after ``play``, when given, on the trick now).

    The fewest: the tricks taken, the sure trumps (:func:`sure_tricks`) and the current trick
    when ``play`` must take it; the most: the tricks taken and one per card held, less the
    current trick when ``play`` can no longer take it (a card that does not hold the trick
    now never will: later cards only beat the one holding it)."""
    taken = view.taken[view.seat]
    cards = len(view.hand) if view.hand else view.deal.cards
    if play is None:
        return taken + sure_tricks(view), taken + cards
    if not _plain(view):
        return taken, taken + cards
    rest = sure_tricks(view, without=view.table.index[play.card])
    lose = bool(view.trick) and play not in view.winning_plays
    win = _takes_trick(view, play)
    return taken + rest + (1 if win else 0), taken + cards - (1 if lose else 0)


def keeping_chances(view: SeatView, actions: Sequence[_A], exact_limit: int = PLAY_LIMIT) -> list[_A]:
    """Of ``actions`` (the bids, or the cards, of ``view``), those not proved to miss the bid:
    by :func:`trick_bounds`, and for cards late in a deal whose worlds are at most
    ``exact_limit`` by playing every world out; all of them when every one misses (or none has
    a bid)."""
    return list(_kept(view, actions, exact_limit)) or list(actions)


def first_keeping(view: SeatView, ranked: Sequence[_A], exact_limit: int = PLAY_LIMIT) -> _A:
    """The first of ``ranked`` (a bot's order of preference, best first) that
    :func:`keeping_chances` keeps, or the first when it keeps none: the same verdict, but the
    worlds are played out only until a card keeps a chance (a bot's usual first choice does)."""
    return next(_kept(view, ranked, exact_limit), ranked[0])


def _kept(view: SeatView, actions: Sequence[_A], exact_limit: int) -> Iterator[_A]:
    """The actions :func:`keeping_chances` keeps, in order, each proved only when asked for."""
    bids = [a for a in actions if isinstance(a, Bid)]
    if bids:
        lo, hi = trick_bounds(view)
        yield from (a for a in actions if not isinstance(a, Bid) or lo <= a.tricks <= hi)
        return
    bid = view.bids[view.seat] if view.phase is Phase.PLAY else None
    if bid is None or len(actions) < 2:
        yield from actions
        return
    lo, hi = trick_bounds(view)
    if not lo <= bid <= hi:  # out of reach anyway: every card misses
        yield from actions
        return
    keep = list(actions)
    if bid in (lo, hi):  # one card more or less decides
        keep = [a for a in keep if not isinstance(a, Play) or _within(trick_bounds(view, a), bid)]
    every = all_worlds(view, exact_limit) if len(keep) > 1 and exact_limit and len(view.hand) <= PLAY_CARDS else None
    if every is None:
        yield from keep
        return
    yield from (a for a in keep if witness(view, a, every) is not None)


def _within(bounds: tuple[int, int], bid: int) -> bool:
    return bounds[0] <= bid <= bounds[1]


def world_count(sampler: Sampler) -> int:
    """An upper bound on the worlds the sampler's view allows (each seat's choices in turn)."""
    total = 1
    left = bin(sampler.pool).count("1")
    for s in sampler.order:
        total *= comb(min(left, bin(sampler.pool & sampler.allowed[s]).count("1")), sampler.need[s])
        left -= sampler.need[s]
    return total


def all_worlds(view: SeatView, limit: int = EXACT_LIMIT) -> list[list[int]] | None:
    """Every world the view allows (each seat's hand now, bit sets), or None when there may be
    more than ``limit`` of them."""
    sampler = Sampler(view)
    if world_count(sampler) > limit:
        return None
    out: list[list[int]] = []

    def fill(k: int, left: int, hands: list[int]) -> None:
        if k == len(sampler.order):
            out.append(list(hands))
            return
        s = sampler.order[k]
        cands = [1 << i for i in bit_indices(left & sampler.allowed[s])]
        for chosen in combinations(cands, sampler.need[s]):
            mask = sum(chosen)
            hands[s] = sampler.known[s] | mask
            fill(k + 1, left & ~mask, hands)
        hands[s] = sampler.known[s]

    fill(0, sampler.pool, list(sampler.known))
    return out


def guessed_worlds(view: SeatView, rng: random.Random, count: int = WITNESS_TRIES) -> Iterator[list[int]]:
    """``count`` worlds guessed uniformly enough (:meth:`.Sampler.sample`) from ``rng``."""
    sampler = Sampler(view)
    for _ in range(count):
        yield sampler.sample(rng)


def can_make(game: Game, seat: int, target: int, first: Action | None = None) -> bool:
    """Whether some continuation of ``game`` (every seat choosing freely) after ``first`` (when
    given) ends its deal with ``seat`` holding exactly ``target`` tricks (the later bids of the
    deal taken as the first legal ones: the cards' play does not read them).

    :raises IllegalAction: when ``first`` is not legal in ``game``."""
    deal = game.deal_index
    done = len(game.results)
    if first is not None:
        game.apply(first)
    while game.phase is Phase.BID:
        game.apply(game.legal_actions()[0])

    def walk(g: Game) -> bool:
        if len(g.results) > done or g.deal_index != deal or g.is_over:
            return g.results[done].seats[seat].taken == target
        if g.phase is not Phase.PLAY:
            return False
        got = g.taken[seat]
        left = len(g.hand(seat)) + (1 if any(tp.seat == seat for tp in g.trick) else 0)
        if got > target or got + left < target:
            return False
        legal = g.legal_actions()
        for a, action in enumerate(legal):
            nxt = g.clone() if a + 1 < len(legal) else g
            nxt.apply(action)
            if walk(nxt):
                return True
        return False

    return walk(game)


def _target(view: SeatView, action: Action) -> int | None:
    if isinstance(action, Bid):
        return action.tricks
    bid = view.bids[view.seat]
    return bid


def witness(view: SeatView, action: Action, hands_list: Sequence[Sequence[int]] | Iterator[list[int]]) -> tuple[int, ...] | None:
    """The first world of ``hands_list`` in which the seat can still make its bid after
    ``action`` (its hands), or None."""
    target = _target(view, action)
    if target is None:
        return None
    worlds = Worlds(view)
    for hands in hands_list:
        try:
            if can_make(worlds.world(hands, view.bids, random.Random(0)), view.seat, target, action):
                return tuple(hands)
        except IllegalAction:  # hands that do not fit the plays seen
            continue
    return None


def _proved_miss(view: SeatView, action: Action) -> Kind | None:
    """Why ``action`` misses the bid in every world, proved from the view alone (or None)."""
    if isinstance(action, Bid):
        lo, hi = trick_bounds(view)
        return Kind.MISSED_BID if not lo <= action.tricks <= hi else None
    if isinstance(action, Play) and view.bids[view.seat] is not None:
        bid = view.bids[view.seat]
        lo, hi = trick_bounds(view, action)
        assert bid is not None
        if hi < bid and trick_bounds(view)[1] >= bid:
            return Kind.TRICK_GIVEN_AWAY
        if lo > bid and trick_bounds(view)[0] <= bid:
            return Kind.TRICK_TAKEN
    return None


def check(view: SeatView, action: Action, rng: random.Random | None = None, *,
          exact_limit: int = EXACT_LIMIT, tries: int = WITNESS_TRIES) -> Dominated | None:
    """Whether ``action`` (legal in ``view``) is dominated: a certain miss beside a legal action
    of the same kind (a bid, a card) that keeps a chance. Worlds are enumerated when at most
    ``exact_limit``; else the miss must be proved by :func:`trick_bounds` and the chance is
    looked for in ``tries`` worlds guessed from ``rng``."""
    if view.phase not in (Phase.BID, Phase.PLAY) or not view.hand or view.deal_kind_bidding == "none":
        return None
    if view.phase is Phase.PLAY and view.bids[view.seat] is None:
        return None
    rng = rng or random.Random(0)
    every = all_worlds(view, exact_limit)
    kind = _proved_miss(view, action)
    if kind is None:
        if every is None or witness(view, action, every) is not None:
            return None
        kind = Kind.MISSED_BID if isinstance(action, Bid) else Kind.CERTAIN_MISS
    others = [a for a in view.legal if type(a) is type(action) and a != action]
    for other in others:
        if _proved_miss(view, other) is not None:
            continue
        found = witness(view, other, every if every is not None else guessed_worlds(view, rng, tries))
        if found is not None:
            return Dominated(action, other, kind, every is not None, found)
    return None


def dominated_actions(view: SeatView, rng: random.Random | None = None, *,
                      exact_limit: int = EXACT_LIMIT, tries: int = WITNESS_TRIES) -> list[Dominated]:
    """Every dominated legal action of ``view`` (see :func:`check`)."""
    out = []
    for action in view.legal:
        found = check(view, action, rng, exact_limit=exact_limit, tries=tries)
        if found is not None:
            out.append(found)
    return out

