"""Wild cards in some kinds of deal only (``special_card.kinds``), several cards with one set of
powers (``special_card.also``), and a copy that beats the real card (``copy_wins``): Clag's
twos, wild in its twelfth deal."""

from __future__ import annotations

import pytest

from updown_dsl import Card, Play, load_variant, loads_variant
from updown_dsl.lang.loader import VariantError

from gamekit import bid, code, game_at, hands

FIRST_WINS = """name: clag-first
extends: clag
special_card: {card: 2S, also: [2H, 2D, 2C], kinds: [twos-wild], impersonate: true, copy_wins: false,
               lead: [], follow: [], exempt: false}
"""
SEVEN = ("AC KD 9S 7H 5C 4D 3S", "2H QD 8S 6H 4C 3D 5S", "KC JD 10S 8H 6C 5D 4S",
         "QC 10D JS 9H 7C 6D 6S", "JC 9D QS 10H 8C 7D 7S")


def twelfth(spec: str = "clag"):
    """Deal 12 of Clag (twos wild) for five, dealt by seat 4: seat 0 leads, seat 1 holds 2H."""
    game = game_at(spec, 5, 12)
    assert game.deal.kind == "twos-wild"
    game.deal_cards(hands(*SEVEN), turned=Card.parse("KH"))
    bid(game, 1, 1, 1, 1, 1)
    return game


@pytest.mark.parametrize(("spec", "winner"), [("clag", 1), (FIRST_WINS, 0)])
def test_a_two_named_as_the_card_led_beats_it_where_the_copy_wins(spec: str, winner: int) -> None:
    game = twelfth(spec)
    game.apply(Play(Card.parse("AC")))
    copy = Play(Card.parse("2H"), "as", None, Card.parse("AC"))
    assert copy in game.legal_actions()
    assert game.would_win(copy) is (winner == 1)
    game.apply(copy)
    for card in ("KC", "QC", "JC"):
        game.apply(Play(Card.parse(card)))
    assert game.tricks[-1].winner == winner


def test_a_two_named_as_a_card_follows_suit_as_that_card() -> None:
    game = twelfth()
    game.apply(Play(Card.parse("AC")))
    # seat 1 holds 4C: a two named as a heart would not follow clubs
    assert code(game, Play(Card.parse("2H"), "as", None, Card.parse("AH"))) is not None
    assert Play(Card.parse("2H"), "as", None, Card.parse("AH")) not in game.legal_actions()


@pytest.mark.parametrize("number", [1, 13])
def test_in_the_other_deals_a_two_is_an_ordinary_card(number: int) -> None:
    game = game_at("clag", 5, number)
    if number == 1:  # (the first deal: one card each)
        game.deal_cards(hands("2H", "AC", "KC", "QC", "JC"), turned=Card.parse("KH"))
        bid(game, 0, 0, 0, 0, 0)
        assert [str(p) for p in game.legal_actions()] == ["2H"]
        return
    game = game_at("clag", 5, number)
    assert game.deal.kind == "normal"
    game.deal_cards(hands(*SEVEN), turned=Card.parse("KH"))
    bid(game, 1, 1, 1, 1, 1)
    game.apply(Play(Card.parse("AC")))
    assert [p for p in game.legal_actions() if p.declare is not None] == []  # type: ignore[union-attr]
    assert code(game, Play(Card.parse("2H"), "as", None, Card.parse("AC"))) == "R015"
    assert not game.table.wild_mask and game.table.wild_of[game.table.index[Card.parse("2H")]] is None


def test_the_tables_of_a_variant_number_the_cards_alike() -> None:
    from updown_dsl.engine.tables import card_table

    v = load_variant("clag")
    wild, plain = card_table(v, "twos-wild"), card_table(v, "normal")
    assert wild is card_table(v) and plain is not wild
    assert wild.cards == plain.cards
    assert [str(c) for c in wild.cards_of(wild.wild_mask)] == ["2S", "2H", "2D", "2C"]
    assert plain.wild_mask == 0


def test_the_loader_checks_the_kinds_and_the_cards() -> None:
    with pytest.raises(VariantError) as bad:
        loads_variant(FIRST_WINS.replace("kinds: [twos-wild]", "kinds: [twos]"))
    assert [(d.code, d.line) for d in bad.value.diagnostics] == [("V012", 3)]
    assert "no deal kind is named 'twos'" in bad.value.diagnostics[0].message
    with pytest.raises(VariantError) as bad:
        loads_variant("name: x\nextends: clag\ndeck: {pack: 36}\n")
    assert {d.code for d in bad.value.diagnostics} == {"V011"}
    assert len(bad.value.diagnostics) == 4  # 2S 2H 2D 2C: none is in a 36-card pack
