"""The documentation in docs/ must stay true to the code.

- the generated key reference in docs/dsl.md equals ``dsl_reference()`` (and the
  diagnostics table in docs/diagnostics.md equals ``diagnostics_reference()``);
- every schema key path is documented in docs/dsl.md;
- every bundled variant and every AMB-xx entry of RULES.md §9 is in docs/variants.md;
- every diagnostic code is documented;
- the ``>>>`` examples in docs/api.md, docs/dsl.md and docs/formulas.md run.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import updown_dsl as ud
from updown_dsl.lang import docgen
from updown_dsl.diagnostics import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = Path("/work/shared/RULES.md")

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


def _rules_amb_ids() -> list[str]:
    if not RULES.is_file():
        pytest.skip(f"{RULES} not found")
    text = RULES.read_text(encoding="utf-8")
    start = text.find("## 9.")
    assert start >= 0, "RULES.md has no section 9"
    end = text.find("\n## ", start + 1)
    section = text[start:end if end > 0 else None]
    ids = sorted(set(re.findall(r"\*\*(AMB-[A-Z]+\d+)\*\*", section)))
    assert ids, "no AMB-xx entries found in RULES.md §9"
    return ids


def test_every_ambiguity_is_in_variants_md() -> None:
    text = read("variants.md")
    amb = text[text.find("## Ambiguities and options"):]
    assert amb, "docs/variants.md has no 'Ambiguities and options' section"
    missing = [i for i in _rules_amb_ids() if not re.search(rf"\b{re.escape(i)}\b", amb)]
    assert not missing, f"AMB entries of RULES.md §9 missing from docs/variants.md: {missing}"


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
