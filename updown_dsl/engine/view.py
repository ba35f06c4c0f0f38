"""What one seat can see: the information a player (or a bot) may act on.

A :class:`SeatView` is taken from a game for one seat and holds only public
information plus that seat's own cards: never another hand, never the cards
left in the pack, never a hidden bid. Bots receive views, not games.

A view is a snapshot: the game may move on and the view stays as it was. It copies
the kernel's few small arrays when it is taken and builds card tuples and tricks
only when they are read.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Mapping

from ..actions import Action, Call, Play
from ..cards import Card, Suit
from ..lang.variant import Deal, Variant
from .state import DealLog, Phase, Trick, TrickPlay

if TYPE_CHECKING:
    from .game import Game
    from .tables import CardTable


class SeatView:
    """One seat's view of the table (read-only attributes)."""

    __slots__ = ("seat", "players", "variant", "deal", "deal_kind_bidding", "dealer", "phase", "to_act",
                 "trump", "trump_known", "turned", "bids", "taken", "totals", "legal", "forbidden_bid",
                 "winning_plays", "trick_winner", "seen_hands", "calls", "declarer", "deal_env", "_hand", "_hand_mask", "_table", "_log", "_tcount", "_tricks",
                 "_trick")

    seat: int
    players: int
    variant: Variant
    deal: Deal
    deal_kind_bidding: str
    """``open``, ``before_deal``, ``sealed``, ``forehead``, ``hidden``, ``auction`` or ``none``."""
    dealer: int
    phase: Phase
    to_act: int
    trump: Suit | None
    trump_known: bool
    turned: Card | None
    bids: tuple[int | None, ...]
    """Bids seen (others' hidden bids are None until the deal is over, sealed ones until all
    have bid)."""
    taken: tuple[int, ...]
    totals: tuple[int, ...]
    legal: tuple[Action, ...]
    """Legal actions when it is this seat's turn, else empty."""
    forbidden_bid: int | None
    winning_plays: frozenset[Play]
    """Of ``legal``, the plays that would win the trick as it stands now."""
    trick_winner: int | None
    """The seat holding the trick so far, by the engine's own ranking (None with no card on
    the table)."""
    seen_hands: tuple[tuple[Card, ...] | None, ...]
    """Other seats' cards this seat sees (a ``forehead`` deal's bidding: all of them; else None)."""
    calls: tuple[Call | None, ...]
    """An auction's calls by seat, as made so far (empty outside an auction deal)."""
    declarer: int | None
    """The seat whose call won the auction (None before its end, or without one)."""
    deal_env: Mapping[str, int]
    """The names the deal's formulas read (``cards``, ``deck``, ``set_deals``, the parameters...),
    exactly as the engine scores the deal with them."""
    _hand: tuple[Card, ...] | None
    _hand_mask: int
    _table: CardTable
    _log: DealLog
    _tcount: int
    _tricks: tuple[Trick, ...] | None
    _trick: tuple[TrickPlay, ...] | None

    #: The public attributes, in the order of the fields of earlier versions.
    FIELDS = ("seat", "players", "variant", "deal", "deal_kind_bidding", "dealer", "phase", "to_act",
              "hand", "trump", "trump_known", "turned", "bids", "taken", "trick", "tricks", "totals",
              "legal", "forbidden_bid", "winning_plays", "trick_winner", "seen_hands", "calls", "declarer")

    def __init__(self, game: Game, seat: int) -> None:
        s = object.__setattr__
        kind = game.kind
        phase = game.phase
        hand_mask = 0
        hand: tuple[Card, ...] | None = None
        if phase is Phase.TRUMP:
            hand = game.chooser_view() if seat == game.to_act else ()
        elif phase is Phase.DEAL or (phase is Phase.BID and kind.bidding in ("before_deal", "forehead")):
            hand = ()  # (forehead: the own cards are held up for the others to see)
        else:
            hand_mask = game.kernel.hands[seat]
        seen: tuple[tuple[Card, ...] | None, ...] = (None,) * game.players
        if phase is Phase.BID and kind.bidding == "forehead":
            seen = tuple(None if s == seat else game.table.cards_of(game.kernel.hands[s]) for s in range(game.players))
        bids = game.bids
        if (kind.bidding == "hidden" and phase is not Phase.OVER) or (kind.bidding == "sealed" and phase is Phase.BID):
            bids = tuple(b if i == seat else None for i, b in enumerate(bids))
        my_turn = game.to_act == seat and phase in (Phase.BID, Phase.PLAY, Phase.TRUMP, Phase.AUCTION)
        legal = game.legal_actions() if my_turn else ()
        if my_turn and phase is Phase.PLAY:
            would_win = game.would_win
            winning = frozenset(p for p in legal if isinstance(p, Play) and would_win(p))
        else:
            winning = frozenset()
        trump_known = phase in (Phase.BID, Phase.PLAY) and not (
            phase is Phase.BID and (kind.bidding == "before_deal" or game.deal_plan.trump_rules.after_bidding))
        s(self, "seat", seat)
        s(self, "players", game.players)
        s(self, "variant", game.variant)
        s(self, "deal", game.deal)
        s(self, "deal_kind_bidding", kind.bidding)
        s(self, "dealer", game.dealer)
        s(self, "phase", phase)
        s(self, "to_act", game.to_act)
        s(self, "trump", game.trump if trump_known else None)
        s(self, "trump_known", trump_known)
        s(self, "turned", game.turned if trump_known else None)
        s(self, "bids", bids)
        s(self, "taken", game.taken)
        s(self, "totals", tuple(game.totals))
        s(self, "legal", legal)
        s(self, "forbidden_bid", game.forbidden_bid() if my_turn else None)
        s(self, "winning_plays", winning)
        s(self, "trick_winner", game.trick_winner)
        s(self, "seen_hands", seen)
        s(self, "calls", game.calls)
        s(self, "declarer", game.declarer)
        s(self, "deal_env", MappingProxyType(game.deal_plan.env))
        s(self, "_hand", hand)
        s(self, "_hand_mask", hand_mask)
        s(self, "_table", game.table)
        log = game.kernel.log.copy()
        log.dealt = None  # the hands as dealt are not this seat's to see
        s(self, "_log", log)
        s(self, "_tcount", game.kernel.count)
        s(self, "_tricks", None)
        s(self, "_trick", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to {name!r}: a seat view is read-only")

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat}, deal={self.deal.number}, phase={self.phase}, to_act={self.to_act})"

    @property
    def hand(self) -> tuple[Card, ...]:
        """Own cards (during a blind deal's bidding: none; when naming trump: those seen so far)."""
        hand = self._hand
        if hand is None:
            hand = self._table.cards_of(self._hand_mask)
            object.__setattr__(self, "_hand", hand)
        return hand

    @property
    def trick(self) -> tuple[TrickPlay, ...]:
        """The cards on the table in the current trick."""
        trick = self._trick
        if trick is None:
            log: DealLog = self._log
            trick = log.trick_plays(len(log.winners), self._tcount) if self._tcount else ()
            object.__setattr__(self, "_trick", trick)
        return trick

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Finished tricks of this deal (all cards in them were seen by everybody)."""
        tricks = self._tricks
        if tricks is None:
            tricks = self._log.tricks()
            object.__setattr__(self, "_tricks", tricks)
        return tricks

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
    def table(self) -> CardTable:
        """The card table of this deal (the variant's, with the wild cards of this kind of deal)."""
        return self._table

    @property
    def log(self) -> DealLog:
        """The deal's cards as played so far (a copy without the hands as dealt, which are not
        this seat's to see)."""
        return self._log

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card seen played this deal."""
        cards = self._table.cards
        return tuple(cards[i] for i in self._log.order)


def seat_view(game: Game, seat: int) -> SeatView:
    """The view of ``seat`` (0-based)."""
    return SeatView(game, seat)
