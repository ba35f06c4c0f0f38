"""The values of a game's state: phases, the end of a game, refusals, tricks and the deal log.

The kernel keeps a deal as integers: hands are bit sets, the cards played are card
indices in one list for the whole deal, and a trick is a slice of that list with its
winner. :class:`Trick` and :class:`TrickPlay` values are made only when asked for.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..actions import Play
from ..cards import Card
from ..diagnostics import Diagnostic, UpdownError

if TYPE_CHECKING:
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


class EndKind(enum.Enum):
    """Why a game ended."""

    SCHEDULE = "schedule complete"
    """Every deal of the schedule was played."""
    TARGET = "target reached"
    """A total reached ``end.target``."""
    STOP_LOSS = "stop-loss reached"
    """A total fell to the stop-loss (``end.stop_loss``, «просчет»)."""
    MAX_DEALS = "max deals played"
    """A game played past its schedule (to a target, or breaking a tie) reached ``end.max_deals``."""
    TIE_BROKEN = "tie broken"
    """A game tied at the end of its schedule went on (``end.tie_break: extra_deals``) until
    one player led: the value is the number of extra deals."""


@dataclass(frozen=True, slots=True)
class GameEnd:
    """The end of a game: why, with the number that decided it (the target or the deals
    played; None for the other kinds)."""

    kind: EndKind
    value: int | None = None

    def __str__(self) -> str:
        """The reason in English words, as records and reports have always written it."""
        if self.kind is EndKind.TARGET:
            return f"a total reached {self.value}"
        if self.kind is EndKind.MAX_DEALS:
            return f"{self.value} deals played"
        if self.kind is EndKind.STOP_LOSS:
            return "stop-loss reached («просчет»)"
        if self.kind is EndKind.TIE_BROKEN:
            return f"tie broken after {self.value} extra deal{'' if self.value == 1 else 's'}"
        return "schedule complete"


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
    ``t`` was led by ``winners[t - 1]`` (``first_leader`` for the first), or by the seat
    ``led[t]`` where a record shows another leader (a checker going on as written).
    """

    __slots__ = ("table", "players", "dealt", "order", "decl", "winners", "first_leader", "led")

    def __init__(self, table: CardTable, players: int) -> None:
        self.table = table
        self.players = players
        self.dealt: list[tuple[int, ...]] | None = None
        self.order: list[int] = []
        self.decl: dict[int, Play] = {}
        self.winners: list[int] = []
        self.first_leader = -1
        self.led: dict[int, int] = {}

    def copy(self) -> DealLog:
        """An independent copy (for :meth:`Game.clone`)."""
        new = DealLog(self.table, self.players)
        new.dealt = self.dealt
        new.order = list(self.order)
        new.decl = dict(self.decl)
        new.winners = list(self.winners)
        new.first_leader = self.first_leader
        new.led = dict(self.led)
        return new

    def leader_of(self, t: int) -> int:
        """The seat that led trick ``t`` (0-based)."""
        led = self.led
        if led and t in led:
            return led[t]
        return self.first_leader if t == 0 else self.winners[t - 1]

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
        leader = self.leader_of(t)
        start = t * n
        count = n if count is None else count
        return tuple(TrickPlay((leader + j) % n, self.play_at(start + j)) for j in range(count))

    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks."""
        n = self.players
        out = []
        for t, w in enumerate(self.winners):
            start = t * n
            leader = self.leader_of(t)
            out.append(Trick(leader, tuple(TrickPlay((leader + j) % n, self.play_at(start + j))
                                           for j in range(n)), w))
        return tuple(out)

    def seats(self) -> list[int]:
        """The seat that played each card of :attr:`order`, in order."""
        n = self.players
        out = []
        leader = self.first_leader
        for pos in range(len(self.order)):
            t, j = divmod(pos, n)
            if j == 0 and t:
                leader = self.leader_of(t)
            out.append((leader + j) % n)
        return out

    def played(self) -> list[tuple[int, Play]]:
        """(seat, play) of every card played so far, in order."""
        return [(seat, self.play_at(pos)) for pos, seat in enumerate(self.seats())]

    def played_by(self) -> list[int]:
        """Each seat's cards played so far, a bit set over the card table (with two packs, the
        very copies played)."""
        out = [0] * self.players
        for seat, i in zip(self.seats(), self.order):
            out[seat] |= 1 << i
        return out

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat was dealt, in dealing order (empty tuples before the deal)."""
        if self.dealt is None:
            return tuple(() for _ in range(self.players))
        cards = self.table.cards
        return tuple(tuple(cards[i] for i in h) for h in self.dealt)
