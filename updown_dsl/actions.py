"""Player actions: frozen, hashable values with a text form.

>>> Play.parse("JK demand H")
Play.parse('JK demand H')
>>> str(Bid(2)), str(ChooseTrump(None)), str(Call(5, Suit.SPADES)), str(Call(0))
('bid 2', 'trump none', 'call 5 S', 'call dash')
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, CardError, Suit
from .diagnostics import Diagnostic
from .i18n import tr

#: Declarations a wild card may make when leading a trick.
LEAD_DECLARATIONS = ("demand", "high", "takes", "highest", "free", "open")
#: Declarations a wild card may make when following.
FOLLOW_DECLARATIONS = ("high", "low")
#: Declarations that name a suit.
SUITED_DECLARATIONS = frozenset({"demand", "high", "takes"})
DECLARATIONS = frozenset(LEAD_DECLARATIONS) | frozenset(FOLLOW_DECLARATIONS) | {"as"}


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``tricks`` tricks (0 is a pass)."""

    tricks: int

    def __str__(self) -> str:
        return f"bid {self.tricks}"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Name the trump suit, or ``None`` for no trump."""

    suit: Suit | None

    def __str__(self) -> str:
        return f"trump {self.suit.value if self.suit else 'none'}"


@dataclass(frozen=True, slots=True)
class Call:
    """A call of an auction for trump: ``tricks`` with ``suit`` as trump (None: no trump).

    A call of 0 tricks is a *dash*: the caller means to take no trick, and names no trump.
    """

    tricks: int
    suit: Suit | None = None

    def __str__(self) -> str:
        if self.tricks == 0:
            return "call dash"
        return f"call {self.tricks} {self.suit.value if self.suit else 'none'}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card, optionally with a declaration.

    ``declare`` is one of ``demand high takes highest free open low as``;
    ``suit`` goes with ``demand``, ``high`` (when leading) and ``takes``;
    ``as_card`` goes with ``as`` (a joker played as a named card).
    """

    card: Card
    declare: str | None = None
    suit: Suit | None = None
    as_card: Card | None = None

    def __hash__(self) -> int:
        # Searches hash plays at every node they walk; the generated hash built a tuple each time.
        if self.declare is None:
            return self.card.id
        return hash((self.card.id, self.declare, self.suit, self.as_card))

    def __str__(self) -> str:
        parts = [str(self.card)]
        if self.declare:
            parts.append(self.declare)
        if self.suit is not None:
            parts.append(self.suit.value)
        if self.as_card is not None:
            parts.append(str(self.as_card))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read ``AS``, ``JK high``, ``JK demand H``, ``7S highest``, ``JK as QH``.

        :raises CardError: for a bad card, declaration or suit.
        """
        words = text.split()
        if not words:
            raise CardError(Diagnostic("C001", tr("empty play"), hint=tr("write a card, e.g. AS")))
        card = Card.parse(words[0])
        if len(words) == 1:
            return cls(card)
        declare = words[1].lower()
        if declare not in DECLARATIONS:
            raise CardError(
                Diagnostic(
                    "C001",
                    tr("not a declaration: {word!r}", word=words[1]),
                    hint=tr("declarations: {words}", words=", ".join(sorted(DECLARATIONS))),
                )
            )
        rest = words[2:]
        if declare == "as":
            if len(rest) != 1:
                raise CardError(Diagnostic("C001", tr("'as' needs one card, e.g. 'JK as QH'")))
            return cls(card, "as", None, Card.parse(rest[0]))
        if declare in SUITED_DECLARATIONS and rest:
            if len(rest) != 1:
                raise CardError(Diagnostic("C001", tr("too many words in {text!r}", text=text)))
            return cls(card, declare, Suit.parse(rest[0]))
        if rest:
            raise CardError(Diagnostic("C001", tr("{declare!r} takes no suit in {text!r}", declare=declare, text=text)))
        return cls(card, declare)


Action = Bid | Play | ChooseTrump | Call
