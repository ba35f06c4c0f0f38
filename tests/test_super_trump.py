"""A card whose role depends on the turned card (``trump.super_trump: same_colour``) and jokers
ranked by identity (``jokers.two_high: by_joker``): Super Screw Your Neighbour's worked cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from updown_dsl import Card, Play, loads_variant

THREE = """name: ssyn-three
extends: super-screw-your-neighbour
schedule: [{cards: 3, times: 4}]
"""


def deal(hands: list[str], turned: str):
    """Deal 1 (three cards each) of four players dealt by seat 3, the bids made (0 each where
    allowed); seat 0 leads."""
    from updown_dsl import Game, parse_cards

    game = Game(loads_variant(THREE), 4, seed=0, first_dealer=3, auto_deal=False)
    game.deal_cards([list(parse_cards(h)) for h in hands], turned=Card.parse(turned))
    while game.phase.value == "bid":
        game.apply(game.legal_actions()[0])
    assert game.to_act == 0
    return game


def play(game, *cards: str) -> int:
    for c in cards:
        words = c.split()
        game.apply(Play(Card.parse(words[0]), *words[1:]) if len(words) > 1 else Play(Card.parse(c)))
    return game.tricks[-1].winner


def test_the_turned_cards_rank_in_the_other_suit_of_its_colour_beats_the_ace_of_trump() -> None:
    # 7D turned: diamonds trump, 7H the super trump; seat 1 has no diamond
    game = deal(["AD 2C 3C", "7H 4S 5S", "KD 6C 8C", "QD 9C 10C"], "7D")
    assert game.trump is not None and game.trump.value == "D"
    assert play(game, "AD", "7H", "KD", "QD") == 1


def test_the_super_trump_belongs_to_its_suit_for_following() -> None:
    game = deal(["AH 2C 3C", "7H 4D 5S", "KH 6C 8C", "QH 9C 10C"], "7D")
    # hearts led: seat 1 must follow with 7H (its only heart), which then beats the ace of hearts
    game.apply(Play(Card.parse("AH")))
    assert [str(p) for p in game.legal_actions()] == ["7H"]
    assert play(game, "7H", "KH", "QH") == 1
    # a club led: seat 1 holding no club may play it, and it wins over the trumps
    game2 = deal(["2C AD 3S", "7H 4S 5S", "6C KD 8S", "9C QD 10S"], "7D")
    game2.apply(Play(Card.parse("2C")))
    assert Play(Card.parse("7H")) in game2.legal_actions()
    assert play(game2, "7H", "6C", "9C") == 1


def test_the_super_joker_beats_the_loser_joker_whoever_plays_first() -> None:
    for first, second, winner in (("JK", "JK2", 1), ("JK2", "JK", 2)):
        game = deal(["AS 2C 3C", f"{first} 4H 5H", f"{second} 6H 8H", "QS 9H 10H"], "7D")
        assert play(game, "AS", f"{first} high", f"{second} high", "QS") == winner


def test_a_joker_led_asks_for_no_suit_and_a_joker_turned_makes_no_trump() -> None:
    game = deal(["JK 2C 3C", "AS 4H 5H", "KS 6H 8H", "QS 9H 10H"], "7D")
    assert play(game, "JK free", "AS", "KS", "QS") == 0
    no_trump = deal(["AS 2C 3C", "7H 4H 5H", "KS 6H 8H", "QS 9H 10H"], "JK2")
    assert no_trump.trump is None
    assert play(no_trump, "AS", "7H", "KS", "QS") == 0  # no super trump without a trump


@pytest.mark.parametrize("turned,super_card", [("5S", "5C"), ("5C", "5S"), ("QH", "QD"), ("2D", "2H")])
def test_the_super_card_of_each_suit(turned: str, super_card: str) -> None:
    from updown_dsl.engine.tables import card_table

    t = card_table(loads_variant(THREE))
    assert t.cards[t.super_card(Card.parse(turned))] == Card.parse(super_card)
    assert t.super_card(Card.parse("JK")) == -1 and t.super_card(None) == -1


# ------------------------------------------------------------------ a picture card turned: no trump
PICTURE = Path(__file__).resolve().parents[1] / "docs" / "house-rules" / "oh-hell-picture-no-trump.yaml"


@pytest.mark.parametrize(("turned", "trump"), [("QH", None), ("JS", None), ("KD", None), ("AH", "H"), ("10C", "C")])
def test_a_turned_picture_card_makes_no_trump(turned: str, trump: str | None) -> None:
    from updown_dsl import Game, load_variant, parse_cards

    game = Game(load_variant(str(PICTURE)), 4, seed=0, first_dealer=3, auto_deal=False)
    game.deal_cards([list(parse_cards(c)) for c in ("2S", "3S", "4S", "5S")], turned=Card.parse(turned))
    assert (None if game.trump is None else game.trump.value) == trump


@pytest.mark.parametrize("level", ["full", "plays", "sheet"])
def test_games_of_the_picture_rule_check_clean_and_not_without_the_rule(level: str) -> None:
    import random

    from updown_dsl import Game, load_variant
    from updown_dsl.records.checker import check_text
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.writer import format_transcript

    variant = load_variant(str(PICTURE))
    game = Game(variant, 4, seed=5)
    rng = random.Random(5)
    pictures = 0
    while not game.is_over:
        if game.phase.value == "bid" and not any(b is not None for b in game.bids):
            pictures += game.turned is not None and game.turned.rank is not None and game.turned.rank.value in "JQK"
        game.apply(rng.choice(game.legal_actions()))
    assert pictures >= 2
    text = format_transcript(game_transcript(game, level=level, variant="oh-hell-picture-no-trump", embed_rules=True))
    assert check_text(text).clean
    if level != "sheet":  # (a sheet has no cards: the rule changes nothing it shows)
        plain = format_transcript(game_transcript(game, level=level, variant="oh-hell"))
        assert {"R003", "R050"} & {d.code for d in check_text(plain).errors}
