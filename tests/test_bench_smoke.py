"""Smoke test of benchmarks/bench_engine.py: it runs and reports positive rates.

Not a timing test: budgets are tiny and no rate is compared with a threshold.
"""

from __future__ import annotations

import json

import pytest

from benchscripts import benchmark_module


@pytest.fixture(scope="module")
def bench():
    yield from benchmark_module("bench_engine")


def _positive(row: dict) -> None:
    assert row["games"] >= 1
    assert row["deals"] >= 1
    assert row["decisions"] > row["deals"]
    assert row["seconds"] > 0
    assert row["deals_per_s"] > 0
    assert row["decisions_per_s"] > 0


def test_main_json_reports_positive_rates(bench, capsys):
    assert bench.main(["--seconds", "0.05", "--variants", "odessa,oh-hell", "--json", "--no-openspiel"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in report["variants"]] == ["odessa", "oh-hell"]
    for row in report["variants"]:
        assert row["players"] == 4
        _positive(row)
    assert report["openspiel"]["skipped"] is True


def test_table_output_and_inline_variant(bench, capsys):
    assert bench.main(["--seconds", "0.02", "--variants", "oh-hell-7", "--players", "3", "--no-openspiel"]) == 0
    out = capsys.readouterr().out
    assert "decisions/s" in out and "oh-hell-7" in out
    assert "OpenSpiel comparison skipped (--no-openspiel)" in out


def test_one_deal_game_counts(bench):
    # oh-hell-7 with 4 players: one deal, 4 bids + 28 cards, as in OpenSpiel's oh_hell.
    rate = bench.bench_updown(bench.variant_by_name("oh-hell-7"), 4, 0.0001, seed=1)
    assert rate.games == rate.deals
    assert rate.decisions == 32 * rate.games


def test_openspiel_missing_is_reported(bench, monkeypatch):
    monkeypatch.setattr(bench, "import_pyspiel", lambda: None)
    cmp = bench.compare_openspiel(0.01)
    assert cmp["skipped"] is True
    text = bench.format_comparison(cmp)
    assert "not installed" in text and ".[bench]" in text


def test_openspiel_comparison(bench):
    pyspiel = bench.import_pyspiel()
    if pyspiel is None:
        pytest.skip("open_spiel not installed (optional extra 'bench')")
    cmp = bench.compare_openspiel(0.02, pyspiel=pyspiel)
    assert cmp["skipped"] is False
    _positive(cmp["updown"])
    _positive(cmp["openspiel"])
    # Same game shape on both sides: 32 player decisions per deal.
    assert cmp["openspiel"]["decisions"] == 32 * cmp["openspiel"]["deals"]
    assert cmp["ratio_decisions"] > 0


def test_profile_runs(bench, capsys):
    assert bench.main(["--seconds", "0.02", "--profile", "oh-hell-7"]) == 0
    out = capsys.readouterr().out
    assert "cProfile of oh-hell-7" in out and "tottime" in out
