"""Card notation, packs and decks (updown_dsl.cards)."""

from __future__ import annotations

import pytest

from updown_dsl import load_variant
from updown_dsl.cards import (
    PACK_LOW_RANK,
    Card,
    CardError,
    Rank,
    Suit,
    build_deck,
    format_cards,
    parse_cards,
    standard_pack,
)
from updown_dsl.lang.loader import bundled_names
from updown_dsl.engine.tables import card_table

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


# ------------------------------------------------------------------ parsing
@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("AS", Rank.ACE, S), ("10H", Rank.TEN, H), ("TH", Rank.TEN, H), ("7♠", Rank.SEVEN, S),
        ("as", Rank.ACE, S), ("th", Rank.TEN, H), ("10h", Rank.TEN, H), ("qd", Rank.QUEEN, D),
        ("Kc", Rank.KING, C), ("2C", Rank.TWO, C), ("6s", Rank.SIX, S), ("J♥", Rank.JACK, H),
        ("9♦", Rank.NINE, D), ("8♣", Rank.EIGHT, C), ("  AS  ", Rank.ACE, S), ("10♡", Rank.TEN, H),
    ],
)
def test_parse_ordinary(token: str, rank: Rank, suit: Suit) -> None:
    card = Card.parse(token)
    assert (card.rank, card.suit, card.joker) == (rank, suit, 0)
    assert not card.is_joker


@pytest.mark.parametrize(
    ("token", "n"), [("JK", 1), ("jk", 1), ("JK1", 1), ("Joker", 1), ("JK2", 2), ("jk2", 2), ("🃏", 1)]
)
def test_parse_jokers(token: str, n: int) -> None:
    card = Card.parse(token)
    assert card.is_joker and card.joker == n and card.rank is None and card.suit is None
    assert str(card) == ("JK" if n == 1 else "JK2")


def test_parse_is_canonical_value() -> None:
    assert Card.parse("10H") == Card.parse("th") == Card.parse("T♥") == Card(Rank.TEN, H)
    assert Card.parse("JK") != Card.parse("JK2")
    assert Card.parse("JK") != Card.parse("JH")
    assert hash(Card.parse("as")) == hash(Card(Rank.ACE, S))


@pytest.mark.parametrize(
    "text",
    ["AS KD 10h jk2", "AS,KD,10h,jk2", "AS, KD, 10h, jk2", "  AS\tKD\n10h  jk2 ", "as,kd 10H,JK2"],
)
def test_parse_cards_separators(text: str) -> None:
    cards = parse_cards(text)
    assert format_cards(cards) == "AS KD 10H JK2"


def test_parse_cards_iterable_and_empty() -> None:
    assert parse_cards(["as", "10h"]) == (Card(Rank.ACE, S), Card(Rank.TEN, H))
    assert parse_cards("") == ()
    assert parse_cards(" , ,") == ()


@pytest.mark.parametrize("token", ["XS", "1H", "11H", "AX", "A", "", "S", "10", "JK3", "AS2", "♠", "ZZZ", "10HH"])
def test_bad_card_is_c001_naming_token(token: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(token)
    (d,) = info.value.diagnostics
    assert d.code == "C001"
    assert repr(token) in d.message, d.message


def test_parse_cards_names_the_first_bad_token() -> None:
    with pytest.raises(CardError) as info:
        parse_cards("AS KD 1H 2X")
    (d,) = info.value.diagnostics
    assert d.code == "C001" and "'1H'" in d.message and "2X" not in d.message


@pytest.mark.parametrize("token", ["S", "s", "♠", "spades", "Spade", "H", "♥", "d", "clubs", " c "])
def test_suit_parse(token: str) -> None:
    assert Suit.parse(token) in set(Suit)


def test_suit_parse_bad_is_c001() -> None:
    with pytest.raises(CardError) as info:
        Suit.parse("X")
    assert info.value.diagnostics[0].code == "C001"


# ------------------------------------------------------------------ canonical form
ALL_CARDS = sorted({c for size in (32, 36, 52) for c in build_deck(size, jokers=2)}, key=str)


@pytest.mark.parametrize("size", [32, 36, 52])
def test_canonical_round_trip_every_card_of_every_pack(size: int) -> None:
    deck = build_deck(size, jokers=2)
    for card in deck:
        text = str(card)
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert Card.parse(card.pretty()) == card
        assert str(Card.parse(text)) == text
    assert parse_cards(format_cards(deck)) == deck


def test_canonical_form_spelling() -> None:
    assert [str(c) for c in parse_cards("th 2c jd qs kh ad jk jk2")] == [
        "10H", "2C", "JD", "QS", "KH", "AD", "JK", "JK2"]
    assert Card.parse("10H").pretty() == "10♥"


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_repr_pastes_back(card: Card) -> None:
    assert eval(repr(card), {"Card": Card}) == card  # noqa: S307 - test only


# ------------------------------------------------------------------ packs and decks
@pytest.mark.parametrize(
    ("pack", "jokers", "remove", "size"),
    [
        (32, 0, "", 32), (36, 0, "", 36), (52, 0, "", 52),
        (52, 1, "", 53), (52, 2, "", 54),
        (36, 2, "", 38),
        (36, 2, "6S 6C", 36),  # Georgian: the black sixes replaced by two jokers
    ],
)
def test_deck_sizes(pack: int, jokers: int, remove: str, size: int) -> None:
    deck = build_deck(pack, jokers=jokers, remove=parse_cards(remove))
    assert len(deck) == size
    assert len(set(deck)) == size
    assert sum(c.is_joker for c in deck) == jokers


def test_georgian_deck() -> None:
    v = load_variant("georgian")
    deck = card_table(v).cards
    assert len(deck) == 36
    assert Card.parse("JK") in deck and Card.parse("JK2") in deck
    assert Card.parse("6S") not in deck and Card.parse("6C") not in deck
    assert Card.parse("6H") in deck and Card.parse("6D") in deck


@pytest.mark.parametrize(("size", "low"), [(32, Rank.SEVEN), (36, Rank.SIX), (52, Rank.TWO)])
def test_rank_orders_per_pack(size: int, low: Rank) -> None:
    assert PACK_LOW_RANK[size] is low
    pack = standard_pack(size)
    for suit in Suit:
        ranks = [c.rank for c in pack if c.suit is suit]
        assert ranks[0] is low and ranks[-1] is Rank.ACE
        orders = [r.order for r in ranks]  # type: ignore[union-attr]
        assert orders == sorted(orders) and len(set(orders)) == len(orders)
        assert orders == list(range(low.order, 15))
        assert len(ranks) == size // 4


def test_rank_order_values() -> None:
    assert [r.order for r in Rank] == list(range(2, 15))
    assert Rank.TEN.order < Rank.JACK.order < Rank.QUEEN.order < Rank.KING.order < Rank.ACE.order


def test_standard_pack_rejects_other_sizes() -> None:
    for size in (0, 24, 40, 53, 54):
        with pytest.raises(ValueError):
            standard_pack(size)


def test_remove_and_jokers_keep_order() -> None:
    deck = build_deck(36, jokers=2, remove=parse_cards("6S 6C"))
    assert deck[-2:] == (Card.parse("JK"), Card.parse("JK2"))
    assert deck[:-2] == tuple(c for c in standard_pack(36) if str(c) not in ("6S", "6C"))


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_names())
def test_card_table_of_each_variant(name: str) -> None:
    v = load_variant(name)
    t = card_table(v)
    deck = build_deck(v.deck.pack, jokers=v.deck.jokers, remove=v.deck.remove, packs=v.deck.packs)
    assert sorted(map(str, t.cards)) == sorted(map(str, deck))
    assert t.full_mask == (1 << len(deck)) - 1
    assert t.mask(t.cards) == t.full_mask
    assert t.cards_of(t.full_mask) == t.cards
    for i, c in enumerate(t.cards):
        jokerish = c.is_joker or c in v.deck.designated_jokers
        assert (t.suit_of[i] == -1) == jokerish
        assert (t.rank_of[i] == 0) == jokerish
        assert bool((t.joker_mask >> i) & 1) == jokerish
        if not jokerish:
            assert t.rank_of[i] == c.rank.order  # type: ignore[union-attr]
            assert (t.suit_mask[t.suit_of[i]] >> i) & 1
