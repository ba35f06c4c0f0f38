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
from enum import Enum
from typing import Callable, Sequence

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

    def __format__(self, spec: str) -> str:
        """``f"{play}"`` is ``str(play)``; ``{play:ru}`` writes its cards as a Russian table does
        (``2♦ as Т♦``), as a translated message names a card."""
        if not spec:
            return str(self)
        parts = [format(self.card, spec)]
        if self.declare:
            parts.append(self.declare)
        if self.suit is not None:
            parts.append(self.suit.value)
        if self.as_card is not None:
            parts.append(format(self.as_card, spec))
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
        try:
            play = play_from_words(words)
        except PlayWordsError as exc:
            if exc.fault is PlayFault.NOT_A_SUIT and isinstance(exc.__cause__, CardError):
                raise exc.__cause__ from None
            raise CardError(_play_fault(exc, words, text)) from None
        assert play is not None  # (Card.parse reads no unknown card)
        return play


class PlayFault(Enum):
    """Why the words of a play are not one (:func:`play_from_words`)."""

    NOT_A_DECLARATION = "not-a-declaration"
    UNKNOWN_DECLARED = "unknown-declared"
    """An unknown card (``??``) with a declaration."""
    AS_ONE_CARD = "as-one-card"
    """``as`` without exactly one card after it."""
    AS_UNKNOWN_CARD = "as-unknown-card"
    """``as`` followed by an unknown card."""
    SUIT_NOT_TAKEN = "suit-not-taken"
    """Words after a declaration that takes no suit, or more than one suit."""
    NOT_A_SUIT = "not-a-suit"


class PlayWordsError(ValueError):
    """The words of a play are not one: the fault and the index of the word it is at."""

    def __init__(self, fault: PlayFault, index: int, declare: str | None = None) -> None:
        super().__init__(fault.value)
        self.fault, self.index, self.declare = fault, index, declare


def _parse_card(words: Sequence[str], k: int) -> Card | None:
    return Card.parse(words[k])


def play_from_words(words: Sequence[str], k: int = 0,
                    card: Callable[[Sequence[str], int], Card | None] = _parse_card) -> Play | None:
    """The one reader of a play: ``words[k:]`` are a card, then a declaration and its suit or
    card (``JK demand H``, ``JK as QH``). ``card(words, i)`` reads the card at ``words[i]``
    (None: an unknown card, which is no play: None is returned) and raises as its caller
    wants; :meth:`Play.parse` and the transcript reader each give the faults their words.

    :raises PlayWordsError: for a declaration or suit that does not fit.
    """
    first = card(words, k)
    if len(words) == k + 1:
        return None if first is None else Play(first)
    declare = words[k + 1].lower()
    if declare not in DECLARATIONS:
        raise PlayWordsError(PlayFault.NOT_A_DECLARATION, k + 1)
    if first is None:
        raise PlayWordsError(PlayFault.UNKNOWN_DECLARED, k + 1)
    extra = len(words) - k - 2
    if declare == "as":
        if extra != 1:
            raise PlayWordsError(PlayFault.AS_ONE_CARD, k + 1)
        as_card = card(words, k + 2)
        if as_card is None:
            raise PlayWordsError(PlayFault.AS_UNKNOWN_CARD, k + 2)
        return Play(first, "as", None, as_card)
    if extra:
        if declare not in SUITED_DECLARATIONS or extra != 1:
            raise PlayWordsError(PlayFault.SUIT_NOT_TAKEN, k + 2, declare)
        try:
            return Play(first, declare, Suit.parse(words[k + 2]))
        except CardError as exc:
            raise PlayWordsError(PlayFault.NOT_A_SUIT, k + 2) from exc
    return Play(first, declare)


def _play_fault(exc: PlayWordsError, words: Sequence[str], text: str) -> Diagnostic:
    """:meth:`Play.parse`'s words for a fault."""
    fault = exc.fault
    if fault is PlayFault.NOT_A_DECLARATION:
        return Diagnostic("C001", tr("not a declaration: {word!r}", word=words[exc.index]),
                          hint=tr("declarations: {words}", words=", ".join(sorted(DECLARATIONS))))
    if fault is PlayFault.AS_ONE_CARD:
        return Diagnostic("C001", tr("'as' needs one card, e.g. 'JK as QH'"))
    if fault is PlayFault.SUIT_NOT_TAKEN and exc.declare in SUITED_DECLARATIONS:
        return Diagnostic("C001", tr("too many words in {text!r}", text=text))
    return Diagnostic("C001", tr("{declare!r} takes no suit in {text!r}", declare=exc.declare, text=text))


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
