"""What one seat can see: the information a player (or a bot) may act on.

A :class:`SeatView` is built from a game for one seat and holds only public
information plus that seat's own cards: never another hand, never the cards
left in the pack, never a hidden bid. Bots receive views, not games.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Play
from .cards import Card, Suit
from .engine import Game, Phase, Trick, TrickPlay
from .variant import Deal, Variant


@dataclass(frozen=True)
class SeatView:
    """One seat's view of the table."""

    seat: int
    players: int
    variant: Variant
    deal: Deal
    deal_kind_bidding: str
    """``open``, ``before_deal``, ``hidden`` or ``none``."""
    dealer: int
    phase: Phase
    to_act: int
    hand: tuple[Card, ...]
    """Own cards (during a blind deal's bidding: none; when naming trump: those seen so far)."""
    trump: Suit | None
    trump_known: bool
    turned: Card | None
    bids: tuple[int | None, ...]
    """Bids seen (others' hidden bids are None until the deal is over)."""
    taken: tuple[int, ...]
    trick: tuple[TrickPlay, ...]
    tricks: tuple[Trick, ...]
    """Finished tricks of this deal (all cards in them were seen by everybody)."""
    totals: tuple[int, ...]
    legal: tuple[Action, ...]
    """Legal actions when it is this seat's turn, else empty."""
    forbidden_bid: int | None
    winning_plays: frozenset[Play]
    """Of ``legal``, the plays that would win the trick as it stands now."""

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.to_act == self.seat

    @property
    def need(self) -> int | None:
        """Tricks still wanted to make the bid exactly (None without a bid)."""
        bid = self.bids[self.seat]
        return None if bid is None else bid - self.taken[self.seat]

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card seen played this deal."""
        cards = [tp.play.card for t in self.tricks for tp in t.plays]
        cards += [tp.play.card for tp in self.trick]
        return tuple(cards)


def seat_view(game: Game, seat: int) -> SeatView:
    """The view of ``seat`` (0-based)."""
    kind = game.kind
    phase = game.phase
    if phase is Phase.TRUMP:
        hand = game.chooser_view() if seat == game.to_act else ()
    elif phase is Phase.DEAL or (phase is Phase.BID and kind.bidding == "before_deal"):
        hand = ()
    else:
        hand = game.hand(seat)
    bids = game.bids
    if kind.bidding == "hidden" and phase is not Phase.OVER:
        bids = tuple(b if s == seat else None for s, b in enumerate(bids))
    my_turn = game.to_act == seat and phase in (Phase.BID, Phase.PLAY, Phase.TRUMP)
    legal = game.legal_actions() if my_turn else ()
    winning = frozenset(p for p in legal if isinstance(p, Play) and game.would_win(p)) \
        if my_turn and phase is Phase.PLAY else frozenset()
    trump_known = phase in (Phase.BID, Phase.PLAY) and not (
        phase is Phase.BID and kind.bidding == "before_deal")
    return SeatView(
        seat=seat,
        players=game.players,
        variant=game.variant,
        deal=game.deal,
        deal_kind_bidding=kind.bidding,
        dealer=game.dealer,
        phase=phase,
        to_act=game.to_act,
        hand=hand,
        trump=game.trump if trump_known else None,
        trump_known=trump_known,
        turned=game.turned if trump_known else None,
        bids=bids,
        taken=game.taken,
        trick=game.trick,
        tricks=tuple(game.tricks),
        totals=tuple(game.totals),
        legal=legal,
        forbidden_bid=game.forbidden_bid() if my_turn else None,
        winning_plays=winning,
    )
