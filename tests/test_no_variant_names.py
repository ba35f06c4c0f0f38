"""The library knows no variant by name: every rule comes from the variant files.

Every ``.py`` file of ``updown_dsl/`` is tokenized; comments and docstrings
(any bare string statement) are skipped, and no other token (names, string
literals, f-strings) may contain a bundled variant's file name, its ``name:``,
or one of the family words.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "updown_dsl"
VARIANT_FILES = sorted((ROOT / "variants").glob("*.yaml"))
FAMILY_WORDS = {"georgian", "odessa", "russian", "up-and-down", "up_and_down", "oh-hell", "oh_hell"}


def variant_names() -> set[str]:
    names = set(FAMILY_WORDS)
    for f in VARIANT_FILES:
        names.add(f.stem.lower())
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            names.add(data["name"].lower())
    return names


NAMES = variant_names()
PATTERN = re.compile(
    r"(?<![a-z0-9])(" + "|".join(re.escape(n) for n in sorted(NAMES, key=len, reverse=True)) + r")(?![a-z0-9])",
    re.IGNORECASE,
)


def doc_starts(source: str) -> set[tuple[int, int]]:
    """(line, col) where each bare string statement (docstring) starts."""
    starts = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            starts.add((node.lineno, node.col_offset))
    return starts


def code_matches(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    docs = doc_starts(source)
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE):
            continue
        if tok.type == tokenize.STRING and tok.start in docs:
            continue
        for m in PATTERN.finditer(tok.string):
            found.append(f"{path.name}:{tok.start[0]}: {m.group(0)!r} in {tok.line.strip()}")
    return found


def test_names_are_derived_from_the_variant_files() -> None:
    assert len(VARIANT_FILES) >= 10
    assert {"odessa", "georgian", "russian", "oh-hell", "up-and-down"} <= NAMES
    assert all(f.stem in NAMES for f in VARIANT_FILES)


def test_detector_finds_names_in_code_but_not_in_comments(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Module docstring about odessa."""\n'
        "# a comment about georgian rules\n"
        "def f(v):\n"
        '    """Docstring mentioning Russian poker."""\n'
        '    return v.name == "Georgian-Khishti"  # and a trailing comment: odessa\n'
        "odessa_mode = 1\n"
        "x = 'oh_hell'\n"
        "y = 'odessan'\n",
        encoding="utf-8",
    )
    hits = code_matches(sample)
    assert len(hits) == 3, hits
    assert ":5:" in hits[0] and ":6:" in hits[1] and ":7:" in hits[2]


PY_FILES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("path", PY_FILES, ids=[p.relative_to(PACKAGE).as_posix() for p in PY_FILES])
def test_no_variant_name_in_library_code(path: Path) -> None:
    hits = code_matches(path)
    assert not hits, "variant names in library code:\n" + "\n".join(hits)
