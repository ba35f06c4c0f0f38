"""The game state: phases, trick values, the deal log, and the slots every part shares.

The kernel keeps a deal as integers: hands are bit sets, the cards played are card
indices in one list for the whole deal, and a trick is a slice of that list with its
winner. :class:`Trick` and :class:`TrickPlay` values are made only when asked for.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from ..actions import Call, Play
from ..cards import Card
from ..diagnostics import Diagnostic, UpdownError

if TYPE_CHECKING:
    import random

    from ..actions import Action
    from ..cards import Suit
    from ..lang.variant import Deal, DealKind, Variant
    from .plan import DealPlan, TablePlan
    from .scoring import DealResult
    from .kernel import PlayKernel
    from .tables import CardTable


class Phase(enum.StrEnum):
    """Where a game is."""

    DEAL = "deal"
    """Waiting for cards (only when the game was made with ``auto_deal=False``)."""
    TRUMP = "trump"
    AUCTION = "auction"
    """The calls of an auction for trump (``bidding: auction``)."""
    BID = "bid"
    PLAY = "play"
    OVER = "over"


class CardFault(enum.Enum):
    """What is wrong with a card of a deal given card by card (:meth:`~updown_dsl.engine.Game.deal_cards`)."""

    NOT_IN_PACK = "not in pack"
    DEALT_TWICE = "dealt twice"


class IllegalAction(UpdownError):
    """An action the rules refuse; ``diagnostics[0]`` names the rule, and ``fault`` says what is
    wrong with a card of a refused deal (None for other refusals)."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic, fault: CardFault | None = None) -> None:
        super().__init__(diagnostics)
        self.fault = fault


def violation(code: str, message: str, hint: str | None = None) -> Diagnostic:
    """A rule diagnostic without a location (the caller knows where it happened)."""
    return Diagnostic(code, message, hint=hint)


@dataclass(frozen=True, slots=True)
class TrickPlay:
    """One card on the table."""

    seat: int
    play: Play


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick."""

    leader: int
    plays: tuple[TrickPlay, ...]
    winner: int


class DealLog:
    """One deal as the kernel keeps it: who got which cards, what was played, who won.

    ``order`` holds the card index of every card played in the deal, trick after trick;
    ``decl`` the :class:`Play` of the few positions played with a declaration; trick
    ``t`` was led by ``winners[t - 1]`` (``first_leader`` for the first).
    """

    __slots__ = ("table", "players", "dealt", "order", "decl", "winners", "first_leader")

    def __init__(self, table: CardTable, players: int) -> None:
        self.table = table
        self.players = players
        self.dealt: list[tuple[int, ...]] | None = None
        self.order: list[int] = []
        self.decl: dict[int, Play] = {}
        self.winners: list[int] = []
        self.first_leader = -1

    def copy(self) -> DealLog:
        """An independent copy (for :meth:`Game.clone`)."""
        new = DealLog(self.table, self.players)
        new.dealt = self.dealt
        new.order = list(self.order)
        new.decl = dict(self.decl)
        new.winners = list(self.winners)
        new.first_leader = self.first_leader
        return new

    def play_at(self, pos: int) -> Play:
        """The play at position ``pos`` of the deal."""
        decl = self.decl
        if decl:
            p = decl.get(pos)
            if p is not None:
                return p
        return self.table.plays[self.order[pos]]

    def trick_plays(self, t: int, count: int | None = None) -> tuple[TrickPlay, ...]:
        """The first ``count`` (default all) cards of trick ``t`` (0-based) as table values."""
        n = self.players
        leader = self.first_leader if t == 0 else self.winners[t - 1]
        start = t * n
        count = n if count is None else count
        return tuple(TrickPlay((leader + j) % n, self.play_at(start + j)) for j in range(count))

    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks."""
        n = self.players
        out = []
        leader = self.first_leader
        for t, w in enumerate(self.winners):
            start = t * n
            out.append(Trick(leader, tuple(TrickPlay((leader + j) % n, self.play_at(start + j))
                                           for j in range(n)), w))
            leader = w
        return tuple(out)

    def played(self) -> list[tuple[int, Play]]:
        """(seat, play) of every card played so far, in order."""
        n = self.players
        out = []
        leader = self.first_leader
        for pos in range(len(self.order)):
            t, j = divmod(pos, n)
            if j == 0 and t:
                leader = self.winners[t - 1]
            out.append(((leader + j) % n, self.play_at(pos)))
        return out

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat was dealt, in dealing order (empty tuples before the deal)."""
        if self.dealt is None:
            return tuple(() for _ in range(self.players))
        cards = self.table.cards
        return tuple(tuple(cards[i] for i in h) for h in self.dealt)


class State:
    """The slots of a game; the parts of the engine (dealing, bidding, the end of a deal) are
    mixins over it, joined in :class:`~updown_dsl.engine.Game`. The cards of the deal are
    the play kernel's (:attr:`kernel`)."""

    __slots__ = (
        # public
        "variant", "players", "table", "deals", "rng", "auto_deal", "totals", "results",
        "deal_index", "dealer", "over_reason", "phase", "to_act", "turned", "cut_card", "is_over", "kernel",
        # the deal
        "_plan", "_dp", "_deal", "_kind", "_bids", "_bids_made", "_bid_sum", "_lo", "_hi", "_hook",
        "_first_bidder", "_trump_chooser", "_calls", "_declarer", "_zeros", "_counted",
        # constants copied from the plan for the hot path
        "_by_id", "_next_seat",
        # the moves made with push, and what pop restores
        "_stack",
    )

    variant: Variant
    players: int
    table: CardTable
    deals: Sequence[Deal]
    """The deals of the game: the schedule, and any played after it (a target score, a tie-break)."""
    rng: random.Random
    auto_deal: bool
    totals: list[int]
    results: list[DealResult]
    deal_index: int
    dealer: int
    over_reason: str | None
    phase: Phase
    to_act: int
    turned: Card | None
    cut_card: Card | None
    is_over: bool
    """True when the game has ended."""
    kernel: PlayKernel
    """The cards of the current deal: hands, cards played, the trick (:mod:`~updown_dsl.engine.kernel`)."""
    _plan: TablePlan
    _dp: DealPlan
    _deal: Deal
    _kind: DealKind
    _bids: list[int | None]
    _bids_made: int
    _bid_sum: int
    _lo: int
    _hi: int
    _hook: bool
    _first_bidder: int
    _trump_chooser: int
    _calls: list[Call | None]
    _declarer: int
    _zeros: int
    _counted: bool
    _by_id: tuple[int, ...]
    _next_seat: tuple[int, ...]
    _stack: list[tuple[Action, object]] | None

    def _changed(self) -> None:
        """Forget what was worked out for the position before a change."""
        self.kernel.changed()

    if TYPE_CHECKING:  # defined by the mixins; declared here for type checkers
        @property
        def trump(self) -> Suit | None: ...
        def apply(self, action: Action | str) -> None: ...
        def _begin_bidding(self) -> None: ...
        def _begin_play(self) -> None: ...
        def _after_trump(self) -> None: ...
        def _after_bids(self) -> None: ...
        def _choose_trump(self) -> None: ...
        def _finish_deal(self) -> None: ...
        def _start_deal(self) -> None: ...
        def _to_deal(self) -> None: ...
        def _seat_by(self, rule: str) -> int: ...
        def _last_trick_winner(self) -> int: ...
        def _last_range(self) -> tuple[int, int, int | None]: ...
        def _next_bidder(self, seat: int) -> int: ...
        def _begin_auction(self) -> None: ...
        def _check_counted(self, tricks: int) -> Diagnostic | None: ...
        def play_as_written(self, play: Play) -> bool: ...
        def bid_as_written(self, tricks: int) -> bool: ...
        def call_as_written(self, call: Call) -> bool: ...
        def legal_actions(self) -> tuple[Action, ...]: ...
        def check(self, action: Action) -> Diagnostic | None: ...
