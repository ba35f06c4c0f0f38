"""Reading the values of a variant file against the schema, every problem kept as a diagnostic."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from ..cards import Card, CardError, Suit
from ..diagnostics import Diagnostic
from .formula import Formula, FormulaError, compile_formula
from .schema import Field
from .yamltree import YAML11_BOOLEANS, Node


def _child(node: Node | None, key: str) -> Node | None:
    return node.get(key) if node is not None and node.kind == "map" else None


class Values:
    """Reading one value of a variant file against its schema entry, with every problem as a diagnostic."""

    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []
        self.chain: list[Path] = []
        self.extends_failed = False
        """A base could not be read: keys it would supply are not reported missing."""
        self.files: list[tuple[str, int, int]] = []
        """Every file read, with its modification time and size then (for the memo)."""

    # -- validation ---------------------------------------------------------------------
    def err(self, code: str, msg: str, node: Node, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, msg, path=node.path, line=node.line, col=node.col, hint=hint))

    def section(self, node: Node | None, fields: dict[str, Field], where: str,
                extra: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        label = f"`{where}`" if where else "the file"
        if node is not None and node.kind != "map":
            self.err("V004", f"`{where}` must be a mapping of keys to values" if where
                     else "a variant file must be a mapping of keys to values", node)
            node = None
        if node is not None:
            for k, v in node.items:
                key = str(k.value)
                if key not in fields:
                    close = difflib.get_close_matches(key, list(fields), n=1)
                    self.err("V003", f"unknown key {key!r} in {label}", k,
                             hint=f"did you mean {close[0]!r}?" if close else
                             "allowed: " + ", ".join(fields))
                    continue
                out[key] = self.value(v, fields[key], f"{where}.{key}" if where else key, extra)
        for key, f in fields.items():
            if key not in out:
                if f.required and not (self.extends_failed and not where):
                    at = node if node is not None else Node("map", 1, 1)
                    self.err("V006", f"missing required key {key!r} in {label}", at)
                if f.type == "formula" and f.default is not None:
                    out[key] = compile_formula(f.default, f.names + extra)  # type: ignore[arg-type]
                elif f.type == "words":
                    out[key] = tuple(f.default)  # type: ignore[arg-type]
                else:
                    out[key] = None if f.type == "section" else f.default
        return out

    def value(self, node: Node, f: Field, where: str, extra: tuple[str, ...]) -> Any:
        t = f.type
        if node.kind == "scalar" and node.value is None and node.style is None:
            if f.nullable or (t == "section" and not f.required):
                return None
            self.err("V004", f"{where} needs a value", node)
            return f.default
        if t == "section":
            return self.section(node, f.fields, where, extra)
        if t == "kinds":
            if node.kind != "map":
                self.err("V004", f"`{where}` must map kind names to their rules", node)
                return {}
            return {str(k.value): (k, self.section(v, f.fields, f"{where}.{k.value}", extra))
                    for k, v in node.items}
        if t == "schedule":
            return node  # checked by schedule()
        if t == "words":
            return self.words(node, f, where)
        if t == "cards":
            return self.cards(node, where)
        if t == "params":
            if node.kind != "map":
                self.err("V004", f"`{where}` must map names to integers", node)
                return {}
            params: dict[str, int] = {}
            for k, item in node.items:
                value = item.value
                if item.kind != "scalar" or isinstance(value, bool) or not isinstance(value, int):
                    self.err("V004", f"parameter {k.value!r} must be an integer", item)
                elif not str(k.value).isidentifier():
                    self.err("V004", f"parameter name {k.value!r} is not a plain name", k)
                else:
                    params[str(k.value)] = value
            return params
        if t == "players":
            sec = self.section(node, {
                "min": Field("int", "", 3, minimum=2, maximum=12),
                "max": Field("int", "", 6, minimum=2, maximum=12),
                "default": Field("int", "", None, nullable=True, minimum=2, maximum=12),
            }, where, extra)
            return sec
        if node.kind != "scalar":
            self.err("V004", f"`{where}` must be a single value, not a {'list' if node.kind == 'seq' else 'mapping'}",
                     node)
            return f.default
        v = node.value
        if t == "bool":
            if isinstance(v, bool):
                return v
            self.err("V004", f"`{where}` must be true or false, not {node.raw!r}", node)
            return f.default
        if t == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                self.err("V004", f"`{where}` must be a whole number, not {node.raw!r}", node)
                return f.default
            if f.choices and str(v) not in f.choices:
                self.err("V005", f"`{where}` must be one of {', '.join(f.choices)}, not {v}", node)
                return f.default
            if (f.minimum is not None and v < f.minimum) or (f.maximum is not None and v > f.maximum):
                if f.maximum is None:
                    bound = f"at least {f.minimum}"
                elif f.minimum is None:
                    bound = f"at most {f.maximum}"
                else:
                    bound = f"between {f.minimum} and {f.maximum}"
                self.err("V008", f"`{where}` must be {bound}, not {v}", node)
                return f.default
            return v
        if t in ("word", "str"):
            if isinstance(v, bool) and node.raw not in YAML11_BOOLEANS:
                self.err("V004", f"`{where}` must be a word, not the boolean {node.raw!r}", node)
                return f.default
            if node.style is None and node.raw in YAML11_BOOLEANS:
                self.err("V007", f"`{where}`: {node.raw!r} is read by YAML as a boolean", node,
                         hint=f"quote it: '{node.raw}'")
                return f.default
            text = str(v)
            if t == "word" and f.choices and text not in f.choices:
                close = difflib.get_close_matches(text, f.choices, n=1)
                self.err("V005", f"`{where}` must be one of {', '.join(f.choices)}, not {text!r}", node,
                         hint=f"did you mean {close[0]!r}?" if close else None)
                return f.default
            return text
        if t == "suit":
            try:
                return Suit.parse(str(v))
            except CardError:
                self.err("V005", f"`{where}` must be a suit (S, H, D, C), not {node.raw!r}", node)
                return None
        if t == "card":
            try:
                return Card.parse(str(v))
            except CardError:
                self.err("V005", f"`{where}`: not a card: {node.raw!r}", node,
                         hint="write rank then suit, e.g. 7S, 10H")
                return None
        if t == "formula":
            return self.formula(node, f.names + extra, where)
        raise AssertionError(t)  # pragma: no cover - schema types are closed

    def formula(self, node: Node, names: tuple[str, ...], where: str) -> Formula | None:
        if node.kind != "scalar" or isinstance(node.value, bool) or node.value is None:
            self.err("V004", f"`{where}` must be a number or a formula", node)
            return None
        source = node.value if isinstance(node.value, int) else str(node.value)
        try:
            return compile_formula(source, names, path=node.path, where=node.text_where)
        except FormulaError as exc:
            self.diags.extend(exc.diagnostics)
            return None

    def words(self, node: Node | None, f: Field, where: str) -> tuple[str, ...]:
        if node is None:
            return tuple(f.default)  # type: ignore[arg-type]
        if node.kind == "scalar" and isinstance(node.value, str):
            items = [node]
        elif node.kind == "seq":
            items = node.children
        else:
            self.err("V004", f"`{where}` must be a list of words", node)
            return tuple(f.default)  # type: ignore[arg-type]
        out = []
        for item in items:
            if item.kind != "scalar" or str(item.value) not in f.choices:
                self.err("V005", f"`{where}`: {item.raw!r} is not one of {', '.join(f.choices)}", item)
            else:
                out.append(str(item.value))
        return tuple(out)

    def cards(self, node: Node | None, where: str) -> tuple[Card, ...]:
        if node is None:
            return ()
        items = node.children if node.kind == "seq" else [node]
        out = []
        for item in items:
            try:
                out.append(Card.parse(str(item.value)))
            except CardError:
                self.err("V005", f"`{where}`: not a card: {item.raw!r}", item,
                         hint="write rank then suit, e.g. 7S, 10H")
        return tuple(out)
