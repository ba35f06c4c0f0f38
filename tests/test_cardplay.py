"""The heuristic's card play in exact positions (Oh Hell, four players, spades trump)."""

from __future__ import annotations

import random

import pytest

import updown_dsl as ud
from updown_dsl import Bid, Card, Play, parse_cards
from updown_dsl.engine.tables import SUIT_ID
from updown_dsl.engine.worlds import game_at_deal
from updown_dsl.players.bots import HeuristicBot
from updown_dsl.players.knowledge import Knowledge


def _position(hands: list[str], bids: list[int], plays: str = "", turned: str = "2S") -> ud.Game:
    """Seat 3 deals (seat 0 bids and leads first), a spade turned: spades are trump."""
    variant = ud.loads_variant(f"extends: oh-hell\nname: t\nschedule:\n  - {{cards: {len(hands[0].split())}}}\n")
    game = game_at_deal(variant, 4, 0, 3)
    game.deal_cards([list(parse_cards(h)) for h in hands], turned=Card.parse(turned))
    for b in bids:
        game.apply(Bid(b))
    for c in plays.split():
        game.apply(Play(Card.parse(c)))
    return game


def _act(game: ud.Game) -> Card:
    action = HeuristicBot().act(game.view(game.to_act))
    assert isinstance(action, Play)
    return action.card


def test_sure_trumps_are_tricks_in_the_bank() -> None:
    # Bid 2 with the ace and king of trumps: they make the bid on their own. Leading the king of
    # hearts could win a third trick; the hand leads a sure trick or its low heart instead.
    game = _position(["AS KS KH QH 7H", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "8C 9C TC JC QC"], [2, 1, 1, 0])
    assert _act(game) in parse_cards("AS KS 7H")


# The next two the heuristic already played so before it counted sure tricks; they guard it.
def test_void_and_bid_made_sheds_the_ace() -> None:
    # Seat 1 bid 0 and has no heart: it throws the ace of diamonds, its one likely winner.
    game = _position(["KH 3H 4C 9C 2S", "AD 2D 5C 7C 8D", "2H 8H 8C JC QD", "4H 5H TC QC 9D"], [1, 0, 1, 1], "KH", "3S")
    assert _act(game) == Card.parse("AD")


def test_short_of_the_bid_ruffs_low() -> None:
    # Seat 1 needs two tricks and has no heart: the four of trumps ruffs, the ace stays a trick.
    game = _position(["KH 3H 4C 9C 2S", "AS 4S 5C 7C 8D", "2H 8H 8C JC QD", "4H 5H TC QC 9D"], [1, 2, 1, 2], "KH", "3S")
    assert _act(game) == Card.parse("4S")


@pytest.mark.parametrize("last_bid", [0, 3])
def test_a_player_who_has_its_bid_ducks(last_bid: int) -> None:
    # Seat 2 plays third to 2H 5H; seat 3 (still to play) bid 0 (it has its bid) or 3 (it wants
    # tricks). The king of hearts holds unless seat 3 beats it; a seat holding exactly its bid
    # beats it only 40 % as often as one that wants tricks.
    hands = ["2H 3C 4C 5C 6C", "5H 2D 3D 4D 6D", "KH 3H 7C 8C 9D", "AH 9C TC JC QC"]
    views = {}
    for b in (last_bid, 1):
        game = _position(hands, [1, 1, 1, b], "2H 5H")
        views[b] = Knowledge(game.view(2))
    king = Play(Card.parse("KH"))
    wanting = views[1].holds(king, SUIT_ID[ud.Suit.HEARTS], [3])
    here = views[last_bid].holds(king, SUIT_ID[ud.Suit.HEARTS], [3])
    assert 0.0 < wanting < 1.0
    if last_bid == 0:
        assert here == pytest.approx(1.0 - 0.4 * (1.0 - wanting))
    else:
        assert here == pytest.approx(wanting)


def test_a_void_shown_moves_the_suit_to_the_other_hands() -> None:
    # Seat 1 shows no heart: the unseen hearts lie with seats 2 and 3 and the stock only.
    game = _position(["KH 3H 4C 9C 2S", "AD 2D 5C 7C 8D", "2H 8H 8C JC QD", "4H 5H TC QC 9D"], [1, 0, 1, 1], "KH AD", "3S")
    know = Knowledge(game.view(2))
    hearts = SUIT_ID[ud.Suit.HEARTS]
    unseen = 52 - 5 - 2 - 1  # own hand, two cards played, the turned card
    assert know.nu == unseen
    assert know.share(3) == pytest.approx(5 / unseen)
    assert know.share(3, hearts) == pytest.approx(5 / (unseen - 4))  # seat 1 holds 4, no heart
    assert know.void(1, hearts) == 1.0


@pytest.mark.parametrize(("leader_bid", "expected"), [(1, "4H"), (2, "AH")])
def test_a_hopeless_hand_gives_the_trick_to_make_others_miss(leader_bid: int, expected: str) -> None:
    # Seat 3 bid 3 and lost the first trick: its bid is out of reach, and a trick is worth one
    # point to it. Seat 0 took the first trick and leads the king of hearts; seat 3, last to play,
    # holds the ace and four. With its bid of 1 made, seat 0 is put over by a second trick: seat 3
    # ducks with the four (it gives up a point, seat 0 loses its bonus). With a bid of 2, seat 0
    # still needs a trick: seat 3 takes it with the ace.
    hands = ["AC KH 9D", "2C 2H TD", "3C 3H JD", "4C AH 4H"]
    game = _position(hands, [leader_bid, 0, 0, 3], "AC 2C 3C 4C KH 2H 3H")
    assert _act(game) == Card.parse(expected)


def test_long_trumps_count_at_the_bid(monkeypatch: pytest.MonkeyPatch) -> None:
    # Four small trumps of seven cards, 24 of the 52 cards left undealt: once the others' few
    # trumps are drawn the last ones win, so each trump wins back 1 - (1 - 0.45 * 24/52)**3 of
    # its chance to lose, and the hand bids 3 (it bid 2 without).
    game = _position(["9S 7S 5S 3S AH 4D 6C", "2C 3C 4C 5C 6D 7D 8D", "2D 3D 9D TD JD 2H 3H",
                      "8C 9C TC JC QC 4H 5H"], [])
    view = game.view(0)
    know = Knowledge(view)
    assert know.undealt == pytest.approx(24 / 52)
    values = [know.value(know.t.index[c], True) for c in view.hand]
    assert HeuristicBot().act(view) == Bid(3)
    monkeypatch.setattr("updown_dsl.players.knowledge._LONG_TRUMP", 0.0)
    plain = [know.value(know.t.index[c], True) for c in view.hand]
    for card, v, p in zip(view.hand, values, plain):
        if card.suit is ud.Suit.SPADES:
            assert v == pytest.approx(p + (1.0 - p) * (1.0 - (1.0 - 0.45 * 24 / 52) ** 3))
        else:
            assert v == p
    assert HeuristicBot().act(view) == Bid(2)


def test_long_trumps_add_nothing_when_the_whole_pack_is_dealt() -> None:
    # Thirteen cards each, four players: nothing is left undealt, so trumps count as before.
    variant = ud.loads_variant("extends: oh-hell\nname: t\nschedule:\n  - {cards: \"min(13, max_cards)\"}\n")
    game = game_at_deal(variant, 4, 0, 3, rng=random.Random(1))
    game.deal_random()
    know = Knowledge(game.view(0))
    assert know.undealt == 0.0
    assert know._long_trumps(5) == 0.0
