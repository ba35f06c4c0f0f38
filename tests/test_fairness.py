"""The bots decide on their seat's view and nothing else (issue: fairness, stated and tested).

benchmarks/fairness.py deals the cards a seat cannot see again, in a way that fits all it has
seen, and has the seat's bot, seeded the same, decide again: the suite runs a few hundred
decisions; the benchmark 10,000 (docs/bots.md gives the figures).
"""

from __future__ import annotations

import pytest

from benchscripts import benchmark_module

@pytest.fixture(scope="module")
def fairness():
    yield from benchmark_module("fairness")

@pytest.mark.slow
def test_random_and_heuristic_decide_the_same_whatever_the_unseen_cards(fairness) -> None:
    result = fairness.run(300, ["random", "heuristic"], ["oh-hell", "odessa", "georgian", "russian", "estimation"], 5)
    assert result["compared"]["heuristic"] >= 250
    assert result["differ"] == {"random": 0, "heuristic": 0}, result["where"]

@pytest.mark.slow
def test_the_search_decides_the_same_whatever_the_unseen_cards(fairness) -> None:
    result = fairness.run(40, ["search:1"], ["oh-hell", "georgian"], 6)
    assert result["compared"]["search:1"] >= 30 and result["differ"]["search:1"] == 0, result["where"]

def test_a_bot_that_peeks_is_caught(fairness, monkeypatch) -> None:
    # The check can fail: a bot that bids the number of hearts its left neighbour holds (it is
    # handed the game behind the view, as a program that cheats would find it) decides
    # otherwise once the unseen cards are dealt again. (The view itself holds no other hand.)
    from updown_dsl import Bid, Game
    from updown_dsl.cards import Suit

    behind: dict[int, Game] = {}
    view_of = Game.view

    def view(self, seat):  # type: ignore[no-untyped-def]
        v = view_of(self, seat)
        behind[id(v)] = self
        return v

    class Peeker:
        def act(self, v):  # type: ignore[no-untyped-def]
            legal = [a for a in v.legal if isinstance(a, Bid)]
            if not legal:
                return v.legal[0]
            hand = behind[id(v)].hand((v.seat + 1) % v.players)
            hearts = sum(1 for c in hand if c.suit is Suit.HEARTS)
            return min(legal, key=lambda b: abs(b.tricks - hearts))

    real = fairness.make_bot
    monkeypatch.setattr(Game, "view", view)
    monkeypatch.setattr(fairness, "make_bot", lambda kind, rng=None: Peeker() if kind == "peek" else real(kind, rng))
    result = fairness.run(200, ["peek"], ["oh-hell"], 7)
    assert result["differ"]["peek"] > 0
