"""General behaviour of the engine (:class:`updown_dsl.Game`), beyond the worked cases.

The worked cases of docs/worked-cases.md are played in test_rules_cases.py.

Seats are 0-based; the default first dealer is the last seat, so seat 0 is eldest.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Iterator

import pytest

from updown_dsl import (
    Bid,
    Card,
    ChooseTrump,
    Game,
    IllegalAction,
    Phase,
    Play,
    Suit,
    bundled_names,
    load_variant,
    parse_cards,
    settle,
)
from updown_dsl.actions import FOLLOW_DECLARATIONS, LEAD_DECLARATIONS
from updown_dsl.engine.tables import SUIT_ID

# ----------------------------------------------------------------------------- helpers

from gamekit import bid, code, game_at, hands, set_totals, table_size, variant


def play(game: Game, *plays: str) -> None:
    for p in plays:
        game.apply(Play.parse(p))


@contextmanager
def raises_code(expected: str) -> Iterator[None]:
    """Expect an :class:`IllegalAction` whose first diagnostic has code ``expected``."""
    with pytest.raises(IllegalAction) as info:
        yield
    assert info.value.diagnostics[0].code == expected


def random_game(spec: str, players: int, seed: int) -> Game:
    game = Game(variant(spec), players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


# ============================================================================ seats, phases


def test_default_dealer_is_last_seat_eldest_bids_and_leads_first():
    game = Game(variant("odessa"), 4, seed=1)
    assert game.dealer == 3 and game.eldest == 0
    assert game.bidding_order() == [0, 1, 2, 3]
    assert game.phase is Phase.BID and game.to_act == 0
    bid(game, 0, 0, 0)
    assert game.to_act == 3
    game.apply(game.legal_actions()[0])
    assert game.phase is Phase.PLAY and game.to_act == 0 and game.leader == 0


def test_first_dealer_parameter_and_clockwise_rotation():
    game = Game(variant("odessa"), 4, seed=1, first_dealer=1)
    assert game.dealer == 1 and game.eldest == 2 and game.bidding_order() == [2, 3, 0, 1]
    dealers = []
    while game.deal.number <= 6:
        dealers.append(game.dealer)
        number = game.deal.number
        while game.deal.number == number:
            game.apply(game.legal_actions()[0])
    assert dealers == [1, 2, 3, 0, 1, 2]


def test_first_dealer_is_taken_modulo_players():
    assert Game(variant("odessa"), 4, seed=1, first_dealer=6).dealer == 2


@pytest.mark.parametrize("players", [1, 7])
def test_player_count_outside_the_variant_is_refused(players):
    with pytest.raises(ValueError):
        Game(variant("odessa"), players)


def test_auto_deal_is_reproducible_by_seed():
    a = Game(variant("georgian"), 4, seed=42)
    b = Game(variant("georgian"), 4, seed=42)
    assert a.hands == b.hands and a.turned == b.turned
    assert all(len(h) == 1 for h in a.hands)


def test_auto_deal_false_waits_for_cards():
    game = Game(variant("odessa"), 3, auto_deal=False)
    assert game.phase is Phase.DEAL and game.to_act == -1
    assert game.legal_actions() == ()
    assert code(game, Bid(0)) == "R002"
    assert code(game, Play.parse("AS")) == "R002"


def test_deal_from_order_deals_one_card_at_a_time_from_eldest_and_turns_the_next():
    game = game_at("odessa", 3, 2)
    order = list(parse_cards("AS AH AD KS KH KD 9C 7C 8C"))
    game.deal_from_order(order)
    # eldest (seat 0) gets cards 1 and 4, seat 1 cards 2 and 5, the dealer 3 and 6
    assert set(game.hand(0)) == set(parse_cards("AS KS"))
    assert set(game.hand(1)) == set(parse_cards("AH KH"))
    assert set(game.hand(2)) == set(parse_cards("AD KD"))
    assert game.turned == Card.parse("9C") and game.trump is Suit.CLUBS


# ============================================================================ deal_cards


def test_deal_cards_refuses_a_wrong_hand_size():
    game = game_at("odessa", 3, 2)
    with raises_code("R002"):
        game.deal_cards(hands("AS", "KS QS", "JS 10S"), turned=Card.parse("9H"))


def test_deal_cards_refuses_a_wrong_number_of_hands():
    game = game_at("odessa", 3, 1)
    with raises_code("R002"):
        game.deal_cards(hands("AS", "KS"), turned=Card.parse("9H"))


def test_deal_cards_refuses_a_card_not_in_the_pack():
    game = game_at("odessa", 3, 1)
    with raises_code("R013"):
        game.deal_cards(hands("2S", "KS", "QS"), turned=Card.parse("9H"))  # 36-card pack


def test_deal_cards_refuses_a_card_dealt_twice():
    game = game_at("odessa", 3, 1)
    with raises_code("R013"):
        game.deal_cards(hands("AS", "AS", "QS"), turned=Card.parse("9H"))


def test_deal_cards_refuses_a_turned_card_that_was_dealt():
    game = game_at("odessa", 3, 1)
    with raises_code("R013"):
        game.deal_cards(hands("AS", "KS", "QS"), turned=Card.parse("AS"))


def test_deal_cards_needs_a_turned_card_when_trump_is_turned():
    game = game_at("odessa", 3, 1)
    with raises_code("R002"):
        game.deal_cards(hands("AS", "KS", "QS"))


def test_deal_cards_refuses_a_turned_card_not_in_the_pack():
    # 2♠ is not in Odessa's 36-card pack: it cannot have been turned up.
    game = game_at("odessa", 3, 1)
    with raises_code("R013"):
        game.deal_cards(hands("AS", "KS", "QS"), turned=Card.parse("2S"))


def test_deal_cards_only_in_the_deal_phase():
    game = Game(variant("odessa"), 3, seed=1)
    assert game.phase is Phase.BID
    with raises_code("R002"):
        game.deal_cards(hands("AS", "KS", "QS"), turned=Card.parse("9H"))


def test_refused_deal_cards_leaves_the_game_unchanged():
    # The turned card is also in a hand: refused.  The cut card (7♠) must not
    # have zeroed the cutter's total, nor the hands have been given out.
    game = game_at("russian-cut", 3, 1)
    set_totals(game, [5, 6, 7])
    with raises_code("R013"):
        game.deal_cards(hands("AS", "KS", "QS"), turned=Card.parse("AS"), cut_card=Card.parse("7S"))
    assert game.totals == (5, 6, 7)
    assert game.phase is Phase.DEAL
    assert game.hands == ((), (), ())


# ============================================================================ trump


def test_turned_card_gives_trump():
    game = game_at("odessa", 3, 1)
    game.deal_cards(hands("AS", "KS", "QS"), turned=Card.parse("9H"))
    assert game.trump is Suit.HEARTS and game.turned == Card.parse("9H")


def test_russian_seven_of_spades_turned_makes_spades_trump():
    game = game_at("russian", 3, 1)
    game.deal_cards(hands("AS", "KH", "QD"), turned=Card.parse("7S"))
    assert game.trump is Suit.SPADES  # AMB-R11: an ordinary card when turned


def test_georgian_real_joker_turned_means_no_trump():
    game = game_at("georgian", 4, 1)
    game.deal_cards(hands("AS", "KH", "QD", "JC"), turned=Card.parse("JK"))
    assert game.trump is None and game.phase is Phase.BID


def test_random_trump_comes_from_the_argument():
    game = game_at("up-and-down-online", 4, 1)
    game.deal_cards(hands("AS", "KH", "QD", "JC"), random_trump=Suit.DIAMONDS)
    assert game.trump is Suit.DIAMONDS


def test_fixed_trump_option():
    v = variant("extends: up-and-down\nname: up-and-down-spades\ntrump: {rule: fixed, suit: S}\n")
    game = Game(v, 4, auto_deal=False)
    game.deal_cards(hands("AS", "KH", "QD", "JC"), turned=Card.parse("2H"))
    assert game.trump is Suit.SPADES


def test_russian_no_trump_deal_ignores_the_turned_card():
    game = game_at("russian", 4, 15)
    assert game.deal.kind == "no-trump"
    order = list(game.table.cards)
    random.Random(3).shuffle(order)
    game.deal_from_order(order)
    assert game.trump is None and game.turned is None


def test_odessa_six_players_six_cards_trump_is_the_dealers_last_card():
    game = game_at("odessa", 6, 6)
    assert game.deal.cards == 6
    # all 36 cards are dealt; the dealer's last card is A♣
    cards = [c for c in game.table.cards if c != Card.parse("AC")]
    others, dealer = cards[:30], cards[30:] + [Card.parse("AC")]
    game.deal_cards([others[i * 6:(i + 1) * 6] for i in range(5)] + [dealer])
    assert game.trump is Suit.CLUBS
    assert Card.parse("AC") in game.hand(5)


def test_georgian_nine_card_deal_trump_chosen_by_eldest_may_be_no_trump():
    game = game_at("georgian", 4, 9)
    order = list(game.table.cards)
    random.Random(9).shuffle(order)
    game.deal_from_order(order)
    assert game.phase is Phase.TRUMP and game.to_act == 0
    assert len(game.chooser_view()) == 3
    assert code(game, Bid(0)) == "R002"
    game.apply(ChooseTrump(None))
    assert game.trump is None and game.phase is Phase.BID
    assert code(game, ChooseTrump(Suit.HEARTS)) == "R022"


NO_TRUMP_NOT_CHOSEN = """\
extends: georgian
name: georgian-suit-only
trump: {choose_no_trump: false}
"""


def test_trump_choice_without_no_trump_option():
    game = game_at(NO_TRUMP_NOT_CHOSEN, 4, 9)
    order = list(game.table.cards)
    random.Random(9).shuffle(order)
    game.deal_from_order(order)
    assert game.phase is Phase.TRUMP
    assert ChooseTrump(None) not in game.legal_actions()
    assert len(game.legal_actions()) == 4
    assert code(game, ChooseTrump(None)) == "R022"


# ============================================================================ bids


def test_bid_out_of_range_is_r020():
    game = game_at("odessa", 3, 2)
    game.deal_cards(hands("AS KS", "AH KH", "AD KD"), turned=Card.parse("9C"))
    assert code(game, Bid(3)) == "R020"
    assert code(game, Bid(-1)) == "R020"
    assert game.bid_range() == (0, 2)
    assert game.forbidden_bid() is None  # only the last bidder is restricted


BLIND_WITHOUT_HOOK = """\
extends: odessa
name: odessa-blind-free
kinds: {blind: {hook: false}}
"""


def test_kind_hook_override_frees_the_blind_deal_only():
    game = game_at(BLIND_WITHOUT_HOOK, 4, 14)
    order = list(game.table.cards)
    random.Random(1).shuffle(order)
    game.deal_from_order(order)
    assert game.deal.kind == "normal"
    bid(game, 0, 0, 0)
    assert game.forbidden_bid() == 1  # the hook still binds normal deals
    game = game_at(BLIND_WITHOUT_HOOK, 4, 15)
    assert game.deal.kind == "blind" and game.kind.multiplier == 2  # the rest of the kind is kept
    bid(game, 1, 2, 0)
    assert game.forbidden_bid() is None
    assert code(game, Bid(3)) is None


def test_no_bids_in_minimum_and_maximum_deals():
    game = game_at("russian", 4, 17)
    order = list(game.table.cards)
    random.Random(2).shuffle(order)
    game.deal_from_order(order)
    assert game.phase is Phase.PLAY
    assert game.bids == (None, None, None, None)
    assert code(game, Bid(0)) == "R002"


# ============================================================================ play


def small_deal(spec: str, *cards: str, turned: str = "9C", bids=(0, 0, 1)) -> Game:
    game = game_at(spec, 3, 2)
    game.deal_cards(hands(*cards), turned=Card.parse(turned))
    bid(game, *bids)
    assert game.phase is Phase.PLAY
    return game


def test_highest_card_of_the_led_suit_wins_and_discards_never_win():
    game = small_deal("odessa", "10H 7D", "AS 8D", "JH 9D", turned="KC")
    play(game, "10H", "AS", "JH")
    assert game.tricks[-1].winner == 2


def test_trump_beats_the_led_suit_and_the_highest_trump_wins():
    game = small_deal("odessa", "AH 7D", "8C 8D", "10C 9D", turned="KC")
    play(game, "AH", "8C", "10C")
    assert game.tricks[-1].winner == 2


def test_card_not_in_hand_is_r013():
    game = small_deal("odessa", "AH 7D", "8C 8D", "10C 9D")
    assert code(game, Play.parse("KS")) == "R013"
    assert code(game, Play.parse("8C")) == "R013"  # another seat's card


def test_failing_to_follow_is_r010_and_apply_refuses_it():
    game = small_deal("odessa", "AH 7D", "KH 8D", "10C 9D")
    play(game, "AH")
    assert code(game, Play.parse("8D")) == "R010"
    with raises_code("R010"):
        game.apply(Play.parse("8D"))
    assert game.to_act == 1 and len(game.trick) == 1  # nothing changed


def test_bid_during_play_is_r002():
    game = small_deal("odessa", "AH 7D", "KH 8D", "10C 9D")
    assert code(game, Bid(0)) == "R002"
    assert code(game, ChooseTrump(Suit.HEARTS)) == "R022"


def test_joker_must_be_declared_and_ordinary_cards_cannot_be():
    game = small_deal("odessa", "6S 7D", "KH 8D", "10C 9D")
    assert code(game, Play.parse("6S")) == "R015"
    assert code(game, Play.parse("7D high")) == "R015"
    assert code(game, Play.parse("6S low")) == "R015"  # low is for following only
    assert code(game, Play.parse("6S demand")) == "R015"  # a demand names a suit
    assert code(game, Play.parse("6S demand H")) is None
    leads = {str(a) for a in game.legal_actions()}
    assert leads == {"7D"} | {f"6S {d} {s}" for d in ("demand", "high") for s in "SHDC"}


def test_odessa_joker_high_lead_names_a_suit_followed_normally():
    game = small_deal("odessa", "6S 7D", "KH 8H", "10C 9D", turned="KC")
    play(game, "6S high H")
    # plain follow: any heart, not the highest
    assert set(game.legal_actions()) == {Play.parse("KH"), Play.parse("8H")}
    play(game, "8H")
    # void in hearts, holding a trump: must trump
    assert game.legal_actions() == (Play.parse("10C"),)
    play(game, "10C")
    assert game.tricks[-1].winner == 0  # the joker is the strongest trump (AMB-O3 (a))


def test_odessa_joker_high_when_following_beats_the_trump_ace():
    game = small_deal("odessa", "AC 7D", "6S 8D", "10C 9D", turned="KC")
    play(game, "AC")
    assert {str(a) for a in game.legal_actions()} == {"8D", "6S high", "6S low"}  # void, no trump
    play(game, "6S high", "10C")
    assert game.tricks[-1].winner == 1


def test_odessa_joker_may_be_played_low_instead_of_following():
    game = small_deal("odessa", "AH 7D", "6S 8H", "10C 9D", turned="KC")
    play(game, "AH")
    assert {str(a) for a in game.legal_actions()} == {"8H", "6S high", "6S low"}


def test_trick_led_by_the_winner_of_the_last():
    game = small_deal("odessa", "AH 7D", "KH 8D", "QH AD")
    play(game, "AH", "KH", "QH")
    assert game.to_act == 0 and game.leader == 0
    play(game, "7D", "8D", "AD")
    assert game.results[-1].tricks[-1].winner == 2
    assert [s.taken for s in game.results[-1].seats] == [1, 0, 1]


MUST_FOLLOW_OFF = """\
extends: up-and-down
name: up-and-down-no-follow
schedule: [{cards: 2}]
play: {must_follow: false}
"""


def test_must_trump_binds_only_a_player_void_in_the_led_suit():
    # must_follow: false, must_trump: true.  P2 holds the led suit (A♥), so the
    # must-trump duty ("void in the led suit and holding a trump") does not bind:
    # following with A♥ is legal.
    game = Game(variant(MUST_FOLLOW_OFF), 3, auto_deal=False)
    game.deal_cards(hands("KH 7D", "AH 8C", "QH 10S"), turned=Card.parse("9C"))
    bid(game, 1, 1, 1)
    play(game, "KH")
    assert Play.parse("AH") in game.legal_actions()
    assert code(game, Play.parse("AH")) is None


# ============================================================================ revoke


def test_revoke_outside_play_is_refused():
    game = Game(variant("odessa"), 3, seed=1)
    with raises_code("R002"):
        game.revoke(0, "R010")
    assert game.totals == (0, 0, 0)


def test_revoke_for_an_uncovered_code_is_refused():
    game = small_deal("odessa", "AH 7D", "KH 8D", "QH AD")
    with raises_code("R014"):
        game.revoke(1, "R014")
    assert game.totals == (0, 0, 0)


def test_revoke_penalty_is_not_doubled_in_the_blind_deal():
    game = game_at("odessa", 4, 15)
    order = list(game.table.cards)
    random.Random(5).shuffle(order)
    while game.phase is Phase.BID:  # blind: bids before the deal
        game.apply(game.legal_actions()[0])
    game.deal_from_order(order)
    assert game.revoke(2, "R010") == -50
    assert game.totals == (0, 0, -50, 0)
    assert game.deal.number == 15 and game.dealer == 3


MULTIPLIED = """\
extends: odessa
name: odessa-doubled-revoke
penalties: {revoke: {points: -50, multiplied: true}}
"""


def test_revoke_multiplied_option_doubles_in_the_blind_deal():
    game = game_at(MULTIPLIED, 4, 15)
    order = list(game.table.cards)
    random.Random(5).shuffle(order)
    while game.phase is Phase.BID:  # blind: bids before the deal
        game.apply(game.legal_actions()[0])
    game.deal_from_order(order)
    assert game.revoke(2, "R010") == -100


def test_revoke_with_auto_deal_deals_the_same_deal_again():
    game = Game(variant("odessa"), 4, seed=3)
    while game.deal.number < 3:
        game.apply(game.legal_actions()[0])
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    dealer = game.dealer
    game.revoke(0, "R011")
    assert game.deal.number == 3 and game.dealer == dealer
    assert game.phase is Phase.BID and all(len(h) == 3 for h in game.hands)
    assert game.results[-1].annulled


NO_REPLAY = """\
extends: odessa
name: odessa-revoke-no-replay
penalties: {revoke: {points: -10, replay: false}}
"""


def test_revoke_without_replay_keeps_the_deal_going():
    game = small_deal(NO_REPLAY, "AH 7D", "KH 8D", "QH AD")
    play(game, "AH")
    assert game.revoke(1, "R010") == -10
    assert game.phase is Phase.PLAY and game.to_act == 1 and len(game.trick) == 1
    penalty = game.results[-1]
    assert penalty.seats[1].penalty == -10
    assert not penalty.annulled  # the deal was not stopped: it is played and scored
    play(game, "KH", "QH", "7D", "8D", "AD")
    assert game.results[-1].deal.number == 2 and not game.results[-1].annulled
    assert game.totals[1] == -10 + game.results[-1].seats[1].points


ABANDON = """\
extends: odessa
name: odessa-revoke-abandon
penalties: {revoke: {points: -50, then: abandon}}
"""


def test_revoke_that_abandons_the_deal_scores_it_as_the_table_decided():
    game = small_deal(ABANDON, "AH 7D", "KH 8D", "QH AD")
    assert game.variant.revoke is not None and game.variant.revoke.then == "abandon"
    assert not game.variant.revoke.replay
    play(game, "AH")
    # Boris plays 8D holding KH: the table stops the deal and gives Anna 10 and Vera 5.
    assert game.revoke(1, "R010", Play.parse("8D"), scores=[10, 0, 5]) == -50
    assert game.totals == (10, -50, 5)
    assert [r.event for r in game.results] == ["revoke", "abandoned"]
    assert game.deal.number == 3 and game.phase is not Phase.PLAY


def test_revoke_that_abandons_without_scores_scores_nothing():
    game = small_deal(ABANDON, "AH 7D", "KH 8D", "QH AD")
    play(game, "AH")
    game.revoke(1, "R010")
    assert game.totals == (0, -50, 0) and game.deal.number == 3


def test_then_overrides_replay_and_replay_false_means_play_on():
    assert variant(NO_REPLAY).revoke.then == "play_on"  # type: ignore[union-attr]
    assert variant("odessa").revoke.then == "replay"  # type: ignore[union-attr]


def test_play_as_written_puts_an_illegal_card_on_the_table():
    game = small_deal("odessa", "AH 7D", "KH 8D", "QH AD")
    play(game, "AH")
    assert code(game, Play.parse("8D")) == "R010"
    assert game.play_as_written(Play.parse("8D"))  # Boris revokes, as a record shows
    play(game, "QH")
    assert game.tricks[-1].winner == 0  # AH still wins: 8D neither follows nor trumps
    assert game.hand(1) == (Card.parse("KH"),)


def test_play_as_written_cannot_play_a_card_not_in_hand_or_a_bare_joker():
    game = small_deal("odessa", "AH 6S", "KH 8D", "QH AD")
    assert not game.play_as_written(Play.parse("KH"))  # Boris's card, Anna to play
    assert not game.play_as_written(Play.parse("6S"))  # the joker needs a declaration
    assert not game.play_as_written(Play.parse("6S low"))  # 'low' is not a lead
    assert game.to_act == 0 and not game.trick
    assert game.play_as_written(Play.parse("6S high H"))
    assert len(game.trick) == 1


def test_bid_as_written_takes_a_bid_the_hook_forbids():
    game = game_at("odessa", 3, 2)
    game.deal_cards(hands("AH 7D", "KH 8D", "QH AD"), turned=Card.parse("9C"))
    bid(game, 0, 0)
    assert code(game, Bid(2)) == "R021"
    assert not game.bid_as_written(-1)  # not a number of tricks
    assert game.bid_as_written(2)
    assert game.phase is Phase.PLAY and game.bids[2] == 2


def test_bid_as_written_takes_a_bid_above_the_cards_which_then_fails():
    # A record may show a bid out of range (R020); the checker reports it and goes on with
    # the deal, so that its other mistakes are found: the bid fails however the play goes.
    game = game_at("odessa", 3, 2)
    game.deal_cards(hands("AH 7D", "KH 8D", "QH AD"), turned=Card.parse("9C"))
    bid(game, 0, 0)
    assert code(game, Bid(3)) == "R020"
    assert game.bid_as_written(3)
    assert game.phase is Phase.PLAY and game.bids[2] == 3
    while game.phase is Phase.PLAY:
        game.apply(game.legal_actions()[0])
    seat = game.results[-1].seats[2]
    assert seat.bid == 3 and seat.taken < 3 and seat.points < 0


# ============================================================================ end and settlement


def test_game_over_refuses_everything():
    game = random_game("oh-hell", 5, seed=2)
    assert game.is_over and game.over_reason == "schedule complete"
    assert game.legal_actions() == ()
    assert code(game, Bid(0)) == "R030"
    assert code(game, Play.parse("AS")) == "R030"
    assert game.deal.number == len(game.deals)


def test_winners_and_highest_settlement():
    game = Game(variant("odessa"), 4, seed=1)
    set_totals(game, [30, 45, 45, -5])
    assert game.winners() == [1, 2]
    assert game.settlement() == [30, 45, 45, -5]


def test_pairwise_settlement_sums_to_zero():
    amounts = settle(variant("up-and-down-online"), [37, -12, 5, 90, -3])
    assert sum(amounts) == 0
    assert amounts == [5 * x - 117 for x in [37, -12, 5, 90, -3]]


NEGATIVE_DOUBLES = """\
extends: odessa
name: odessa-money
settlement: {method: pairwise, negative_doubles: true}
"""


def test_negative_total_pays_double_option():
    # pairwise −100, 20, 80; P1 ended below zero: pays double, and the winners share the 200
    # in proportion to their gains (20 : 80), so money balances
    assert settle(variant(NEGATIVE_DOUBLES), [-20, 20, 40]) == [-200, 40, 160]


CAPPED = """\
extends: up-and-down-online
name: capped
settlement: {cap: 100, stake: 2, negative_doubles: true}
"""


def test_a_capped_or_doubled_pairwise_settlement_balances():
    # rounding down the shares used to lose points (a capped settlement summed to -2)
    for totals in ([10, 200, 260, 90], [-10, 20, 40, 30], [0, 0, 0, 7], [5, 5, 5, 5], [-50, 0, 50, 1]):
        amounts = settle(variant(CAPPED), totals)
        assert sum(amounts) == 0, (totals, amounts)
    # the odd points go to the largest remainders: 134 + 66 = 200 paid by the capped loser
    assert settle(variant(CAPPED.replace(", negative_doubles: true", "")), [-10, 20, 40, 30]) == [-200, 0, 134, 66]


# ============================================================================ whole games


GAMES = [(name, p) for name in bundled_names() for p in sorted({
    load_variant(name).min_players, load_variant(name).default_players, load_variant(name).max_players})]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{n}-{p}" for n, p in GAMES])
def test_random_full_game_invariants(name, players):
    game = random_game(name, players, seed=players)
    v = game.variant
    totals = [0] * players
    for r in game.results:  # resets (the cut rule) first, then points
        for s in getattr(r, "reset", ()):
            totals[s] = 0
        for s in range(players):
            totals[s] += r.total(s)
    assert tuple(totals) == game.totals
    scored = [r for r in game.results if r.event == "deal"]
    if game.over_reason == "schedule complete":
        assert [r.deal.number for r in scored] == list(range(1, len(game.deals) + 1))
    elif v.end.target is not None:  # the schedule played round until a total reached the target
        assert game.over_reason == f"a total reached {v.end.target}" and max(game.totals) >= v.end.target
        assert [r.deal.number for r in scored] == list(range(1, len(scored) + 1))
    else:
        assert "stop-loss" in (game.over_reason or "")
    for r in scored:
        assert sum(s.taken for s in r.seats) == r.deal.cards
        assert len(r.tricks) == r.deal.cards
        kind = v.kinds[r.deal.kind]
        bids = [s.bid for s in r.seats]
        if kind.bidding == "none":
            assert bids == [None] * players
        else:
            assert all(b is not None and 0 <= b <= r.deal.cards for b in bids)
            hook = kind.hook if kind.hook is not None else v.bidding.hook
            if hook:
                assert sum(bids) != r.deal.cards  # type: ignore[arg-type]


def candidates(game: Game) -> list[object]:
    if game.phase is Phase.BID:
        return [Bid(b) for b in range(-1, game.deal.cards + 2)]
    if game.phase is Phase.TRUMP:
        return [ChooseTrump(s) for s in Suit] + [ChooseTrump(None)]
    out: list[object] = []
    for c in game.hand(game.to_act):
        out.append(Play(c))
        for d in sorted(set(LEAD_DECLARATIONS) | set(FOLLOW_DECLARATIONS)):
            out.append(Play(c, d))
            if d in ("demand", "high", "takes"):
                out.extend(Play(c, d, s) for s in Suit)
    return out


@pytest.mark.parametrize("name", bundled_names())
def test_check_agrees_with_legal_actions(name):
    game = Game(variant(name), table_size(variant(name)), seed=11)
    rng = random.Random(11)
    steps = 0
    while not game.is_over and steps < 150:
        legal = set(game.legal_actions())
        assert legal
        for action in candidates(game):
            assert (game.check(action) is None) == (action in legal), (str(action), game.phase)  # type: ignore[arg-type]
        game.apply(rng.choice(sorted(legal, key=str)))
        steps += 1


@pytest.mark.parametrize("name", ["oh-hell", "georgian", "odessa", "russian", "estimation"])
def test_the_view_names_the_seat_holding_the_trick(name: str) -> None:
    """A card that would not win leaves the trick with ``trick_winner``, one that would takes it
    (jokers and the seven of spades too), and the trick goes to the seat holding it at the end."""
    rng = random.Random(3)
    game = Game(load_variant(name), 4, seed=3)
    plays = ended = 0
    while not game.is_over and plays < 300:
        if game.phase is not Phase.PLAY:
            game.apply(rng.choice(game.legal_actions()))
            continue
        view = game.view(game.to_act)
        assert (view.trick_winner is None) == (not view.trick)
        play = rng.choice(game.legal_actions())
        holder = game.to_act if not view.trick or play in view.winning_plays else view.trick_winner
        deal, taken = game.deal_index, list(game.taken)
        game.apply(play)
        plays += 1
        if game.deal_index != deal:
            continue
        if game.view(0).trick:
            assert game.view(0).trick_winner == holder
        else:
            ended += 1
            assert [s for s in range(4) if game.taken[s] > taken[s]] == [holder]
    assert plays > 200 and ended > 40


# ------------------------------------------------------------------ push, pop, text
from hypothesis import given, settings, strategies as st  # noqa: E402


def _state(g: Game) -> tuple[object, ...]:
    return (str(g), g.phase, g.to_act, g.deal_index, g.dealer, g.hands, g.bids, g.taken, g.trick,
            tuple(g.tricks), tuple(g.totals), tuple(g.results), g.trump, g.turned, tuple(g.kernel.log.order),
            g.rng.getstate(), g.legal_actions())


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["oh-hell", "georgian", "odessa", "russian", "estimation", "up-and-down-online"]),
       seed=st.integers(0, 10_000), before=st.integers(0, 80), pushed=st.integers(1, 60), popped=st.data())
def test_pop_restores_the_game_exactly(name: str, seed: int, before: int, pushed: int, popped) -> None:
    """Whatever was pushed, popping back to any point leaves the game as it was there, its
    random generator included: the deals after it are dealt the same again."""
    rng = random.Random(seed)
    game = Game(load_variant(name), 4, seed=seed)
    for _ in range(before):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
    states = [_state(game)]
    for _ in range(pushed):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_actions()))
        states.append(_state(game))
    back = popped.draw(st.integers(0, len(game.move_stack)), label="pops")
    for _ in range(back):
        game.pop()
    assert _state(game) == states[len(states) - 1 - back]
    assert len(game.move_stack) == len(states) - 1 - back


def test_push_refuses_an_illegal_action_and_keeps_the_stack() -> None:
    game = Game(load_variant("oh-hell"), 4, seed=7)
    game.push("1")
    with pytest.raises(IllegalAction):
        game.push("bid 7")
    assert game.move_stack == (Bid(1),)
    assert game.pop() == Bid(1) and game.move_stack == ()
    with pytest.raises(IndexError):
        game.pop()


def test_text_actions_are_read_as_the_phase_asks() -> None:
    from updown_dsl.actions import Call, ChooseTrump
    from updown_dsl.cards import CardError

    game = Game(load_variant("oh-hell"), 4, seed=7)
    assert game.parse_action("0") == Bid(0) and game.parse_action("bid 1") == Bid(1)
    assert game.parse_action("trump none") == ChooseTrump(None) and game.parse_action("call dash") == Call(0)
    for _ in range(4):
        game.apply("0")
    assert game.phase is Phase.PLAY and game.parse_action("9H") == Play.parse("9H")
    for _ in range(4):
        game.apply(str(game.legal_actions()[0]))
    assert game.deal.number == 2
    with pytest.raises(CardError):
        game.parse_action("bid many")
    assert repr(game).startswith("<Game oh-hell, 4 players, deal 2/23, bid, to act 1")
    assert str(game).splitlines()[0] == "oh-hell · deal 2 of 23 · 2 cards · dealer 0 · bid"


# ------------------------------------------------------------------ the kernel's listing, clones
def test_answers_follows_then_trumps_and_a_lead_may_be_anything() -> None:
    """``PlayKernel.answers``: the plain part of the follow rule (oh-hell: follow suit, no
    obligation to trump), with led -1 for a lead."""
    game = Game(load_variant("oh-hell"), 4, seed=1)
    k, t = game.kernel, game.table
    hand = t.mask(parse_cards("AS KH 2H 3C"))
    assert t.cards_of(k.answers(hand, SUIT_ID[Suit.HEARTS])) == parse_cards("2H KH")
    assert k.answers(hand, SUIT_ID[Suit.DIAMONDS]) == hand  # void: any card
    assert k.answers(hand, -1) == hand  # nothing asked for


def test_answers_must_trump_when_void() -> None:
    game = Game(load_variant("up-and-down"), 4, seed=1)  # follow suit, else trump
    k, t = game.kernel, game.table
    k.set_trump(SUIT_ID[Suit.CLUBS])
    hand = t.mask(parse_cards("AS KH 3C 9C"))
    assert t.cards_of(k.answers(hand, SUIT_ID[Suit.DIAMONDS])) == parse_cards("3C 9C")
    assert t.cards_of(k.answers(hand, SUIT_ID[Suit.SPADES])) == parse_cards("AS")


@settings(max_examples=200, deadline=None)
@given(cards=st.sets(st.integers(0, 51), max_size=13))
def test_the_listing_of_a_card_set_is_its_plays_in_pack_order(cards: set[int]) -> None:
    """Whether the table keeps a listing (short ones) or makes it each time (long ones), it
    is the plain plays of the cards, low index first, and the same when asked again."""
    t = Game(load_variant("oh-hell"), 4, seed=1).table
    mask = sum(1 << i for i in cards)
    expected = tuple(Play(c) for c in t.cards_of(mask))
    assert t.plays_of(mask) == expected
    assert t.plays_of(mask) == expected


def test_a_clone_draws_what_the_game_would_draw() -> None:
    """A clone's generator starts where the game's is (a pending Gaussian included) and is its
    own: drawing from one does not move the other."""
    game = Game(load_variant("oh-hell"), 4, seed=11)
    game.rng.gauss(0, 1)  # leaves the second Gaussian of the pair pending
    copy = game.clone()
    assert copy.rng is not game.rng and copy.rng.getstate() == game.rng.getstate()
    draws = [copy.rng.random(), copy.rng.gauss(0, 1), copy.rng.randrange(52)]
    assert [game.rng.random(), game.rng.gauss(0, 1), game.rng.randrange(52)] == draws
    copy.rng.random()
    assert copy.rng.getstate() != game.rng.getstate()


def test_end_as_written_follows_the_totals_as_they_now_stand() -> None:
    from updown_dsl.engine import EndKind

    variant = load_variant("up-and-down-online")  # a stop-loss («просчет») ends the game
    for seed in range(40):
        game = Game(variant, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        if game.end is not None and game.end.kind is EndKind.STOP_LOSS:
            break
    else:
        pytest.fail("no game ended at its stop-loss")
    index, dealer, totals = game.deal_index, game.dealer, list(game.totals)
    assert not game.end_as_written()  # the totals still end it
    for s in range(4):
        game.take_total_as_written(s, 0)  # the totals as a record writes them: nobody down
    assert game.end_as_written() and not game.is_over and game.end is None
    assert game.deal_index == index + 1 and game.dealer == (dealer + 1) % 4 and game.legal_actions()
    for s, t in enumerate(totals):
        game.take_total_as_written(s, t)
    assert game.end_as_written() and game.is_over and game.end.kind is EndKind.STOP_LOSS
    assert (game.deal_index, game.dealer) == (index, dealer)
