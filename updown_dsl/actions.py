"""Player actions: frozen, hashable values with a text form.

>>> Play.parse("JK demand H")
Play.parse('JK demand H')
>>> str(Bid(2)), str(ChooseTrump(None)), str(Call(5, Suit.SPADES)), str(Call(0))
('bid 2', 'trump none', 'call 5 S', 'call dash')
>>> Bid.parse("bid 2") == Bid.parse("2"), ChooseTrump.parse("trump none"), Call.parse("call 5 S")
(True, ChooseTrump(suit=None), Call(tricks=5, suit=<Suit.SPADES: 'S'>))

Each ``parse`` reads what ``str`` writes, with or without its first word, and raises
:class:`~updown_dsl.cards.CardError` (code ``C001``) for anything else.
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

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read ``bid 2`` or ``2``."""
        words = _words(text, "bid")
        if len(words) == 1 and words[0].isdigit() and words[0].isascii() and len(words[0]) <= 3:
            return cls(int(words[0]))
        raise CardError(Diagnostic("C001", tr("not a bid: {text!r}", text=text), hint=tr("e.g. 'bid 2' or '2'")))


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """Name the trump suit, or ``None`` for no trump."""

    suit: Suit | None

    def __str__(self) -> str:
        return f"trump {self.suit.value if self.suit else 'none'}"

    @classmethod
    def parse(cls, text: str) -> ChooseTrump:
        """Read ``trump H``, ``H``, ``trump none`` or ``none``."""
        words = _words(text, "trump")
        if len(words) == 1:
            return cls(_suit_or_none(words[0], text))
        raise CardError(Diagnostic("C001", tr("not a trump choice: {text!r}", text=text),
                                   hint=tr("e.g. 'trump H' or 'trump none'")))


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

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read ``call 5 S``, ``5 S``, ``call 3 none`` or ``call dash`` (``dash``)."""
        words = _words(text, "call")
        if len(words) == 1 and words[0].lower() == "dash":
            return cls(0)
        if len(words) == 2 and words[0].isdigit() and words[0].isascii() and len(words[0]) <= 3 \
                and int(words[0]) > 0:
            return cls(int(words[0]), _suit_or_none(words[1], text))
        raise CardError(Diagnostic("C001", tr("not a call: {text!r}", text=text),
                                   hint=tr("e.g. 'call 5 S', 'call 3 none' or 'call dash'")))


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


def _words(text: str, first: str) -> list[str]:
    """The words of ``text`` without its first word when that is ``first``."""
    words = text.split()
    return words[1:] if words and words[0].lower() == first else words


def _suit_or_none(word: str, text: str) -> Suit | None:
    if word.lower() == "none":
        return None
    try:
        return Suit.parse(word)
    except CardError:
        raise CardError(Diagnostic("C001", tr("not a suit: {word!r} in {text!r}", word=word, text=text),
                                   hint=tr("a suit is S, H, D or C, or 'none' for no trump"))) from None
