"""benchmarks/audit_pairs.py, the planted-mistakes harness: it plants what it says and runs.

The tallies themselves (misses and extras by pair of kinds) are figures for the notes, not
thresholds: see benchmarks/README.md.
"""

from __future__ import annotations

import json
import random

import pytest

from benchscripts import benchmark_module


@pytest.fixture(scope="module")
def pairs():
    yield from benchmark_module("audit_pairs")


KINDS = ["score", "total", "hook", "twice", "leader", "revoke", "range", "dealer", "order", "size", "trump", "took"]
CHANGED = {"leader": 4, "revoke": 2, "order": 2}  # lines a mistake of the kind edits (else 1)


def test_the_list_of_kinds_is_the_harness_s(pairs) -> None:
    assert list(pairs.KINDS) == KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_changes_only_its_lines_and_a_single_one_is_reported_there(pairs, kind: str) -> None:
    levels, _ = pairs.KINDS[kind]
    rng = random.Random(11)
    for seed in range(40):
        level = levels[seed % len(levels)]
        game = pairs.played("oh-hell", seed)
        made = pairs.plant(game, level, (kind,), rng)
        if made is None:
            continue
        text, [(at, code)] = made
        clean = pairs.format_transcript(pairs.game_transcript(game, pairs.NAMES[:4], level=level)).split("\n")
        changed = [i for i, (a, b) in enumerate(zip(clean, text.split("\n"))) if a != b]
        assert at in changed and len(changed) == CHANGED.get(kind, 1), (kind, changed)
        assert pairs.judge(text, [(at, code)])[:2] == (0, 0), (seed, level)
        return
    pytest.fail(f"no oh-hell deal took a {kind!r} mistake")


def test_main_reports_a_tally(pairs, capsys) -> None:
    assert pairs.main(["--records", "6", "--variants", "oh-hell", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["records"] == 6 and sum(r["records"] for r in report["pairs"]) == 6
    assert set(report["total"]) == {"records", "misses", "extras"}


# Kinds the checker tells apart in every pair among them, at every level they apply to
# (benchmarks/README.md, "Two mistakes in one deal"): held there. The other pairs (a card
# played twice with a wrong leader at the plays level, tricks taken written wrong with
# another mistake on a sheet, ...) are counted by the benchmark.
CLEAN = [("score", "total", "hook", "leader", "revoke"), ("score", "twice", "revoke"),
         ("score", "range", "dealer", "order", "size")]


@pytest.mark.slow
@pytest.mark.parametrize("kinds", CLEAN, ids=["+".join(k) for k in CLEAN])
def test_two_mistakes_of_kinds_told_apart_are_each_reported_once_and_nothing_else(pairs, kinds) -> None:
    from updown_dsl import bundled_names, load_variant

    # One pack: with two, which of three written copies of a card is the wrong one, or which
    # copy a hand short of a card held, is not told apart yet (measured by the benchmark).
    one_pack = [v for v in bundled_names() if load_variant(v).deck.packs == 1]
    result = pairs.run(160, one_pack, 20261205, kinds=kinds)
    assert result["records"] == 160
    assert result["total"]["misses"] == 0 and result["total"]["extras"] == 0, result["examples"]
