"""The void redeal (``dealing.void_redeal``): a player with no card of a suit asks for the deal
again at their first turn to call or bid; the engine, the record, the checker and ``updown play``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import updown_dsl as ud
from updown_dsl import IllegalAction
from updown_dsl.records.checker import check_text
from updown_dsl.records.record import game_transcript
from updown_dsl.records.writer import format_transcript

NAMES = ["Anna", "Boris", "Vera", "Gleb"]


def void_at_first_turn(seed_from: int = 0) -> ud.Game:
    """A game of estimation-void-redeal whose player to act, at a first call, is void in a suit."""
    v = ud.load_variant("estimation-void-redeal")
    for seed in range(seed_from, seed_from + 200):
        game = ud.Game(v, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.deal.number < 6:
            if game.redeal_refusal(game.to_act) is None:
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no void hand in 200 games")  # pragma: no cover


def test_a_void_hand_may_ask_for_the_same_deal_again() -> None:
    game = void_at_first_turn()
    seat, number, dealer = game.to_act, game.deal.number, game.dealer
    hand = game.hand(seat)
    assert {c.suit for c in hand} != set(ud.Suit)
    before = len(game.results)
    game.redeal(seat)
    r = game.results[-1]
    assert len(game.results) == before + 1 and r.event == "redeal" and r.annulled and r.actor == seat
    assert sorted(r.hands[seat], key=str) == sorted(hand, key=str) and all(x.points == 0 for x in r.seats)
    assert (game.deal.number, game.dealer) == (number, dealer)
    assert game.phase in (ud.Phase.AUCTION, ud.Phase.BID) and game.hand(seat) != hand
    assert all(b is None for b in game.bids)


def test_a_redeal_is_refused_with_every_suit_after_a_call_and_without_the_rule() -> None:
    game = void_at_first_turn()
    seat = game.to_act
    nxt = (seat + 1) % 4
    problem = game.redeal_refusal(nxt)  # not its turn
    assert problem is not None and problem.code == "R025"
    game.apply(game.legal_actions()[0])
    with pytest.raises(IllegalAction) as bad:
        game.redeal(seat)  # it has called
    assert bad.value.diagnostics[0].code == "R025"
    plain = ud.Game(ud.load_variant("estimation"), 4, seed=1)
    problem = plain.redeal_refusal(plain.to_act)
    assert problem is not None and problem.message == "this variant has no redeal for a void hand"
    # a hand with every suit
    v = ud.load_variant("estimation-void-redeal")
    g = next(g for g in (ud.Game(v, 4, seed=s) for s in range(50)) if {c.suit for c in g.hand(g.to_act)} == set(ud.Suit))
    problem = g.redeal_refusal(g.to_act)
    assert problem is not None and problem.message == "a redeal needs a hand void in a suit; this hand holds every suit"


@pytest.mark.parametrize("level", ["full", "plays", "sheet"])
def test_games_with_redeals_are_written_and_check_clean(level: str) -> None:
    v = ud.load_variant("estimation-void-redeal")
    redeals = 0
    for seed in range(6):
        game = ud.Game(v, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.redeal_refusal(game.to_act) is None and rng.random() < 0.5:
                game.redeal(game.to_act)
                redeals += 1
                continue
            game.apply(rng.choice(game.legal_actions()))
        text = format_transcript(game_transcript(game, NAMES, level=level, variant="estimation-void-redeal"))
        report = check_text(text, "g.log")
        assert [str(d) for d in report.diagnostics] == [], seed
        assert text.count(" redeal\n") == sum(r.event == "redeal" for r in game.results)
    assert redeals >= 3


def test_updown_play_takes_redeal_and_resumes_the_record(tmp_path: Path) -> None:
    from clikit import make_runner

    from updown_dsl.cli import app

    save = tmp_path / "g.log"
    for seed in range(1, 30):
        r = make_runner().invoke(app, ["play", "--variant", "estimation-void-redeal", "--seed", str(seed),
                                       "--save", str(save), "--force"], input="redeal\nquit\n")
        if "dealt again" in r.stdout:
            break
    else:  # pragma: no cover
        raise AssertionError("no seat void at its first call in 29 games")
    text = save.read_text(encoding="utf-8")
    assert "You redeal\n" in text and text.count("deal 1 cards 13") == 2
    assert check_text(text, "g.log").clean
    again = make_runner().invoke(app, ["play", "--resume", str(save)], input="quit\n")
    assert again.exit_code == 0, again.stdout
    sheet = make_runner().invoke(app, ["sheet", str(save)])
    assert "You asked for a redeal (void in a suit): dealt again" in sheet.stdout
