"""Smoke test of benchmarks/calibration.py: a few deals give chances that add up and a table."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Iterator

import pytest

from benchscripts import benchmark_module


@pytest.fixture
def calibration() -> Iterator[ModuleType]:
    yield from benchmark_module("calibration")


def test_a_few_deals_give_a_reliability_table(calibration: ModuleType) -> None:
    r = calibration.calibrate("odessa", 6, 1, None)
    assert r["deals"] == 6
    assert math.isclose(sum(row["predicted"] for row in r["per_k"]), 1.0, abs_tol=1e-3)
    assert math.isclose(sum(row["observed"] for row in r["per_k"]), 1.0, abs_tol=1e-9)
    assert sum(b["count"] for b in r["reliability"]) >= 6 * 2  # every chance of every deal (at least 0 and 1)
    assert r["max_diff_pp"] >= 0 and r["ece_pp"] >= 0


def test_two_parts_merge_into_the_run_over_both(calibration: ModuleType) -> None:
    whole = calibration.calibrate("odessa", 6, 1, None)
    numbers = [int(n) for n in whole["numbers"].split("-")]
    cut = numbers[0] + (numbers[1] - numbers[0]) // 2
    first = calibration.calibrate("odessa", _deals_up_to(calibration, cut), 1, None)
    second = calibration.calibrate("odessa", whole["deals"] - first["deals"], 1, None, start=cut)
    merged = calibration.merge([first, second])
    assert merged["deals"] == whole["deals"] == 6
    assert merged["per_k"] == whole["per_k"]
    assert merged["reliability"] == whole["reliability"]
    assert merged["ece_pp"] == whole["ece_pp"]
    assert merged["numbers"] == f"{first['numbers']}, {second['numbers']}"


def test_a_summary_without_its_counts_merges_from_its_shares(calibration: ModuleType) -> None:
    r = calibration.calibrate("odessa", 4, 1, None)
    old = {k: v for k, v in r.items() if k not in ("sums", "numbers")}  # as written before the counts
    merged = calibration.merge([old, old])
    assert merged["deals"] == 8
    assert merged["per_k"] == r["per_k"]
    assert [b["count"] for b in merged["reliability"]] == [2 * b["count"] for b in r["reliability"]]
    assert merged["numbers"] == "?, ?"


def _deals_up_to(calibration: ModuleType, last: int) -> int:
    """How many deals numbered 1 to ``last`` give a measure (some deals have no choice of bid)."""
    import updown_dsl as ud

    variant = ud.load_variant("odessa")
    return sum(calibration.one_deal(variant, n, 1) is not None for n in range(1, last + 1))
