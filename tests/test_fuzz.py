"""Fuzz targets, briefly: hostile and mutated inputs end in diagnostics, never an exception.

The four targets of ``benchmarks/fuzzkit.py`` (the reader, the checker, the loader with a game
played on what it accepts, the formula compiler) run here on inputs Hypothesis makes from the
seed corpus by a few edits (and shrinks when one fails). ``benchmarks/fuzz.py --minutes N`` is
the long run. ``tests/fuzz_corpus/`` holds one input of every failure class found so far, each
with the diagnostics it must give.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import fuzzkit  # noqa: E402

CORPUS_DIR = Path(__file__).resolve().parent / "fuzz_corpus"
CORPUS = sorted(p for p in CORPUS_DIR.glob("*/*") if p.suffix in (".log", ".json", ".txt")
                or (p.suffix == ".yaml" and p.parent.name == "loader"))


@lru_cache(maxsize=None)
def _seeds(target: str) -> tuple[bytes, ...]:
    return tuple(fuzzkit.seed_corpus(target, seed=7))


EDITS = st.lists(st.tuples(st.integers(0, 7), st.integers(0, 2**20), st.integers(0, 200)), max_size=6)


def _fuzz(target: str, index: int, edits: list[tuple[int, int, int]]) -> None:
    seeds = _seeds(target)
    data = fuzzkit.apply_edits(seeds[index % len(seeds)], edits)
    outcome = fuzzkit.run_one(target, data)
    assert not outcome.failed, (outcome, data[:300])


@pytest.mark.parametrize("target", fuzzkit.TARGETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(index=st.integers(0, 100), edits=EDITS)
def test_mutated_inputs_end_in_diagnostics(target: str, index: int, edits: list[tuple[int, int, int]]) -> None:
    _fuzz(target, index, edits)


@pytest.mark.slow
@pytest.mark.parametrize("target", fuzzkit.TARGETS)
def test_structured_attacks_end_in_diagnostics(target: str) -> None:
    import random

    rng = random.Random(target)
    seeds = _seeds(target)
    for _ in range(12):
        data = fuzzkit._attacks(target, rng, rng.choice(seeds))
        outcome = fuzzkit.run_one(target, data)
        assert not outcome.failed, (outcome, data[:200])


def test_the_guard_catches_a_hang() -> None:
    outcome = fuzzkit.run_one("formula", b"x")  # a plain input: ok
    assert outcome.kind == "ok"
    old = fuzzkit._RUN["formula"]
    fuzzkit._RUN["formula"] = lambda data: _spin()  # type: ignore[assignment,return-value]
    try:
        old_limit, fuzzkit.HANG_SECONDS = fuzzkit.HANG_SECONDS, 0.2
        assert fuzzkit.run_one("formula", b"x").kind == "hang"
    finally:
        fuzzkit._RUN["formula"] = old
        fuzzkit.HANG_SECONDS = old_limit


def _spin() -> None:
    while True:
        pass


def test_the_outcome_names_an_exception() -> None:
    old = fuzzkit._RUN["reader"]
    fuzzkit._RUN["reader"] = lambda data: {}["missing"]  # type: ignore[assignment]
    try:
        outcome = fuzzkit.run_one("reader", b"")
    finally:
        fuzzkit._RUN["reader"] = old
    assert outcome.kind == "exception:KeyError" and outcome.failed


# --------------------------------------------------------------------------- regression corpus


def corpus_codes(path: Path) -> list[str]:
    """The diagnostics' codes for one corpus input, in order."""
    target = path.parent.name
    if target == "checker":
        from updown_dsl.records.checker import check_games

        return [d.code for report in check_games(path) for d in report.diagnostics]
    if target == "loader":
        from updown_dsl.lang.loader import try_load_variant

        variant, diags = try_load_variant(path)
        return [d.code for d in diags] if variant is None else []
    from updown_dsl.lang.formula import FormulaError, compile_formula

    try:
        compile_formula(path.read_text(encoding="utf-8"), ["bid", "taken", "cards"])
    except FormulaError as exc:
        return [d.code for d in exc.diagnostics]
    return []


def test_the_corpus_covers_every_failure_class() -> None:
    names = {p.relative_to(CORPUS_DIR).as_posix() for p in CORPUS}
    # the classes of issue 15's report, and what fuzzing found since
    for needed in ["checker/option-divides-by-zero.log", "checker/option-key-too-deep.log",
                   "checker/variant-name-too-long.log", "checker/json-too-deep.json",
                   "checker/too-many-players.log", "checker/too-many-problems.log",
                   "checker/variant-outside-folder.log", "checker/total-seven.log",
                   "loader/score-divides-by-zero.yaml", "loader/extends-name-too-long.yaml",
                   "loader/hook-leaves-no-bid.yaml", "loader/no-bid-in-range.yaml",
                   "loader/yaml-too-deep.yaml", "formula/too-long.txt",
                   # issue 33
                   "checker/escape-sequence-line.log", "checker/line-without-end.log",
                   "checker/game-without-end.log", "checker/thirteen-digit-scores.log",
                   "checker/unknown-cards-budget.log",
                   "loader/auction-min-above-cards.yaml", "loader/dash-limit-only-zeros.yaml",
                   "loader/score-squares-total.yaml"]:
        assert needed in names, needed


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.relative_to(CORPUS_DIR).as_posix())
def test_corpus_input_gives_its_diagnostics(path: Path) -> None:
    expected_file = path.with_suffix(".expected")
    assert expected_file.exists(), f"{expected_file.name} is missing"
    expected = expected_file.read_text(encoding="utf-8").split()
    assert corpus_codes(path) == expected
    assert expected, "every corpus input is a problem the tools must name"
    outcome = fuzzkit.run_one(path.parent.name, path.read_bytes())
    assert not outcome.failed, outcome


# --------------------------------------------------------------------------- sound variants


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(index=st.integers(0, 100), rng=st.randoms(use_true_random=False))
def test_variants_changed_key_by_key_play_to_a_clean_record(index: int, rng: object) -> None:
    """A bundled variant with a few keys set to other values of their type: if the loader
    accepts it, a random game of it goes to the end and its own record checks clean."""
    seeds = _seeds("loader")
    mutant = fuzzkit._schema_mutation(seeds[index % len(seeds)], rng)  # type: ignore[arg-type]
    if mutant is None:
        return
    outcome = fuzzkit.run_one("loader", mutant)
    assert not outcome.failed, (outcome, mutant.decode("utf-8", "replace"))


@pytest.mark.parametrize("path", [p for p in CORPUS if p.parent.name in ("checker", "loader")],
                         ids=lambda p: p.relative_to(CORPUS_DIR).as_posix())
def test_the_command_line_names_every_corpus_problem(path: Path) -> None:
    from typer.testing import CliRunner

    from updown_dsl.cli import app

    command = ["check", str(path)] if path.parent.name == "checker" else ["variant", "validate", str(path)]
    r = CliRunner().invoke(app, command)
    out = r.stdout + (r.stderr or "")
    assert r.exit_code in (1, 3), out
    assert "internal error" not in out and "Traceback" not in out
    assert path.with_suffix(".expected").read_text(encoding="utf-8").split()[0] in out
