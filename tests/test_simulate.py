"""simulate(): reproducible bot-vs-bot games and a summary that agrees with the games."""

from __future__ import annotations

import json
import math
import statistics

import pytest

import updown_dsl as ud
from updown_dsl.records.checker import check_text
from updown_dsl.engine import Game
from updown_dsl.records.record import game_transcript
from updown_dsl.players.simulate import MIXED, SimulationSummary, lineup, simulate
from updown_dsl.records.transcript import format_transcript

LINEUP = ["heuristic", "random", "random", "random"]


def _transcripts(name: str, games: int, seed: int | str, **kw: object) -> tuple[SimulationSummary, list[str]]:
    texts: list[str] = []

    def save(g: int, game: Game) -> None:
        assert g == len(texts)
        texts.append(format_transcript(game_transcript(game, level="full", variant=name)))

    summary = simulate(name, 4, games, seed=seed, bots=LINEUP, on_game=save, **kw)  # type: ignore[arg-type]
    return summary, texts


def test_same_seed_same_games_and_summary() -> None:
    a, texts_a = _transcripts("odessa", 4, seed=11, rotate=True)
    b, texts_b = _transcripts("odessa", 4, seed=11, rotate=True)
    assert a == b and a.to_dict() == b.to_dict()
    assert texts_a == texts_b
    c, texts_c = _transcripts("odessa", 4, seed=12, rotate=True)
    assert texts_c != texts_a
    # The seed may be a string too, and a loaded variant works like its name.
    d = simulate(ud.load_variant("odessa"), 4, 4, seed=11, bots=LINEUP, rotate=True)
    assert d == a


def test_summary_agrees_with_the_games() -> None:
    """Recompute every figure from the finished games handed to on_game."""
    games: list[Game] = []
    bots = ["heuristic", "random", "heuristic", "random"]
    summary = simulate("odessa", 4, 6, seed="recount", bots=bots,
                       on_game=lambda g, game: games.append(game))
    assert len(games) == 6 and all(g.is_over for g in games)
    n = 4
    for s, seat in enumerate(summary.seats):
        totals = [g.totals[s] for g in games]
        assert seat.seat == s and seat.bot == bots[s] and seat.games == 6
        assert seat.games_by_bot == ((bots[s], 6),)
        assert math.isclose(seat.mean_points, statistics.mean(totals))
        assert math.isclose(seat.sd_points, statistics.stdev(totals))
        wins = sum(1 / len(g.winners()) for g in games if s in g.winners())
        assert math.isclose(seat.wins, wins) and math.isclose(seat.win_share, wins / 6)
        lines = [r.seats[s] for g in games for r in g.results if r.event == "deal"]
        assert seat.bids == len(lines)  # every odessa deal has bids (the blind one too)
        assert math.isclose(seat.bids_made, sum(x.bid == x.taken for x in lines) / len(lines))
        assert math.isclose(seat.mean_settlement, statistics.mean(g.settlement()[s] for g in games))
    assert math.isclose(sum(s.wins for s in summary.seats), 6)
    for kind in ("heuristic", "random"):
        k = summary.kind(kind)
        seats = [s for s in range(n) if bots[s] == kind]
        totals = [g.totals[s] for g in games for s in seats]
        assert k.games == 12
        assert math.isclose(k.mean_points, statistics.mean(totals))
        assert math.isclose(k.sd_points, statistics.stdev(totals))
        assert math.isclose(k.wins, sum(summary.seats[s].wins for s in seats))
        assert k.bids == sum(summary.seats[s].bids for s in seats)
    with pytest.raises(KeyError):
        summary.kind("genius")

    v = summary.variant
    deals = [r for g in games for r in g.results if r.event == "deal"]
    assert v.variant == "odessa" and v.players == 4 and v.games == 6
    assert math.isclose(v.mean_deals, len(deals) / 6)
    # Odessa: eldest bids first, so the dealer bids last; the hook forbids the bid that makes
    # the total equal the cards whenever the others' bids leave room for it.
    assert v.bidding_rounds == len(deals)
    others = [sum(x.bid or 0 for s, x in enumerate(r.seats) if s != r.dealer) for r in deals]
    hooked = sum(1 for r, bids in zip(deals, others) if bids <= r.deal.cards)
    assert math.isclose(v.hook_share, hooked / len(deals))
    decisions = sum(r.deal.cards * n + n for r in deals)  # every card played, every bid
    assert math.isclose(v.mean_deal_decisions, decisions / len(deals))
    assert v.stop_loss_share == 0.0


def test_stop_loss_share() -> None:
    games: list[Game] = []
    s = simulate("up-and-down-online", 3, 6, seed=5, bots=["random"] * 3,
                 on_game=lambda g, game: games.append(game))
    stopped = sum(1 for g in games if "stop-loss" in (g.over_reason or ""))
    assert stopped > 0
    assert math.isclose(s.variant.stop_loss_share, stopped / 6)


def test_rotate_puts_each_kind_in_each_seat() -> None:
    assert [lineup(LINEUP, g, True).index("heuristic") for g in range(8)] == [0, 1, 2, 3] * 2
    assert lineup(LINEUP, 5, False) == tuple(LINEUP)
    summary = simulate("russian", 4, 8, seed=1, bots=LINEUP, rotate=True)
    for seat in summary.seats:
        assert seat.bot == MIXED
        assert seat.games_by_bot == (("heuristic", 2), ("random", 6))
    assert summary.kind("heuristic").games == 8 and summary.kind("random").games == 24
    fixed = simulate("russian", 4, 2, seed=1, bots=LINEUP)
    assert [s.bot for s in fixed.seats] == LINEUP


def test_rotated_games_are_the_fixed_line_ups_games() -> None:
    """Game g of a rotation is game g of a fixed run with the line-up rotated g seats."""
    rotated: list[list[int]] = []
    simulate("odessa", 4, 4, seed=2, bots=LINEUP, rotate=True,
             on_game=lambda g, game: rotated.append(list(game.totals)))
    for g in (1, 3):
        fixed: list[list[int]] = []
        simulate("odessa", 4, g + 1, seed=2, bots=lineup(LINEUP, g, True),
                 on_game=lambda _, game: fixed.append(list(game.totals)))
        assert fixed[g] == rotated[g]


@pytest.mark.parametrize("name", ["odessa", "georgian", "russian", "oh-hell", "up-and-down",
                                  "odessa-two-blind", "russian-protection"])
def test_saved_games_check_clean(name: str) -> None:
    games = 1 if name in ("oh-hell", "up-and-down") else 2
    _, texts = _transcripts(name, games, seed=7, rotate=True)
    assert len(texts) == games
    for text in texts:
        report = check_text(text)
        assert report.clean, [str(d) for d in report.diagnostics]


@pytest.mark.parametrize("name", ["up-and-down", "oh-hell", "odessa", "georgian", "russian"])
def test_heuristic_beats_random(name: str) -> None:
    summary = simulate(name, 4, 4, seed="small", bots=LINEUP, rotate=True)
    h, r = summary.kind("heuristic"), summary.kind("random")
    assert h.mean_points > r.mean_points
    assert h.bids_made > r.bids_made + 0.15
    assert h.win_share > 0.5


def test_to_dict_is_json() -> None:
    summary = simulate("georgian", 4, 1, seed=0, bots=LINEUP)
    data = json.loads(json.dumps(summary.to_dict()))
    assert data["variant"]["variant"] == "georgian" and data["bots"] == LINEUP
    assert [s["bot"] for s in data["seats"]] == LINEUP
    assert data["seats"][0]["games_by_bot"] == {"heuristic": 1}
    assert {k["bot"] for k in data["kinds"]} == {"heuristic", "random"}
    assert set(data["variant"]) >= {"games", "mean_deals", "hook_share", "mean_deal_decisions",
                                    "stop_loss_share"}


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="no bot named"):
        simulate("odessa", 4, 1, seed=0, bots=["heuristic", "random", "random", "genius"])
    with pytest.raises(ValueError, match="one bot kind per seat"):
        simulate("odessa", 4, 1, seed=0, bots=["random"] * 3)
    with pytest.raises(ValueError, match="players"):
        simulate("odessa", 7, 1, seed=0, bots=["random"] * 7)
    empty = simulate("odessa", None, 0, seed=0, bots=["random"] * 3)
    assert empty.variant.games == 0 and empty.variant.players == 3
    assert all(s.games == 0 and s.mean_points == 0.0 for s in empty.seats)


def test_the_hook_share_counts_a_dealer_who_must_overbid() -> None:
    # bidding.total: over: the last bidder must make the bids total more than the cards. The
    # hook takes bids away whenever the others' bids total 1 to the cards (at 0 even a bid of
    # all the cards cannot pass them, and the last bidder may bid anything), and forbids no
    # single bid (the share used to read 0 for such a variant).
    variant = ud.loads_variant("name: over\nextends: odessa\nbidding: {total: over}\n", path="over.yaml")
    games: list[Game] = []
    summary = simulate(variant, 4, 4, seed=3, bots=["random"] * 4, on_game=lambda g, game: games.append(game))
    deals = [r for g in games for r in g.results if r.event == "deal"]
    others = [sum(x.bid or 0 for s, x in enumerate(r.seats) if s != r.dealer) for r in deals]
    hooked = sum(1 for r, bids in zip(deals, others) if 1 <= bids <= r.deal.cards)
    assert summary.variant.bidding_rounds == len(deals) and hooked > 0
    assert math.isclose(summary.variant.hook_share, hooked / len(deals))
