"""The loader's collaborators on their own: the Reader (files and ``extends``), Values (each
value against its schema entry), the Builder over them, the Memo of loads, all adding to one
Problems; and a formula's problems as Fault values, their code a field and never in the text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from updown_dsl.lang.build import Builder
from updown_dsl.lang.formula import Fault, FormulaError, compile_formula
from updown_dsl.lang.loader import LOADS, Load, Memo, Reader, loads_variant
from updown_dsl.lang.schema import Field
from updown_dsl.lang.values import Problems, Values
from updown_dsl.lang.variant import rules_hash
from updown_dsl.lang.yamltree import parse_yaml

HOUSE = "name: House\nextends: base.yaml\nbidding: {hook: false}\n"
BASE = "name: Base\nextends: oh-hell\nplay: {must_trump: true}\n"


def test_the_reader_merges_the_extends_chain_and_lists_every_file(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "base.yaml").write_text(BASE, encoding="utf-8")
    problems = Problems()
    reader = Reader(problems, [tmp_path.resolve()])
    tree = reader.read(tmp_path / "house.yaml")
    assert tree is not None and not problems and not reader.extends_failed
    assert tree.get("name") is not None and tree.get("name").value == "House"  # type: ignore[union-attr]
    assert tree.get("extends") is None  # merged away
    play = tree.get("play")
    assert play is not None and play.get("must_trump").value is True  # type: ignore[union-attr]
    read = [Path(state[0]).name for state in reader.files]
    assert read[:2] == ["house.yaml", "base.yaml"] and read[2] == "oh-hell.yaml"


def test_a_base_that_is_not_there_is_a_problem_and_spares_the_missing_keys(tmp_path: Path) -> None:
    (tmp_path / "house.yaml").write_text("name: House\nextends: nowhere.yaml\n", encoding="utf-8")
    load = Load([tmp_path.resolve()])
    variant, diags = load.load_file(tmp_path / "house.yaml")
    assert variant is None
    assert [(d.code, d.line, d.col) for d in diags] == [("V010", 2, 10)]  # no V006 for what the base would give
    assert load.reader.extends_failed


def test_values_check_one_value_and_add_its_problem_at_its_place() -> None:
    root, _ = parse_yaml("size: 99\n", "x.yaml")
    assert root is not None
    problems = Problems()
    values = Values(problems)
    node = root.get("size")
    assert node is not None
    got = values.value(node, Field("int", "", 3, minimum=2, maximum=12), "size", ())
    assert got == 3  # the default, after the problem
    assert [(d.code, d.path, d.line, d.col, d.message) for d in problems.found] == [
        ("V008", "x.yaml", 1, 7, "`size` must be between 2 and 12, not 99")]


def test_a_builder_over_values_makes_the_same_variant_as_a_load() -> None:
    text = "name: Plain\nextends: oh-hell\nbidding: {hook: false}\n"
    problems = Problems()
    root, diags = parse_yaml(text, "plain.yaml")
    assert root is not None and not diags
    tree = Reader(problems).expand(root, Path.cwd(), None)
    assert tree is not None
    variant, found = Builder(Values(problems)).build(tree, "plain.yaml")
    assert variant is not None and found == [] and found is problems.found
    assert rules_hash(variant) == rules_hash(loads_variant(text, path="plain.yaml"))


def test_the_memo_forgets_a_load_whose_file_changed(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("name: V\nextends: oh-hell\n", encoding="utf-8")
    memo = Memo(size=2)
    load = Load([tmp_path.resolve()])
    variant, diags = load.load_file(path)
    assert variant is not None
    memo.put(("k",), load, variant, diags)
    assert memo.get(("k",)) == (variant, [])
    path.write_text("name: V2\nextends: oh-hell\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))  # a change the clock cannot hide
    assert memo.get(("k",)) is None
    assert memo.get(("other",)) is None
    assert isinstance(LOADS, Memo)


def test_a_formula_problem_is_a_typed_fault_its_code_never_in_the_message() -> None:
    for source, code in [("bids + 1", "F002"), ("sqrt(bid)", "F004"), ("abs(bid, 1)", "F003"),
                         ("bid +", "F001"), ("x" * 2001, "F006")]:
        with pytest.raises(FormulaError) as info:
            compile_formula(source, ["bid"])
        d = info.value.diagnostics[0]
        assert d.code == code
        assert not d.message.startswith(code) and code not in d.message
    fault = Fault("F002", "unknown name 'bids' in formula", 0, 4, "did you mean 'bid'?")
    with pytest.raises(AttributeError):
        fault.code = "F001"  # type: ignore[misc]
