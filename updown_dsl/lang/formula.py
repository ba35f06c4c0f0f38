"""Scoring formulas: a tiny integer expression language compiled to closures.

Variant files write scores such as ``taken==bid ? 10 + bid : -abs(bid-taken)``.
:func:`compile_formula` parses the text with ``grammar/scoring.lark`` (LALR),
checks every name and function call against whitelists, and turns the tree
into nested Python closures (never ``eval``/``exec``).  All errors except
division by zero are found at compile time.

>>> f = compile_formula("taken == bid ? 10 + bid : -abs(bid - taken)", ["bid", "taken"])
>>> f({"bid": 3, "taken": 3}), f({"bid": 3, "taken": 1})
(13, -2)
>>> sorted(f.names_used)
['bid', 'taken']
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Union

from typing import TYPE_CHECKING

from updown_dsl.diagnostics import Diagnostic, UpdownError
from updown_dsl.i18n import mark, tr

if TYPE_CHECKING:  # Lark is imported only to parse a formula the tree cache does not hold
    from lark import Lark
    from lark.exceptions import UnexpectedInput

__all__ = ["FUNCTIONS", "Fault", "Formula", "FormulaError", "FormulaEvalError", "compile_formula", "lark_tree",
           "parse_tree"]

Env = Mapping[str, int]
Fn = Callable[[Env], int]
#: A compiled node: an int constant, a str variable name, or a closure.
Node = Union[int, str, Fn]

#: function name -> (min_args, max_args or None for unbounded)
FUNCTIONS: dict[str, tuple[int, int | None]] = {"min": (2, None), "max": (2, None), "abs": (1, 1)}
_IMPLS: dict[str, Callable[..., int]] = {"min": min, "max": max, "abs": abs}
#: deepest parse tree accepted, so compiling and evaluating never hit the recursion limit
MAX_DEPTH = 200
#: The longest formula text accepted (a scoring rule is a line or two; this bounds the parse).
MAX_LENGTH = 2000


class FormulaError(UpdownError):
    """A formula does not compile (codes F001-F004)."""


class FormulaEvalError(UpdownError):
    """A formula failed while evaluating: division or modulo by zero (F005)."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A problem found compiling a formula, where it is in the formula's text: ``start`` and
    ``end`` are offsets (``compile_formula`` turns them into the file's line and columns)."""

    code: str
    message: str
    start: int = 0
    end: int = 0
    hint: str | None = None


@dataclass(frozen=True)
class Formula:
    """A compiled formula; call it with a mapping of names to ints.

    >>> compile_formula(5, [])({})
    5
    """

    source: str
    names_used: frozenset[str]
    #: the raw closure; ``formula.fn(env)`` is ``formula(env)`` minus one call
    fn: Fn = field(repr=False, compare=False)
    #: whether evaluating can fail at all (only a division or remainder by a non-constant can)
    can_fail: bool = field(default=False, repr=False, compare=False)

    def __call__(self, env: Env) -> int:
        """Evaluate with ``env`` (must contain every name in ``names_used``)."""
        return self.fn(env)


def _guard(f: Fn, source: str, names: set[str], path: str | None, line: Callable[[], int]) -> Fn:
    """Wrap a division closure so that dividing by zero raises F005 (``line()``: where the
    formula starts in its file, worked out only then)."""
    def checked(e: Env) -> int:
        try:
            return f(e)
        except ZeroDivisionError:
            values = ", ".join(f"{n}={e.get(n)!r}" for n in sorted(names))
            msg = tr("division or modulo by zero in formula {source!r}", source=source) + (tr(" with {values}", values=values) if values else "")
            raise FormulaEvalError(Diagnostic("F005", msg, path=path, line=line())) from None
    return checked


# ---------------------------------------------------------------- parsing
_PARSER: Lark | None = None


def _grammar_text() -> str:
    from .files import package_file

    return (package_file("grammar") / "scoring.lark").read_text(encoding="utf-8")


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        from lark import Lark

        _PARSER = Lark(_grammar_text(), parser="lalr", lexer="basic", propagate_positions=True)
    return _PARSER


def lark_tree(text: str) -> Any:
    """The tree Lark parses from a formula's text (raises Lark's ``UnexpectedInput``)."""
    return _parser().parse(text)


def parse_tree(text: str) -> Any:
    """The parse tree of a formula's text: the shipped one when the cache holds it, else Lark's."""
    tree = _cached_tree(text)
    return tree if tree is not None else lark_tree(text)


# ---------------------------------------------------------------- the tree cache
# Building the LALR parser costs more than the rest of `updown check` on a small file, so
# the parse trees of the formulas of the bundled variants (and of the schema's defaults)
# ship with the package in formula-trees.json, keyed by the formula's text: a bundled
# variant loads without Lark. `python -m updown_dsl.lang.formula_trees` writes the file again,
# and tests/test_formula.py fails when it differs from what Lark parses.
TREES_FILE = "formula-trees.json"
_TREES: dict[str, Any] | None = None


class _Tok(str):
    """A token of a cached tree, with what the compiler reads of Lark's tokens."""

    type: str
    start_pos: int
    end_pos: int

    @property
    def value(self) -> str:
        return str(self)


class _Tree:
    """A node of a cached tree, with what the compiler reads of Lark's trees."""

    __slots__ = ("data", "children")

    def __init__(self, data: str, children: list[Any]) -> None:
        self.data, self.children = data, children


def tree_to_data(tree: Any) -> Any:
    """A Lark tree as JSON-ready data: ``[type, text, start, end]`` for a token, ``{data: [children]}``
    for a node, None for an empty optional part."""
    if tree is None:
        return None
    if hasattr(tree, "children"):
        return {str(tree.data): [tree_to_data(c) for c in tree.children]}
    return [tree.type, str(tree), tree.start_pos, tree.end_pos]


def _tree_from_data(data: Any) -> Any:
    if data is None:
        return None
    if isinstance(data, dict):
        ((name, kids),) = data.items()
        return _Tree(name, [_tree_from_data(k) for k in kids])
    kind, text, start, end = data
    tok = _Tok(text)
    tok.type, tok.start_pos, tok.end_pos = kind, start, end
    return tok


def _cached_tree(text: str) -> Any:
    global _TREES
    if _TREES is None:
        import json

        try:
            raw = (Path(__file__).resolve().parent / TREES_FILE).read_text(encoding="utf-8")
            _TREES = json.loads(raw)["trees"]
        except (ModuleNotFoundError, OSError, TypeError, ValueError, KeyError):
            _TREES = {}
    data = _TREES.get(text)
    return None if data is None else _tree_from_data(data)


def _is_token(t: Any) -> bool:
    return isinstance(t, str)


#: terminals that close a construct, as the user types them
_CLOSERS = {"RPAR": "')'", "THEN": "'then'", "ELSE": "'else'", "COLON": "':'"}
_OPERANDS = {"NAME", "INT"}
_BAD_CHARS = {
    "/": mark("'/' is not an operator: use '//' for integer division"),
    "=": mark("'=' is not an operator: use '==' to compare (there is no assignment)"),
    "'": mark("strings are not allowed in formulas"), '"': mark("strings are not allowed in formulas"),
    "#": mark("comments are not allowed in formulas"), ";": mark("';' is not allowed: a formula is one expression"),
    "[": mark("'[' is not allowed: there are no lists or subscripts in formulas"),
    "&": mark("'&' is not an operator: use '&&' or 'and'"), "|": mark("'|' is not an operator: use '||' or 'or'"),
}


def _syntax_fault(err: UnexpectedInput, text: str) -> Fault:
    """A lark error as the F001 a card player reads, at the characters it is about."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        ch = text[pos]
        if ch == "." and text[pos - 1:pos].isdigit() and text[pos + 1:pos + 2].isdigit():
            return Fault("F001", tr("decimal numbers are not allowed: formulas use whole numbers only"), pos, pos + 1)
        if ch == ".":
            return Fault("F001", tr("'.' is not allowed: there is no attribute access in formulas"), pos, pos + 1)
        message = tr(_BAD_CHARS[ch]) if ch in _BAD_CHARS else tr("unexpected character {ch!r} in formula", ch=ch)
        return Fault("F001", message, pos, pos + 1)
    token, ip = (err.token, err.interactive_parser) if isinstance(err, UnexpectedToken) else (None, None)
    # accepts() is exact, unlike the merged LALR lookaheads in .expected
    expected: set[str] = set(err.expected) if isinstance(err, UnexpectedEOF) else set()
    if ip is not None:
        expected = set(ip.accepts())  # type: ignore[no-untyped-call]
    if token is None or token.type == "$END":
        end = len(text.rstrip(" \t\r\n"))
        tokens = list(_parser().lex(text))
        if not tokens:
            return Fault("F001", tr("empty formula: expected an expression"), end, end)
        if expected & _OPERANDS:
            return Fault("F001", tr("formula ends too early: missing operand after {token!r}", token=tokens[-1].value),
                         end, end)
        closer = next((c for c in _CLOSERS if c in expected), None)
        return Fault("F001", tr("formula ends too early: missing {missing}",
                                missing=_CLOSERS[closer] if closer else tr("something")), end, end)
    start, stop = token.start_pos or 0, token.end_pos or (token.start_pos or 0) + len(token.value)
    if token.type == "COMPARE" and not expected & _OPERANDS:
        return Fault("F001", tr("comparisons cannot be chained"), start, stop, tr("use 'and', e.g. a < b and b < c"))
    if token.value == "*" and text[start - 1:start] == "*":
        return Fault("F001", tr("'**' is not an operator: write repeated multiplication"), start - 1, stop)
    what = tr("name {token!r}", token=token.value) if token.type == "NAME" else tr("number {token}", token=token.value) \
        if token.type == "INT" else repr(token.value)
    closers = [v for k, v in _CLOSERS.items() if k in expected]
    hint = tr("put a conditional in parentheses: (if ... else ...)") if token.type == "IF" \
        else tr("missing an operator before it?") if token.type in _OPERANDS and not expected & _OPERANDS \
        else tr("expected a number, a name or '('") if expected & _OPERANDS \
        else tr("expected {items}", items=" or ".join(closers)) if closers else None
    return Fault("F001", tr("unexpected {what} in formula", what=what), start, stop, hint)


# ---------------------------------------------------------------- closures
def _fn(n: Node) -> Fn:
    """Turn any node into a closure."""
    if isinstance(n, int):
        return lambda e: n
    if isinstance(n, str):
        return itemgetter(n)
    return n


# Per operator: (closure op closure, name op const, name op name, closure op const).
_OPS: dict[str, tuple[Callable[..., Fn], ...]] = {
    "+": (lambda f, g: lambda e: f(e) + g(e), lambda n, c: lambda e: e[n] + c,
          lambda n, m: lambda e: e[n] + e[m], lambda f, c: lambda e: f(e) + c),
    "-": (lambda f, g: lambda e: f(e) - g(e), lambda n, c: lambda e: e[n] - c,
          lambda n, m: lambda e: e[n] - e[m], lambda f, c: lambda e: f(e) - c),
    "*": (lambda f, g: lambda e: f(e) * g(e), lambda n, c: lambda e: e[n] * c,
          lambda n, m: lambda e: e[n] * e[m], lambda f, c: lambda e: f(e) * c),
    "//": (lambda f, g: lambda e: f(e) // g(e), lambda n, c: lambda e: e[n] // c,
           lambda n, m: lambda e: e[n] // e[m], lambda f, c: lambda e: f(e) // c),
    "%": (lambda f, g: lambda e: f(e) % g(e), lambda n, c: lambda e: e[n] % c,
          lambda n, m: lambda e: e[n] % e[m], lambda f, c: lambda e: f(e) % c),
    "==": (lambda f, g: lambda e: 1 if f(e) == g(e) else 0, lambda n, c: lambda e: 1 if e[n] == c else 0,
           lambda n, m: lambda e: 1 if e[n] == e[m] else 0, lambda f, c: lambda e: 1 if f(e) == c else 0),
    "!=": (lambda f, g: lambda e: 1 if f(e) != g(e) else 0, lambda n, c: lambda e: 1 if e[n] != c else 0,
           lambda n, m: lambda e: 1 if e[n] != e[m] else 0, lambda f, c: lambda e: 1 if f(e) != c else 0),
    "<": (lambda f, g: lambda e: 1 if f(e) < g(e) else 0, lambda n, c: lambda e: 1 if e[n] < c else 0,
          lambda n, m: lambda e: 1 if e[n] < e[m] else 0, lambda f, c: lambda e: 1 if f(e) < c else 0),
    "<=": (lambda f, g: lambda e: 1 if f(e) <= g(e) else 0, lambda n, c: lambda e: 1 if e[n] <= c else 0,
           lambda n, m: lambda e: 1 if e[n] <= e[m] else 0, lambda f, c: lambda e: 1 if f(e) <= c else 0),
    ">": (lambda f, g: lambda e: 1 if f(e) > g(e) else 0, lambda n, c: lambda e: 1 if e[n] > c else 0,
          lambda n, m: lambda e: 1 if e[n] > e[m] else 0, lambda f, c: lambda e: 1 if f(e) > c else 0),
    ">=": (lambda f, g: lambda e: 1 if f(e) >= g(e) else 0, lambda n, c: lambda e: 1 if e[n] >= c else 0,
           lambda n, m: lambda e: 1 if e[n] >= e[m] else 0, lambda f, c: lambda e: 1 if f(e) >= c else 0),
}
#: `c op x` rewritten as `x op' c` (commutative ops and mirrored comparisons).
_MIRROR = {"+": "+", "*": "*", "==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
_CONST_LEFT: dict[str, Callable[[int, Fn], Fn]] = {
    "-": lambda c, g: lambda e: c - g(e), "//": lambda c, g: lambda e: c // g(e),
    "%": lambda c, g: lambda e: c % g(e)}


def _binop(op: str, a: Node, b: Node) -> Node:
    generic, name_const, name_name, fn_const = _OPS[op]
    if isinstance(a, int) and isinstance(b, int):
        try:
            return generic(_fn(a), _fn(b))({})  # fold; 1//0 stays a runtime error
        except ZeroDivisionError:
            pass
    elif isinstance(a, int):
        return _binop(_MIRROR[op], b, a) if op in _MIRROR else _CONST_LEFT[op](a, _fn(b))
    elif isinstance(b, int):
        return name_const(a, b) if isinstance(a, str) else fn_const(a, b)
    elif isinstance(a, str) and isinstance(b, str):
        return name_name(a, b)
    return generic(_fn(a), _fn(b))


def _neg(n: Node) -> Node:
    if isinstance(n, int):
        return -n
    if isinstance(n, str):
        return lambda e: -e[n]
    return lambda e: -n(e)


def _truth(n: Node) -> Node:
    if isinstance(n, int):
        return 1 if n else 0
    f = _fn(n)
    return lambda e: 1 if f(e) else 0


def _not(n: Node) -> Node:
    if isinstance(n, int):
        return 0 if n else 1
    f = _fn(n)
    return lambda e: 0 if f(e) else 1


def _and(a: Node, b: Node) -> Node:
    if isinstance(a, int):
        return _truth(b) if a else 0
    f, g = _fn(a), _fn(b)
    return lambda e: 1 if f(e) and g(e) else 0


def _or(a: Node, b: Node) -> Node:
    if isinstance(a, int):
        return 1 if a else _truth(b)
    f, g = _fn(a), _fn(b)
    return lambda e: 1 if f(e) or g(e) else 0


def _ifelse(c: Node, a: Node, b: Node) -> Node:
    if isinstance(c, int):
        return a if c else b
    t, f, g = _fn(c), _fn(a), _fn(b)
    if isinstance(a, int) and isinstance(b, int):
        return lambda e: a if t(e) else b
    if isinstance(a, int):
        return lambda e: a if t(e) else g(e)
    if isinstance(b, int):
        return lambda e: f(e) if t(e) else b
    return lambda e: f(e) if t(e) else g(e)


def _call(name: str, args: list[Node]) -> Node:
    impl = _IMPLS[name]
    if all(isinstance(a, int) for a in args):
        return impl(*args)
    fs = [_fn(a) for a in args]
    if len(fs) == 1:
        f = fs[0]
        return lambda e: impl(f(e))
    if len(fs) == 2:
        f, g = fs
        return lambda e: impl(f(e), g(e))
    return lambda e: impl([f(e) for f in fs])


# ---------------------------------------------------------------- compiler
class _Compiler:
    """Walks the parse tree, collecting name/arity problems as diagnostics."""

    def __init__(self, names: tuple[str, ...], guard: Callable[[Fn], Fn], key: str | None = None,
                 elsewhere: Mapping[str, str] | None = None) -> None:
        self.order, self.names, self.guard = names, frozenset(names), guard
        self.key, self.elsewhere = key, elsewhere or {}
        self.used: set[str] = set()
        self.faults: list[Fault] = []
        self.divides = False

    def fault(self, code: str, t: Any, message: str, hint: str | None = None) -> None:
        """A problem at the token ``t``."""
        self.faults.append(Fault(code, message, t.start_pos or 0, t.end_pos or 0, hint))

    def unknown(self, t: Any) -> None:
        """An unknown name: one the formula language has in other keys (said so, with the
        names of this key), or a misspelling (with the closest name of this key)."""
        other = self.elsewhere.get(t.value)
        if other is not None and self.key is not None:
            here = ", ".join(dict.fromkeys(self.order)) or "none"
            self.fault("F002", t, tr("`{name}` is not known in `{key}`: {other}", name=t.value, key=self.key,
                                     other=other), tr("here the names are: {names}", names=here))
            return
        close = difflib.get_close_matches(t.value, sorted(self.names | set(self.elsewhere)), n=1)
        hint = tr("here the names are: {names}", names=", ".join(dict.fromkeys(self.order)) or "none") if not close \
            else tr("did you mean {name!r}?", name=close[0]) if close[0] in self.names \
            else tr("did you mean {name!r}? It is not known here: {where}", name=close[0], where=self.elsewhere[close[0]])
        self.fault("F002", t, tr("unknown name {name!r} in formula", name=t.value), hint)

    def build(self, t: Any) -> Node:
        if _is_token(t):  # Lark's token or a cached one (both are str)
            if t.type == "INT":
                if len(t.value) <= 100:
                    return int(t.value)
                self.fault("F001", t, "number is too large")
                return 0
            if t.value not in self.names:
                self.unknown(t)
                return 0
            self.used.add(t.value)
            return str(t.value)
        kids = t.children
        if t.data == "binop":
            op, a, b = kids[1].value, self.build(kids[0]), self.build(kids[2])
            node = _binop(op, a, b)
            if op in ("//", "%") and not (isinstance(b, int) and b):
                self.divides = True
                if callable(node):
                    node = self.guard(node)
            return node
        if t.data == "sign":
            return self.build(kids[1]) if kids[0].value == "+" else _neg(self.build(kids[1]))
        if t.data == "not_":
            return _not(self.build(kids[0]))
        if t.data == "and_":
            return _and(self.build(kids[0]), self.build(kids[1]))
        if t.data == "or_":
            return _or(self.build(kids[0]), self.build(kids[1]))
        if t.data == "ifelse":
            return _ifelse(*(self.build(k) for k in kids))
        if t.data == "call":
            return self.call(kids[0], [] if kids[1] is None else kids[1].children)
        raise AssertionError(f"unexpected tree {t.data}")  # pragma: no cover

    def call(self, name: Any, arg_trees: list[Any]) -> Node:
        args = [self.build(a) for a in arg_trees]
        if name.value not in FUNCTIONS:
            close = difflib.get_close_matches(name.value, sorted(FUNCTIONS), n=1)
            known = ", ".join(sorted(FUNCTIONS))
            hint = tr("did you mean {name!r}?", name=close[0]) if close else tr("functions are: {names}", names=known)
            self.fault("F004", name, tr("unknown function {name!r}", name=name.value), hint)
            return 0
        lo, hi = FUNCTIONS[name.value]
        if len(args) < lo or (hi is not None and len(args) > hi):
            want = tr("exactly {n}", n=lo) if lo == hi else tr("at least {n}", n=lo) if hi is None else tr(
                "{lo} to {hi}", lo=lo, hi=hi)
            fields = {"name": name.value, "want": want, "count": len(args)}
            self.fault("F003", name, tr("{name}() takes {want} arguments, got {count}", **fields) if hi != 1 else
                       tr("{name}() takes {want} argument, got {count}", **fields))
            return 0
        return _call(name.value, args)


def compile_formula(source: str | int, names: Iterable[str], *, path: str | None = None,
                    where: Callable[[int], tuple[int, int]] | None = None, key: str | None = None,
                    elsewhere: Mapping[str, str] | None = None) -> Formula:
    """Compile ``source`` allowing only the variables in ``names``.

    ``where(offset)`` maps a 0-based offset in ``source`` to a 1-based
    (line, col) in the file the formula came from.  ``key`` names where it is written
    (``bidding.min``); ``elsewhere`` says where names this key does not allow can be used.
    Raises FormulaError.

    >>> compile_formula("t == b ? 10 + b : 0", ["t", "b"])({"t": 2, "b": 2})
    12
    >>> try:
    ...     compile_formula("bids + 1", ["bid"])
    ... except FormulaError as err:
    ...     print(err)
    1:1: error[F002] unknown name 'bids' in formula (hint: did you mean 'bid'?)
    """
    text = source if isinstance(source, str) else str(source)

    def locate(offset: int) -> tuple[int, int]:
        if where is not None:
            return where(offset)
        return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1

    def diag(fault: Fault) -> Diagnostic:
        line, col = locate(fault.start)
        span = text[fault.start:fault.end]
        end_col = col + len(span) if span and "\n" not in span else None
        return Diagnostic(fault.code, fault.message, path=path, line=line, col=col, end_col=end_col, hint=fault.hint)

    if isinstance(source, bool) or not isinstance(source, (str, int)):
        what = tr("a boolean") if isinstance(source, bool) else f"a {type(source).__name__}"
        raise FormulaError(diag(Fault("F001", tr("expected a formula or a whole number, got {what}", what=what))))
    if isinstance(source, int):
        return Formula(text, frozenset(), _fn(source))
    if len(text) > MAX_LENGTH:
        raise FormulaError(diag(Fault("F006", tr("formula is longer than {limit:,} characters ({length:,})",
                                                 limit=MAX_LENGTH, length=len(text)),
                                      hint=tr("split the rule into simpler formulas, or name a part in `scoring.params`"))))
    tree = _cached_tree(text)
    if tree is None:
        from lark.exceptions import UnexpectedInput

        try:
            tree = lark_tree(text)
        except UnexpectedInput as err:
            raise FormulaError(diag(_syntax_fault(err, text))) from None
    stack = [(tree, 1)] if not isinstance(tree, str) else []
    while stack:
        sub, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FormulaError(diag(Fault("F006", tr("formula is nested more than {depth} levels deep", depth=MAX_DEPTH))))
        stack.extend((k, depth + 1) for k in sub.children if k is not None and not isinstance(k, str))
    comp = _Compiler(tuple(names), lambda f: _guard(f, text, comp.used, path, lambda: locate(0)[0]),
                     key, elsewhere)
    node = comp.build(tree)
    if comp.faults:
        raise FormulaError([diag(f) for f in comp.faults])
    return Formula(text, frozenset(comp.used), _fn(node), comp.divides)
