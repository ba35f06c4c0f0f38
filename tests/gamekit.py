"""Shared helpers for the engine and worked-case tests: reach a deal, deal hands, bid."""

from __future__ import annotations

import random
from functools import lru_cache

from updown_dsl import Bid, Card, Game, Phase, Variant, load_variant, loads_variant, parse_cards


def table_size(v: Variant, wanted: int = 4) -> int:
    """``wanted`` players, or the nearest number ``v`` is played by (two packs: six or more)."""
    return min(max(wanted, v.min_players), v.max_players)


@lru_cache(maxsize=None)
def variant(spec: str) -> Variant:
    """A bundled variant by name, or an inline YAML variant (text with a newline)."""
    return loads_variant(spec) if "\n" in spec else load_variant(spec)


def game_at(spec: str, players: int, number: int) -> Game:
    """A game of ``spec`` waiting for the cards (or, blind, the bids) of deal ``number``.

    The deal is dealt by the last seat. Earlier deals are dealt from a seeded shuffle and
    played with the first legal action; totals are cleared before every deal (so no
    stop-loss can fire) and after the last one, and the earlier results are dropped.
    """
    first_dealer = (players - 1 - (number - 1)) % players
    game = Game(variant(spec), players, seed=0, first_dealer=first_dealer, auto_deal=False)
    rng = random.Random(number)
    while game.deal.number < number:
        assert not game.is_over, game.over_reason
        set_totals(game, [0] * players)
        order = list(game.table.cards)
        rng.shuffle(order)
        start = game.deal.number
        while game.phase is Phase.BID:  # a blind deal: bids before the cards
            game.apply(game.legal_actions()[0])
        game.deal_from_order(order)
        while game.deal.number == start and not game.is_over:
            game.apply(game.legal_actions()[0])
    waiting = Phase.BID if game.kind.bidding == "before_deal" else Phase.DEAL
    assert game.phase is waiting and game.deal.number == number
    assert game.dealer == players - 1 and game.eldest == 0
    set_totals(game, [0] * players)
    game._results.clear()  # (a fixture: the deal under test is the first result)
    return game


def set_totals(game: Game, totals: list[int]) -> None:
    """Put the running totals at ``totals`` (a position to test from)."""
    for seat, total in enumerate(totals):
        game.take_total_as_written(seat, total)


def hands(*texts: str) -> list[list[Card]]:
    """Hands from card text, seat 0 first."""
    return [list(parse_cards(t)) for t in texts]


def code(game: Game, action: object) -> str | None:
    """The code of the rule refusing ``action`` now, or None when it is legal."""
    problem = game.check(action)  # type: ignore[arg-type]
    return None if problem is None else problem.code


def bid(game: Game, *values: int) -> None:
    """Bids in bidding order."""
    for b in values:
        game.apply(Bid(b))
