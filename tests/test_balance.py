"""The balance of a variant: the laws and tests against closed forms (and SciPy where it is
installed), worked examples with exact numbers, and ``simulate --report/--compare``."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from updown_dsl import load_variant
from updown_dsl.batch.balance import (
    BalanceFacts, balance_games, chi2_even, chi2_sf, friedman, mean_interval, summarise, t_quantile, wilson,
)
from updown_dsl.batch.simulate import simulate_games
from updown_dsl.cli import app

from clikit import make_runner


@pytest.mark.parametrize("x", [0.001, 0.5, 1.0, 3.841458820694124, 10.0, 40.0])
def test_chi2_against_closed_forms(x):
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
    # four degrees of freedom: e^(-x/2) (1 + x/2)
    assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-10)


def test_t_quantiles():
    # t(0.975) for 1 and 2 degrees of freedom in closed form: tan(0.45 pi) and 2.5 / sqrt(1.5 ... )
    assert t_quantile(0.975, 1) == pytest.approx(math.tan(math.pi * 0.475), rel=1e-9)
    assert t_quantile(0.975, 2) == pytest.approx(0.95 / math.sqrt(2 * 0.975 * 0.025), rel=1e-9)
    assert t_quantile(0.975, 10_000) == pytest.approx(1.96, abs=1e-3)


@pytest.mark.slow
def test_against_scipy_where_installed():
    stats = pytest.importorskip("scipy.stats", reason="SciPy is not installed: the comparison with it is skipped")
    for x, df in [(0.3, 3), (7.81, 3), (50.0, 5), (2.0, 7)]:
        assert chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-10)
    for df in (3, 9, 39, 499):
        assert t_quantile(0.975, df) == pytest.approx(stats.t.ppf(0.975, df), rel=1e-9)
    rows = [[3, 1, 2, 2], [10, -5, 0, 1], [4, 4, 4, 0], [1, 2, 3, 4], [0, 9, 1, 1], [7, 7, 2, 1]]
    q = friedman(rows)
    ref = stats.friedmanchisquare(*zip(*rows))
    assert q.statistic == pytest.approx(ref.statistic) and q.p_value == pytest.approx(ref.pvalue)


def test_friedman_worked_example():
    # three games, three seats; seat 1 always first: ranks 3,3,3 / 2,2,2 / 1,1,1.
    # Q = 12 / (n k (k+1)) * sum R^2 - 3 n (k+1) = 12/36 * (81+36+9) - 36 = 6, 2 df: p = e^-3
    t = friedman([[9, 5, 1], [8, 4, 0], [7, 3, 2]])
    assert t.statistic == pytest.approx(6.0) and t.df == 2 and t.p_value == pytest.approx(math.exp(-3))
    assert t.rejects() and not friedman([[1, 2, 3], [3, 2, 1]]).rejects()
    # ties everywhere: no information, no rejection
    assert friedman([[5, 5, 5]] * 4).p_value == 1.0


def test_intervals_worked_examples():
    m = mean_interval([1, 2, 3, 4, 5])  # mean 3, sd sqrt(2.5), t(0.975, 4) = 2.7764451
    half = 2.7764451051977987 * math.sqrt(2.5) / math.sqrt(5)
    assert m.value == 3 and m.low == pytest.approx(3 - half) and m.high == pytest.approx(3 + half)
    w = wilson(50, 100)  # the Wilson interval of 1/2 over 100: 0.5 ± 0.0962 (z = 1.96)
    assert w.value == 0.5 and w.low == pytest.approx(0.4038, abs=1e-4) and w.high == pytest.approx(0.5962, abs=1e-4)
    assert chi2_even([10, 10, 10, 10]).statistic == 0 and chi2_even([40, 0, 0, 0]).statistic == pytest.approx(120)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.integers(-50, 50), min_size=3, max_size=3), min_size=2, max_size=12))
def test_friedman_does_not_depend_on_the_order_of_games(rows):
    a, b = friedman(rows), friedman(list(reversed(rows)))
    assert a.statistic == pytest.approx(b.statistic, abs=1e-9) and 0 <= a.p_value <= 1


def test_summary_of_made_up_games():
    from updown_dsl.players.simulate import Tally

    summary = Tally("x", 2, ("heuristic", "heuristic"), 1, False).summary()
    facts = [BalanceFacts((30, 10), (0,), (("normal", 1, (10, 0), (1, 0)), ("blind", 2, (20, 10), (1, 1)))),
             BalanceFacts((5, 25), (1,), (("normal", 1, (-5, 5), (0, 1)), ("blind", 2, (10, 20), (None, 1))))]
    b = summarise(summary, facts)
    assert [s.points.value for s in b.seats] == [17.5, 17.5]
    assert [s.wins.value for s in b.seats] == [0.5, 0.5]
    assert b.margins == (20, 20) and b.margin.value == 20
    normal, blind = b.kinds
    assert (normal.kind, normal.deals, normal.mean_points, normal.made, normal.bids) == ("normal", 4, 2.5, 0.5, 4)
    assert (blind.kind, blind.deals, blind.mean_points, blind.bids) == ("blind", 4, 15.0, 3)
    assert blind.made == 1.0  # the seat without a bid does not count


@pytest.mark.slow
def test_balance_games_are_the_simulation_and_the_same_in_a_pool():
    variant = load_variant("oh-hell")
    plain = simulate_games(variant, 4, 6, seed=3, bots=["heuristic"] * 4, rotate=True)
    here = balance_games(variant, 4, 6, seed=3, bots=["heuristic"] * 4, rotate=True)
    pooled = balance_games(variant, 4, 6, seed=3, bots=["heuristic"] * 4, rotate=True, jobs=2)
    assert here.summary == plain and pooled == here
    assert [t for t in here.totals] == [tuple(round(x) for x in t) for t in here.totals]
    assert sum(r.deals for r in here.sizes) == sum(r.deals for r in here.kinds) == 6 * 23 * 4
    assert here.friedman.n == 6 and here.friedman.df == 3


@pytest.mark.slow
def test_simulate_report_and_compare(tmp_path):
    runner = make_runner()
    out = tmp_path / "r.html"
    args = ["simulate", "--variant", "odessa", "--games", "8", "--seed", "2", "--report", str(out),
            "--compare", "odessa-hard-pass"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output + result.stderr
    assert "Friedman χ²" in result.stdout and "odessa-hard-pass" in result.stdout
    assert f"wrote {out}" in result.stdout
    html = out.read_text(encoding="utf-8")
    assert html.count("<svg") == 5 and "default-src 'none'" in html
    assert html.count('data-test="Friedman"') == 2 and 'data-variant="odessa-hard-pass"' in html
    assert re.search(r"seat 1</td><td>[-\d.]+ \[[-\d.]+, [-\d.]+\]", html)
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "add --force" in re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", again.stderr))
    data = runner.invoke(app, args[:-4] + ["--json", "--report", str(tmp_path / "j.html"),
                                           "--compare", "odessa-hard-pass"])
    assert data.exit_code == 0, data.stderr
    both = json.loads(data.stdout)
    assert [d["variant"]["variant"] for d in both] == ["odessa", "odessa-hard-pass"]
    assert 0 <= both[0]["balance"]["no_seat_advantage"]["p_value"] <= 1
    # a variant file is taken as --variant takes it
    house = runner.invoke(app, ["simulate", "--variant", "odessa", "--games", "2", "--compare",
                                str(Path(__file__).resolve().parent.parent / "docs" / "house-rules" / "odessa-house.yaml")])
    assert house.exit_code == 0 and "odessa-house" in house.stdout
    bad = runner.invoke(app, ["simulate", "--variant", "odessa", "--games", "2", "--compare", "no-such-game"])
    assert bad.exit_code == 3 and "Traceback" not in bad.stderr


def test_report_without_matplotlib_says_what_to_install(tmp_path, monkeypatch):
    import builtins

    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    result = make_runner().invoke(app, ["simulate", "--variant", "odessa", "--games", "2", "--report",
                                        str(tmp_path / "r.html")])
    assert result.exit_code == 3 and 'pip install "updown-dsl[charts]"' in result.stderr


@pytest.mark.parametrize("n", range(1, 40))
def test_the_wilson_interval_holds_its_share_at_the_ends(n: int) -> None:
    # 0 of 3 gave a lower bound of 5.6e-17 by a rounding: a negative error bar in the report
    for k in (0, n):
        share = wilson(k, n)
        assert share.low <= share.value <= share.high
        assert 0.0 <= share.low and share.high <= 1.0


def test_a_report_with_a_seat_that_never_won(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    r = make_runner().invoke(app, ["simulate", "--variant", "oh-hell", "--games", "3", "--seed", "1",
                                   "--report", str(out)])
    assert r.exit_code == 0, r.stdout + r.stderr
    assert out.exists() and "internal error" not in r.stderr
