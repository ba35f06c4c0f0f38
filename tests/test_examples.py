"""Every transcript in ``docs/examples/`` checks as its name says.

* a name without ``invalid``: every game in the file is readable and has no error
  (notes and warnings are allowed: an unfinished game, cards written as ``??``);
* a name with ``invalid``: the checker reports exactly the diagnostics listed in the
  sibling ``<name>.expected``, one per line as ``line:col: CODE``, in the checker's order;
  an unreadable file (binary, unknown variant) also reports ``readable`` False.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from updown_dsl.records.checker import CheckReport, check_games
from updown_dsl.diagnostics import Severity

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
LOGS = sorted(EXAMPLES.glob("*.log"))
VALID = [p for p in LOGS if "invalid" not in p.name]
INVALID = [p for p in LOGS if "invalid" in p.name]
#: Codes after which a record cannot be checked at all.
UNREADABLE = {"T001", "T006", "T010", "T011", "T012"}
MAIN_VARIANTS = ("up-and-down", "oh-hell", "odessa", "georgian", "russian")


def _reports(path: Path) -> list[CheckReport]:
    return list(check_games(path))


def _where(d: object) -> str:
    line, col = getattr(d, "line"), getattr(d, "col")
    return f"{line}:{col}: {getattr(d, 'code')}" if line is not None else str(getattr(d, "code"))


def test_examples_are_there() -> None:
    names = {p.name for p in LOGS}
    for variant in MAIN_VARIANTS:
        for level in ("full", "plays", "sheet"):
            assert f"{variant}-{level}.log" in names
    codes = {line.split()[-1] for p in INVALID if p.with_suffix(".expected").exists()
             for line in p.with_suffix(".expected").read_text(encoding="utf-8").splitlines()}
    assert {"R010", "R021", "R050", "R051", "R042", "R043", "R003", "R053", "T001", "T010"} <= codes


def test_folder_holds_only_documented_files() -> None:
    readme = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    for path in EXAMPLES.iterdir():
        if path.name == "README.md":
            continue
        assert path.suffix in (".log", ".expected"), path.name
        if path.suffix == ".expected":
            assert "invalid" in path.name and path.with_suffix(".log").exists(), path.name
        else:
            assert f"`{path.name}`" in readme, f"{path.name} is not described in README.md"
    for listed in re.findall(r"`([\w.-]+\.log)`", readme):
        assert (EXAMPLES / listed).exists(), f"README.md lists a missing file {listed}"


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_example(path: Path) -> None:
    reports = _reports(path)
    assert reports
    for r in reports:
        assert r.readable, [d.format() for d in r.diagnostics]
        errors = [d.format() for d in r.diagnostics if d.severity == Severity.ERROR]
        assert errors == []
        assert r.clean


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_invalid_example(path: Path) -> None:
    expected_file = path.with_suffix(".expected")
    assert expected_file.exists(), f"{path.name} needs {expected_file.name}"
    expected = [x.strip() for x in expected_file.read_text(encoding="utf-8").splitlines() if x.strip()]
    assert expected, f"{expected_file.name} lists no diagnostic"
    reports = _reports(path)
    got = [_where(d) for r in reports for d in r.diagnostics]
    assert got == expected
    unreadable = any(x.split()[-1] in UNREADABLE for x in expected)
    assert any(not r.readable for r in reports) == unreadable
    assert not all(r.clean for r in reports)
