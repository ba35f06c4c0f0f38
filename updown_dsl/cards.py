"""Cards, packs and card notation.

A :class:`Card` is a frozen value. Ordinary cards have a rank and a suit;
jokers have neither and carry a joker number (1 or 2).

Notation (the lax reader accepts all of these, case-insensitively):

>>> Card.parse("10H"), Card.parse("th"), Card.parse("7♠"), Card.parse("JK")
(Card.parse('10H'), Card.parse('10H'), Card.parse('7S'), Card.parse('JK'))
>>> format_cards(parse_cards("AS KD 10h jk jk2"))
'AS KD 10H JK JK2'

The canonical form is rank (``2``..``10``, ``J Q K A``) followed by the suit
letter (``S H D C``); jokers are ``JK`` and ``JK2``.

The Russian and Ukrainian letters are read too: ``В Д К Т`` for the jack, queen, king and
ace, ``п ч б т`` for spades, hearts, diamonds and clubs (``Тп`` is the ace of spades, ``10ч``
the ten of hearts, ``ТТ`` the ace of clubs), ``Дж`` and ``Дж2`` for the jokers; and a card
named in words, in Russian or Ukrainian, in any case: ``дама пик``, ``туз червей``, ``10 бубен``,
``краля вин``. :func:`card_text` writes either notation.

>>> parse_cards("Тп 10ч Дб Вт дж"), Card.parse("дама пик"), Card.parse("король чирва")
((Card.parse('AS'), Card.parse('10H'), Card.parse('QD'), Card.parse('JC'), Card.parse('JK')), Card.parse('QS'), Card.parse('KH'))
>>> card_text(Card.parse("AS"), "ru"), card_text(Card.parse("10H"), "ru")
('Тп', '10ч')
"""

from __future__ import annotations

import enum
from typing import Iterable

from .diagnostics import Diagnostic, UpdownError
from .i18n import mark, tr


class Suit(enum.StrEnum):
    """The four suits; the value is the transcript token."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol."""
        return _SYMBOLS[self]

    @property
    def word(self) -> str:
        """The suit's name in the reader's language: ``hearts``, ``черви``."""
        return tr(_NAMES[self])

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter, symbol or English name.

        :raises CardError: when ``text`` is not a suit.
        """
        key = text.strip().upper()
        suit = _SUIT_ALIASES.get(key) or _suit_word(key)
        if suit is None:
            raise CardError(Diagnostic("C001", tr("not a suit: {text!r}", text=text), hint=tr("use S, H, D or C")))
        return suit


class Rank(enum.StrEnum):
    """Card ranks; the value is the transcript token."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def order(self) -> int:
        """Strength within a suit: 2 is 2, ace is 14."""
        return _RANK_ORDER[self]


_NAMES = {Suit.SPADES: mark("spades"), Suit.HEARTS: mark("hearts"), Suit.DIAMONDS: mark("diamonds"),
          Suit.CLUBS: mark("clubs")}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_ALIASES: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_ALIASES[_s.value] = _s
    _SUIT_ALIASES[_s.name] = _s
    _SUIT_ALIASES[_s.name[:-1]] = _s
    _SUIT_ALIASES[_SYMBOLS[_s]] = _s
_SUIT_ALIASES.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})
_RANK_ORDER = {r: i + 2 for i, r in enumerate(Rank)}
_RANK_ALIASES: dict[str, Rank] = {r.value: r for r in Rank}
_RANK_ALIASES["T"] = Rank.TEN
# Russian and Ukrainian letters (Cyrillic; the reader upper-cases what it reads)
_RU_RANKS = {Rank.JACK: "В", Rank.QUEEN: "Д", Rank.KING: "К", Rank.ACE: "Т"}
_RU_SUITS = {Suit.SPADES: "п", Suit.HEARTS: "ч", Suit.DIAMONDS: "б", Suit.CLUBS: "т"}
_RANK_ALIASES.update({v: r for r, v in _RU_RANKS.items()})
_SUIT_ALIASES.update({v.upper(): s for s, v in _RU_SUITS.items()})
#: the stems of the suits' names, Russian and Ukrainian (пики, пик, вини; черви, чирва ...)
_SUIT_STEMS = (("ПИК", Suit.SPADES), ("ПІК", Suit.SPADES), ("ВИН", Suit.SPADES), ("ЧЕРВ", Suit.HEARTS),
               ("ЧИРВ", Suit.HEARTS), ("БУБ", Suit.DIAMONDS), ("ДЗВІН", Suit.DIAMONDS), ("ТРЕФ", Suit.CLUBS),
               ("КРЕСТ", Suit.CLUBS), ("ХРЕСТ", Suit.CLUBS), ("ЖИР", Suit.CLUBS))
#: the stems of the ranks' names (шестерка, шістка; дама, краля; туз, цабе ...)
_RANK_STEMS = (
    ("ДВОЙК", Rank.TWO), ("ДВІЙК", Rank.TWO), ("ТРОЙК", Rank.THREE), ("ТРІЙК", Rank.THREE),
    ("ЧЕТВЕРК", Rank.FOUR), ("ЧЕТВІРК", Rank.FOUR), ("ПЯТЕРК", Rank.FIVE), ("ПЯТІРК", Rank.FIVE),
    ("ШЕСТЕРК", Rank.SIX), ("ШІСТК", Rank.SIX), ("СЕМЕРК", Rank.SEVEN), ("СІМК", Rank.SEVEN),
    ("ВОСЬМЕРК", Rank.EIGHT), ("ВІСІМК", Rank.EIGHT), ("ДЕВЯТК", Rank.NINE), ("ДЕСЯТК", Rank.TEN),
    ("ВАЛЕТ", Rank.JACK), ("НИЖНИК", Rank.JACK), ("ДАМ", Rank.QUEEN), ("КРАЛ", Rank.QUEEN),
    ("ВИШНИК", Rank.QUEEN), ("КОРОЛ", Rank.KING), ("ТУЗ", Rank.ACE), ("ЦАБЕ", Rank.ACE),
)


def _plain_word(word: str) -> str:
    return word.replace("Ё", "Е").replace("'", "").replace("’", "").replace("ʼ", "")


def _suit_word(word: str) -> Suit | None:
    """A suit named in Russian or Ukrainian, in any case (``пики``, ``червей``, ``бубна``)."""
    word = _plain_word(word)
    if len(word) < 3:
        return None
    return next((s for stem, s in _SUIT_STEMS if word.startswith(stem)), None)


def _rank_word(word: str) -> Rank | None:
    word = _plain_word(word)
    if len(word) < 3:
        return None
    return next((r for stem, r in _RANK_STEMS if word.startswith(stem)), None)
#: Suit order used when sorting hands for display: spades, hearts, clubs, diamonds
#: alternate colours.
SUIT_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


class CardError(UpdownError):
    """A token is not a card (code C001)."""


class Card:
    """A playing card: an ordinary card (rank and suit) or a joker (joker 1 or 2).

    Cards are interned values: ``Card(Rank.ACE, Suit.SPADES)`` always returns the same
    object, so comparing and hashing cost nothing. ``id`` numbers the 54 possible cards
    (suit by suit, two to ace, then the jokers); the engine maps it to its own index.
    """

    __slots__ = ("rank", "suit", "joker", "id", "_text")

    rank: Rank | None
    suit: Suit | None
    joker: int
    id: int
    _text: str

    def __new__(cls, rank: Rank | None, suit: Suit | None, joker: int = 0) -> Card:
        card = _INTERNED.get((rank, suit, joker))
        if card is not None:
            return card
        if joker:
            if rank is not None or suit is not None or joker not in (1, 2):
                raise ValueError(f"a joker has no rank or suit and is joker 1 or 2, not {joker!r}")
            gid, text = 51 + joker, "JK" if joker == 1 else f"JK{joker}"
        else:
            if not isinstance(rank, Rank) or not isinstance(suit, Suit):
                raise ValueError(f"an ordinary card needs a Rank and a Suit, not {rank!r}, {suit!r}")
            gid, text = _SUIT_INDEX[suit] * 13 + _RANK_ORDER[rank] - 2, f"{rank.value}{suit.value}"
        card = object.__new__(cls)
        for name, value in (("rank", rank), ("suit", suit), ("joker", joker), ("id", gid), ("_text", text)):
            object.__setattr__(card, name, value)
        _INTERNED[(rank, suit, joker)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: cards are frozen values")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: cards are frozen values")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Card, (self.rank, self.suit, self.joker)  # unpickled cards are the interned ones

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.id == self.id)

    def __hash__(self) -> int:
        return self.id

    @property
    def is_joker(self) -> bool:
        """True for a real joker (not for an ordinary card designated as joker)."""
        return self.joker != 0

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card token such as ``AS``, ``10H``, ``TH``, ``7♠``, ``jk`` or ``JK2``.

        :raises CardError: naming the bad token.
        """
        card = _PARSE_CACHE.get(token)
        if card is not None:
            return card
        text = token.strip().upper()
        card = _PARSE_CACHE.get(text)
        if card is None:
            card = _parse_uncached(token, text)
        if len(_PARSE_CACHE) < 4096:  # every usual spelling of the 54 cards fits; odd ones are not kept
            _PARSE_CACHE[text] = _PARSE_CACHE[token] = card
        return card

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __format__(self, spec: str) -> str:
        """``f"{card}"`` is ``str(card)``; ``{card:ru}`` the card as shown at a Russian table
        (``К♣``), as a translated message writes it."""
        return self.pretty(spec) if spec in NOTATIONS else format(self._text, spec)

    def pretty(self, notation: str = "en") -> str:
        """The card with a Unicode suit symbol, e.g. ``10♥``, ``Q♠`` (``ru``: ``Д♠``); jokers print
        as ``🃏``."""
        if self.joker:
            return "🃏" if self.joker == 1 else "🃏2"
        assert self.rank is not None and self.suit is not None
        rank = _RU_RANKS.get(self.rank, self.rank.value) if notation == "ru" else self.rank.value
        return f"{rank}{self.suit.symbol}"


_INTERNED: dict[tuple[Rank | None, Suit | None, int], Card] = {}
_SUIT_INDEX = {s: i for i, s in enumerate(Suit)}
_PARSE_CACHE: dict[str, Card] = {}
_JOKER_TOKENS = {"JK": 1, "JK1": 1, "JOKER": 1, "JOKER1": 1, "🃏": 1, "JK2": 2, "JOKER2": 2, "🃏2": 2,
                 "ДЖ": 1, "ДЖ1": 1, "ДЖОКЕР": 1, "ДЖОКЕР1": 1, "ДЖ2": 2, "ДЖОКЕР2": 2}


def _parse_uncached(token: str, text: str) -> Card:
    if text in _JOKER_TOKENS:
        return Card(None, None, _JOKER_TOKENS[text])
    words = text.split()
    if len(words) == 2:  # a card in words: "дама пик", "10 червей"
        rank = _RANK_ALIASES.get(words[0]) or _rank_word(words[0])
        suit = _SUIT_ALIASES.get(words[1]) or _suit_word(words[1])
        if rank is not None and suit is not None:
            return Card(rank, suit)
    text = text.replace(" ", "")
    if len(text) >= 2:
        rank = _RANK_ALIASES.get(text[:-1])
        suit = _SUIT_ALIASES.get(text[-1])
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise CardError(
        Diagnostic(
            "C001",
            tr("not a card: {token!r}", token=token),
            hint=tr("write rank then suit, e.g. AS, 10H, TH, 7♠; jokers are JK and JK2"),
        )
    )


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas (or an iterable of tokens).

    :raises CardError: naming the first bad token.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(t) for t in tokens)


def format_cards(cards: Iterable[Card], notation: str = "en") -> str:
    """Write cards in canonical notation (or ``ru``, :func:`card_text`) separated by single spaces."""
    if notation == "en":
        return " ".join(str(c) for c in cards)
    return " ".join(card_text(c, notation) for c in cards)


#: The notations a record's cards may be written in: ``en`` (AS 10H JK), ``ru`` (Тп 10ч Дж).
NOTATIONS = ("en", "ru")


def card_text(card: Card, notation: str = "en") -> str:
    """A card as written in ``notation``: ``AS`` or ``Тп``, ``JK2`` or ``Дж2``."""
    if notation == "en":
        return card._text
    if card.joker:
        return "Дж" if card.joker == 1 else f"Дж{card.joker}"
    assert card.rank is not None and card.suit is not None
    return _RU_RANKS.get(card.rank, card.rank.value) + _RU_SUITS[card.suit]


def suit_text(suit: Suit, notation: str = "en") -> str:
    """A suit as written in ``notation``: ``S`` or ``п``."""
    return suit.value if notation == "en" else _RU_SUITS[suit]


#: Lowest rank of each standard pack size.
PACK_LOW_RANK: dict[int, Rank] = {32: Rank.SEVEN, 36: Rank.SIX, 52: Rank.TWO}


def standard_pack(size: int) -> tuple[Card, ...]:
    """The 32, 36 or 52 ordinary cards of a pack, suit by suit, low to high.

    :raises ValueError: for another size.
    """
    if size not in PACK_LOW_RANK:
        raise ValueError(f"no standard pack of {size} cards (use 32, 36 or 52)")
    low = PACK_LOW_RANK[size].order
    return tuple(Card(r, s) for s in Suit for r in Rank if r.order >= low)


def build_deck(
    pack: int,
    *,
    jokers: int = 0,
    remove: Iterable[Card] = (),
    packs: int = 1,
) -> tuple[Card, ...]:
    """A pack with some cards removed and ``jokers`` real jokers added; with ``packs=2``, two
    such packs shuffled together (each card twice).

    >>> len(build_deck(36, jokers=2, remove=parse_cards("6S 6C"))), len(build_deck(52, packs=2))
    (36, 104)
    """
    removed = set(remove)
    cards = tuple(c for c in standard_pack(pack) if c not in removed)
    return (cards + tuple(Card(None, None, j) for j in range(1, jokers + 1))) * packs
