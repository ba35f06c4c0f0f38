"""Two packs shuffled together (``deck.packs: 2``): the card table, the kernel's rule for two
identical cards in one trick, dealing and checking hands that hold a card twice, guesses of
the unseen cards, and the observation of a research environment."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from updown_dsl import Game, IllegalAction, Phase, Play, load_variant, loads_variant, parse_cards
from updown_dsl.cards import Card
from updown_dsl.engine.tables import card_table
from updown_dsl.lang.loader import VariantError
from updown_dsl.players.sampling import Sampler
from updown_dsl.records.checker import check_games
from updown_dsl.records.record import game_transcript
from updown_dsl.records.writer import format_transcript

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dima", "Elena", "Fedor", "Ivan", "Kira", "Lev")
LATER = """name: two-packs-later
extends: oh-hell-two-packs
deck: {pack: 52, packs: 2, identical: later_wins}
"""


def two_packs(identical: str = "first_wins"):
    return load_variant("oh-hell-two-packs") if identical == "first_wins" else loads_variant(LATER)


def test_the_table_numbers_each_copy_side_by_side() -> None:
    t = card_table(two_packs())
    assert t.size == 104 and t.copies == 2
    two_s = Card.parse("2S")
    assert t.cards[0] is t.cards[1] is two_s and t.index[two_s] == 0
    assert t.twin[:4] == (1, 0, 3, 2)
    assert t.seconds == sum(1 << i for i in range(1, 104, 2))
    assert t.indices(parse_cards("2S 2S 3S")) == [0, 1, 2]
    assert t.mask(parse_cards("2S"), taken=1) == 0b10  # the second copy once the first is taken
    assert t.held(two_s, 0b10) == 1 and t.held(two_s, 0b11) == 0
    # a hand holding the second copy of 2S and both 3S lists each card once
    assert [str(p.card) for p in t.plays_of(0b1110)] == ["2S", "3S"]
    assert t.canonical(0b1110) == 0b1101
    one = card_table(load_variant("oh-hell"))
    assert one.copies == 1 and one.seconds == 0 and one.canonical(0b1110) == 0b1110


THREE = """name: two-packs-three
extends: oh-hell-two-packs
schedule: [{cards: 3, times: 2}]
"""


def deal_hands(variant, hands: list[str], turned: str) -> Game:
    """Deal 1 of ``variant`` dealt by the last seat, with these hands and turned card."""
    game = Game(variant, len(hands), seed=0, first_dealer=len(hands) - 1, auto_deal=False)
    game.deal_cards([list(parse_cards(h)) for h in hands], turned=Card.parse(turned))
    return game


def one_card_trick(identical: str) -> Game:
    """Deal 1 (one card each) of six players: both AH are dealt, to seats 1 and 3, and the
    bids are made; seat 0 leads."""
    game = deal_hands(two_packs(identical), ["2H", "AH", "5H", "AH", "3C", "4D"], "KS")
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize(("identical", "winner"), [("first_wins", 1), ("later_wins", 3)])
def test_of_two_identical_cards_the_rule_says_which_wins(identical: str, winner: int) -> None:
    game = one_card_trick(identical)
    assert game.phase is Phase.PLAY and game.to_act == 0
    for card in ("2H", "AH", "5H", "AH", "3C", "4D"):
        if game.to_act == 3:
            # the second ace takes the trick only when the later one wins
            assert game.would_win(Play(Card.parse("AH"))) is (identical == "later_wins")
        game.apply(Play(Card.parse(card)))
    assert [r.taken for r in game.results[-1].seats] == [1 if s == winner else 0 for s in range(6)]


def test_hands_may_hold_a_card_as_often_as_the_packs_do_and_no_more() -> None:
    game = deal_hands(two_packs(), ["QS", "QS", "2C", "3C", "4C", "5C"], "KD")
    assert [str(c) for c in game.hand(0)] == ["QS"] == [str(c) for c in game.hand(1)]
    with pytest.raises(IllegalAction) as bad:  # three queens of spades: the packs hold two
        deal_hands(two_packs(), ["QS", "QS", "QS", "3C", "4C", "5C"], "KD")
    assert bad.value.diagnostics[0].code == "R013"
    assert bad.value.diagnostics[0].message == "QS was dealt more often than the 2 packs hold it"
    with pytest.raises(IllegalAction) as bad:  # the turned card is the third queen
        deal_hands(two_packs(), ["QS", "QS", "2C", "3C", "4C", "5C"], "QS")
    assert bad.value.diagnostics[0].code == "R013"


def test_a_card_held_twice_is_one_legal_play_and_may_be_played_twice() -> None:
    g = deal_hands(loads_variant(THREE), ["7H 7H 9C", "2H 3H 4H", "5H 6H 8H", "2C 3C 4C", "5C 6C 7C",
                                          "8C 10C JC"], "KS")
    while g.phase is Phase.BID:
        g.apply(g.legal_actions()[0])
    assert g.to_act == 0
    assert [str(p) for p in g.legal_actions()] == ["7H", "9C"]
    g.apply(Play(Card.parse("7H")))
    assert [str(c) for c in g.hand(0)] == ["7H", "9C"]
    for card in ("4H", "8H", "2C", "5C", "8C"):  # the 8H of seat 2 takes it
        g.apply(Play(Card.parse(card)))
    assert g.tricks[-1].winner == 2
    for card in ("6H", "3C", "6C", "10C"):
        g.apply(Play(Card.parse(card)))
    assert g.to_act == 0 and [str(p) for p in g.legal_actions()] == ["7H"]
    problem = g.check(Play(Card.parse("9C")))
    assert problem is not None and problem.code == "R010"
    g.apply(Play(Card.parse("7H")))  # the second copy
    assert [str(c) for c in g.hand(0)] == ["9C"]


def test_loader_refuses_two_packs_with_jokers() -> None:
    with pytest.raises(VariantError) as bad:
        loads_variant("name: x\nextends: odessa\ndeck: {pack: 36, jokers: 2, packs: 2}\n")
    assert [d.code for d in bad.value.diagnostics] == ["V012"]
    assert "deck.packs: 2" in bad.value.diagnostics[0].message


def test_bots_play_whole_games_and_the_records_check_clean_at_every_level() -> None:
    from updown_dsl.players.bots import make_bot

    variant = two_packs()
    for players, seed in ((6, 1), (10, 2)):
        game = Game(variant, players, seed=seed)
        bots = [make_bot("heuristic" if s % 2 else "random", random.Random(seed + s)) for s in range(players)]
        while not game.is_over:
            game.apply(bots[game.to_act].act(game.view(game.to_act)))
        for level in ("full", "plays", "sheet"):
            text = format_transcript(game_transcript(game, NAMES[:players], level=level,
                                                     variant="oh-hell-two-packs"))
            reports = list(check_games_text(text))
            assert [d.code for r in reports for d in r.diagnostics] == [], level


def check_games_text(text: str):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "game.log"
        p.write_text(text, encoding="utf-8")
        return list(check_games(p))


def _position(seed: int, steps: int) -> Game:
    game = Game(two_packs(), 6, seed=seed)
    rng = random.Random(seed)
    while game.deal.cards < 8:
        game.apply(rng.choice(game.legal_actions()))
    for _ in range(steps):
        if game.phase is Phase.DEAL or game.deal.cards < 8:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(6, 40))
def test_guesses_deal_each_card_as_often_as_the_packs_hold_it(seed: int, steps: int) -> None:
    game = _position(seed, steps)
    if game.phase is not Phase.PLAY:
        return
    seat = game.to_act
    view = game.view(seat)
    t = game.table
    sampler = Sampler(view)
    played = Counter(p.card for _, p in view.log.played())
    for k in range(5):
        hands = sampler.sample(random.Random(k))
        assert [h.bit_count() for h in hands] == [len(game.hand(s)) for s in range(6)]
        assert Counter(t.cards_of(hands[seat])) == Counter(view.hand)
        union = 0
        for h in hands:
            assert not union & h  # no copy in two hands
            union |= h
        dealt = Counter(t.cards_of(union)) + played
        if view.turned is not None:
            dealt[view.turned] += 1
        assert all(n <= 2 for n in dealt.values()), dealt.most_common(3)
        # every seat's guess, with the cards it played, is a hand the packs could deal
        for s in range(6):
            mine = Counter(t.cards_of(hands[s])) + Counter(p.card for q, p in view.log.played() if q == s)
            assert all(n <= 2 for n in mine.values())


def test_the_observation_does_not_tell_which_copy_a_hand_holds() -> None:
    from updown_dsl.research.space import Observation

    variant = two_packs()
    game = deal_hands(variant, ["2H", "AH", "5H", "AH", "3C", "4D"], "KS")
    obs = Observation(variant, 6)
    hand = next(b for b in obs.blocks if b.name == "hand")
    seen = {}
    for seat in (1, 3):  # one holds the first ace of hearts, the other the second
        v = obs.vector(game, seat)
        seen[seat] = [i - hand.offset for i in range(hand.offset, hand.offset + hand.size) if v[i]]
    assert seen[1] == seen[3] == [card_table(variant).index[Card.parse("AH")]]
