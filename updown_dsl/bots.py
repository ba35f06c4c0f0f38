"""Bots: players that choose an action from a :class:`~updown_dsl.view.SeatView`.

A bot never sees the game, only its seat's view, so it cannot read another
hand. ``random`` picks a uniformly random legal action; ``heuristic`` bids from
an estimate of its tricks and plays to take exactly its bid.
"""

from __future__ import annotations

import random
from typing import Protocol

from .actions import Action, Bid, ChooseTrump, Play
from .cards import Card, Suit
from .engine import Phase
from .view import SeatView


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


class HeuristicBot:
    """Bids its likely tricks and plays to make the bid exactly.

    Bidding counts high cards, trumps and jokers; play wins cheaply while short
    of the bid and ducks once it has enough, keeping jokers for when they matter.
    """

    name = "heuristic"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    # -- bidding --------------------------------------------------------------------------
    def act(self, view: SeatView) -> Action:
        if view.phase is Phase.BID:
            return self.bid(view)
        if view.phase is Phase.TRUMP:
            return self.trump(view)
        return self.play(view)

    def estimate(self, view: SeatView) -> float:
        """Expected tricks from the hand (a rough count)."""
        if not view.hand:  # blind: no cards seen
            return view.deal.cards / view.players
        trump = view.trump
        n = view.deal.cards
        by_suit: dict[Suit, list[int]] = {}
        jokers = 0
        special = 0.0
        for c in view.hand:
            if c.suit is None or _is_joker(view, c):
                jokers += 1
                continue
            if _is_special(view, c):
                special += 0.9
            by_suit.setdefault(c.suit, []).append(c.rank.order)  # type: ignore[union-attr]
        top = 14
        tricks = jokers * 0.95 + special
        for suit, ranks in by_suit.items():
            ranks.sort(reverse=True)
            length = len(ranks)
            if suit == trump:
                for k, r in enumerate(ranks):
                    tricks += 0.95 if r >= top - k - 1 else (0.6 if r >= 11 else 0.35)
            else:
                short = 1.0 if length <= max(1, n // view.players) else 0.6
                for k, r in enumerate(ranks[:2]):
                    if r == top:
                        tricks += 0.85 * short
                    elif r == top - 1 and k <= 1 and length >= 2:
                        tricks += 0.45 * short
        # Void suits let trumps ruff: a small bonus per void when holding trumps.
        if trump is not None and trump in by_suit:
            voids = sum(1 for s in Suit if s != trump and s not in by_suit)
            tricks += 0.3 * voids * min(1, len(by_suit[trump]))
        return min(float(n), tricks)

    def bid(self, view: SeatView) -> Action:
        legal = [a for a in view.legal if isinstance(a, Bid)]
        target = self.estimate(view)
        return min(legal, key=lambda b: (abs(b.tricks - target), b.tricks))

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

    # -- play -----------------------------------------------------------------------------
    def play(self, view: SeatView) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        need = view.need if view.need is not None else 0
        leading = not view.trick
        plain = [p for p in plays if p.declare is None]
        declared = [p for p in plays if p.declare is not None]
        if leading:
            return self.lead(view, plain, declared, need)
        winners = [p for p in plays if p in view.winning_plays]
        losers = [p for p in plays if p not in view.winning_plays]
        if need > 0:
            plain_winners = [p for p in winners if p.declare is None]
            if plain_winners:
                return min(plain_winners, key=lambda p: _strength(view, p.card))
            last = len(view.trick) == view.players - 1
            high = [p for p in declared if p.declare == "high"]
            if high and (last or need >= self.remaining(view) - 1):
                return high[0]
            if winners:
                return winners[0]
            return self.discard(view, plain or plays, keep_high=True)
        # Enough tricks: lose, throwing the highest card that still loses.
        low = [p for p in declared if p.declare == "low"]
        plain_losers = [p for p in losers if p.declare is None]
        if plain_losers:
            return max(plain_losers, key=lambda p: _strength(view, p.card))
        if low:
            return low[0]
        if losers:
            return losers[0]
        return min(plays, key=lambda p: _strength(view, p.card))

    def remaining(self, view: SeatView) -> int:
        return view.deal.cards - len(view.tricks)

    def lead(self, view: SeatView, plain: list[Play], declared: list[Play], need: int) -> Action:
        trump = view.trump
        if need > 0:
            for decl in ("highest", "demand", "high"):
                options = [p for p in declared if p.declare == decl]
                if decl in ("demand", "high"):
                    options = [p for p in options if p.suit == trump] or options
                if options and (decl == "highest" or need >= 1):
                    if decl != "highest" and plain and need < self.remaining(view) and self.rng.random() < 0.5:
                        break  # keep the joker for later now and then
                    return options[0]
            if plain:
                return max(plain, key=lambda p: _strength(view, p.card))
            return declared[0]
        if plain:
            non_trump = [p for p in plain if p.card.suit != trump] or plain
            return min(non_trump, key=lambda p: _strength(view, p.card))
        takes = [p for p in declared if p.declare == "takes"]
        return takes[0] if takes else declared[0]

    def discard(self, view: SeatView, plays: list[Play], keep_high: bool) -> Action:
        return min(plays, key=lambda p: _strength(view, p.card))


def _is_joker(view: SeatView, card: Card) -> bool:
    return card.is_joker or card in view.variant.deck.designated_jokers


def _is_special(view: SeatView, card: Card) -> bool:
    return any(w.ordinary and card in w.cards for w in view.variant.wild)


def _strength(view: SeatView, card: Card) -> int:
    """A card's value for choosing among plays: trumps above plain suits."""
    if card.suit is None or _is_joker(view, card):
        return 100
    order = card.rank.order  # type: ignore[union-attr]
    return order + (30 if card.suit == view.trump else 0)


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(kind: str, rng: random.Random | None = None) -> Bot:
    """A bot by name (``random`` or ``heuristic``).

    :raises ValueError: for another name.
    """
    cls = BOTS.get(kind)
    if cls is None:
        raise ValueError(f"no bot named {kind!r} (bots: {', '.join(BOTS)})")
    return cls(rng)  # type: ignore[abstract]
