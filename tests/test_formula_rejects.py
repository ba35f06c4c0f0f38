"""Pin down what the formula language deliberately lacks.

Formulas come from variant files that anybody may write, so everything that
would make them a general-purpose language (attribute access, subscripts,
strings, floats, arbitrary calls, assignment, ...) must be a compile error.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import updown_dsl.lang.formula as formula_module
from updown_dsl.lang.formula import FormulaError, compile_formula

NAMES = ["a", "b", "bid", "taken"]


@pytest.mark.parametrize(
    ("src", "code"),
    [
        # attribute access and subscripts
        ("a.b", "F001"), ("a.__class__", "F001"), ("(1).real", "F001"), ("a[0]", "F001"), ("a[b]", "F001"),
        # strings and floats
        ("'x'", "F001"), ('"x"', "F001"), ("a + 'x'", "F001"), ("1.5", "F001"), ("a * 0.5", "F001"),
        (".5", "F001"), ("1e3", "F001"), ("1_000", "F001"), ("0x10", "F001"),
        # operators the language does not have
        ("a ** 2", "F001"), ("a / b", "F001"), ("a & b", "F001"), ("a | b", "F001"), ("a ^ b", "F001"),
        ("~a", "F001"), ("a << 1", "F001"), ("a >> 1", "F001"), ("a <> b", "F001"), ("a === b", "F001"),
        ("a is b", "F001"), ("a in b", "F001"), ("a < b < 3", "F001"),
        # lambdas and comprehensions
        ("lambda: 1", "F001"), ("lambda x: x", "F001"), ("(lambda: 1)()", "F001"),
        ("[x for x in a]", "F001"), ("sum(x for x in a)", "F001"),
        # calls to non-whitelisted functions
        ("__import__('os')", "F001"), ("__import__(a)", "F004"), ("eval(1)", "F004"), ("exec(1)", "F004"),
        ("open(1)", "F004"), ("getattr(a, b)", "F004"), ("int(a)", "F004"), ("print(a)", "F004"),
        ("globals()", "F004"), ("compile(a, b, a)", "F004"), ("min.__call__(a, b)", "F001"),
        ("min(a, b)(1)", "F001"), ("(min)(a, b)", "F001"), ("a(b)", "F004"),
        # assignment, walrus, statements, comments
        ("a = 1", "F001"), ("(a := 1)", "F001"), ("a += 1", "F001"), ("a; b", "F001"), ("a # note", "F001"),
        ("# only a comment", "F001"), ("import os", "F001"), ("return a", "F001"), ("a\\\n+ b", "F001"),
        # containers
        ("[1, 2]", "F001"), ("{1: 2}", "F001"), ("{a}", "F001"), ("(1, 2)", "F001"), ("()", "F001"),
        ("a, b", "F001"), ("*a", "F001"), ("min(*a)", "F001"), ("min(a=1, b=2)", "F001"),
        # unknown names, including Python internals and builtins
        ("__builtins__", "F002"), ("__name__", "F002"), ("True", "F002"), ("None", "F002"), ("os", "F002"),
        ("min", "F002"), ("a + __builtins__", "F002"),
        # Python's conditional and keywords are not the formula language
        ("a if b else 1", "F001"), ("if a then b", "F001"), ("a ? b", "F001"), ("not", "F001"), ("if", "F001"),
        # empty text and non-ASCII look-alikes
        ("", "F001"), ("   ", "F001"), ("a \u2212 b", "F001"), ("\uff11", "F001"), ("caf\u00e9", "F001"),
    ],
)
def test_rejected(src: str, code: str) -> None:
    with pytest.raises(FormulaError) as info:
        compile_formula(src, NAMES)
    codes = [d.code for d in info.value.diagnostics]
    assert codes[0] == code, (src, info.value)
    assert all(d.line is not None and d.col is not None for d in info.value.diagnostics)


def test_bad_division_message_suggests_floor_division() -> None:
    with pytest.raises(FormulaError) as info:
        compile_formula("taken / 2", NAMES)
    (d,) = info.value.diagnostics
    assert "'//'" in d.message and d.col == 7


def test_rejected_values_are_not_evaluated() -> None:
    """Nothing in a rejected formula may run: a name that would blow up is never looked up."""

    class Trap(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: str) -> int:
            raise AssertionError("evaluated")

    for src in ["a + open(1)", "a.b", "bid = 1"]:
        with pytest.raises(FormulaError):
            compile_formula(src, NAMES)(Trap())


def test_source_uses_no_eval_or_exec() -> None:
    code = Path(formula_module.__file__).read_text(encoding="utf-8")
    assert "eval(" not in code and "exec(" not in code
    forbidden = {"eval", "exec", "compile", "__import__", "getattr", "setattr", "globals", "locals", "vars"}
    called = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Call):
            func = node.func
            called.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
    assert not called & forbidden, called & forbidden


def test_a_name_known_elsewhere_is_said_so_only_when_the_key_is_given() -> None:
    """``compile_formula`` alone calls every name outside ``names`` unknown; given the key and
    where the other names can be used (as the loader gives them), it says so."""
    with pytest.raises(FormulaError) as info:
        compile_formula("bid + is_dealer", ["bid"])
    assert str(info.value) == "1:7: error[F002] unknown name 'is_dealer' in formula (hint: here the names are: bid)"
    elsewhere = {"is_dealer": "it can be used in `scoring.deal`"}
    with pytest.raises(FormulaError) as info:
        compile_formula("bid + is_dealer + is_dealr", ["bid", "cards"], key="bidding.min", elsewhere=elsewhere)
    assert [str(d) for d in info.value.diagnostics] == [
        "1:7: error[F002] `is_dealer` is not known in `bidding.min`: it can be used in `scoring.deal` "
        "(hint: here the names are: bid, cards)",
        "1:19: error[F002] unknown name 'is_dealr' in formula (hint: did you mean 'is_dealer'? It is not "
        "known here: it can be used in `scoring.deal`)",
    ]


@pytest.mark.parametrize(("src", "divides"), [
    ("taken // bid", True), ("taken % (cards - 6)", True), ("1 // 0", True), ("bid // 0", True),
    ("bid > 0 ? taken // bid : 0", True), ("set % 2 == 0 ? 10 : 5", False), ("taken // 2", False),
    ("10 // 2 + bid", False), ("-(bid * 3)", False),
])
def test_a_formula_knows_whether_it_can_divide_by_zero(src: str, divides: bool) -> None:
    """The load-time F005 check evaluates only formulas that divide by something not a non-zero number."""
    f = compile_formula(src, ["bid", "taken", "cards", "set"])
    assert f.can_fail is divides
