"""Fairness (updown_dsl/players/fairness.py): each bot decides alike when the cards its seat
cannot see are dealt again consistently with its view.

Each bot is made afresh for each decision from a generator seeded alike for both views, so a
difference can come only from what the bot reads: a bot that read another hand, the pack or a
hidden bid would differ on the twins.
"""

from __future__ import annotations

import random

import pytest

import updown_dsl as ud
from updown_dsl.players.bots import RandomBot
from updown_dsl.players.fairness import compare, public_fields, same_decision, twin_view

KINDS = ["heuristic", "random", "search:1"]


@pytest.mark.parametrize("variant", ["oh-hell", "odessa", "georgian", "russian"])
def test_bots_decide_alike_on_twins(variant):
    found = compare(ud.load_variant(variant), KINDS, 3, seed=7, share=0.15, limit=90)
    assert found.decisions == 90
    assert found.differences == 0, found.examples
    # the twins are other deals: every view asked had its unseen cards dealt again
    assert found.moved == found.decisions // len(KINDS)


def test_a_twin_looks_the_same_and_hides_other_cards():
    game = ud.Game(ud.load_variant("oh-hell"), 4, seed=3)
    for _ in range(30):  # into the 3rd deal's play
        game.apply(game.legal_actions()[0])
    view = game.view(game.to_act)
    twin, world = twin_view(view, random.Random(1))  # type: ignore[misc]
    assert public_fields(twin) == public_fields(view)
    assert world.hand(view.seat) == game.hand(view.seat)
    assert world.hands != game.hands


def test_the_comparison_catches_a_bot_that_is_not_a_function_of_its_view():
    """Control: a random bot whose generator runs on between the two calls (one generator for
    both) is caught, so a test that finds no difference means something."""
    game = ud.Game(ud.load_variant("oh-hell"), 4, seed=5)
    rng = random.Random(1)
    differ = 0
    while not game.is_over and game.deal.number < 8:
        view = game.view(game.to_act)
        if len(view.legal) > 2:
            got = twin_view(view, rng)
            assert got is not None
            shared = random.Random(rng.randrange(1 << 30))
            a, b = same_decision(lambda _: RandomBot(shared), view, got[0], 0)
            differ += a != b
        game.apply(game.legal_actions()[0])
    assert differ > 0
