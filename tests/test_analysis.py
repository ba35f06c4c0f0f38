"""The analysis of a recorded game (updown_dsl/players/analysis.py, batch/analyse.py).

The golden file ``tests/golden/analyse/oh-hell-4.analysis.json`` is the analysis of the first
four deals of docs/examples/oh-hell-full.log at seed 7, level 1; after a deliberate change to
the search, rewrite it with ``python tests/test_analysis.py`` and read the diff.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

import updown_dsl as ud
from updown_dsl.players.analysis import (
    BIG_LOSS, DecisionKind, Mark, Position, Settings, Stop, StopReason, analyse_game, analyst, judge,
    positions, to_data, trick_chances,
)
from updown_dsl.players.search import SearchBot
from updown_dsl.records.checker import check_games

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "golden" / "analyse" / "oh-hell-4.log"
GOLDEN = SMALL.with_suffix(".analysis.json")
SETTINGS = Settings(seed=7, level=1)


def _game(path: Path) -> ud.Game:
    report = next(iter(check_games(path)))
    assert report.game is not None
    return report.game


def _small_data() -> dict[str, object]:
    return to_data(analyse_game(_game(SMALL), SETTINGS), ["Anna", "Boris", "Vera", "Gleb"])


def test_the_small_record_analysed_at_seed_7_is_the_golden_one() -> None:
    assert _small_data() == json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_golden_analysis_in_numbers() -> None:
    a = analyse_game(_game(SMALL), SETTINGS)
    assert a.stopped is None and [d.number for d in a.deals] == [1, 2, 3, 4]
    # Deal 1: Vera holds JS with spades trump (6S turned) and bid 0: the search prefers 1.
    vera = next(d for d in a.deals[0].decisions if d.seat == 2)
    assert (vera.kind, vera.taken, vera.best) == (DecisionKind.BID, ud.Bid(0), ud.Bid(1))
    assert vera.loss > 0 and vera.mark is not Mark.GOOD
    assert len(vera.tricks) == 2 and math.isclose(sum(vera.tricks), 1.0)
    # Each player's figures add up from the decisions.
    for p in a.summaries:
        mine = [d for deal in a.deals for d in deal.decisions if d.seat == p.seat]
        assert math.isclose(p.loss, sum(d.loss for d in mine), abs_tol=1e-5)
        assert p.decisions == len(mine) and p.big == sum(d.big for d in mine)
        assert p.bids == sum(d.kind is DecisionKind.BID for d in mine)
    anna = a.summaries[0]
    assert (anna.bids, anna.made) == (4, 1)  # Anna made her bid in deal 1 only
    assert math.isclose(anna.loss_per_deal, anna.loss / 4, abs_tol=1e-5)


def test_a_loss_is_the_gap_to_the_best_value_and_marks_follow_the_threshold() -> None:
    a = analyse_game(_game(SMALL), SETTINGS)
    for deal in a.deals:
        for d in deal.decisions:
            values = {v.action: v.value for v in d.values}
            assert d.best in values and d.taken in values
            assert math.isclose(d.loss, max(0.0, values[d.best] - values[d.taken]), abs_tol=1e-5)
            assert d.mark is (Mark.BIG if d.loss >= BIG_LOSS else Mark.MISTAKE if d.loss >= BIG_LOSS / 2
                              else Mark.GOOD)
            assert values[d.best] == max(values.values())


def test_the_same_seed_gives_the_same_analysis_and_another_seed_another() -> None:
    game = _game(SMALL)
    assert analyse_game(game, SETTINGS) == analyse_game(game, SETTINGS)
    assert analyse_game(game, SETTINGS) != analyse_game(game, Settings(seed=8, level=1))


def test_the_analysis_is_the_same_in_a_process_pool() -> None:
    from updown_dsl.batch.analyse import analyse_game_jobs

    game = _game(SMALL)
    assert analyse_game_jobs(game, SETTINGS, jobs=2) == analyse_game(game, SETTINGS)


@pytest.mark.slow
def test_the_analysis_is_the_same_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    from updown_dsl.batch.analyse import analyse_game_jobs

    game = _game(SMALL)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=40) as cluster:
        assert analyse_game_jobs(game, SETTINGS, scheduler=cluster.scheduler_address) == analyse_game(game, SETTINGS)


def test_a_decision_is_judged_from_the_seat_s_view_only() -> None:
    """Eldest's first bid, with the other hands dealt two different ways: the same judgement."""
    variant = ud.load_variant("oh-hell")
    mine = ud.parse_cards("AS KH 7D 2C 9S")
    rng = random.Random(3)
    turned = ud.Card.parse("5H")
    rest = [c for c in ud.Game(variant, 4).table.cards if c not in mine and c != turned]
    judged = []
    others = []
    for _ in range(2):
        rng.shuffle(rest)
        game = ud.Game(variant, 4, auto_deal=False)
        while game.deal.cards != 5:  # on to the 5-card deal, any cards
            game.deal_random()
            while game.phase is not ud.Phase.DEAL:
                game.apply(game.legal_actions()[0])
        seat = game.eldest
        hands = [rest[i * 5:(i + 1) * 5] for i in range(4)]
        hands[seat] = list(mine)
        game.deal_cards(hands, turned=turned)
        assert game.to_act == seat
        judged.append(judge(analyst(SETTINGS), Position(game.deal.number, 0, game.view(seat), ud.Bid(2)), SETTINGS))
        others.append(hands[(seat + 1) % 4])
    assert others[0] != others[1] and judged[0] == judged[1]
    assert judged[0].values[0].tries > 0


def test_a_score_sheet_stops_at_once_and_a_penalty_where_it_is() -> None:
    sheet = _game(ROOT / "docs" / "examples" / "georgian-sheet.log")
    with pytest.raises(Stop) as found:
        list(positions(sheet.variant, sheet.players, sheet.results))
    assert (found.value.reason, found.value.deal) == (StopReason.NO_CARDS, 1)
    revoke = analyse_game(_game(ROOT / "docs" / "examples" / "odessa-revoke-penalty.log"), SETTINGS)
    assert (revoke.stopped, revoke.stopped_at) == (StopReason.PENALTY, 3)
    assert [d.number for d in revoke.deals] == [1, 2]


def test_evaluate_is_what_the_bot_plays() -> None:
    game = ud.Game(ud.load_variant("odessa"), 4, seed=5)
    while game.deal.cards < 4:
        game.apply(game.legal_actions()[0])
    for method in ("flat", "tree"):
        view = game.view(game.to_act)
        a = SearchBot(random.Random(1), 1, bidder=ud.players.bots.HeuristicBot(random.Random(1)), method=method)
        b = SearchBot(random.Random(1), 1, bidder=ud.players.bots.HeuristicBot(random.Random(1)), method=method)
        ev = a.evaluate(view)
        assert ev.searched and ev.best == b.act(view)
        assert [v.action for v in ev.actions] == list(view.legal)
        assert all(v.tries > 0 for v in ev.actions)


def test_trick_chances_open_and_blind_deals() -> None:
    game = ud.Game(ud.load_variant("odessa"), 4, seed=2)
    seen = set()
    while not game.is_over and len(seen) < 2:
        if game.phase is ud.Phase.BID and len(game.legal_actions()) > 1:
            view = game.view(game.to_act)
            kind = "blind" if not view.hand else "open"
            if kind not in seen:
                seen.add(kind)
                chances = trick_chances(view, level=1, rng=random.Random(0))
                assert len(chances) == view.deal.cards + 1
                assert math.isclose(sum(chances), 1.0) and min(chances) >= 0
                again = trick_chances(view, level=1, rng=random.Random(0))
                assert chances == again
        game.apply(game.legal_actions()[0])
    assert seen == {"open", "blind"}


def test_trick_chances_is_asked_at_a_bid() -> None:
    game = ud.Game(ud.load_variant("oh-hell"), 4, seed=2)
    game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError):
        trick_chances(game.view(0))


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        Settings(level=9)
    with pytest.raises(ValueError):
        Settings(method="deep")
    with pytest.raises(ValueError):
        Settings(threshold=0)


if __name__ == "__main__":  # rewrite the golden analysis
    GOLDEN.write_text(json.dumps(_small_data(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
