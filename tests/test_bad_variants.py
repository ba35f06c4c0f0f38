"""The corpus of broken variant files in ``tests/bad_variants/``.

Each file has exactly one problem and starts with ``# expect: CODE line:col``,
the code and exact position of the single diagnostic the loader must report.
An optional ``# hint: WORD`` line says that the diagnostic's hint must be a
"did you mean" naming WORD. Codes and positions are asserted, and the wording
where an optional ``# says: MESSAGE (hint: HINT)`` line gives it: the message
and hint exactly as ``updown variant validate`` prints them after the position.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from updown_dsl.diagnostics import CATALOGUE
from updown_dsl.lang.loader import VariantError, load_variant, try_load_variant

CORPUS = Path(__file__).resolve().parent / "bad_variants"
FILES = sorted(CORPUS.glob("*.yaml"))
EXPECT = re.compile(r"^# expect: ([VF]\d{3}) (\d+):(\d+)\s*$")
HINT = re.compile(r"^# hint: (\S+)\s*$")
SAYS = re.compile(r"^# says: (.+?)\s*$")


def expectation(path: Path) -> tuple[str, int, int, str | None]:
    lines = path.read_text(encoding="utf-8").splitlines()
    m = EXPECT.match(lines[0]) if lines else None
    assert m, f"{path.name}: first line must be '# expect: CODE line:col'"
    hint = None
    for line in lines[1:3]:
        h = HINT.match(line)
        if h:
            hint = h.group(1)
    return m.group(1), int(m.group(2)), int(m.group(3)), hint


def wording(path: Path) -> str | None:
    """The ``# says:`` line of a corpus file: the diagnostic's message and hint, exactly."""
    for line in path.read_text(encoding="utf-8").splitlines()[1:4]:
        m = SAYS.match(line)
        if m:
            return m.group(1)
    return None


def test_corpus_is_there() -> None:
    assert len(FILES) >= 40
    codes = {expectation(f)[0] for f in FILES}
    wanted = {f"V{n:03d}" for n in range(1, 13)} | {"F001", "F002", "F003", "F004"}
    assert wanted <= codes, f"corpus lacks {sorted(wanted - codes)}"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_corpus_file_is_well_formed(path: Path) -> None:
    code, line, col, _ = expectation(path)
    assert code in CATALOGUE
    assert path.name.startswith(code + "_"), "file name must start with its expected code"
    n_lines = len(path.read_text(encoding="utf-8").splitlines())
    # V001 for a truncated document may point just past the last line (end of stream).
    assert 1 <= line <= n_lines + (code == "V001"), "expected position is outside the file"
    assert col >= 1


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_bad_variant(path: Path) -> None:
    code, line, col, hint = expectation(path)
    variant, diags = try_load_variant(path)
    got = [(d.code, d.line, d.col) for d in diags]
    assert variant is None, f"{path.name} loaded although it is broken"
    assert got == [(code, line, col)], "\n".join(d.format() for d in diags)
    d = diags[0]
    assert d.path is not None
    assert Path(d.path).resolve() == path.resolve(), f"diagnostic names {d.path!r}, not the file"
    assert str(d.severity) == "error"
    assert d.message
    if hint is not None:
        assert d.hint is not None and "did you mean" in d.hint, d.format()
        assert repr(hint) in d.hint or hint in d.hint, d.format()
    says = wording(path)
    if says is not None:
        assert d.format() == f"{d.path}:{line}:{col}: error[{code}] {says}"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_load_variant_raises_variant_error(path: Path) -> None:
    """``load_variant`` raises VariantError carrying what ``try_load_variant`` returns."""
    variant, expected = try_load_variant(path)
    if variant is not None:
        pytest.skip("the file loads: test_bad_variant reports that")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert info.value.diagnostics == expected
    # the message is the compiler form path:line:col: error[CODE] ...
    first = expected[0]
    assert f"{first.path}:{first.line}:{first.col}: error[{first.code}]" in str(info.value)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_bad_variant_loaded_as_text(path: Path) -> None:
    """``loads_variant`` on the same text reports what loading the file reports."""
    from updown_dsl.lang.loader import loads_variant

    variant, from_file = try_load_variant(path)
    if variant is not None:
        pytest.skip("the file loads: test_bad_variant reports that")
    with pytest.raises(VariantError) as info:
        loads_variant(path.read_text(encoding="utf-8"), path="corpus.yaml")
    from_text = info.value.diagnostics
    assert [(d.code, d.line, d.col) for d in from_text] == [(d.code, d.line, d.col) for d in from_file]
    assert all(d.path == "corpus.yaml" for d in from_text if d.path is not None)
