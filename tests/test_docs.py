"""The documentation in docs/ must stay true to the code.

- the generated key reference in docs/dsl.md equals ``dsl_reference()`` (and the
  diagnostics table in docs/diagnostics.md equals ``diagnostics_reference()``);
- every schema key path is documented in docs/dsl.md;
- every bundled variant is in docs/variants.md, and every AMB-xx id cited anywhere is a row of
  its "Ambiguities and options" tables, numbered without gaps per family;
- every source tag ([S003], [X-pagat-joker] ...) cited is defined in docs/sources.md, and every
  worked case TC-nn cited is in docs/worked-cases.md, which names the tests that play it;
- no tracked file refers to notes outside the repository;
- every diagnostic code is documented;
- the ``>>>`` examples in docs/api.md, docs/dsl.md and docs/formulas.md run.
"""

from __future__ import annotations

import doctest
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import updown_dsl as ud
from updown_dsl.lang import docgen
from updown_dsl.diagnostics import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

REGENERATE = "python -m updown_dsl.lang.docgen --write docs/dsl.md"


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


# ------------------------------------------------------------------ generated parts
def test_dsl_reference_is_current() -> None:
    text = read("dsl.md")
    assert docgen.BEGIN in text and docgen.END in text, "docs/dsl.md lost its generated-keys markers"
    assert docgen.generated_part(text) == docgen.dsl_reference(), (
        f"docs/dsl.md's key reference is stale (the schema changed): run `{REGENERATE}`"
    )


def test_diagnostics_reference_is_current() -> None:
    text = read("diagnostics.md")
    part = docgen.generated_part(text, docgen.DIAG_BEGIN, docgen.DIAG_END)
    assert part == docgen.diagnostics_reference(), (
        "docs/diagnostics.md is stale: run `python -m updown_dsl.lang.docgen --diagnostics --write docs/diagnostics.md`"
    )


def test_docgen_is_pure_and_splices() -> None:
    ref = docgen.dsl_reference()
    assert ref == docgen.dsl_reference()
    text = f"intro\n{docgen.BEGIN}\nold\n{docgen.END}\nrest\n"
    fresh = docgen.splice(text, ref)
    assert docgen.generated_part(fresh) == ref
    assert fresh.startswith("intro\n") and fresh.endswith("rest\n")
    assert docgen.splice(fresh, ref) == fresh
    with pytest.raises(ValueError):
        docgen.generated_part("no markers")


def test_docgen_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert docgen.main([]) == 0
    assert capsys.readouterr().out == docgen.dsl_reference()
    stale = tmp_path / "dsl.md"
    stale.write_text(f"x\n{docgen.BEGIN}\nold\n{docgen.END}\n", encoding="utf-8")
    assert docgen.main(["--check", str(stale)]) == 1
    assert docgen.main(["--write", str(stale)]) == 0
    assert docgen.main(["--check", str(stale)]) == 0
    assert docgen.main(["--bogus"]) == 2


def test_reference_documents_every_field() -> None:
    ref = docgen.dsl_reference()
    for path in docgen.key_paths():
        assert f"`{path}`" in ref, path
    assert "`kinds.<name>.trump.when_exhausted`" in ref
    assert "`schedule[].ramp`" in ref


# ------------------------------------------------------------------ coverage
def _schema_paths() -> list[str]:
    """Key paths walked from the schema independently of docgen."""
    from updown_dsl.lang.schema import SCHEDULE_ITEM_FIELDS, SCHEMA

    out: list[str] = []

    def walk(fields: dict, prefix: str) -> None:  # type: ignore[type-arg]
        for key, f in fields.items():
            out.append(prefix + key)
            if f.type == "kinds":
                walk(f.fields, f"{prefix}{key}.<name>.")
            elif f.fields:
                walk(f.fields, f"{prefix}{key}.")

    walk(SCHEMA, "")
    out += [f"schedule[].{k}" for k in SCHEDULE_ITEM_FIELDS]
    return out


def test_every_schema_key_is_in_dsl_md() -> None:
    text = read("dsl.md")
    missing = [p for p in _schema_paths() if f"`{p}`" not in text]
    assert not missing, f"keys missing from docs/dsl.md: {missing}; run `{REGENERATE}`"


def test_every_bundled_variant_is_in_variants_md() -> None:
    text = read("variants.md")
    missing = [n for n in ud.bundled_names() if f"`{n}`" not in text]
    assert not missing, f"bundled variants not described in docs/variants.md: {missing}"


# ------------------------------------------------------------------ sources, ambiguities, worked cases
def _text_files() -> list[Path]:
    """The repository's own text: docs, variant files, the package and the tests."""
    patterns = ["README.md", "docs/**/*.md", "docs/**/*.yaml", "docs/**/*.log", "variants/*.yaml",
                "updown_dsl/**/*.py", "tests/**/*.py", "benchmarks/**/*.py", "benchmarks/**/*.md"]
    files = sorted({p for pattern in patterns for p in ROOT.glob(pattern) if p.is_file()})
    assert files, "no text files found"
    return files


def _text(path: Path) -> str | None:
    """The file as text, or None for a binary file."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _section(text: str, heading: str) -> str:
    """The part of a Markdown text from ``## heading`` up to the next ``## `` heading."""
    match = re.search(rf"(?m)^## {re.escape(heading)}\s*$", text)
    assert match, f"no '## {heading}' section"
    rest = text[match.end():]
    end = re.search(r"(?m)^## ", rest)
    return rest[:end.start()] if end else rest


AMB_ID = re.compile(r"\bAMB-([A-Z])(\d+)")
AMB_RANGE = re.compile(r"\bAMB-([A-Z])(\d+)(?:\.\.|…|–)([A-Z]?)(\d+)")


def _ambiguity_rows() -> list[tuple[str, int, str]]:
    """(family, number, sub-heading) of every row of docs/variants.md's ambiguity tables."""
    section = _section(read("variants.md"), "Ambiguities and options")
    rows, heading = [], ""
    for line in section.splitlines():
        if line.startswith("### "):
            heading = line[4:].strip()
        match = re.match(r"\|\s*\*\*AMB-([A-Z])(\d+)\*\*\s*\|", line)
        if match:
            rows.append((match.group(1), int(match.group(2)), heading))
    assert rows, "docs/variants.md's 'Ambiguities and options' section has no AMB-xx rows"
    return rows


def test_ambiguity_tables_number_each_family_without_gaps() -> None:
    numbers: dict[str, list[int]] = {}
    headings: dict[str, set[str]] = {}
    for family, number, heading in _ambiguity_rows():
        numbers.setdefault(family, []).append(number)
        headings.setdefault(family, set()).add(heading)
    for family, got in numbers.items():
        assert got == list(range(1, len(got) + 1)), (
            f"the AMB-{family} rows of docs/variants.md are not AMB-{family}1 … AMB-{family}{len(got)}"
            f" in order, each once: {got}"
        )
        assert len(headings[family]) == 1, f"AMB-{family} rows under several headings: {headings[family]}"
    owners = [next(iter(h)) for h in headings.values()]
    assert len(owners) == len(set(owners)), f"two families share a heading: {headings}"


def _cited_ambiguities() -> dict[str, set[str]]:
    """Every AMB-xx id cited in the repository's text (ranges such as AMB-O1..O11 expanded)."""
    cited: dict[str, set[str]] = {}
    for path in _text_files():
        text = _text(path)
        if text is None:
            continue
        where = str(path.relative_to(ROOT))
        for family, number in AMB_ID.findall(text):
            cited.setdefault(f"AMB-{family}{number}", set()).add(where)
        for family, first, second_family, last in AMB_RANGE.findall(text):
            assert second_family in ("", family), f"{where}: a range across families, AMB-{family}{first}..{last}"
            assert int(first) < int(last), f"{where}: an empty range AMB-{family}{first}..{last}"
            for number in range(int(first), int(last) + 1):
                cited.setdefault(f"AMB-{family}{number}", set()).add(where)
    return cited


def test_every_cited_ambiguity_is_in_variants_md() -> None:
    rows = {f"AMB-{family}{number}" for family, number, _ in _ambiguity_rows()}
    cited = _cited_ambiguities()
    assert {"AMB-U1", "AMB-O11", "AMB-R11"} <= set(cited), "the AMB ids were not found (a broken pattern?)"
    missing = {i: sorted(where) for i, where in cited.items() if i not in rows}
    assert not missing, f"AMB ids cited but not in docs/variants.md's 'Ambiguities and options': {missing}"


SOURCE_TAG = re.compile(r"\[(S\d{3}(?:-[A-Z]+(?:/[A-Z]+)*)?|X-[a-z0-9]+(?:-[a-z0-9]+)*)\]")


def _expand_tag(tag: str) -> list[str]:
    """``S000-A/B/D`` -> ``S000-A``, ``S000-B``, ``S000-D``; other tags stand for themselves."""
    if tag.startswith("S") and "/" in tag:
        number, blocks = tag.split("-", 1)
        return [f"{number}-{block}" for block in blocks.split("/")]
    return [tag]


def _defined_sources() -> set[str]:
    """The tags that docs/sources.md defines: in a heading, or opening a list item in bold."""
    defined: set[str] = set()
    for line in read("sources.md").splitlines():
        if line.startswith("#"):
            defined.update(SOURCE_TAG.findall(line))
        match = re.match(r"- \*\*\[([^]]+)\]\*\*", line)
        if match:
            defined.add(match.group(1))
    return defined


def test_every_cited_source_tag_is_defined_in_sources_md() -> None:
    defined = _defined_sources()
    assert {"S000-A", "S001", "S002-RP", "S003", "X-pagat-joker"} <= defined, defined
    cited: dict[str, set[str]] = {}
    for path in _text_files():
        text = _text(path)
        if text is None:
            continue
        for tag in SOURCE_TAG.findall(text):
            for one in _expand_tag(tag):
                cited.setdefault(one, set()).add(str(path.relative_to(ROOT)))
    assert "S003" in cited and "X-digitain" in cited, "no source tags found (a broken pattern?)"
    missing = {tag: sorted(where) for tag, where in cited.items() if tag not in defined}
    assert not missing, f"source tags cited but not defined in docs/sources.md: {missing}"
    for path in sorted(ROOT.glob("variants/*.yaml")):
        line = next((s for s in path.read_text(encoding="utf-8").splitlines() if s.startswith("source:")), "")
        assert SOURCE_TAG.search(line) or "OpenSpiel" in line, f"{path.name}: the source line cites no source"


TC_ID = re.compile(r"\bTC-(\d{2})\b")
RULES_CASES = ROOT / "tests" / "test_rules_cases.py"


def _worked_cases() -> dict[int, str]:
    """Case number -> its section of docs/worked-cases.md."""
    text = read("worked-cases.md")
    parts = re.split(r"(?m)^## TC-(\d{2})\b", text)
    cases: dict[int, str] = {}
    for number, body in zip(parts[1::2], parts[2::2]):
        assert int(number) not in cases, f"TC-{number} appears twice in docs/worked-cases.md"
        cases[int(number)] = body
    return cases


def test_worked_cases_are_numbered_without_gaps() -> None:
    cases = _worked_cases()
    assert list(cases) == list(range(1, len(cases) + 1)) and len(cases) >= 18, sorted(cases)


def test_every_cited_worked_case_is_in_worked_cases_md() -> None:
    cases = _worked_cases()
    cited: dict[int, set[str]] = {}
    for path in _text_files():
        text = _text(path)
        if text is None:
            continue
        for number in TC_ID.findall(text):
            cited.setdefault(int(number), set()).add(str(path.relative_to(ROOT)))
    assert 4 in cited, "no TC-nn found (a broken pattern?)"
    missing = {f"TC-{n:02d}": sorted(where) for n, where in cited.items() if n not in cases}
    assert not missing, f"worked cases cited but not in docs/worked-cases.md: {missing}"


def test_worked_cases_name_the_tests_that_play_them() -> None:
    cases = _worked_cases()
    tests = re.findall(r"(?m)^def (test_tc(\d{2})\w*)\(", RULES_CASES.read_text(encoding="utf-8"))
    assert tests, "no test_tcNN tests in tests/test_rules_cases.py"
    names = {name for name, _ in tests}
    named = {number: set(re.findall(r"`(test_\w+)`", body)) for number, body in cases.items()}
    for number, listed in named.items():
        assert listed, f"TC-{number:02d} in docs/worked-cases.md names no test"
        unknown = listed - names
        assert not unknown, f"TC-{number:02d} names tests that tests/test_rules_cases.py does not have: {unknown}"
    for name, number in tests:
        assert name in named.get(int(number), set()), f"{name} is not listed under TC-{number} in docs/worked-cases.md"


# Built from pieces so that this file does not match itself.
OUTSIDE = ("RULES" + ".md", "/work" + "/")
SHARED = re.compile(re.escape(".." + "/shared") + r"[\w./-]*")


def test_no_tracked_file_refers_outside_the_repository() -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not available")
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    found = []
    for name in listed.stdout.decode("utf-8").split("\0"):
        path = ROOT / name
        if not name or not path.is_file():
            continue
        text = _text(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            found += [f"{name}:{number}: {word}" for word in OUTSIDE if word in line]
            found += [f"{name}:{number}: {path}" for path in SHARED.findall(line)]
    assert not found, "the repository must stand on its own; these lines refer outside it:\n" + "\n".join(found)


def test_readme_links_the_sources_and_the_worked_cases() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("sources.md", "worked-cases.md"):
        assert f"(docs/{page})" in readme, f"README.md does not link docs/{page}"


def test_every_diagnostic_code_is_documented() -> None:
    docs = {p.name: p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")}
    dsl = docs["dsl.md"]
    for code in CATALOGUE:
        if code[0] in "VF":
            assert f"error[{code}]" in dsl or f"`{code}`" in dsl, f"{code} is not explained in docs/dsl.md"
        assert any(code in text for text in docs.values()), f"{code} is not in any docs file"


def test_every_v_and_f_code_has_an_example_in_dsl_md() -> None:
    dsl = read("dsl.md")
    for code in (c for c in CATALOGUE if c[0] in "VF"):
        assert f"error[{code}]" in dsl, f"docs/dsl.md shows no example of {code}"


# ------------------------------------------------------------------ YAML examples load
def yaml_blocks(name: str) -> list[tuple[int, str]]:
    """(line number, text) of every ```yaml block of a docs file."""
    out, block, start = [], None, 0
    for number, line in enumerate(read(name).splitlines(), start=1):
        if block is None and line.strip() == "```yaml":
            block, start = [], number + 1
        elif block is not None and line.startswith("```"):
            out.append((start, "\n".join(block) + "\n"))
            block = None
        elif block is not None:
            block.append(line)
    return out


def test_annotated_example_is_the_bundled_odessa() -> None:
    blocks = yaml_blocks("dsl.md")
    assert blocks, "docs/dsl.md has no YAML example"
    _, first = blocks[0]
    documented = ud.loads_variant(first, path="docs/dsl.md")
    bundled = ud.load_variant("odessa")
    assert documented.options == bundled.options, (
        "the annotated example in docs/dsl.md no longer matches variants/odessa.yaml"
    )


@pytest.mark.parametrize("name", ["dsl.md", "variants.md"])
def test_yaml_overlays_in_docs_load(name: str) -> None:
    overlays = [(line, text) for line, text in yaml_blocks(name) if re.search(r"(?m)^extends:", text)]
    assert overlays, f"docs/{name} has no overlay examples"
    for line, text in overlays:
        if not re.search(r"(?m)^name:", text):
            text = "name: doc-example\n" + text
        try:
            ud.loads_variant(text, path=f"docs/{name}:{line}")
        except ud.VariantError as err:  # pragma: no cover - the failure message
            pytest.fail(f"the YAML example at docs/{name} line {line} does not load:\n{err}")


# ------------------------------------------------------------------ examples run
def markdown_doctest(name: str) -> doctest.TestResults:
    """Run the ``>>>`` examples inside the ```python blocks of a docs file.

    Lines outside those blocks become blank lines, so a closing fence ends an
    example's expected output and failures report the file's own line numbers.
    """
    path = DOCS / name
    lines, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```python"
            lines.append("")
        else:
            lines.append(line if inside else "")
    text = "\n".join(lines) + "\n"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {"__name__": f"docs.{name}"}, str(path), str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("name", ["api.md", "dsl.md", "formulas.md", "variants.md"])
def test_docs_examples_run(name: str) -> None:
    result = markdown_doctest(name)
    assert result.failed == 0, f"{result.failed} example(s) in docs/{name} failed (see the output above)"
    if name in ("api.md", "dsl.md", "formulas.md"):
        assert result.attempted > 0, f"docs/{name} has no examples"


def test_docgen_module_doctests() -> None:
    result = doctest.testmod(docgen)
    assert result.attempted >= 3 and result.failed == 0


def test_every_diagnostic_code_has_an_example_in_its_own_form() -> None:
    from updown_dsl.diagnostics import EXAMPLES

    assert set(EXAMPLES) == set(CATALOGUE)
    for code, example in EXAMPLES.items():
        assert f"[{code}]" in example, code
        assert any(f"{sev}[{code}]" in example for sev in ("error", "warning", "note")), code


def test_dsl_md_counts_the_bundled_variants_written_with_extends() -> None:
    text = (DOCS / "dsl.md").read_text(encoding="utf-8")
    m = re.search(r"Of the (\d+) bundled variants, (\d+) are written this way", text)
    assert m is not None
    files = sorted((ROOT / "variants").glob("*.yaml"))
    extending = [f for f in files if re.search(r"(?m)^extends:", f.read_text(encoding="utf-8"))]
    assert (int(m.group(1)), int(m.group(2))) == (len(files), len(extending))
