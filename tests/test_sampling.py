"""Guessing the hands a seat cannot see (updown_dsl/players/sampling.py)."""

from __future__ import annotations

import random

import pytest

from updown_dsl.players.sampling import fill_hands


def test_fill_hands_finds_every_deal_that_fits() -> None:
    """The last resort when guesses keep breaking a void: seat 1 needs two of cards 2, 3, 4,
    seat 2 (void in the suit of card 4) one of 2, 3. Taking greedily (seat 1 first: 2 and 3)
    would leave seat 2 nothing; the matching always fits and finds both deals."""
    rnd = random.Random(0)
    seen = set()
    for _ in range(40):
        hands = fill_hands([0b1, 0, 0], [0, 2, 1], 0b11100, [0, 0b11100, 0b01100], rnd)
        assert hands[0] == 0b1 and hands[1] & 0b10000 and bin(hands[1]).count("1") == 2
        assert hands[1] & hands[2] == 0 and (hands[1] | hands[2]) == 0b11100
        seen.add(tuple(hands))
    assert seen == {(1, 0b11000, 0b00100), (1, 0b10100, 0b01000)}
    with pytest.raises(RuntimeError):
        fill_hands([0, 0], [0, 2], 0b11, [0, 0b01], rnd)
