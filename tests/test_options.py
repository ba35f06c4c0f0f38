"""Options that select other readings of the sources: AMB-O1 (b), AMB-S1, AMB-R9.

Every reading is listed in docs/variants.md, section "Ambiguities and options".
"""

from __future__ import annotations

import random

from gamekit import bid, code, game_at, hands, variant
from updown_dsl import Card, Game, Play

HIGHEST_TRUMP = """\
extends: odessa
name: odessa-demand-highest-trump
jokers: {demand_void: highest_trump}
"""
MUST_TRUMP = """\
extends: odessa
name: odessa-demand-must-trump
jokers: {demand_void: must_trump}
"""


def _demand_trick(spec: str) -> object:
    # 3 players, n = 3, trump hearts (turned 10H); P1 leads the joker demanding spades.
    game = game_at(spec, 3, 3)
    game.deal_cards(hands("6S AC 7D", "7H AH KD", "9S 8C 8D"), turned=Card.parse("10H"))
    bid(game, 1, 1, 0)
    game.apply(Play.parse("6S demand S"))
    return game


def test_amb_o1_b_void_player_must_play_the_highest_trump() -> None:
    game = _demand_trick(HIGHEST_TRUMP)
    assert [str(a) for a in game.legal_actions()] == ["AH"]
    assert code(game, Play.parse("7H")) is not None


def test_amb_o1_b_any_trump_reading_allows_either_trump() -> None:
    game = _demand_trick(MUST_TRUMP)
    assert sorted(str(a) for a in game.legal_actions()) == ["7H", "AH"]


def test_amb_o1_a_void_player_plays_anything() -> None:
    game = _demand_trick("odessa")
    assert sorted(str(a) for a in game.legal_actions()) == ["7H", "AH", "KD"]


SET_CHECK = """\
extends: up-and-down-online
name: online-stop-at-set-end
end: {stop_check: set}
"""


def _play_out(spec: str, seed: int) -> Game:
    game = Game(variant(spec), 4, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_amb_s1_stop_loss_checked_only_at_set_end() -> None:
    # The online rules have one set (the whole schedule): looked at only after the last deal.
    early = _play_out("up-and-down-online", 5)
    assert early.over_reason == "stop-loss reached («просчет»)"
    assert early.deal.number < len(early.deals)
    late = _play_out(SET_CHECK, 5)
    assert late.deal.number == len(late.deals)
    assert sum(r.event == "deal" for r in late.results) == len(late.deals)


REMAINING_TOP = """\
extends: russian-cut
name: russian-cut-remaining-top
special_card: {cut_shows: remaining_top}
"""


def test_amb_r9_the_cut_shows_another_card_by_reading() -> None:
    a = Game(variant("russian-cut"), 4, seed=9)
    b = Game(variant(REMAINING_TOP), 4, seed=9)
    assert a.cut_card is not None and b.cut_card is not None
    assert a.cut_card != b.cut_card
    assert a.hands == b.hands  # the same shuffle and cut; only the exposed card differs
