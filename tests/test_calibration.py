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
