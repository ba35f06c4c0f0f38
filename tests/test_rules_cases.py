"""The worked test cases TC-01 … TC-18 of docs/worked-cases.md, played on the real engine.

Seats are 0-based: the cases' P1 is seat 0 and the dealer is the last seat, so
seat 0 is eldest (first to bid and lead).  Every hand holds exactly ``n`` cards
and the turned card is never in a hand; where a case shows only part of a
hand, the rest is filled in and the whole play is written out trick by trick.

Deals deep in a schedule (Odessa's blind deal 15, Russian poker's minimum and
maximum deals, Up and Down's 13-card deal …) are reached on the bundled
variants by playing the earlier deals with the first legal action and then
clearing the totals (:func:`game_at`); inline variants (``loads_variant``)
are used only for the options.
"""

from __future__ import annotations

import random

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
    Variant,
    parse_cards,
    resolve_schedule,
    seat_score,
    settle,
)
from updown_dsl.engine.scoring import DealResult, SeatResult, set_bonuses
from updown_dsl.lang.variant import Deal

# ----------------------------------------------------------------------------- helpers

from gamekit import bid, code, game_at, hands, set_totals, variant


def deal(game: Game, *texts: str, turned: str | None = None, **kw: object) -> None:
    """Deal the given hands (seat 0 first); ``turned`` is the card turned for trump."""
    game.deal_cards(hands(*texts), turned=Card.parse(turned) if turned else None, **kw)  # type: ignore[arg-type]


def deal_any(game: Game, seed: int = 0) -> None:
    """Deal from a seeded shuffle (for cases where the cards do not matter)."""
    order = list(game.table.cards)
    random.Random(seed).shuffle(order)
    game.deal_from_order(order)


def bids_of(*values: int) -> tuple[Bid, ...]:
    return tuple(Bid(b) for b in values)


def trick(game: Game, leader: int, *plays: str) -> int:
    """Play one trick led by seat ``leader`` (plays in table order); return the winner."""
    assert game.phase is Phase.PLAY
    assert game.to_act == leader, f"seat {game.to_act} is to lead, not seat {leader}"
    scored = len(game.results)
    for p in plays:
        game.apply(Play.parse(p))
    if len(game.results) > scored:  # the deal ended: the tricks are in the result
        return game.results[-1].tricks[-1].winner  # type: ignore[attr-defined]
    return game.tricks[-1].winner


def points(game: Game) -> list[int]:
    """Deal points of the last scored deal, by seat."""
    return [s.points for s in game.results[-1].seats]


def taken(game: Game) -> list[int]:
    return [s.taken for s in game.results[-1].seats]


def score_env(v: Variant, cards: int, players: int = 4) -> dict[str, int]:
    return {"cards": cards, "players": players, "deal": 1, "deals": 1, "set": 1, "set_deal": 1,
            "set_deals": 1, "deck": 52, **v.scoring.params}


# ============================================================================ TC-01


def sizes(name: str, players: int) -> list[int]:
    return [d.cards for d in resolve_schedule(variant(name), players)]


@pytest.mark.parametrize(
    "players, expected",
    [
        (3, list(range(1, 18)) + list(range(16, 0, -1))),
        (4, list(range(1, 14)) + list(range(12, 0, -1))),
        (5, list(range(1, 11)) + list(range(9, 0, -1))),
        (6, list(range(1, 9)) + list(range(7, 0, -1))),
    ],
)
def test_tc01_up_and_down_schedule_rises_to_52_over_n_once_and_back(players, expected):
    assert sizes("up-and-down", players) == expected
    assert len(expected) == {3: 33, 4: 25, 5: 19, 6: 15}[players]
    assert all(d.kind == "normal" for d in resolve_schedule(variant("up-and-down"), players))


def test_tc01_up_and_down_cards_left_for_trump_at_the_maximum():
    # N=3: 51 dealt, 1 left; N=5: 2 left; N=6: 4 left; N=4: the deck is exhausted.
    for players, left in [(3, 1), (4, 0), (5, 2), (6, 4)]:
        assert 52 - players * max(sizes("up-and-down", players)) == left


def test_tc01_up_and_down_13_cards_trump_is_the_dealers_last_card():
    game = game_at("up-and-down", 4, 13)
    assert game.deal.cards == 13
    deal(game, *TC03_HANDS)  # no card left to turn
    assert game.trump is Suit.CLUBS  # the dealer's 13th card is 9♣
    assert Card.parse("9C") in game.hand(3)  # it stays in the dealer's hand
    assert game.phase is Phase.BID


@pytest.mark.parametrize("players, top", [(3, 17), (4, 13), (6, 8)])
def test_tc01_ascending_schedule_ends_with_one_no_trump_maximum(players, top):
    deals = resolve_schedule(variant("up-and-down-ascending"), players)
    assert [d.cards for d in deals] == list(range(1, top + 1))
    assert [d.kind for d in deals] == ["normal"] * (top - 1) + ["no-trump"]


@pytest.mark.parametrize(
    "players, expected",
    [
        (3, [1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1, 6]),
        (4, [1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 4, 3, 2, 1, 6]),
    ],
)
def test_tc01_odessa_schedule_six_n_times_then_one_blind_six(players, expected):
    deals = resolve_schedule(variant("odessa"), players)
    assert [d.cards for d in deals] == expected
    assert len(deals) == players + 11
    assert [d.kind for d in deals] == ["normal"] * (len(expected) - 1) + ["blind"]


def test_tc01_georgian_schedule_24_deals_in_four_sets():
    deals = resolve_schedule(variant("georgian"), 4)
    assert [d.cards for d in deals] == (
        [1, 2, 3, 4, 5, 6, 7, 8] + [9] * 4 + [8, 7, 6, 5, 4, 3, 2, 1] + [9] * 4
    )
    assert [d.set for d in deals] == [1] * 8 + [2] * 4 + [3] * 8 + [4] * 4
    assert [d.set_deal for d in deals[8:12]] == [1, 2, 3, 4]
    assert len(deals) == 24


RUSSIAN_TAIL = [(6, "no-trump"), (6, "hidden"), (6, "minimum"), (6, "maximum")]


def test_tc01_russian_schedule_reading_a_six_played_n_times():
    deals = resolve_schedule(variant("russian"), 4)
    normal = [1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 4, 3, 2, 1]
    assert [(d.cards, d.kind) for d in deals] == [(c, "normal") for c in normal] + RUSSIAN_TAIL
    assert len(deals) == 18


RUSSIAN_B = """\
extends: russian
name: russian-six-n-plus-one
schedule:
  - ramp: [1, 5]
  - {cards: 6, times: players + 1}
  - ramp: [5, 1]
  - {cards: 6, kind: no-trump}
  - {cards: 6, kind: hidden}
  - {cards: 6, kind: minimum}
  - {cards: 6, kind: maximum}
"""


def test_tc01_russian_schedule_reading_b_six_played_n_plus_one_times():
    deals = resolve_schedule(variant(RUSSIAN_B), 4)
    normal = [1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 5, 4, 3, 2, 1]
    assert [(d.cards, d.kind) for d in deals] == [(c, "normal") for c in normal] + RUSSIAN_TAIL
    assert len(deals) == 19


def test_tc01_oh_hell_four_players_23_deals_never_13():
    assert sizes("oh-hell", 4) == list(range(1, 13)) + list(range(11, 0, -1))
    assert len(sizes("oh-hell", 4)) == 23


# ============================================================================ TC-02 / TC-18


def bidding_game(spec: str, players: int, number: int) -> Game:
    game = game_at(spec, players, number)
    deal_any(game, seed=number)
    assert game.phase is Phase.BID and game.to_act == 0
    return game


def test_tc02_hook_dealer_may_not_make_total():
    game = bidding_game("odessa", 4, 5)
    assert game.deal.cards == 5
    bid(game, 2, 1, 0)
    assert game.to_act == 3
    assert game.forbidden_bid() == 2
    assert game.legal_actions() == bids_of(0, 1, 3, 4, 5)
    assert code(game, Bid(2)) == "R021"
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(2))
    assert info.value.diagnostics[0].code == "R021"
    game.apply(Bid(3))
    assert game.phase is Phase.PLAY and game.bids == (2, 1, 0, 3)


def test_tc02_hook_only_binds_the_last_bidder():
    game = bidding_game("odessa", 4, 5)
    bid(game, 2, 1)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == bids_of(0, 1, 2, 3, 4, 5)


def test_tc02_converge_option_lets_the_dealer_make_total():
    game = bidding_game("odessa-converge", 4, 5)
    bid(game, 2, 1, 0)
    assert game.forbidden_bid() is None
    assert code(game, Bid(2)) is None
    assert game.legal_actions() == bids_of(0, 1, 2, 3, 4, 5)
    game.apply(Bid(2))
    assert sum(game.bids) == 5


def test_tc02_hook_nothing_forbidden_when_others_exceed_n():
    game = bidding_game("odessa", 4, 5)
    bid(game, 3, 1, 2)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == bids_of(0, 1, 2, 3, 4, 5)


@pytest.mark.parametrize("first, forced", [((0, 0, 0), 0), ((1, 0, 0), 1)])
def test_tc02_hook_one_card_deal_forces_the_dealer(first, forced):
    game = bidding_game("odessa", 4, 1)
    bid(game, *first)
    assert game.forbidden_bid() == 1 - forced
    assert game.legal_actions() == (Bid(forced),)
    assert code(game, Bid(1 - forced)) == "R021"


HOOK_EXEMPT_SMALL = """\
extends: odessa
name: odessa-hook-exempt-small
bidding: {hook_exempt: "cards < 4"}
"""
HOOK_EXEMPT_ONE = """\
extends: odessa
name: odessa-hook-exempt-one
bidding: {hook_exempt: "cards == 1"}
"""


@pytest.mark.parametrize("spec", [HOOK_EXEMPT_SMALL, HOOK_EXEMPT_ONE], ids=["cards<4", "cards==1"])
def test_tc02_hook_exemption_frees_the_dealer_in_small_deals(spec):
    game = bidding_game(spec, 4, 1)
    bid(game, 0, 0, 0)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == bids_of(0, 1)
    # …but not in a 5-card deal
    game = bidding_game(spec, 4, 5)
    bid(game, 2, 1, 0)
    assert game.forbidden_bid() == 2
    assert code(game, Bid(2)) == "R021"


def test_tc02_hook_exemption_under_four_cards_covers_three_not_four():
    game = bidding_game(HOOK_EXEMPT_SMALL, 4, 3)
    bid(game, 1, 1, 0)
    assert game.forbidden_bid() is None
    game = bidding_game(HOOK_EXEMPT_SMALL, 4, 4)
    bid(game, 1, 1, 0)
    assert game.forbidden_bid() == 2


def test_tc02_up_and_down_seeds_have_no_hook():
    game = bidding_game("up-and-down", 4, 1)
    bid(game, 0, 0, 0)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == bids_of(0, 1)


@pytest.mark.parametrize("spec", ["russian", "up-and-down-online"])
def test_tc02_hook_same_in_russian_and_online(spec):
    game = bidding_game(spec, 4, 5)
    bid(game, 2, 1, 0)
    assert game.forbidden_bid() == 2
    assert game.legal_actions() == bids_of(0, 1, 3, 4, 5)
    assert code(game, Bid(2)) == "R021"


def test_tc18_hook_oh_hell_five_cards_bids_2_0_1_forbid_2():
    game = bidding_game("oh-hell", 4, 5)
    assert game.deal.cards == 5
    bid(game, 2, 0, 1)
    assert game.forbidden_bid() == 2
    assert game.legal_actions() == bids_of(0, 1, 3, 4, 5)
    assert code(game, Bid(2)) == "R021"


def test_tc18_hook_oh_hell_bids_3_1_2_leave_dealer_free():
    game = bidding_game("oh-hell", 4, 5)
    bid(game, 3, 1, 2)
    assert game.forbidden_bid() is None
    assert game.legal_actions() == bids_of(0, 1, 2, 3, 4, 5)
    assert code(game, Bid(2)) is None


def test_tc18_hook_nomination_whist_ten_cards_bids_3_0_3_forbid_4():
    game = bidding_game("oh-hell", 4, 10)
    assert game.deal.cards == 10
    bid(game, 3, 0, 3)
    assert game.forbidden_bid() == 4
    assert Bid(4) not in game.legal_actions()
    assert len(game.legal_actions()) == 10
    assert code(game, Bid(4)) == "R021"


# ============================================================================ TC-03

# 4 players, 13 cards, all 52 dealt; the dealer's last card 9♣ makes clubs trump.
TC03_HANDS = (
    "AS KS 9S 2S AH 7H 10H AD 6D 9D 4C 5C 8C",
    "3S 6S 10S 2H KH QH JH 2D 7D 10D 2C 6C 10C",
    "4S 7S QS 3H 5H 8H 3D KD QD JD 3C 7C JC",
    "5S 8S JS 4H 6H 9H 4D 5D 8D AC KC QC 9C",
)


def play_tc03(game: Game) -> None:
    bid(game, 4, 3, 2, 5)  # total 14, no hook in [S000]
    assert trick(game, 0, "AS", "3S", "4S", "5S") == 0
    assert trick(game, 0, "KS", "6S", "7S", "8S") == 0
    assert trick(game, 0, "AH", "2H", "3H", "4H") == 0
    assert trick(game, 0, "AD", "2D", "3D", "4D") == 0
    assert trick(game, 0, "9S", "10S", "QS", "JS") == 2
    assert trick(game, 2, "KD", "5D", "6D", "7D") == 2
    assert trick(game, 2, "QD", "8D", "9D", "10D") == 2
    assert trick(game, 2, "5H", "6H", "7H", "KH") == 1
    assert trick(game, 1, "QH", "8H", "9H", "10H") == 1
    assert trick(game, 1, "2C", "3C", "AC", "4C") == 3
    assert trick(game, 3, "KC", "5C", "6C", "7C") == 3
    assert trick(game, 3, "QC", "8C", "10C", "JC") == 3
    assert trick(game, 3, "9C", "2S", "JH", "JD") == 3
    assert taken(game) == [4, 2, 3, 4]


EXACT_10_PLUS_BID = """\
extends: up-and-down
name: oh-hell-exact
scoring: {deal: "taken == bid ? 10 + bid : 0"}
"""


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("up-and-down", [14, 2, 3, 4]),
        ("up-and-down-ascending", [14, 0, 0, 0]),
        ("up-and-down-online", [40, -30, 3, -50]),
        ("up-and-down-online-partial", [40, -10, 3, -10]),
        (EXACT_10_PLUS_BID, [14, 0, 0, 0]),
    ],
    ids=["S000-AB", "S000-D", "S001-full", "S001-partial", "exact-10+b"],
)
def test_tc03_up_and_down_scoring_13_card_deal(spec, expected):
    game = game_at(spec, 4, 13)
    deal(game, *TC03_HANDS, random_trump=Suit.CLUBS)
    if spec == "up-and-down-ascending":
        assert game.trump is None  # [S000-D]: the maximum deal is no-trump; tricks as given
    else:
        assert game.trump is Suit.CLUBS
    play_tc03(game)
    assert points(game) == expected
    assert game.totals == tuple(expected)


# ============================================================================ TC-04

TC04_HANDS = ("AS KD 7C", "9S QD 8C", "JS 10D AC")


def tc04_game(spec: str) -> Game:
    game = game_at(spec, 3, 3)
    deal(game, *TC04_HANDS, turned="10H")
    bid(game, 2, 0)
    assert game.forbidden_bid() == (1 if spec == "odessa" else None)
    game.apply(Bid(0))
    game.apply(Play.parse("AS"))
    return game


def test_tc04_revoke_fails_to_follow_is_refused_with_r010():
    game = tc04_game("odessa")
    assert game.legal_actions() == (Play.parse("9S"),)
    assert code(game, Play.parse("QD")) == "R010"
    with pytest.raises(IllegalAction) as info:
        game.apply(Play.parse("QD"))
    assert info.value.diagnostics[0].code == "R010"


def test_tc04_revoke_costs_50_and_replays_the_deal():
    game = tc04_game("odessa")
    set_totals(game, [30, 25, 10])
    assert game.revoke(seat=1, code="R010") == -50
    assert game.totals == (30, -25, 10)
    last = game.results[-1]
    assert last.annulled and last.offence == "R010"
    assert [s.penalty for s in last.seats] == [0, -50, 0]
    assert [s.points for s in last.seats] == [0, 0, 0]  # no deal scores for anybody
    # the same deal (n = 3), same dealer, dealt again
    assert game.deal.number == 3 and game.deal.cards == 3
    assert game.dealer == 2
    assert game.phase is Phase.DEAL
    assert game.tricks == [] and game.bids == (None, None, None)
    # …and then scored normally
    deal(game, *TC04_HANDS, turned="10H")
    assert game.phase is Phase.BID and game.to_act == 0
    bid(game, 2, 0, 0)
    assert trick(game, 0, "AS", "9S", "JS") == 0
    assert trick(game, 0, "KD", "QD", "10D") == 0
    assert trick(game, 0, "7C", "8C", "AC") == 2
    assert points(game) == [15, 5, 1]
    assert game.totals == (45, -20, 11)
    assert game.deal.number == 4


def test_tc04_revoke_georgian_seed_same_penalty():
    game = game_at("georgian", 3, 3)
    deal(game, *TC04_HANDS, turned="10H")
    bid(game, 2, 0, 0)
    game.apply(Play.parse("AS"))
    assert code(game, Play.parse("QD")) == "R010"
    assert game.revoke(seat=1, code="R010") == -50
    assert game.totals == (0, -50, 0)
    assert game.deal.number == 3 and game.phase is Phase.DEAL


def test_tc04_up_and_down_has_no_penalty_card_is_refused():
    game = tc04_game("up-and-down")
    assert code(game, Play.parse("QD")) == "R010"
    with pytest.raises(IllegalAction):
        game.revoke(seat=1, code="R010")
    assert game.totals == (0, 0, 0)
    assert game.results == ()
    assert game.phase is Phase.PLAY and game.to_act == 1  # nothing changed


# ============================================================================ TC-05

TC05_HANDS = ("KH 7D", "AD 8C", "QH 10S")


def tc05_game(spec: str, hook: bool = True) -> Game:
    game = game_at(spec, 3, 2)
    deal(game, *TC05_HANDS, turned="9C", random_trump=Suit.CLUBS)
    assert game.trump is Suit.CLUBS
    bid(game, 1, 1)
    if hook:
        assert game.forbidden_bid() == 0  # P3 may not pass
        assert game.legal_actions() == bids_of(1, 2)
    else:
        assert game.forbidden_bid() is None  # no hook in [S000]: 1, 1, 1 is legal anyway
    game.apply(Bid(1))
    game.apply(Play.parse("KH"))
    return game


@pytest.mark.parametrize("spec", ["odessa", "georgian", "russian", "up-and-down-online", "up-and-down"])
def test_tc05_must_trump_when_void_refuses_the_discard_with_r011(spec):
    game = tc05_game(spec, hook=spec != "up-and-down")
    assert game.legal_actions() == (Play.parse("8C"),)
    assert code(game, Play.parse("AD")) == "R011"


@pytest.mark.parametrize("spec", ["odessa", "georgian"])
def test_tc05_failing_to_trump_is_a_revoke_in_odessa_and_georgian(spec):
    game = tc05_game(spec)
    assert game.revoke(seat=1, code="R011") == -50
    assert game.totals == (0, -50, 0)
    assert game.phase is Phase.DEAL and game.deal.number == 2


@pytest.mark.parametrize("spec", ["odessa", "russian", "up-and-down-online"])
def test_tc05_must_trump_legal_line_scores(spec):
    game = tc05_game(spec)
    # trick 1 (P1 led K♥): P2 trumps, P3 must follow hearts
    game.apply(Play.parse("8C"))
    assert game.legal_actions() == (Play.parse("QH"),)
    game.apply(Play.parse("QH"))
    assert game.tricks[-1].winner == 1
    assert trick(game, 1, "AD", "10S", "7D") == 1
    assert taken(game) == [0, 2, 0]
    assert points(game) == [-10, 2, -10]


@pytest.mark.parametrize(
    "spec, expected",
    [("up-and-down-free-trump", [11, 11, 0]), ("up-and-down-ascending", [11, 11, 0])],
    ids=["S000-A", "S000-D"],
)
def test_tc05_trump_optional_discard_is_legal(spec, expected):
    game = tc05_game(spec, hook=False)
    assert set(game.legal_actions()) == {Play.parse("AD"), Play.parse("8C")}
    assert code(game, Play.parse("AD")) is None
    game.apply(Play.parse("AD"))
    game.apply(Play.parse("QH"))
    assert game.tricks[-1].winner == 0
    assert trick(game, 0, "7D", "8C", "10S") == 1
    assert taken(game) == [1, 1, 0]
    assert points(game) == expected


@pytest.mark.parametrize("spec", ["odessa", "up-and-down-free-trump", "russian"])
def test_tc05_trumping_while_holding_the_led_suit_is_r012(spec):
    game = game_at(spec, 3, 2)
    deal(game, "KH 7D", "AH 8C", "QH 10S", turned="9C")
    bid(game, 1, 0, 0)
    game.apply(Play.parse("KH"))
    assert game.legal_actions() == (Play.parse("AH"),)
    assert code(game, Play.parse("8C")) == "R012"


# ============================================================================ TC-06

TC06_HANDS = ("6S AC 7H", "KH 10H 8S", "QH 9C AD", "7D JH 6C")  # 6♠ is Odessa's joker


def tc06_game(spec: str) -> Game:
    game = game_at(spec, 4, 3)
    deal(game, *TC06_HANDS, turned="9D")
    assert game.trump is Suit.DIAMONDS
    bid(game, 2, 1, 1)
    assert game.forbidden_bid() is None  # 4 > 3: nothing forbidden
    assert game.legal_actions() == bids_of(0, 1, 2, 3)
    game.apply(Bid(0))
    return game


def play_tc06(game: Game) -> None:
    assert Play.parse("6S demand H") in game.legal_actions()
    game.apply(Play.parse("6S demand H"))  # «по самым большим червям»
    assert game.legal_actions() == (Play.parse("KH"),)
    assert code(game, Play.parse("10H")) == "R014"
    game.apply(Play.parse("KH"))
    game.apply(Play.parse("QH"))
    game.apply(Play.parse("JH"))
    assert game.tricks[-1].winner == 0
    assert trick(game, 0, "AC", "8S", "9C", "6C") == 0
    assert trick(game, 0, "7H", "10H", "AD", "7D") == 2
    assert taken(game) == [2, 0, 1, 0]


@pytest.mark.parametrize(
    "spec, expected",
    [("odessa", [15, -10, 10, 5]), ("odessa-hard-pass", [15, -10, 10, 0])],
)
def test_tc06_joker_demand_highest_of_suit(spec, expected):
    game = tc06_game(spec)
    play_tc06(game)
    assert points(game) == expected


def test_tc06_joker_demand_lower_card_of_the_suit_is_r014():
    game = tc06_game("odessa")
    game.apply(Play.parse("6S demand H"))
    assert code(game, Play.parse("10H")) == "R014"
    assert code(game, Play.parse("8S")) == "R010"


def test_tc06_demand_on_first_trick_allowed_under_first_trick_option():
    game = tc06_game("odessa-first-trick-demand")
    assert code(game, Play.parse("6S demand H")) is None
    play_tc06(game)
    assert points(game) == [15, -10, 10, 5]


def demand_at_trick_two(spec: str) -> Game:
    game = tc06_game(spec)
    assert trick(game, 0, "AC", "8S", "9C", "6C") == 0
    assert game.to_act == 0 and len(game.tricks) == 1
    return game


def test_tc06_demand_at_trick_two_illegal_under_first_trick_option():
    game = demand_at_trick_two("odessa-first-trick-demand")
    assert code(game, Play.parse("6S demand H")) == "R015"
    assert Play.parse("6S demand H") not in game.legal_actions()
    assert Play.parse("6S high H") in game.legal_actions()  # a plain high lead is still allowed


def test_tc06_demand_at_trick_two_legal_in_odessa():
    game = demand_at_trick_two("odessa")
    assert code(game, Play.parse("6S demand H")) is None
    assert Play.parse("6S demand H") in game.legal_actions()


DEMAND_FORBIDDEN = """\
extends: odessa
name: odessa-no-demand
jokers: {lead_on: never}
"""


def test_tc06_demand_forbidden_option_refuses_demand_at_trick_one():
    game = tc06_game(DEMAND_FORBIDDEN)
    assert code(game, Play.parse("6S demand H")) == "R015"
    assert not any(getattr(a, "declare", None) == "demand" for a in game.legal_actions())


# ============================================================================ TC-07


def tc07_game() -> Game:
    game = game_at("odessa", 3, 2)
    deal(game, "KC 9D", "6S 10C", "AC 7D", turned="8H")
    bid(game, 1, 0)
    assert game.forbidden_bid() == 1
    assert game.legal_actions() == bids_of(0, 2)
    game.apply(Bid(2))
    game.apply(Play.parse("KC"))
    return game


def test_tc07a_joker_low_is_exempt_from_following_and_loses():
    game = tc07_game()
    assert Play.parse("6S low") in game.legal_actions()  # although P2 holds 10♣
    assert code(game, Play.parse("6S low")) is None
    game.apply(Play.parse("6S low"))
    game.apply(Play.parse("AC"))
    assert game.tricks[-1].winner == 2
    assert trick(game, 2, "7D", "9D", "10C") == 0
    assert taken(game) == [1, 0, 1]
    assert points(game) == [10, 5, -5]


def test_tc07b_joker_high_wins_the_trick():
    game = tc07_game()
    game.apply(Play.parse("6S high"))
    game.apply(Play.parse("AC"))
    assert game.tricks[-1].winner == 1
    assert trick(game, 1, "10C", "7D", "9D") == 1
    assert taken(game) == [0, 2, 0]
    assert points(game) == [-10, 2, -20]


# ============================================================================ TC-08

TC08_HANDS = ("7S AH 8C", "KS 9D 6H", "AC 10D JH")

ANSWER_HIGHEST_TRUMP = """\
extends: russian
name: russian-answer-trump
special_card: {answer: highest_trump}
"""
ANSWER_HIGHEST_SPADE = """\
extends: russian
name: russian-answer-spade
special_card: {answer: highest_of_suit}
"""


def tc08_game(spec: str) -> Game:
    game = game_at(spec, 3, 3)
    deal(game, *TC08_HANDS, turned="QD")
    assert game.trump is Suit.DIAMONDS
    bid(game, 2, 1)
    assert game.forbidden_bid() == 0
    game.apply(Bid(1))
    assert Play.parse("7S highest") in game.legal_actions()
    game.apply(Play.parse("7S highest"))  # «по самым крупным»
    return game


def test_tc08a_seven_of_spades_highest_rank_any_suit():
    game = tc08_game("russian")
    assert game.legal_actions() == (Play.parse("KS"),)
    assert code(game, Play.parse("9D")) is not None
    game.apply(Play.parse("KS"))
    assert game.legal_actions() == (Play.parse("AC"),)
    game.apply(Play.parse("AC"))
    assert game.tricks[-1].winner == 0  # the declarer takes the trick
    assert trick(game, 0, "AH", "6H", "JH") == 0
    assert trick(game, 0, "8C", "9D", "10D") == 2
    assert taken(game) == [2, 0, 1]
    assert points(game) == [20, -10, 10]


def test_tc08b_seven_of_spades_highest_trump_first():
    game = tc08_game(ANSWER_HIGHEST_TRUMP)
    assert game.legal_actions() == (Play.parse("9D"),)
    game.apply(Play.parse("9D"))
    assert game.legal_actions() == (Play.parse("10D"),)
    game.apply(Play.parse("10D"))
    assert game.tricks[-1].winner == 0
    assert trick(game, 0, "AH", "6H", "JH") == 0
    assert trick(game, 0, "8C", "KS", "AC") == 2
    assert taken(game) == [2, 0, 1]
    assert points(game) == [20, -10, 10]


def test_tc08c_seven_of_spades_highest_spade_void_free():
    game = tc08_game(ANSWER_HIGHEST_SPADE)
    assert game.legal_actions() == (Play.parse("KS"),)
    game.apply(Play.parse("KS"))
    assert set(game.legal_actions()) == set(map(Play.parse, ["AC", "10D", "JH"]))  # void in spades
    game.apply(Play.parse("AC"))
    assert game.tricks[-1].winner == 0
    assert trick(game, 0, "AH", "6H", "JH") == 0
    assert trick(game, 0, "8C", "9D", "10D") == 2
    assert points(game) == [20, -10, 10]


def protection_game(spec: str) -> Game:
    game = game_at(spec, 3, 2)
    deal(game, "AH 8D", "7S 9H", "KH 10D", turned="6C")  # trump clubs
    assert game.trump is Suit.CLUBS
    bid(game, 1, 1)
    assert game.forbidden_bid() == 0
    game.apply(Bid(1))
    game.apply(Play.parse("AH"))
    return game


def test_tc08_protection_option_seven_of_spades_high_when_following_wins():
    game = protection_game("russian-protection")
    assert Play.parse("7S high") in game.legal_actions()  # exempt although P2 holds 9♥
    game.apply(Play.parse("7S high"))
    game.apply(Play.parse("KH"))
    assert game.tricks[-1].winner == 1


def test_tc08_without_protection_seven_of_spades_high_is_refused():
    game = protection_game("russian")
    assert game.legal_actions() == (Play.parse("9H"),)
    assert code(game, Play.parse("7S high")) is not None
    assert code(game, Play.parse("7S")) == "R010"  # a revoke: P2 holds 9♥


# ============================================================================ TC-09

TC09_HANDS = (
    "7S QS 8H JH 6C KC",
    "AS KS AH 9H 7C 10C",
    "8S 10S 6H 10H 8C JC",
    "9S JS 7H KH AC 9C",
)


def test_tc09_blind_deal_doubles_every_score():
    game = game_at("odessa", 4, 15)
    assert game.deal.kind == "blind" and game.deal.cards == 6
    assert game.kind.bidding == "before_deal"  # bids before the deal, without seeing cards
    assert game.kind.multiplier == 2
    assert game.phase is Phase.BID and game.hands == ((), (), (), ())  # bids come first
    bid(game, 1, 2, 0)
    assert game.forbidden_bid() == 3  # the hook applies in the blind deal (AMB-O4)
    assert code(game, Bid(3)) == "R021"
    game.apply(Bid(2))
    assert game.phase is Phase.DEAL
    deal(game, *TC09_HANDS, turned="6D")
    assert game.phase is Phase.PLAY and game.bids == (1, 2, 0, 2)
    assert trick(game, 0, "7S", "AS", "8S", "9S") == 1
    assert trick(game, 1, "KS", "10S", "JS", "QS") == 1
    assert trick(game, 1, "AH", "6H", "7H", "8H") == 1
    assert trick(game, 1, "9H", "10H", "KH", "JH") == 3
    assert trick(game, 3, "AC", "6C", "7C", "8C") == 3
    assert trick(game, 3, "9C", "KC", "10C", "JC") == 0
    assert taken(game) == [1, 3, 0, 2]
    assert points(game) == [20, 6, 10, 30]
    assert game.is_over and game.over_reason == "schedule complete"


def test_tc09_base_scores_before_doubling():
    v = variant("odessa")
    env = score_env(v, 6)
    base = [seat_score(v, v.kinds["normal"], env, bid=b, taken=t) for b, t in [(1, 1), (2, 3), (0, 0), (2, 2)]]
    assert base == [10, 3, 5, 15]
    blind = [seat_score(v, v.kinds["blind"], env, bid=b, taken=t) for b, t in [(1, 1), (2, 3), (0, 0), (2, 2)]]
    assert blind == [20, 6, 10, 30]


# ============================================================================ TC-10

TC10_HANDS = ("8S 10H 8C 8D", "AS 8H 9C 9D", "9S 9H 10C 10D", "10S AH AC AD")

TC10_ROWS = [
    ("odessa", [5, 1, -30, 3]),
    ("odessa-hard-pass", [0, 1, -30, 3]),
    ("georgian", [50, 10, 0, 30]),
    ("georgian-khishti", [50, 10, -200, 30]),
    ("russian", [5, 1, -30, 3]),
    ("up-and-down-online", [5, 1, -30, 3]),
    ("up-and-down-online-partial", [5, 1, -30, 3]),
    ("up-and-down", [10, 1, 0, 3]),
    ("up-and-down-ascending", [10, 0, 0, 0]),
]


@pytest.mark.parametrize("spec, expected", TC10_ROWS, ids=[r[0] for r in TC10_ROWS])
def test_tc10_pass_made_pass_failed_zero_tricks_every_scoring(spec, expected):
    game = game_at(spec, 4, 4)
    deal(game, *TC10_HANDS, turned="7H", random_trump=Suit.HEARTS)
    bid(game, 0, 0, 3)
    if game.variant.bidding.hook:
        assert game.forbidden_bid() == 1
        assert code(game, Bid(1)) == "R021"
    game.apply(Bid(2))
    assert trick(game, 0, "8S", "AS", "9S", "10S") == 1
    assert trick(game, 1, "8H", "9H", "AH", "10H") == 3
    assert trick(game, 3, "AC", "8C", "9C", "10C") == 3
    assert trick(game, 3, "AD", "8D", "9D", "10D") == 3
    assert taken(game) == [0, 1, 0, 3]
    assert points(game) == expected


# ============================================================================ TC-11

LITERAL_PRECEDENCE = """\
extends: up-and-down-online
name: up-and-down-online-literal
scoring:
  deal: "taken == bid ? (bid == 0 ? pass : 10 * taken) : taken > bid ? taken : -10 * bid - taken"
"""


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("up-and-down-online", [20, 5, -20, -30]),
        ("up-and-down-online-partial", [20, 5, -10, -10]),
        (LITERAL_PRECEDENCE, [20, 5, -21, -32]),
    ],
    ids=["full", "partial", "literal-precedence"],
)
def test_tc11_online_full_vs_partial_responsibility(spec, expected):
    game = game_at(spec, 4, 5)
    deal(game, "AS 5S 3H 2C AD", "2S 6S 4H 3C 3D", "3S KS 2H 4C 4D", "4S 7S AH AC 2D",
         random_trump=Suit.HEARTS)
    assert game.trump is Suit.HEARTS
    bid(game, 2, 0, 2)
    assert game.forbidden_bid() == 1
    game.apply(Bid(3))
    assert trick(game, 0, "AS", "2S", "3S", "4S") == 0
    assert trick(game, 0, "5S", "6S", "KS", "7S") == 2
    assert trick(game, 2, "2H", "AH", "3H", "4H") == 3
    assert trick(game, 3, "AC", "2C", "3C", "4C") == 3
    assert trick(game, 3, "2D", "AD", "3D", "4D") == 0
    assert taken(game) == [2, 0, 1, 2]
    assert points(game) == expected


# ============================================================================ TC-12


def test_tc12_pairwise_settlement_seed_example():
    assert settle(variant("up-and-down-online"), [-10, 20, 40, 30]) == [-120, 0, 80, 40]


def test_tc12_pairwise_settlement_three_players():
    assert settle(variant("up-and-down-online"), [50, -20, 30]) == [90, -120, 30]


STAKE_2 = """\
extends: up-and-down-online
name: up-and-down-online-stake-2
settlement: {stake: 2}
"""
STOP_ON_TOTAL = """\
extends: up-and-down-online
name: up-and-down-online-stop-on-total
end: {stop_on: total}
"""


def test_tc12_stake_two_turns_points_into_money():
    assert settle(variant(STAKE_2), [-10, 20, 40, 30]) == [-240, 0, 160, 80]


def stop_loss_game(spec: str) -> Game:
    """Deal 1 of 4 players; the deal brings the totals to the seed's −10, 20, 40, 30."""
    game = Game(variant(spec), 4, seed=0, auto_deal=False)
    set_totals(game, [-15, 15, 39, 25])
    deal(game, "2S", "3S", "AS", "4S", random_trump=Suit.HEARTS)
    bid(game, 0, 0, 0)
    assert game.legal_actions() == (Bid(0),)
    game.apply(Bid(0))
    assert trick(game, 0, "2S", "3S", "AS", "4S") == 2
    assert points(game) == [5, 5, 1, 5]
    assert game.totals == (-10, 20, 40, 30)
    return game


@pytest.mark.parametrize("spec", ["up-and-down-online", STAKE_2], ids=["stake-1", "stake-2"])
def test_tc12_stop_loss_on_balance_ends_the_game(spec):
    game = stop_loss_game(spec)
    assert game.is_over
    assert game.over_reason is not None and "stop-loss" in game.over_reason
    assert code(game, Bid(0)) == "R030"
    stake = game.variant.settlement.stake
    assert game.settlement() == [-120 * stake, 0, 80 * stake, 40 * stake]


def test_tc12_stop_loss_on_raw_total_continues():
    game = stop_loss_game(STOP_ON_TOTAL)
    assert not game.is_over  # −10 > −100
    assert game.over_reason is None
    assert game.deal.number == 2 and game.phase is Phase.DEAL


# ============================================================================ TC-13

# Set 2 deal 1 (9 cards): all 36 cards dealt; P1 names trump after seeing 3 cards.
TC13A_HANDS = (
    "AS 10S AC JC 7H 9H 7D 10D JK",
    "7S JS 7C QC 8H 10H 8D JD JK2",
    "8S KS 8C KC AH JH QH 6D KD",
    "9S QS 9C 10C 6H KH AD 9D QD",
)


def georgian_set2_game(spec: str, cards: tuple[str, ...]) -> Game:
    game = game_at(spec, 4, 9)
    assert (game.deal.set, game.deal.set_deal, game.deal.cards) == (2, 1, 9)
    deal(game, *cards)  # nothing left to turn
    assert game.phase is Phase.TRUMP and game.to_act == 0
    assert game.chooser_view() == tuple(parse_cards(cards[0]))[:3]
    assert set(game.legal_actions()) == {ChooseTrump(s) for s in Suit} | {ChooseTrump(None)}
    game.apply(ChooseTrump(Suit.HEARTS))
    assert game.trump is Suit.HEARTS and game.phase is Phase.BID
    return game


@pytest.mark.parametrize(
    "spec, expected",
    [("georgian", [200, 50, 40, 20]), ("georgian-khishti", [200, 50, 40, 20])],
)
def test_tc13a_georgian_normal_scoring(spec, expected):
    game = georgian_set2_game(spec, TC13A_HANDS)
    bid(game, 3, 0, 2)
    assert game.forbidden_bid() == 4
    assert code(game, Bid(4)) == "R021"
    game.apply(Bid(3))
    assert trick(game, 0, "AS", "7S", "8S", "9S") == 0
    assert trick(game, 0, "AC", "7C", "8C", "9C") == 0
    assert trick(game, 0, "10S", "JS", "KS", "QS") == 2
    assert trick(game, 2, "KC", "10C", "JC", "QC") == 2
    assert trick(game, 2, "AH", "6H", "7H", "8H") == 2
    assert trick(game, 2, "6D", "AD", "7D", "8D") == 3
    assert trick(game, 3, "KH", "9H", "10H", "JH") == 3
    assert trick(game, 3, "9D", "10D", "JD", "KD") == 2
    assert trick(game, 2, "QH", "QD", "JK high", "JK2 low") == 0
    assert taken(game) == [3, 0, 4, 2]
    assert points(game) == expected


TC13B_HANDS = (
    "7S 8S 9S 10S JS QS KS AS JK",
    "7C 8C 9C 10C JC QC KC AC JK2",
    "6H 7H 8H 9H 10H JH QH KH AH",
    "6D 7D 8D 9D 10D JD QD KD AD",
)


@pytest.mark.parametrize(
    "spec, expected",
    [("georgian", [0, 50, 500, 50]), ("georgian-khishti", [-500, 50, 900, 50])],
    ids=["seed", "reported-khishti"],
)
def test_tc13b_georgian_khishti_and_all_tricks(spec, expected):
    game = georgian_set2_game(spec, TC13B_HANDS)
    bid(game, 2, 0, 9)
    assert game.forbidden_bid() is None  # 11 > 9: P4 free
    game.apply(Bid(0))
    assert trick(game, 0, "AS", "7C", "6H", "6D") == 2
    spades = ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "JK low"]
    clubs = ["8C", "9C", "10C", "JC", "QC", "KC", "AC", "JK2 low"]
    hearts = ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]
    diamonds = ["7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"]
    for h, d, s, c in zip(hearts, diamonds, spades, clubs):
        assert trick(game, 2, h, d, s, c) == 2
    assert taken(game) == [0, 0, 9, 0]
    assert points(game) == expected


def premium(results_p2: list[tuple[int, int, int]]) -> tuple[int, list[int]]:
    """Set-2 premium for P2's four hands given as (bid, taken, points)."""
    v = variant("georgian-khishti")
    results = []
    for i, (b, t, p) in enumerate(results_p2):
        d = Deal(9 + i, 9, "normal", 2, i + 1)
        other = SeatResult(1, 0, -500)
        results.append(DealResult(d, i % 4, (other, SeatResult(b, t, p), other, other)))
    env = {"cards": 9, "players": 4, "deal": 12, "deals": 24, "set": 2, "set_deal": 4,
           "set_deals": 4, "deck": 36, **v.scoring.params}
    bonus = set_bonuses(v, results[-1].deal, env, results, [0, 0, 0, 0])
    assert bonus is not None
    return sum(p for _, _, p in results_p2) + bonus[1], bonus


def test_tc13c_premium_best_hand_counts_twice_when_every_bid_made():
    total, bonus = premium([(0, 0, 50), (1, 1, 100), (2, 2, 150), (0, 0, 50)])
    assert bonus == [0, 150, 0, 0]
    assert total == 500


def test_tc13c_no_premium_after_one_miss():
    total, bonus = premium([(0, 0, 50), (1, 2, 20), (2, 2, 150), (0, 0, 50)])
    assert bonus == [0, 0, 0, 0]
    assert total == 270


PREMIUM_SET = """\
extends: georgian-khishti
name: georgian-khishti-three-card-set
schedule:
  - set: [{cards: 3, times: 4}]
"""


@pytest.mark.parametrize(
    "second, p2_total, bonus",
    [("made", 500, [0, 150, 0, 0]), ("missed", 270, [0, 0, 0, 0])],
)
def test_tc13c_premium_by_playing_a_set(second, p2_total, bonus):
    # P2 (seat 1) scores 50, 100 (or 20), 150, 50 in a set of four 3-card deals.
    game = Game(variant(PREMIUM_SET), 4, seed=0, auto_deal=False)
    # deal 1, dealer P4: P2 0/0
    deal(game, "AS AH AC", "7S 7H 7C", "8S 8H 8C", "9S 9H 9C", turned="7D")
    bid(game, 3, 0, 0)
    assert game.forbidden_bid() == 0
    game.apply(Bid(1))
    for s in "SHC":
        assert trick(game, 0, f"A{s}", f"7{s}", f"8{s}", f"9{s}") == 0
    # deal 2, dealer P1, eldest P2: P2 1/1 (or 1/2)
    assert game.dealer == 0
    if second == "made":
        deal(game, "7S AH AC", "AS 7H 7C", "8S 8H 8C", "9S 9H 9C", turned="7D")
    else:
        deal(game, "7S 7H AC", "AS AH 7C", "8S 8H 8C", "9S 9H 9C", turned="7D")
    bid(game, 1, 0, 0)
    assert game.forbidden_bid() == 2
    game.apply(Bid(0))
    assert trick(game, 1, "AS", "8S", "9S", "7S") == 1
    if second == "made":
        assert trick(game, 1, "7H", "8H", "9H", "AH") == 0
        assert trick(game, 0, "AC", "7C", "8C", "9C") == 0
    else:
        assert trick(game, 1, "AH", "8H", "9H", "7H") == 1
        assert trick(game, 1, "7C", "8C", "9C", "AC") == 0
    # deal 3, dealer P2, eldest P3: P2 2/2 (not all three tricks)
    deal(game, "7S 7H AC", "AS AH 7C", "8S 8H 8C", "9S 9H 9C", turned="7D")
    bid(game, 0, 0, 0)
    assert game.forbidden_bid() == 3
    game.apply(Bid(2))
    assert trick(game, 2, "8S", "9S", "7S", "AS") == 1
    assert trick(game, 1, "AH", "8H", "9H", "7H") == 1
    assert trick(game, 1, "7C", "8C", "9C", "AC") == 0
    # deal 4, dealer P3, eldest P4: P2 0/0
    deal(game, "7S 7H 7C", "8S 8H 8C", "9S 9H 9C", "AS AH AC", turned="7D")
    bid(game, 3, 0, 0)
    assert game.forbidden_bid() == 0
    game.apply(Bid(1))
    for s in "SHC":
        assert trick(game, 3, f"A{s}", f"7{s}", f"8{s}", f"9{s}") == 3
    p2 = [r.seats[1].points for r in game.results]
    assert p2 == ([50, 100, 150, 50] if second == "made" else [50, 20, 150, 50])
    assert [s.bonus for s in game.results[-1].seats] == bonus
    assert game.totals[1] == p2_total
    assert game.is_over


# ============================================================================ TC-14

BEATEN_BY_TRUMP_OFF = """\
extends: georgian
name: georgian-joker-beats-trump
jokers: {beaten_by_trump: false}
"""
FIRST_JOKER_WINS = """\
extends: georgian
name: georgian-first-joker-wins
jokers: {two_high: first_wins}
"""


def tc14_game(spec: str, *cards: str, bids: tuple[int, ...] = (1, 0, 0, 0)) -> Game:
    game = game_at(spec, 4, 2)
    deal(game, *cards, turned="9H")
    assert game.trump is Suit.HEARTS
    bid(game, *bids)
    return game


@pytest.mark.parametrize(
    "spec, winner",
    [("georgian", 2), (BEATEN_BY_TRUMP_OFF, 0)],
    ids=["AMB-G3a-trump-wins", "AMB-G3b-joker-wins"],
)
def test_tc14a_high_joker_demand_in_plain_suit_and_a_void_trumper(spec, winner):
    game = tc14_game(spec, "JK 10C", "KS 8S", "7H QD", "AS 9D")
    game.apply(Play.parse("JK demand S"))  # "high, ♠"
    assert game.legal_actions() == (Play.parse("KS"),)
    assert code(game, Play.parse("8S")) == "R014"
    game.apply(Play.parse("KS"))
    assert game.legal_actions() == (Play.parse("7H"),)  # void in spades: must trump
    assert code(game, Play.parse("QD")) == "R011"
    game.apply(Play.parse("7H"))
    assert game.legal_actions() == (Play.parse("AS"),)
    game.apply(Play.parse("AS"))
    assert game.tricks[-1].winner == winner


def test_tc14a_odessa_reading_void_player_may_play_any_card():
    game = tc14_game("odessa", "6S 10C", "KS 8S", "7H QD", "AS 9D")
    game.apply(Play.parse("6S demand S"))
    game.apply(Play.parse("KS"))
    assert set(game.legal_actions()) == {Play.parse("7H"), Play.parse("QD")}


def test_tc14b_low_joker_takes_suit_highest_of_suit_wins():
    game = tc14_game("georgian", "JK 10C", "9D KD", "QD 7S", "AC 8S", bids=(0, 1, 0, 0))
    game.apply(Play.parse("JK takes D"))
    assert set(game.legal_actions()) == {Play.parse("9D"), Play.parse("KD")}  # no highest duty
    game.apply(Play.parse("9D"))
    assert game.legal_actions() == (Play.parse("QD"),)
    game.apply(Play.parse("QD"))
    assert set(game.legal_actions()) == {Play.parse("AC"), Play.parse("8S")}
    game.apply(Play.parse("AC"))
    assert game.tricks[-1].winner == 2


def test_tc14b_low_joker_wins_when_nobody_plays_the_suit_trump_or_joker():
    game = tc14_game("georgian", "JK 10C", "KS 8S", "AC 7S", "AS 9C")
    assert trick(game, 0, "JK takes D", "KS", "AC", "AS") == 0


@pytest.mark.parametrize(
    "spec, winner", [("georgian", 2), (FIRST_JOKER_WINS, 0)], ids=["later_wins-S", "first_wins-N"]
)
def test_tc14c_two_high_jokers(spec, winner):
    game = tc14_game(spec, "JK 10C", "KH 7C", "JK2 8C", "AH 9C")
    game.apply(Play.parse("JK demand H"))
    assert game.legal_actions() == (Play.parse("KH"),)
    game.apply(Play.parse("KH"))
    game.apply(Play.parse("JK2 high"))
    assert game.legal_actions() == (Play.parse("AH"),)
    game.apply(Play.parse("AH"))
    assert game.tricks[-1].winner == winner


# ============================================================================ TC-15

TC15_MIN_HANDS = (
    "AS 10S 8H 10H 7C AD",
    "6S KS 6H JH 8C 8D",
    "8S JS AH KH AC 6D",
    "9S QS 7H 9H 6C 7D",
)
TC15_MAX_HANDS = (
    "6S QS 8H 9H 6C AD",
    "AS KS 6H 10H 7C 7D",
    "8S 10S 7H JH 8C 8D",
    "9S JS AH KH AC 6D",
)


def play_tc15_max(game: Game) -> None:
    assert game.phase is Phase.PLAY  # no bids in the maximum deal
    assert trick(game, 0, "6S", "AS", "8S", "9S") == 1
    assert trick(game, 1, "KS", "10S", "JS", "QS") == 1
    assert trick(game, 1, "6H", "7H", "AH", "8H") == 3
    assert trick(game, 3, "KH", "9H", "10H", "JH") == 3
    assert trick(game, 3, "AC", "6C", "7C", "8C") == 3
    assert trick(game, 3, "6D", "AD", "7D", "8D") == 0
    assert taken(game) == [1, 2, 0, 3]


def test_tc15_russian_minimum_deal_minus_ten_per_trick():
    game = game_at("russian", 4, 17)
    assert game.deal.kind == "minimum" and game.deal.cards == 6
    deal(game, *TC15_MIN_HANDS, turned="9D")
    assert game.phase is Phase.PLAY and game.legal_actions()  # bids ignored: no bidding
    assert trick(game, 0, "AS", "6S", "8S", "9S") == 0
    assert trick(game, 0, "10S", "KS", "JS", "QS") == 1
    assert trick(game, 1, "6H", "AH", "7H", "8H") == 2
    assert trick(game, 2, "KH", "9H", "10H", "JH") == 2
    assert trick(game, 2, "AC", "6C", "7C", "8C") == 2
    assert trick(game, 2, "6D", "7D", "AD", "8D") == 0
    assert taken(game) == [2, 1, 3, 0]
    assert points(game) == [-20, -10, -30, 0]
    assert all(s.bid is None for s in game.results[-1].seats)


def test_tc15_russian_maximum_deal_plus_ten_per_trick():
    game = game_at("russian", 4, 18)
    assert game.deal.kind == "maximum"
    deal(game, *TC15_MAX_HANDS, turned="9D")
    play_tc15_max(game)
    assert points(game) == [10, 20, 0, 30]
    assert game.is_over


def test_tc15_cut_exposing_seven_of_spades_zeroes_the_cutters_total():
    game = game_at("russian-cut", 4, 18)
    v = game.variant
    assert v.cut_by == "dealer_right"
    cutter = (game.dealer - 1) % 4
    assert cutter == 2  # P3 cuts before deal 18
    set_totals(game, [10, 20, 85, 30])
    deal(game, *TC15_MAX_HANDS, turned="9D", cut_card=Card.parse("7S"))
    assert game.totals == (10, 20, 0, 30)
    play_tc15_max(game)
    assert game.totals == (20, 40, 0, 60)


def test_tc15_cut_zeroes_a_negative_total_too():
    game = game_at("russian-cut", 4, 18)
    set_totals(game, [10, 20, -40, 30])
    deal(game, *TC15_MAX_HANDS, turned="9D", cut_card=Card.parse("7S"))
    assert game.totals == (10, 20, 0, 30)


@pytest.mark.parametrize("spec, cut", [("russian-cut", "QC"), ("russian", "7S")])
def test_tc15_cut_other_card_or_option_off_keeps_total(spec, cut):
    game = game_at(spec, 4, 18)
    set_totals(game, [10, 20, 85, 30])
    deal(game, *TC15_MAX_HANDS, turned="9D", cut_card=Card.parse(cut))
    assert game.totals == (10, 20, 85, 30)


OVER_MINUS_BID = """\
extends: russian
name: russian-over-minus-bid
scoring:
  deal: "taken == bid ? (bid == 0 ? pass : 10 * bid) : taken > bid ? taken - bid : -10 * (bid - taken)"
"""


@pytest.mark.parametrize("spec, expected", [("russian", 3), (OVER_MINUS_BID, 2)], ids=["AMB-R10a", "AMB-R10b"])
def test_tc15_russian_normal_deal_over_scores(spec, expected):
    v = variant(spec)
    assert seat_score(v, v.kinds["normal"], score_env(v, 3), bid=1, taken=3) == expected


# ============================================================================ TC-16


def test_tc16_joker_turned_means_no_trump_and_discard_cannot_win():
    game = game_at("odessa", 4, 2)
    deal(game, "10H 7C", "AS 8C", "JH 9C", "9H 10C", turned="6S")
    assert game.turned == Card.parse("6S")
    assert game.trump is None
    bid(game, 0, 0, 1)
    assert game.forbidden_bid() == 1
    game.apply(Bid(0))
    game.apply(Play.parse("10H"))
    assert set(game.legal_actions()) == {Play.parse("AS"), Play.parse("8C")}  # no trump duty
    game.apply(Play.parse("AS"))
    game.apply(Play.parse("JH"))
    game.apply(Play.parse("9H"))
    assert game.tricks[-1].winner == 2


# ============================================================================ TC-17

OH_HELL_SYSTEMS = [
    ("basic", None, 13, 2),
    ("variant-basic", "taken + (taken == bid ? 5 : 0)", 8, 2),
    ("exact", "taken == bid ? 10 + bid : 0", 13, 0),
    ("exact-with-penalty", "taken == bid ? 10 + bid : -bid", 13, -3),
    ("10x-exact", "taken == bid ? (bid == 0 ? 5 : 10 * bid) : 0", 30, 0),
    ("10x-exact-penalty", "taken == bid ? (bid == 0 ? 5 : 10 * bid) : (bid == 0 ? -5 : -10 * bid)", 30, -30),
    ("double-whammy", "taken == bid ? (bid == 1 ? 15 : 11 * bid) : taken", 33, 2),
    ("squares", "taken == bid ? 10 + bid * bid : -((bid - taken) * (bid - taken))", 19, -1),
    ("carter-hoerr", "taken == bid ? bid + 10 : -10 - abs(bid - taken)", 13, -11),
]


def oh_hell_system(formula: str | None) -> str:
    if formula is None:
        return "oh-hell"
    return f'extends: oh-hell\nname: oh-hell-system\nscoring:\n  deal: "{formula}"\n'


@pytest.mark.parametrize(
    "formula, made, missed", [s[1:] for s in OH_HELL_SYSTEMS], ids=[s[0] for s in OH_HELL_SYSTEMS]
)
def test_tc17_oh_hell_scoring_systems(formula, made, missed):
    spec = oh_hell_system(formula)
    # bid 3, take 3
    game = game_at(spec, 4, 3)
    deal(game, "AS AH AD", "2S 2H 2D", "3S 3H 3D", "4S 4H 4D", turned="5C")
    bid(game, 3, 0, 0)
    assert game.forbidden_bid() == 0
    game.apply(Bid(1))
    for suit in "SHD":
        assert trick(game, 0, f"A{suit}", f"2{suit}", f"3{suit}", f"4{suit}") == 0
    assert game.results[-1].seats[0].points == made
    # bid 3, take 2
    game = game_at(spec, 4, 3)
    deal(game, "AS AH 2D", "2S 2H AD", "3S 3H 3D", "4S 4H 4D", turned="5C")
    bid(game, 3, 0, 0, 1)
    assert trick(game, 0, "AS", "2S", "3S", "4S") == 0
    assert trick(game, 0, "AH", "2H", "3H", "4H") == 0
    assert trick(game, 0, "2D", "AD", "3D", "4D") == 1
    assert game.results[-1].seats[0].points == missed
    # the same numbers straight from the formula
    v = variant(spec)
    env = score_env(v, 3)
    assert seat_score(v, v.kinds["normal"], env, bid=3, taken=3) == made
    assert seat_score(v, v.kinds["normal"], env, bid=3, taken=2) == missed
