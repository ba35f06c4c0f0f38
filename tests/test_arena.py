"""Smoke test of benchmarks/arena.py: a few deal groups, every rotation, figures that add up.

Not a strength test: the groups are too few for any bot to be shown better.
"""

from __future__ import annotations

import json

import pytest

from benchscripts import benchmark_module


@pytest.fixture(scope="module")
def arena():
    yield from benchmark_module("arena")


def test_rotations(arena) -> None:
    assert arena.lineups("2v2") == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert len(arena.lineups("1v3")) == 4
    assert sorted(r.index("a") for r in arena.lineups("1v3")) == [0, 1, 2, 3]


@pytest.mark.slow
def test_a_variant_deal_group_in_every_rotation(arena) -> None:
    results = arena.run_arena("oh-hell", ("search:1", "random"), 2, seed=3, jobs=1)
    assert len(results) == 2
    for r in results:
        assert r.a.seat_deals == r.b.seat_deals == 4  # two seats each, in two rotations
        assert r.a.decisions > 0 and r.a.seconds >= 0
        assert 0 <= r.a.made <= r.a.bids == 4
    again = arena.run_arena("oh-hell", ("search:1", "random"), 2, seed=3, jobs=1)
    assert [(r.a.points, r.b.points) for r in again] == [(r.a.points, r.b.points) for r in results]
    s = arena.summarise(results, ("search:1", "random"))
    assert s["groups"] == 2 and [b["bot"] for b in s["bots"]] == ["search:1", "random"]
    a, b = (x["mean_points"] for x in s["bots"])
    assert s["difference"]["mean"] == pytest.approx(a - b, abs=1e-3)
    assert "points/deal" in arena.format_summary("oh-hell", s)


def test_the_openspiel_mirror_and_ismcts(arena, capsys) -> None:
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install '.[bench]')")
    results = arena.run_arena(arena.OPENSPIEL, ("heuristic", "ismcts:10"), 2, seed=1, jobs=1)
    for r in results:  # the mirror raises MirrorError on any disagreement
        assert r.a.seat_deals == r.b.seat_deals == 4 and r.b.decisions == 2 * 2 * 8
    assert arena.main(["--bots", "search:1,ismcts:10:max", "--groups", "1", "--jobs", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["groups"] == 1 and out["variant"] == "openspiel"


def test_bad_arguments(arena) -> None:
    with pytest.raises(SystemExit):
        arena.parse_args(["--variant", "oh-hell", "--bots", "search"])
    with pytest.raises(SystemExit):
        arena.parse_args(["--variant", "oh-hell", "--bots", "search,ismcts:100"])


def test_a_run_split_by_first_group_merges_into_the_whole_run(arena) -> None:
    specs = ("heuristic", "random")
    whole = arena.summarise(arena.run_arena("oh-hell", specs, 4, seed=5, jobs=1, chunk=2), specs)
    parts = [arena.summarise(arena.run_arena("oh-hell", specs, 2, seed=5, jobs=1, first=f), specs) for f in (0, 2)]
    for p in parts:
        p["variant"] = "oh-hell"
    merged = arena.merge_summaries(parts)
    assert merged["groups"] == 4 and merged["per_group"] == whole["per_group"]
    assert merged["difference"] == whole["difference"]
    assert [b["mean_points"] for b in merged["bots"]] == [b["mean_points"] for b in whole["bots"]]
    assert [b["bids_made"] for b in merged["bots"]] == [b["bids_made"] for b in whole["bots"]]


def test_the_clairvoyant_bot_searches_the_true_deal(arena) -> None:
    """A clairvoyant bot's every guess is the deal as dealt: its search sees the others' hands."""
    import random

    import updown_dsl as ud

    game = ud.Game(ud.load_variant("oh-hell"), 4, seed=5)
    rng = random.Random(5)
    while game.deal_index < 4:
        game.apply(rng.choice(game.legal_actions()))
    bot = arena.make_arena_bot("clairvoyant:1", "s", game=game)
    assert bot.oracle(game.view(game.to_act)) == (list(game.kernel.hands), list(game.bids))
    assert bot.act(game.view(game.to_act)) in game.legal_actions()
    with pytest.raises(ValueError):
        arena.make_arena_bot("clairvoyant", "s")


@pytest.mark.slow
def test_the_ladder_gives_each_rung_its_share_of_the_gap(tmp_path, capsys) -> None:
    ladder = next(benchmark_module("ladder"))
    rows = ladder.ladder("odessa", ["random", "heuristic", "clairvoyant:1"], 2, 3, 1, tmp_path)
    assert [r["rung"] for r in rows] == ["random", "heuristic", "clairvoyant:1"]
    heuristic, top = rows[1]["points"], rows[2]["points"]
    assert rows[1]["gap_closed"] == 0.0 and rows[2]["gap_closed"] == pytest.approx(1.0)
    assert rows[0]["gap_closed"] == pytest.approx((rows[0]["points"] - heuristic) / (top - heuristic))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odessa--clairvoyant_1.json", "odessa--heuristic.json",
                                                          "odessa--random.json"]
    again = ladder.ladder("odessa", ["random", "heuristic", "clairvoyant:1"], 2, 3, 1, tmp_path)  # read back
    assert again == rows
    assert "| `heuristic` |" in ladder.markdown("odessa", rows)
    assert rows[0]["step"] is None
    assert rows[1]["step"] == pytest.approx(rows[1]["points"] - rows[0]["points"], abs=1e-3)  # same groups


def test_a_ladder_cell_kept_with_fewer_groups_is_extended_to_the_same_as_one_run(tmp_path, capsys) -> None:
    ladder = next(benchmark_module("ladder"))
    short = ladder.cell("odessa", "random", 2, 3, 1, tmp_path)
    extended = ladder.cell("odessa", "random", 3, 3, 1, tmp_path)  # plays group 2 only, then merges
    whole = ladder.cell("odessa", "random", 3, 3, 1, None)
    assert extended["per_group"][:2] == short["per_group"]
    for key in ("groups", "per_group", "difference"):
        assert extended[key] == whole[key]
    for mine, one_run in zip(extended["bots"], whole["bots"]):
        for key in ("mean_points", "ci95", "bids_made", "decisions", "seat_deals"):
            assert mine[key] == one_run[key]
    # --kept plays nothing: rungs kept at different sizes are paired over the groups they share
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "odessa--random.json").write_text(json.dumps(extended))
    fewer = ladder.cell("odessa", "heuristic", 2, 3, 1, mixed)
    rows = ladder.ladder("odessa", ["random", "heuristic"], None, 3, 1, mixed)
    assert [r["groups"] for r in rows] == [3, 2]
    assert (rows[1]["step"], rows[1]["step_ci95"]) == ladder.paired([g[0] for g in fewer["per_group"]],
                                                                    [g[0] for g in extended["per_group"][:2]])
    assert ladder.main(["--variants", "odessa", "--rungs", "random,heuristic", "--seed", "3", "--out", str(mixed),
                        "--kept"]) == 0
    text = capsys.readouterr().out
    assert "(2 to 3 deal groups, the number beside each bot;" in text and "| `heuristic` (2) | " in text
    assert sorted(f.name for f in mixed.iterdir()) == ["odessa--heuristic.json", "odessa--random.json"]
    with pytest.raises(SystemExit, match="no cell kept for odessa search:1 with seed 3"):
        ladder.ladder("odessa", ["search:1"], None, 3, 1, mixed)
    with pytest.raises(SystemExit) as usage:
        ladder.main(["--variants", "odessa", "--kept"])  # --kept reads --out
    assert usage.value.code == 2


def test_a_rungs_step_is_the_paired_difference_from_the_row_above() -> None:
    ladder = next(benchmark_module("ladder"))
    mean, ci = ladder.paired([3.0, 5.0, 4.0, 8.0], [1.0, 4.0, 4.0, 5.0])  # differences 2, 1, 0, 3
    assert mean == 1.5
    assert ci == pytest.approx(1.96 * (5 / 3) ** 0.5 / 2, abs=1e-4)  # sample sd of the differences: sqrt(5/3)


def test_a_rungs_share_of_the_gap_is_taken_over_the_groups_all_three_share() -> None:
    ladder = next(benchmark_module("ladder"))
    # groups 0 and 1 only: the rung 4, the heuristic 1, the clairvoyant 5 on average
    assert ladder.gap_closed([3.0, 5.0, 100.0], [1.0, 1.0], [5.0, 5.0, -7.0]) == pytest.approx(0.75)
    assert ladder.gap_closed([3.0, 5.0], [2.0, 2.0], [2.0, 2.0]) is None  # no gap to close
