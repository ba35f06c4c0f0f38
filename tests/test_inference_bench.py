"""Smoke tests of benchmarks/bid_spread.py and benchmarks/inference.py: what the search's
weighing of guesses by the bids rests on, measured on a game or two."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Iterator

import pytest

from benchscripts import benchmark_module


@pytest.fixture
def bid_spread() -> Iterator[ModuleType]:
    yield from benchmark_module("bid_spread")


@pytest.fixture
def inference() -> Iterator[ModuleType]:
    yield from benchmark_module("inference")


def test_the_heuristics_bids_spread_about_the_count(bid_spread: ModuleType) -> None:
    r = bid_spread.spread("oh-hell", "heuristic", 1)
    assert r["bids"] == 4 * 23  # every seat bids in each of the 23 deals (1 to 12 cards and back)
    assert 0.3 < r["sd"] < 1.2  # the spread the search's BID_SPREAD stands for
    assert math.isclose(sum(r["by_distance"].values()), 1.0, abs_tol=1e-3)


def test_guesses_weighed_by_the_bids_place_more_cards_right(inference: ModuleType) -> None:
    r = inference.placement("oh-hell", 1, [0.5], 60)
    voids, narrow = r["rows"]
    assert r["decisions"] > 10
    assert voids["weighing"] == "voids" and voids["gain_pp"] == 0
    assert 0 < voids["placed"] < narrow["placed"] < 1
    assert narrow["gain_pp"] > narrow["ci95_pp"] > 0
