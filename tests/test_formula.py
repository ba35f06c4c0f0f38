"""Tests for the scoring-formula language (updown_dsl.lang.formula)."""

from __future__ import annotations

import doctest

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from updown_dsl.lang import formula as formula_module
from updown_dsl.lang.formula import (
    FUNCTIONS,
    Formula,
    FormulaError,
    FormulaEvalError,
    compile_formula,
)

NAMES = ["a", "b", "c", "bid", "taken", "pass", "cards", "khishti", "t", "n"]
ENV = {"a": 7, "b": 3, "c": -2, "bid": 2, "taken": 1, "pass": 5, "cards": 9, "khishti": 500, "t": 0, "n": 4}


def ev(src: str | int, **env: int) -> int:
    """Compile against NAMES and evaluate with ENV overridden by ``env``."""
    return compile_formula(src, NAMES)({**ENV, **env})


def err(src: str | int, names: list[str] = NAMES, **kw: object) -> FormulaError:
    with pytest.raises(FormulaError) as info:
        compile_formula(src, names, **kw)  # type: ignore[arg-type]
    assert info.value.diagnostics, "FormulaError without diagnostics"
    return info.value


# ----------------------------------------------------------------- operators
@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("a + b", 10), ("a - b", 4), ("a * b", 21), ("a // b", 2), ("a % b", 1),
        ("-a // b", -3), ("-a % b", 2), ("a // -b", -3),  # floor semantics, like Python
        ("-a", -7), ("+a", 7), ("--a", 7), ("-(-a)", 7), ("- -3", 3),
        ("a == 7", 1), ("a == 8", 0), ("a != 7", 0), ("a != b", 1),
        ("a < b", 0), ("b < a", 1), ("a <= 7", 1), ("a <= 6", 0),
        ("a > b", 1), ("b > a", 0), ("a >= 7", 1), ("a >= 8", 0),
        ("7 == a", 1), ("3 < a", 1), ("8 <= a", 0), ("10 - a", 3), ("20 // a", 2), ("20 % a", 6),
        ("a and b", 1), ("a and 0", 0), ("0 or 0", 0), ("t or b", 1), ("not a", 0), ("not t", 1),
        ("a && b", 1), ("t || t", 0), ("!a", 0), ("!t", 1), ("!!a", 1), ("not not a", 1),
        ("min(a, b)", 3), ("max(a, b)", 7), ("min(a, b, c)", -2), ("max(c, b, a, 1)", 7),
        ("abs(c)", 2), ("abs(a)", 7), ("abs(-5)", 5), ("min(3, 4)", 3), ("max(b, 10)", 10),
        ("0042", 42), ("a", 7), ("(((a)))", 7),
    ],
)
def test_operators(src: str, expected: int) -> None:
    assert ev(src) == expected


def test_results_are_plain_ints() -> None:
    for src in ["a == 7", "a < b", "a and b", "not a", "a || t", "!t", "t ? 1 : 0", "1 == 1", "a"]:
        value = ev(src)
        assert type(value) is int, src


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 4 - 3", 3), ("100 // 10 // 5", 2),
        ("2 * 3 % 4", 2), ("17 % 5 * 2", 4), ("-2 * 3", -6), ("-a + b", -4), ("- a * b", -21),
        ("1 + 2 == 3", 1), ("2 * 3 > 5", 1), ("not 1 == 2", 1), ("not a < b", 1),
        ("1 or 0 and 0", 1), ("(1 or 0) and 0", 0), ("not 0 and 0", 0), ("not (0 and 0)", 1),
        ("t == 0 or 1 // t", 1), ("1 == 1 and 2 == 2", 1), ("a > b && b > c", 1),
        ("a - b - c", 6), ("a - (b - c)", 2),
    ],
)
def test_precedence_and_associativity(src: str, expected: int) -> None:
    assert ev(src) == expected


# -------------------------------------------------------------- conditionals
@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ("if a > b then 1 else 2", 1), ("if a < b then 1 else 2", 2),
        ("a > b ? 1 : 2", 1), ("a < b ? 1 : 2", 2),
        # right-associative chains
        ("0 ? 1 : 0 ? 2 : 3", 3), ("0 ? 1 : 1 ? 2 : 3", 2), ("1 ? 1 : 0 ? 2 : 3", 1),
        ("if 0 then 1 else if 0 then 2 else 3", 3), ("if 0 then 1 else if 1 then 2 else 3", 2),
        # nested in the condition and in the branches
        ("if if a then 0 else 1 then 10 else 20", 20), ("(a ? 0 : 1) ? 10 : 20", 20),
        ("1 ? 0 ? 5 : 6 : 7", 6), ("if 1 then if 0 then 5 else 6 else 7", 6),
        # lowest precedence: branches swallow operators
        ("a > b ? 1 : 2 + 10", 1), ("a < b ? 1 : 2 + 10", 12), ("if 0 then 1 else 2 + 10", 12),
        ("t || b ? 4 : 5", 4), ("1 + (t ? 1 : 2)", 3),
        # the two spellings mix
        ("if a then b ? 1 : 2 else 3", 1), ("a ? if t then 1 else 2 : 3", 2),
        ("if t then 1 else b ? 4 : 5", 4),
    ],
)
def test_conditionals(src: str, expected: int) -> None:
    assert ev(src) == expected


def test_conditional_lambda_specialisations() -> None:
    # every combination of constant / variable branches, with a runtime condition
    for cond, expected in [("b > 1", (4, 3, 4, 3)), ("b > 5", (5, 7, 7, 5))]:
        got = (ev(f"{cond} ? 4 : 5"), ev(f"{cond} ? b : 7"), ev(f"{cond} ? 4 : a"), ev(f"{cond} ? b : 5"))
        assert got == expected


def test_short_circuit() -> None:
    assert ev("0 and 1 // 0") == 0
    assert ev("1 or 1 // 0") == 1
    assert ev("t and 1 // t") == 0
    assert ev("b or 1 // t") == 1
    assert ev("t && a % t") == 0
    assert ev("t ? 1 // t : 5") == 5
    assert ev("if t == 0 then 0 else a // t") == 0
    assert ev("1 ? 2 : 1 // 0") == 2


def test_division_by_zero_is_eval_error() -> None:
    for src in ["a // t", "a % t", "1 // 0", "a // (b - 3)", "7 % (t * 5)", "min(1, 2) // t", "5 // t + 1"]:
        f = compile_formula(src, NAMES)
        with pytest.raises(FormulaEvalError) as info:
            f(ENV)
        (d,) = info.value.diagnostics
        assert d.code == "F005"
        assert src in d.message


def test_division_error_carries_path_and_line() -> None:
    f = compile_formula("a // t", NAMES, path="v.yaml", where=lambda off: (12, 9 + off))
    with pytest.raises(FormulaEvalError) as info:
        f({"a": 1, "t": 0})
    d = info.value.diagnostics[0]
    assert (d.path, d.line) == ("v.yaml", 12)
    assert "a=1" in d.message and "t=0" in d.message


def test_constant_folding() -> None:
    f = compile_formula("2 * (3 + 4) - abs(-1) + max(1, 2, 3) // 1", [])
    assert f({}) == 16
    assert compile_formula("0 and x", ["x"])({}) == 0  # no lookup needed
    assert compile_formula("1 ? 5 : x", ["x"])({}) == 5


# --------------------------------------------------------------- int sources
def test_int_source() -> None:
    f = compile_formula(5, NAMES)
    assert isinstance(f, Formula)
    assert f({}) == 5 and f.names_used == frozenset() and f.source == "5"
    assert compile_formula(-10, [])({}) == -10
    assert compile_formula(0, [])(ENV) == 0


@pytest.mark.parametrize("bad", [True, False, 1.5, None, [1]])
def test_non_formula_source(bad: object) -> None:
    assert err(bad).diagnostics[0].code == "F001"  # type: ignore[arg-type]


def test_names_used_and_equality() -> None:
    f = compile_formula("a + min(b, 3) + (t ? a : c)", NAMES)
    assert f.names_used == frozenset({"a", "b", "t", "c"})
    assert f == compile_formula("a + min(b, 3) + (t ? a : c)", NAMES)
    assert "a + min" in repr(f)
    assert f.fn(ENV) == f(ENV)


def test_env_may_be_any_mapping() -> None:
    from types import MappingProxyType

    f = compile_formula("a * b + a", NAMES)
    assert f(MappingProxyType({"a": 2, "b": 5})) == 12


def test_functions_table() -> None:
    assert FUNCTIONS == {"min": (2, None), "max": (2, None), "abs": (1, 1)}


def test_keywords_are_not_names_but_prefixes_are() -> None:
    names = ["iffy", "notable", "order", "android", "elsewhere", "thence"]
    f = compile_formula("iffy + notable + order + android + elsewhere + thence", names)
    assert f(dict.fromkeys(names, 1)) == 6
    for kw in ["if", "then", "else", "and", "or", "not"]:
        assert err(f"{kw} * 1", [kw]).diagnostics[0].code == "F001"


def test_whitespace_and_newlines() -> None:
    assert ev("\n  a\t+\r\n  b  \n") == 10
    assert ev("if a>b\nthen 1\nelse 2") == 1


# ------------------------------------------------------------ real formulas
ODESSA = ("taken==bid ? (bid==0 ? pass : 10 + 5*(bid-1)) : taken>bid ? taken : "
          "taken==0 ? -10*bid : -5*(bid-taken)")
ODESSA_IF = ("if taken == bid then (if bid == 0 then pass else 10 + 5*(bid-1)) else if taken > bid "
             "then taken else if taken == 0 then -10*bid else -5*(bid-taken)")
GEORGIAN = ("taken==bid && bid==cards ? 100*cards : taken==bid ? 50*bid+50 : "
            "bid>=1 && taken==0 ? -khishti : 10*taken")


@pytest.mark.parametrize("src", [ODESSA, ODESSA_IF])
@pytest.mark.parametrize(
    ("bid", "taken", "score"),
    [(2, 2, 15), (0, 0, 5), (0, 1, 1), (3, 0, -30), (2, 3, 3), (2, 1, -5), (1, 0, -10)],
)
def test_odessa(src: str, bid: int, taken: int, score: int) -> None:
    f = compile_formula(src, ["bid", "taken", "pass"])
    assert f({"bid": bid, "taken": taken, "pass": 5}) == score
    assert f.names_used == frozenset({"bid", "taken", "pass"})


@pytest.mark.parametrize(("bid", "taken", "score"), [(9, 9, 900), (3, 3, 200), (2, 0, -500), (3, 4, 40)])
def test_georgian(bid: int, taken: int, score: int) -> None:
    f = compile_formula(GEORGIAN, ["bid", "taken", "cards", "khishti"])
    assert f({"bid": bid, "taken": taken, "cards": 9, "khishti": 500}) == score


def test_carter_hoerr() -> None:
    f = compile_formula("taken==bid ? bid+10 : -10 - abs(bid-taken)", ["bid", "taken"])
    assert f({"bid": 3, "taken": 2}) == -11
    assert f({"bid": 3, "taken": 3}) == 13


def test_brief_examples() -> None:
    assert compile_formula("taken==bid ? 50*bid + 50 : 10*taken", NAMES)({"bid": 2, "taken": 2}) == 150
    assert compile_formula("t==b && b==n ? 100*n : 0", NAMES)({"t": 4, "b": 4, "n": 4}) == 400
    src = "min(bid, 3) + max(a, b, c) - abs(bid - taken)"
    assert compile_formula(src, NAMES)({"bid": 5, "taken": 1, "a": 1, "b": 9, "c": 2}) == 8


# ------------------------------------------------------------------- errors
def test_unknown_name_position_and_hint() -> None:
    e = err("bid + tkaen")
    (d,) = e.diagnostics
    assert (d.code, d.line, d.col, d.end_col) == ("F002", 1, 7, 12)
    assert "'tkaen'" in d.message
    assert d.hint == "did you mean 'taken'?"
    assert d.path is None


def test_unknown_name_without_close_match_lists_the_names_in_its_hint() -> None:
    (d,) = err("zzzzzz").diagnostics
    assert d.code == "F002" and d.hint == "here the names are: a, b, c, bid, taken, pass, cards, khishti, t, n"
    assert len(d.message) < 80  # the message itself does not list the whole whitelist


def test_all_unknown_names_are_reported() -> None:
    e = err("bdi + 1 + xx * max(takn, 2)")
    assert [(d.code, d.col) for d in e.diagnostics] == [("F002", 1), ("F002", 11), ("F002", 20)]
    assert [d.hint for d in e.diagnostics] == [  # no name close to xx: the names there are
        "did you mean 'bid'?", "here the names are: a, b, c, bid, taken, pass, cards, khishti, t, n",
        "did you mean 'taken'?"]


def test_multiline_positions() -> None:
    src = "taken == bid\n  ? bdi\n  : 10 *  tkn"
    e = err(src, path="odessa.yaml")
    assert [(d.path, d.line, d.col) for d in e.diagnostics] == [("odessa.yaml", 2, 5), ("odessa.yaml", 3, 11)]
    assert str(e).splitlines()[0].startswith("odessa.yaml:2:5: error[F002]")


def block_scalar_mapper(src: str, first_line: int, indent: int):  # type: ignore[no-untyped-def]
    """A `where` for a formula written as a YAML block scalar."""
    starts = [0] + [i + 1 for i, ch in enumerate(src) if ch == "\n"]

    def where(offset: int) -> tuple[int, int]:
        line = max(i for i, s in enumerate(starts) if s <= offset)
        return first_line + line, indent + 1 + offset - starts[line]

    return where


def test_where_mapper() -> None:
    # formula is a YAML block scalar starting at line 11, indented by 4 columns
    src = "taken == bid\n  ? bdi\n  : 10 * tkn"
    e = err(src, path="v.yaml", where=block_scalar_mapper(src, 11, 4))
    assert [(d.path, d.line, d.col) for d in e.diagnostics] == [("v.yaml", 12, 9), ("v.yaml", 13, 14)]
    src = "a +\n  ("
    (s,) = err(src, where=block_scalar_mapper(src, 11, 4)).diagnostics
    assert (s.code, s.line, s.col) == ("F001", 12, 8)


def test_where_mapper_single_line() -> None:
    (d,) = err("bid + bidd", path="x.yaml", where=lambda off: (4, 12 + off)).diagnostics
    assert (d.path, d.line, d.col, d.end_col) == ("x.yaml", 4, 18, 22)


@pytest.mark.parametrize(
    ("src", "code", "fragment"),
    [
        ("min(a)", "F003", "at least 2"), ("max()", "F003", "got 0"), ("abs(a, b)", "F003", "exactly 1"),
        ("abs()", "F003", "exactly 1 argument,"), ("mni(a, b)", "F004", "'mni'"), ("foo(1)", "F004", "'foo'"),
        ("bid(1)", "F004", "'bid'"),
    ],
)
def test_function_errors(src: str, code: str, fragment: str) -> None:
    (d,) = err(src).diagnostics
    assert d.code == code and fragment in d.message and d.col == 1


def test_function_error_hints_and_collection() -> None:
    e = err("a + mni(a, b) + abs(1, 2) + zz(bidd)")
    got = [(d.code, d.col, d.hint) for d in e.diagnostics]
    assert got[0] == ("F004", 5, "did you mean 'min'?")
    assert got[1] == ("F003", 17, None)
    assert ("F002", 32, "did you mean 'bid'?") in got
    assert ("F004", 29, "functions are: abs, max, min") in got


@pytest.mark.parametrize(
    ("src", "message", "col"),
    [
        ("a +", "formula ends too early: missing operand after '+'", 4),
        ("a + ", "formula ends too early: missing operand after '+'", 4),
        ("(a", "formula ends too early: missing ')'", 3),
        ("if a then b", "formula ends too early: missing 'else'", 12),
        ("a ? b", "formula ends too early: missing ':'", 6),
        ("", "empty formula: expected an expression", 1),
        ("a)", "unexpected ')' in formula", 2),
        (")", "unexpected ')' in formula", 1),
        ("a / b", "'/' is not an operator: use '//' for integer division", 3),
        ("a $ b", "unexpected character '$' in formula", 3),
        ("a < b < c", "comparisons cannot be chained", 7),
        ("a == b == c", "comparisons cannot be chained", 8),
        ("a b", "unexpected name 'b' in formula", 3),
        ("if a else b", "unexpected 'else' in formula", 6),
    ],
)
def test_syntax_errors(src: str, message: str, col: int) -> None:
    (d,) = err(src).diagnostics
    assert (d.code, d.message, d.line, d.col) == ("F001", message, 1, col)


def test_syntax_error_hints() -> None:
    assert err("a b").diagnostics[0].hint == "missing an operator before it?"
    assert err("if a else b").diagnostics[0].hint == "expected 'then'"
    assert "and" in (err("a < b < c").diagnostics[0].hint or "")
    assert "parentheses" in (err("1 + if a then 1 else 2").diagnostics[0].hint or "")


def test_syntax_error_on_later_line() -> None:
    (d,) = err("a +\n b +\n\n   $", path="p.yaml").diagnostics
    assert (d.path, d.line, d.col, d.end_col) == ("p.yaml", 4, 4, 5)
    (d,) = err("a +\n b +\n\n").diagnostics
    assert (d.line, d.col) == (2, 5)  # just after the dangling operator


def test_syntax_error_reports_one_diagnostic_even_with_bad_names() -> None:
    assert len(err("zz + yy +").diagnostics) == 1


def test_grammar_is_conflict_free_in_strict_mode() -> None:
    pytest.importorskip("interegular")
    from lark import Lark

    Lark(formula_module._grammar_text(), parser="lalr", lexer="basic", strict=True)


def test_module_doctests() -> None:
    result = doctest.testmod(formula_module)
    assert result.attempted >= 3 and result.failed == 0


def test_nesting_limit() -> None:
    from updown_dsl.lang.formula import MAX_DEPTH

    assert compile_formula("-" * (MAX_DEPTH - 1) + "a", ["a"])({"a": 1}) == -1
    assert compile_formula(" + ".join(["a"] * MAX_DEPTH), ["a"])({"a": 1}) == MAX_DEPTH
    assert compile_formula("(" * 900 + "a" + ")" * 900, ["a"])({"a": 1}) == 1  # parens add no depth
    deeper = MAX_DEPTH + 40
    for src in ["-" * deeper + "1", " + ".join(["a"] * deeper), "not " * deeper + "a",
                "a ? " * deeper + "1" + " : 2" * deeper]:
        assert len(src) <= 2000  # within the length limit: the depth is what is refused
        (d,) = err(src, ["a"]).diagnostics
        assert d.code == "F006" and "nested" in d.message
    (d,) = err("-" * 5000 + "1", ["a"]).diagnostics
    assert d.code == "F006" and "longer than 2,000 characters" in d.message


def test_huge_literal() -> None:
    assert err("9" * 500).diagnostics[0].code == "F001"  # a literal has at most 100 digits


# --------------------------------------------------------------- hypothesis
_ALPHABET = st.sampled_from(
    list("abtn01239 +-*/%()<>=!&|?:,.\n\t_$'\"#[]") + ["if ", " then ", " else ", " and ", " or ", "not ",
                                                         "min(", "max(", "abs(", "bid", "taken", "//"]
)


def _check_any(text: str) -> None:
    try:
        compile_formula(text, ["a", "b", "t", "n", "bid", "taken"])
    except FormulaError as e:
        lines = text.split("\n")
        assert e.diagnostics
        for d in e.diagnostics:
            assert d.code in {"F001", "F002", "F003", "F004"}
            assert d.line is not None and d.col is not None
            assert 1 <= d.line <= len(lines)
            assert 1 <= d.col <= len(lines[d.line - 1]) + 1, (text, d)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=30).map("".join))
def test_fuzz_formula_like_text(text: str) -> None:
    _check_any(text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_fuzz_arbitrary_text(text: str) -> None:
    _check_any(text)


# ------------------------------------------------------------------ the shipped tree cache
def test_the_shipped_tree_cache_is_what_lark_parses_today() -> None:
    from pathlib import Path

    from updown_dsl.lang import formula, formula_trees

    shipped = (Path(formula.__file__).resolve().parent / formula.TREES_FILE).read_text(encoding="utf-8")
    assert shipped == formula_trees.trees_text(formula_trees.bundled_formulas()), (
        "run: python -m updown_dsl.lang.formula_trees")


def test_a_cached_formula_compiles_as_a_parsed_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import itertools

    from updown_dsl.lang import formula, formula_trees

    sources = formula_trees.bundled_formulas()

    def names(source: str) -> set[str]:
        return set(re.findall(r"[A-Za-z_]\w*", source)) - {"min", "max", "abs", "if", "then", "else", "and",
                                                           "or", "not"}

    cached = {s: formula.compile_formula(s, names(s)) for s in sources}
    monkeypatch.setattr(formula, "_TREES", {})
    for s in sources:
        parsed = formula.compile_formula(s, names(s))
        assert parsed.names_used == cached[s].names_used
        for values in itertools.islice(itertools.product([0, 1, 3], repeat=len(parsed.names_used)), 200):
            env = dict(zip(sorted(parsed.names_used), values))
            try:
                want = parsed(env)
            except formula.FormulaEvalError:
                want = "F005"
            try:
                got = cached[s](env)
            except formula.FormulaEvalError:
                got = "F005"
            assert got == want, (s, env)


def test_a_bundled_variant_loads_without_lark() -> None:
    import subprocess
    import sys

    code = ("import sys, updown_dsl as ud; [ud.load_variant(n) for n in ud.bundled_names()]; "
            "print('lark' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
