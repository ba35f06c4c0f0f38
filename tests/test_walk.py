"""The walk over a record (updown_dsl.records.walk): a visitor sees every line once, in order.

The checker is one visitor; these are others, as a score sheet or statistics would write one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from updown_dsl import Game, load_variant
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import Event, Transcript, format_transcript, parse_transcript
from updown_dsl.records.walk import Abandon, StopWalk, Visitor, walk

GOLDEN = Path(__file__).resolve().parent / "golden"


def _transcript(text: str) -> Transcript:
    t, diags = parse_transcript(text, "game.log")
    assert t is not None and not diags
    return t


class Bids(Visitor):
    """Each deal's bids by seat, and the tricks each seat won, counted from the plays."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.bids: dict[int, dict[int, int]] = {}
        self.plays: dict[int, int] = {}
        self.deal = 0

    def begin_game(self, t: Transcript) -> None:
        self.calls.append("begin_game")

    def begin_deal(self, block: list[Event], last: bool) -> None:
        assert block[0].kind == "deal"
        self.deal = block[0].number or 0
        self.calls.append(f"deal {self.deal}{' last' if last else ''}")
        self.bids[self.deal] = {}
        self.plays[self.deal] = 0

    def on_bid(self, e: Event) -> None:
        assert e.actor is not None and e.number is not None
        self.bids[self.deal][e.actor] = e.number

    def on_play(self, e: Event) -> None:
        self.plays[self.deal] += 1

    def end_deal(self, block: list[Event], last: bool) -> None:
        self.calls.append(f"end {self.deal}")

    def abandoned(self, block: list[Event]) -> None:
        self.calls.append(f"abandoned {block[0].number}")

    def settlement(self, e: Event) -> None:
        self.calls.append("settlement")

    def end_game(self) -> None:
        self.calls.append("end_game")


@pytest.mark.parametrize("name", ["oh-hell", "odessa", "georgian", "russian"])
def test_a_visitor_sees_the_bids_the_engine_took(name: str) -> None:
    game = Game(load_variant(name), players=4, seed=11)
    while not game.is_over:
        game.apply(game.rng.choice(game.legal_actions()))
    t = _transcript(format_transcript(game_transcript(game, level="plays")))
    v = Bids()
    walk(t, v)
    deals = [r for r in game.results if not r.annulled]
    assert len(v.bids) == len(deals)
    for number, r in zip(v.bids, deals):
        # (deals played without bids, as some kinds are, have no bid lines)
        assert v.bids[number] == {s: seat.bid for s, seat in enumerate(r.seats) if seat.bid is not None}
        assert v.plays[number] == r.deal.cards * game.players
    assert v.calls[0] == "begin_game" and v.calls[-2:] == ["settlement", "end_game"]
    assert v.calls.count("settlement") == 1


def test_abandon_leaves_one_deal_and_stopwalk_ends_the_walk() -> None:
    text = (GOLDEN / "oh-hell" / "clean-plays-3p.log").read_text(encoding="utf-8")
    t = _transcript(text)

    class Leave(Bids):
        def on_bid(self, e: Event) -> None:
            if self.deal == 2:
                raise Abandon
            if self.deal == 4:
                raise StopWalk
            super().on_bid(e)

    v = Leave()
    walk(t, v)
    assert v.calls == ["begin_game", "deal 1", "end 1", "deal 2", "abandoned 2", "deal 3", "end 3",
                       "deal 4", "settlement", "end_game"]
    assert v.bids[2] == {} and v.plays[2] == 0  # nothing of deal 2 after the first bid
    assert v.bids[1] == {0: 1, 1: 1, 2: 1}


def test_lines_before_the_first_deal_are_stray() -> None:
    text = (GOLDEN / "oh-hell" / "clean-plays-3p.log").read_text(encoding="utf-8")
    head, body = text.split("\ndeal 1", 1)
    t, _ = parse_transcript(head + "\nAnna bid 1\ndeal 1" + body, "game.log")
    assert t is not None

    class Strays(Visitor):
        def __init__(self) -> None:
            self.strays: list[Event] = []

        def stray(self, e: Event) -> None:
            self.strays.append(e)

    v = Strays()
    walk(t, v)
    assert [(e.kind, e.actor, e.number) for e in v.strays] == [("bid", 0, 1)]
