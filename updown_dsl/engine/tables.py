"""Card tables: the pack of a variant as integer indices, built once per variant.

Cards are numbered 0..D-1, suit by suit and low to high inside a suit, with the
cards that act only as jokers last, so a hand is an ``int`` bit set, "the highest
card of a suit" is one ``bit_length`` away, and a card's strength in a trick is one
tuple lookup (:attr:`CardTable.keys`).

Two packs shuffled together (``deck.packs: 2``) number each copy of a card: the two copies
of a card sit side by side (the first copy's index, then the second's), with the same
suit, rank and key, so every rule reads them alike. A :class:`~updown_dsl.cards.Card`
names either copy; :meth:`CardTable.held` and :meth:`CardTable.free` say which copy a
hand holds or which one is still to be placed, and the plays listed for a hand name each
card once however many copies it holds.
"""

from __future__ import annotations

from typing import Iterable

from ..actions import Play
from ..cards import Card, Suit
from ..lang.variant import Variant, WildRules

SUITS: tuple[Suit, ...] = tuple(Suit)
SUIT_ID: dict[Suit, int] = {s: i for i, s in enumerate(SUITS)}

#: Trick keys of plain cards: a trump beats the led suit, which beats a discard (key 0).
KEY_TRUMP = 2000
KEY_LED = 1000
#: The key of a super trump (``trump.super_trump``): above the ace of trump.
KEY_SUPER = KEY_TRUMP + 15
#: The other suit of each suit's colour (spades and clubs, hearts and diamonds), by suit id.
SAME_COLOUR = (3, 2, 1, 0)

#: Entries kept in a table's cache of legal-play tuples before it starts afresh.
_PLAYS_CACHE_LIMIT = 1 << 16
#: The longest legal-play tuple a table's cache keeps.
_PLAYS_CACHED_LENGTH = 3


#: The plain play of each card (no declaration): one object per card, shared by every table.
_PLAIN_PLAYS: dict[Card, Play] = {}
#: The listings of every subset of a suit's cards, by those cards (see :func:`_suit_listing`).
_SUIT_LISTINGS: dict[tuple[Card, ...], list[tuple[Play, ...]]] = {}


def plain_play(card: Card) -> Play:
    """The shared :class:`Play` of ``card`` without a declaration."""
    play = _PLAIN_PLAYS.get(card)
    if play is None:
        play = _PLAIN_PLAYS[card] = Play(card)
    return play


def _suit_listing(cards: tuple[Card, ...]) -> list[tuple[Play, ...]]:
    """The plain plays of every subset of one suit's ``cards`` (low to high), indexed by the
    subset's bit set (bit ``j``: the ``j``-th card): at most 2**13 tuples, made once for every
    table whose suit holds these cards (a list index is the cheapest lookup there is)."""
    out = _SUIT_LISTINGS.get(cards)
    if out is None:
        out = [()]
        for c in cards:
            play = plain_play(c)
            out += [t + (play,) for t in out]  # the subsets with this card: each one without it, plus it
        if len(_SUIT_LISTINGS) < 64:  # (a few packs: 52, 36, 32 cards...)
            _SUIT_LISTINGS[cards] = out
    return out


class CardTable:
    """Per-variant lookup tables (see :func:`card_table`)."""

    __slots__ = ("cards", "index", "by_id", "suit_of", "rank_of", "suit_mask", "joker_mask",
                 "wild_of", "wild_mask", "plays", "full_mask", "bit",
                 "keys", "turned_suit", "plays_cache", "copies", "twin", "seconds", "_suit_plays", "_runs",
                 "_super_keys")

    cards: tuple[Card, ...]
    index: dict[Card, int]
    by_id: tuple[int, ...]
    """:attr:`Card.id` -> this pack's index, -1 for a card not in the pack."""
    suit_of: tuple[int, ...]
    """Suit id 0..3 of each card, -1 for a card acting only as joker."""
    rank_of: tuple[int, ...]
    """Rank order (2..14) of each card, 0 for jokers."""
    suit_mask: tuple[int, ...]
    """Bit set of the ordinary cards of each suit."""
    joker_mask: int
    """Cards that are only jokers (real or designated)."""
    wild_of: tuple[WildRules | None, ...]
    wild_mask: int
    """Cards with declarations (jokers and special cards)."""
    plays: tuple[Play, ...]
    """The plain :class:`Play` of each card (no declaration), shared to avoid allocation."""
    full_mask: int
    bit: tuple[int, ...]
    """``1 << index`` of each card."""
    keys: tuple[tuple[int, ...], ...]
    """``keys[(trump + 1) * 5 + led + 1][i]``: strength of plain card ``i`` in a trick with that
    trump and led suit (-1 for none): ``KEY_TRUMP + rank``, ``KEY_LED + rank`` or 0."""
    turned_suit: tuple[int, ...]
    """The trump suit id a card gives when turned up (-1: no trump)."""
    copies: int
    """Copies of each card in the pack: 1, or 2 for two packs shuffled together."""
    twin: tuple[int, ...]
    """The index of the other copy of each card (-1 with one pack)."""
    seconds: int
    """The bit set of every second copy (0 with one pack)."""

    def __init__(self, variant: Variant, kind: str | None = None) -> None:
        d = variant.deck
        deck = d.cards()
        wild_by_card: dict[Card, WildRules] = {}
        for w in variant.wild:
            if kind is not None and w.kinds and kind not in w.kinds:
                continue  # ordinary cards in this kind of deal (the same indices: they keep their suit)
            for c in w.cards:
                wild_by_card[c] = w
        jokerish = set(d.designated_jokers) | {c for c in deck if c.is_joker}
        ordinary = sorted(
            (c for c in deck if c not in jokerish),
            key=lambda c: (SUIT_ID[c.suit], c.rank.order),  # type: ignore[index, union-attr]
        )
        cards = tuple(ordinary + [c for c in deck if c in jokerish])
        self.cards = cards
        index: dict[Card, int] = {}
        self.index = index
        for i, c in enumerate(cards):
            index.setdefault(c, i)  # a card's index is its first copy's
        by_id = [-1] * 54
        for c, i in index.items():
            by_id[c.id] = i
        self.by_id = tuple(by_id)
        self.copies = d.packs
        self.twin = tuple(i + 1 if index[c] == i else index[c] for i, c in enumerate(cards)) \
            if d.packs > 1 else (-1,) * len(cards)
        self.seconds = sum(1 << i for i, c in enumerate(cards) if index[c] != i)
        self.suit_of = suit_of = tuple(-1 if c in jokerish else SUIT_ID[c.suit] for c in cards)  # type: ignore[index]
        self.rank_of = rank_of = tuple(0 if c in jokerish else c.rank.order for c in cards)  # type: ignore[union-attr]
        self.suit_mask = tuple(sum(1 << i for i, s in enumerate(suit_of) if s == sid) for sid in range(4))
        self.joker_mask = sum(1 << i for i, s in enumerate(suit_of) if s == -1)
        self.wild_of = wild_of = tuple(wild_by_card.get(c) for c in cards)
        self.wild_mask = sum(1 << i for i, c in enumerate(cards) if c in wild_by_card)
        self.plays = tuple(plain_play(c) for c in cards)
        self.full_mask = (1 << len(cards)) - 1
        runs = []
        for sid in range(4):
            idx = [i for i, s in enumerate(suit_of) if s == sid]
            runs.append((idx[0], (1 << len(idx)) - 1) if idx else (0, 0))
        self._runs = tuple(x for run in runs for x in run)
        self.bit = tuple(1 << i for i in range(len(cards)))
        keys = []
        for trump in range(-1, 4):
            for led in range(-1, 4):
                keys.append(tuple(
                    (KEY_TRUMP + r if s == trump and trump >= 0 else KEY_LED + r if s == led else 0)
                    if s >= 0 else 0
                    for s, r in zip(suit_of, rank_of)))
        self.keys = tuple(keys)
        self.turned_suit = tuple(
            -1 if s < 0 or (w is not None and w.turned_as_trump == "no_trump") else s
            for s, w in zip(suit_of, wild_of))
        self._suit_plays: tuple[list[tuple[Play, ...]], ...] | None = None  # (made when first asked for)
        self._super_keys: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.plays_cache: dict[int, tuple[Play, ...]] = {}
        """:meth:`plays_of` by bit set, as far as it was asked (bounded)."""

    def plays_of(self, mask: int) -> tuple[Play, ...]:
        """The plain plays of the ordinary cards in ``mask``, in pack order (cached); a card
        of which ``mask`` holds both copies is listed once."""
        out = self.plays_cache.get(mask)
        return self.make_plays(mask) if out is None else out

    def make_plays(self, mask: int) -> tuple[Play, ...]:
        """:meth:`plays_of` when :attr:`plays_cache` has no listing of ``mask``: made from the
        suits' listings, and kept when short."""
        if self.seconds:
            # Two packs: a suit's listings would be 2**26 long; list the cards one by one, each
            # once (its first copy's play: the copies' plays are one object)
            each = self.plays
            out = tuple([each[i] for i in bit_indices(self.canonical(mask) & ~self.seconds)])
        else:
            f0, r0, f1, r1, f2, r2, f3, r3 = self._runs
            suits = self._suit_plays
            if suits is None:
                suits = self._suit_plays = self._suit_listings()
            s0, s1, s2, s3 = suits
            out = s0[(mask >> f0) & r0] + s1[(mask >> f1) & r1] + s2[(mask >> f2) & r2] + s3[(mask >> f3) & r3]
        # Only short lists are kept: a longer one is a hand of several suits (a lead, a
        # discard) that hardly comes again, and keeping it cost more than making it
        # (measured on random deals: the stores, and the garbage collector's walks).
        if len(out) <= _PLAYS_CACHED_LENGTH:
            plays = self.plays_cache
            if len(plays) >= _PLAYS_CACHE_LIMIT:
                plays.clear()  # bounded: long simulations see millions of hands
            plays[mask] = out
        return out

    def _suit_listings(self) -> tuple[list[tuple[Play, ...]], ...]:
        runs = self._runs
        return tuple(_suit_listing(self.cards[runs[2 * s]:runs[2 * s] + runs[2 * s + 1].bit_length()])
                     for s in range(4))

    def super_card(self, turned: Card | None) -> int:
        """The index of the super trump a turned card makes (``trump.super_trump: same_colour``):
        the card of its rank in the other suit of its colour; -1 for no card, a joker, or a
        card not in the pack."""
        i = self.index.get(turned, -1) if turned is not None else -1
        if i < 0 or self.suit_of[i] < 0:
            return -1
        k = self.index.get(Card(turned.rank, SUITS[SAME_COLOUR[self.suit_of[i]]]), -1)  # type: ignore[union-attr]
        return k if k >= 0 and self.suit_of[k] >= 0 else -1

    def keys_with_super(self, card: int) -> tuple[tuple[int, ...], ...]:
        """:attr:`keys` with card ``card`` a super trump in every row that has a trump: its key is
        :data:`KEY_SUPER` whatever suit is led (cached)."""
        out = self._super_keys.get(card)
        if out is None:
            rows = []
            for r, row in enumerate(self.keys):
                if r >= 5:  # (rows of a trump suit; the first five have none)
                    row = row[:card] + (KEY_SUPER,) + row[card + 1:]
                rows.append(row)
            out = self._super_keys[card] = tuple(rows)
        return out

    @property
    def size(self) -> int:
        """Number of cards in the pack."""
        return len(self.cards)

    def held(self, card: Card, hand: int) -> int:
        """The index of the copy of ``card`` that ``hand`` (a bit set) holds: with two packs,
        the second copy when the hand holds only that one; otherwise the card's index.

        :raises KeyError: for a card not in the pack.
        """
        i = self.index[card]
        return self.twin[i] if self.copies > 1 and not (hand >> i) & 1 and (hand >> self.twin[i]) & 1 else i

    def free(self, card: Card, taken: int) -> int:
        """The index of a copy of ``card`` not in ``taken`` (a bit set of cards already placed):
        with two packs, the second copy once the first is taken; otherwise the card's index
        (which may be in ``taken``: a card placed twice).

        :raises KeyError: for a card not in the pack.
        """
        i = self.index[card]
        return self.twin[i] if self.copies > 1 and (taken >> i) & 1 else i

    def canonical(self, mask: int) -> int:
        """``mask`` as the cards it holds, whichever copies: with two packs, a card held once is
        its first copy, a card held twice both; with one pack, ``mask`` itself."""
        seconds = self.seconds
        if not seconds:
            return mask
        firsts = mask & ~seconds
        return firsts | ((mask & seconds) >> 1) | ((firsts << 1) & mask)

    def indices(self, cards: Iterable[Card], taken: int = 0) -> list[int]:
        """The indices of an iterable of cards, in order, each a copy not in ``taken`` nor
        taken by an earlier card of the iterable (:meth:`free`): with two packs, ``QS QS``
        is both copies.

        :raises KeyError: for a card not in the pack.
        """
        out = []
        for c in cards:
            i = self.free(c, taken)
            taken |= 1 << i
            out.append(i)
        return out

    def mask(self, cards: Iterable[Card], taken: int = 0) -> int:
        """Bit set of an iterable of cards (:meth:`indices`).

        :raises KeyError: for a card not in the pack.
        """
        m = 0
        for i in self.indices(cards, taken):
            m |= 1 << i
        return m

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The cards in a bit set, low index first."""
        out = []
        cards = self.cards
        while mask:
            low = mask & -mask
            out.append(cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)


# Keyed by id() with the variant kept alive beside its table, so ids are never reused.
_TABLES: dict[tuple[int, str | None], tuple[Variant, CardTable]] = {}
_CACHE_SIZE = 64


def bit_indices(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (the cards of a hand, by table index), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_table(variant: Variant, kind: str | None = None) -> CardTable:
    """The (cached) card table of a variant: with ``kind``, of its deals of that kind, where
    cards wild only in other kinds of deal are ordinary (:attr:`WildRules.kinds`); without,
    every wild card is wild. The cards have the same indices in every table of a variant."""
    if kind is not None and not any(w.kinds and kind not in w.kinds for w in variant.wild):
        kind = None  # (the variant's own table)
    key = (id(variant), kind)
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    table = CardTable(variant, kind)
    if len(_TABLES) >= _CACHE_SIZE:  # bounded: a long archive loads many variants
        del _TABLES[next(iter(_TABLES))]
    _TABLES[key] = (variant, table)
    return table
