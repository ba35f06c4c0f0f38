"""benchmarks/fair_ismcts.py: guesses for OpenSpiel's ISMCTS that keep the player's view and
the voids shown, and deal the pack's cards too (OpenSpiel's own resampler does not)."""

from __future__ import annotations

import random

import pytest

from benchscripts import benchmark_module


@pytest.fixture(scope="module")
def fair():
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install '.[bench]')")
    yield from benchmark_module("fair_ismcts")


def _positions(pyspiel, n: int, seed: int):  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 7})
    rng = random.Random(seed)
    for _ in range(n):
        s = game.new_initial_state()
        s.apply_action(7)
        s.apply_action(rng.randrange(4))
        while s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        for _ in range(rng.randrange(0, 20)):
            s.apply_action(rng.choice(s.legal_actions()))
        yield s


def test_a_guess_keeps_the_view_and_the_voids_and_deals_from_the_pack(fair) -> None:
    import pyspiel

    rng = random.Random(1)
    voided = from_pack = 0
    for state in _positions(pyspiel, 25, 2):
        p = state.current_player()
        dealt, voids, _, _, _ = fair._seen(state, p)
        real = {c for s in range(4) if s != p for c in dealt[s]}
        for _ in range(10):
            guess = fair.resample(state, p, rng)
            assert guess.information_state_string(p) == state.information_state_string(p)
            assert guess.legal_actions() == state.legal_actions()
            hands = fair._seen(guess, p)[0]
            for s in range(4):
                voided += len(voids[s])
                assert not any(c % 4 in voids[s] for c in hands[s] if c not in dealt[s])
                if s != p:
                    from_pack += sum(1 for c in hands[s] if c not in real)
    assert voided > 0 and from_pack > 0


def test_openspiels_own_guesses_never_deal_a_card_of_the_pack(fair) -> None:
    """The figure docs/bots.md gives: none of the cards OpenSpiel 2.0.2's resampler puts in the
    other hands comes from the pack (if a later OpenSpiel mends it, this test says so)."""
    import pyspiel

    states = list(_positions(pyspiel, 10, 3))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    total, outside = fair._from_the_pack(lambda s, p: s.resample_from_infostate(p, sampler), states)
    assert total > 0 and outside == 0
    rng = random.Random(4)
    total, outside = fair._from_the_pack(lambda s, p: fair.resample(s, p, rng), states)
    assert 0.3 < outside / total < 0.6


def test_the_fair_bot_plays_a_deal(fair) -> None:
    import pyspiel

    state = next(_positions(pyspiel, 1, 5))
    bot = fair.fair_bot(20, 7)
    while not state.is_terminal():
        action = int(bot.step(state))
        assert action in state.legal_actions()
        state.apply_action(action)


def test_values_compared_with_either_resampler(fair) -> None:
    rows = fair.compare_values(sims=60, positions=2, seed=3)
    labels = {pos.split(" ", 1)[1] for pos, _, _, _ in rows}
    assert labels == {"OpenSpiel's guesses", "fair guesses"}
    assert all(0 <= o <= 17 and 0 <= u <= 17 for _, _, o, u in rows)
