"""The documented house rule (`extends: odessa` plus two changed keys) loads, validates and plays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from typer.testing import CliRunner

import updown_dsl as ud
from updown_dsl.cli import app

HOUSE = Path(__file__).resolve().parent.parent / "docs" / "house-rules" / "odessa-house.yaml"


def test_house_rule_validates_with_the_cli() -> None:
    result = CliRunner().invoke(app, ["variant", "validate", str(HOUSE)])
    assert result.exit_code == 0, result.output
    assert "1 valid" in result.output


def test_house_rule_changes_exactly_its_two_keys() -> None:
    house, base = ud.load_variant(HOUSE), ud.load_variant("odessa")
    assert house.scoring.params["pass"] == 0 and base.scoring.params["pass"] == 5
    assert house.wild[0].lead_on == "first_trick" and base.wild[0].lead_on == "any_trick"
    assert ud.resolve_schedule(house, 4) == ud.resolve_schedule(base, 4)
    env = {"cards": 3, "players": 4, "deal": 3, "deals": 15, "set": 1, "set_deal": 3,
           "set_deals": 15, "deck": 36}
    normal = house.kinds["normal"]
    assert ud.seat_score(house, normal, {**env, "pass": 0}, bid=0, taken=0) == 0
    assert ud.seat_score(base, base.kinds["normal"], {**env, "pass": 5}, bid=0, taken=0) == 5


def test_house_rule_plays_a_whole_game() -> None:
    game = ud.Game(ud.load_variant(HOUSE), 4, seed=11)
    rng = random.Random(11)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.over_reason == "schedule complete"
    assert [r.deal.number for r in game.results] == list(range(1, 16))
    passes = [(r.seats[s].points, r.deal.kind) for r in game.results for s in range(4)
              if r.seats[s].bid == 0 and r.seats[s].taken == 0]
    assert passes and all(points == 0 for points, _ in passes)


# -- a limit from a player's own bids: no more than five zero bids in a row ---------------------

FIVE = Path(__file__).resolve().parent.parent / "docs" / "house-rules" / "oh-hell-five-zeros.yaml"


def test_a_sixth_zero_bid_in_a_row_is_refused_and_the_others_keep_the_deals_range() -> None:
    """Anna (seat 0) bids 0 in deals 1 to 5; in deal 6 her range is 1..6, the others' 0..6,
    and after a deal she bids 1 her run starts again."""
    import updown_dsl as ud

    game = ud.Game(ud.load_variant(str(FIVE)), 4, seed=3)
    while game.deal_index < 5:
        legal = game.legal_actions()
        if game.phase is ud.Phase.BID:  # Anna 0, the others as high as they may
            game.apply(ud.Bid(0) if game.to_act == 0 else legal[-1])
        else:
            game.apply(legal[0])
    assert [game.zeros_in_row(s) for s in range(4)] == [5, 0, 0, 0]
    seen = {}
    while game.phase is ud.Phase.BID:
        seat = game.to_act
        seen[seat] = game.bid_range()
        if seat == 0:
            refused = game.check(ud.Bid(0))
            assert refused is not None and refused.code == "R020"
            assert refused.message == "bid 0 is out of range 1..6"
            assert refused.hint is not None and "zeros_in_row" in refused.hint
            game.apply(ud.Bid(1))
        else:
            game.apply(game.legal_actions()[0])
    assert seen[0] == (1, 6) and all(seen[s][0] == 0 for s in (1, 2, 3))
    while game.deal_index == 5:
        game.apply(game.legal_actions()[0])
    assert game.zeros_in_row(0) == 0


# -- settlement by finishing place ---------------------------------------------------------------

BY_PLACE = Path(__file__).resolve().parent.parent / "docs" / "house-rules" / "oh-hell-by-place.yaml"


@pytest.mark.parametrize(("totals", "paid"), [
    ([86, 69, 72, 107], [10, -30, -10, 30]),   # Gleb first, Anna second, Vera third, Boris last
    ([50, 50, 20, 20], [20, 20, -20, -20]),    # (3 + 1) / 2 and (-1 - 3) / 2
    ([7, 9, 7, 1], [0, 30, 0, -30]),           # Anna and Vera share second and third: (1 - 1) / 2
    ([5, 5, 5, 0], [10, 10, 10, -30]),         # three share 3 + 1 - 1 = 3: one each
    ([4, 4, 4, 4], [0, 0, 0, 0]),
])
def test_settlement_by_place(totals: list[int], paid: list[int]) -> None:
    import updown_dsl as ud

    assert ud.settle(ud.load_variant(str(BY_PLACE)), totals) == paid


def test_an_odd_point_of_a_shared_place_goes_to_the_earlier_seat() -> None:
    from updown_dsl.engine.scoring import by_place

    assert by_place([4, 3, 2, 1], [7, 9, 7, 1]) == [3, 4, 2, 1]


@pytest.mark.parametrize(("settlement", "message"), [
    ("{method: places, places: [3, 1]}", "3:38: error[V012] settlement by `places` needs an amount for each of "
                                          "7 places (the most players the variant allows), not 2"),
    ("{method: places}", "3:13: error[V012] settlement by `places` needs an amount for each of 7 places (the "
                         "most players the variant allows), not 0"),
    ("{method: places, places: [3, one]}", "3:38: error[V004] `settlement.places` must be a list of whole "
                                           "numbers, e.g. [3, 1, -1, -3]"),
])
def test_places_that_do_not_fit_are_refused(settlement: str, message: str) -> None:
    import updown_dsl as ud

    with pytest.raises(ud.VariantError) as err:
        ud.loads_variant(f"name: x\nextends: oh-hell\nsettlement: {settlement}\n", path="x.yaml")
    assert [d.format().split(" (hint")[0] for d in err.value.diagnostics] == [f"x.yaml:{message}"]
