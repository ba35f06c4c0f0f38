"""Golden transcripts: the checker's diagnostics for each ``tests/golden/**/<name>.log``
must equal ``<name>.expected`` exactly (codes, severities, positions and order).

The ``.log`` files are seeded engine games, some edited in one place
(``tests/golden/build_logs.py`` says how and what each edit must produce).
After a deliberate change to the checker, ``python tests/golden/regenerate.py``
rewrites the ``.expected`` files and prints the diff to review.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"


def _regenerate():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _regenerate()
LOGS = sorted(GOLDEN.glob("**/*.log"))


def _id(path: Path) -> str:
    return str(path.relative_to(GOLDEN).with_suffix(""))


def test_golden_corpus_is_there() -> None:
    assert len(LOGS) >= 100
    variants = {p.parent.name for p in LOGS}
    bundled = {p.stem for p in (GOLDEN.parents[1] / "variants").glob("*.yaml")}
    assert bundled <= variants, f"no golden transcripts for {sorted(bundled - variants)}"


def test_every_expected_has_its_log() -> None:
    orphans = [_id(p) for p in GOLDEN.glob("**/*.expected") if not p.with_suffix(".log").exists()]
    assert not orphans


@pytest.mark.slow
@pytest.mark.parametrize("log", LOGS, ids=_id)
def test_golden(log: Path) -> None:
    expected_file = log.with_suffix(".expected")
    assert expected_file.exists(), f"run: python tests/golden/regenerate.py {log.relative_to(GOLDEN)}"
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    got = regenerate.checker_lines(log)
    assert got == expected


def _positions(path: Path) -> list[tuple[str, str, int | None, int | None]]:
    from updown_dsl.records.checker import check_games

    return [(d.code, d.severity.value, d.line, d.col)
            for report in check_games(path, variant_path=regenerate.VARIANT_PATH) for d in report.diagnostics]


EXAMPLES = sorted((GOLDEN.parents[1] / "docs" / "examples").glob("*.log"))


@pytest.mark.parametrize("log", LOGS + EXAMPLES, ids=lambda p: p.stem)
def test_the_diagnostics_are_the_same_in_every_language(log: Path) -> None:
    """Codes, severities, lines and columns are decided by the checker's logic, never by the
    text of a message: checked in Russian, every record gives what it gives in English."""
    from updown_dsl import i18n

    try:
        i18n.set_language("en")
        english = _positions(log)
        i18n.set_language("ru")
        russian = _positions(log)
    finally:
        i18n.set_language(None)
    assert russian == english


def test_a_record_without_players_gives_the_same_codes_in_russian() -> None:
    """The reader once decided whether it had reported the missing players by looking for the
    English word "players" in its own messages, so Russian gave T006 twice."""
    from updown_dsl import i18n
    from updown_dsl.records.checker import check_text

    text = "variant: oh-hell\nlevel: sheet\ndeal 1 cards 1 dealer Anna\nAnna bid 0\n"
    try:
        i18n.set_language("en")
        english = [(d.code, d.line, d.col) for d in check_text(text, "game.log").diagnostics]
        i18n.set_language("ru")
        russian = [(d.code, d.line, d.col) for d in check_text(text, "game.log").diagnostics]
    finally:
        i18n.set_language(None)
    assert [c for c, _, _ in english].count("T006") == 1
    assert russian == english
