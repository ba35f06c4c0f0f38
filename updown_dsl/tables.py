"""Precomputed card tables for the engine's hot path.

Cards are numbered 0..D-1, suit by suit and low to high inside a suit, with
jokers last, so a hand is an ``int`` bit set and "the highest card of a
suit" is one ``bit_length`` away.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Play
from .cards import Card, Suit, build_deck
from .variant import Variant, WildRules

SUITS: tuple[Suit, ...] = tuple(Suit)
SUIT_ID: dict[Suit, int] = {s: i for i, s in enumerate(SUITS)}


@dataclass(frozen=True, slots=True)
class CardTable:
    """Per-variant lookup tables (built once per variant)."""

    cards: tuple[Card, ...]
    index: dict[Card, int]
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
    play_index: dict[int, int]
    """``id()`` of each shared plain :class:`Play` -> its card index (no hashing on the hot path)."""
    suit_runs: tuple[tuple[int, int], ...]
    """(first index, bit mask of the run) of each suit's cards."""
    _suit_plays: tuple[dict[int, tuple[Play, ...]], ...]

    def plays_of(self, mask: int) -> tuple[Play, ...]:
        """The plain plays of the ordinary cards in ``mask``, in pack order (cached per suit)."""
        out: tuple[Play, ...] = ()
        for s, (first, run) in enumerate(self.suit_runs):
            sub = (mask >> first) & run
            if sub:
                cache = self._suit_plays[s]
                plays = cache.get(sub)
                if plays is None:
                    plays = cache[sub] = tuple(
                        self.plays[first + j] for j in range(run.bit_length()) if (sub >> j) & 1
                    )
                out += plays
        return out

    @property
    def size(self) -> int:
        """Number of cards in the pack."""
        return len(self.cards)

    def mask(self, cards: object) -> int:
        """Bit set of an iterable of cards.

        :raises KeyError: for a card not in the pack.
        """
        m = 0
        for c in cards:  # type: ignore[attr-defined]
            m |= 1 << self.index[c]
        return m

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        """The cards in a bit set, low index first."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cards[low.bit_length() - 1])
            mask ^= low
        return tuple(out)


# Keyed by id() with the variant kept alive beside its table, so ids are never reused.
_TABLES: dict[int, tuple[Variant, CardTable]] = {}
_CACHE_SIZE = 64


def card_table(variant: Variant) -> CardTable:
    """The (cached) card table of a variant."""
    key = id(variant)
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    d = variant.deck
    deck = build_deck(d.pack, jokers=d.jokers, remove=d.remove)
    wild_by_card: dict[Card, WildRules] = {}
    for w in variant.wild:
        for c in w.cards:
            wild_by_card[c] = w
    jokerish = set(d.designated_jokers) | {c for c in deck if c.is_joker}
    ordinary = sorted(
        (c for c in deck if c not in jokerish),
        key=lambda c: (SUIT_ID[c.suit], c.rank.order),  # type: ignore[index, union-attr]
    )
    jokers = [c for c in deck if c in jokerish]
    cards = tuple(ordinary + jokers)
    suit_of = tuple(-1 if c in jokerish else SUIT_ID[c.suit] for c in cards)  # type: ignore[index]
    rank_of = tuple(0 if c in jokerish else c.rank.order for c in cards)  # type: ignore[union-attr]
    suit_mask = tuple(
        sum(1 << i for i, s in enumerate(suit_of) if s == sid) for sid in range(4)
    )
    joker_mask = sum(1 << i for i, s in enumerate(suit_of) if s == -1)
    plays = tuple(Play(c) for c in cards)
    runs = []
    for sid in range(4):
        idx = [i for i, s in enumerate(suit_of) if s == sid]
        runs.append((idx[0], (1 << len(idx)) - 1) if idx else (0, 0))
    table = CardTable(
        cards=cards,
        index={c: i for i, c in enumerate(cards)},
        suit_of=suit_of,
        rank_of=rank_of,
        suit_mask=suit_mask,
        joker_mask=joker_mask,
        wild_of=tuple(wild_by_card.get(c) for c in cards),
        wild_mask=sum(1 << i for i, c in enumerate(cards) if c in wild_by_card),
        plays=plays,
        full_mask=(1 << len(cards)) - 1,
        play_index={id(p): i for i, p in enumerate(plays)},
        suit_runs=tuple(runs),
        _suit_plays=tuple({} for _ in range(4)),
    )
    if len(_TABLES) >= _CACHE_SIZE:  # bounded: a long archive loads many variants
        del _TABLES[next(iter(_TABLES))]
    _TABLES[key] = (variant, table)
    return table
