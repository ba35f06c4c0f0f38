"""Reading the values of a variant file against the schema, every problem kept as a diagnostic
(in the :class:`Problems` of the load, which the reader and the builder add to as well)."""

from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Any, Iterable

from ..i18n import language, tr
from ..cards import Card, CardError, Suit
from ..diagnostics import Diagnostic
from .formula import Formula, FormulaError, compile_formula
from .schema import Field
from .yamltree import YAML11_BOOLEANS, Node

#: The keys of a schedule item whose values are formulas (``ramp``: both ends).
SCHEDULE_FORMULAS = ("cards", "times", "ramp")


def child(node: Node | None, key: str) -> Node | None:
    """The value under ``key`` when ``node`` is a mapping that has it."""
    return node.get(key) if node is not None and node.kind == "map" else None


def _key_text(k: Node) -> str:
    """A mapping key as written (``on``, not YAML's True; ``0x10``, not 16)."""
    return k.raw if k.kind == "scalar" and k.value is not None else str(k.value)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else tr("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


@lru_cache(maxsize=1)
def formula_keys() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every key of the schema whose value is a formula, with the names it may use (besides the
    parameters): sections first, then ``kinds.<name>.KEY``, then ``schedule[].KEY``."""
    from .schema import SCHEDULE_ITEM_FIELDS, SCHEDULE_NAMES, SCHEMA

    out: list[tuple[str, tuple[str, ...]]] = []

    def walk(fields: dict[str, Field], prefix: str) -> None:
        for key, f in fields.items():
            if f.type == "formula":
                out.append((prefix + key, f.names))
            elif f.type == "section":
                walk(f.fields, f"{prefix}{key}.")

    walk({k: f for k, f in SCHEMA.items() if f.type != "kinds"}, "")
    for key, f in SCHEMA.items():
        if f.type == "kinds":
            walk(f.fields, f"{key}.<name>.")
    for key in SCHEDULE_FORMULAS:
        item = SCHEDULE_ITEM_FIELDS.get(key)
        out.append((f"schedule[].{key}", item.names if item is not None and item.names else SCHEDULE_NAMES))
    return tuple(out)


@lru_cache(maxsize=4)
def name_places(lang: str = "") -> dict[str, str]:
    """For every name of the formula language: where it can be used, as the F002 error says it
    (in the language ``lang``, the one messages are in now)."""
    keys = formula_keys()
    outside = {k for k, _ in keys if not k.startswith("schedule[].")}
    places: dict[str, list[str]] = {}
    for key, names in keys:
        for name in names:
            places.setdefault(name, []).append(key)
    return {name: tr("it can be used in every formula except the schedule's") if set(where) == outside
            else tr("it can be used in {keys}", keys=_and([f"`{k}`" for k in where])) for name, where in places.items()}


class Problems:
    """The diagnostics of one load, in the order found: the reader, the values and the builder
    each add theirs to the one list."""

    def __init__(self) -> None:
        self.found: list[Diagnostic] = []

    def add(self, diagnostic: Diagnostic) -> None:
        """One more problem."""
        self.found.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """More problems (a YAML parse's, a formula's)."""
        self.found.extend(diagnostics)

    def at(self, node: Node, code: str, msg: str, hint: str | None = None) -> None:
        """A problem at the position of ``node``."""
        self.found.append(Diagnostic(code, msg, path=node.path, line=node.line, col=node.col, hint=hint))

    def __bool__(self) -> bool:
        return bool(self.found)


class Values:
    """Reading one value of a variant file against its schema entry, with every problem added
    to ``problems``.

    ``extends_failed``: a base of the file could not be read, so the keys it would supply are
    not reported missing.
    """

    def __init__(self, problems: Problems, *, extends_failed: bool = False) -> None:
        self.problems = problems
        self.extends_failed = extends_failed
        self.params: tuple[str, ...] = ()
        """The names of ``scoring.params`` (for the F002 of a schedule formula that uses one)."""

    # -- validation ---------------------------------------------------------------------
    def err(self, code: str, msg: str, node: Node, hint: str | None = None) -> None:
        """A problem with the value at ``node``."""
        self.problems.at(node, code, msg, hint)

    def section(self, node: Node | None, fields: dict[str, Field], where: str,
                extra: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        label = f"`{where}`" if where else "the file"
        if not where:
            self.params = extra  # the parameters: names every formula but the schedule's may use
        if node is not None and node.kind != "map":
            self.err("V004", tr("`{where}` must be a mapping of keys to values",
                                where=where) if where else tr("a variant file must be a mapping of keys to values"), node)
            node = None
        if node is not None:
            for k, v in node.items:
                key = _key_text(k)
                if key not in fields:
                    homes = [h for h in _homes(key) if h != where]
                    close = difflib.get_close_matches(key, list(fields), n=1)
                    hint = (tr("this key belongs under `{section}:` (indent it there)", section=homes[0])
                            if homes else tr("did you mean {value!r}?", value=close[0]) if close
                            else tr("allowed: ") + ", ".join(fields))
                    self.err("V003", tr("unknown key {key!r} in {label}", key=key, label=label), k, hint=hint)
                    continue
                out[key] = self.value(v, fields[key], f"{where}.{key}" if where else key, extra)
        for key, f in fields.items():
            if key not in out:
                if f.required and not (self.extends_failed and not where):
                    at = node if node is not None else Node("map", 1, 1)
                    self.err("V006", tr("missing required key {key!r} in {label}", key=key, label=label), at)
                if f.type == "formula" and f.default is not None:
                    out[key] = compile_formula(f.default, f.names + extra)  # type: ignore[arg-type]
                elif f.type == "words":
                    out[key] = tuple(f.default)  # type: ignore[arg-type]
                elif f.type == "ints":
                    out[key] = ()
                else:
                    out[key] = None if f.type == "section" else f.default
        return out

    def value(self, node: Node, f: Field, where: str, extra: tuple[str, ...]) -> Any:
        t = f.type
        if node.kind == "scalar" and node.value is None and node.style is None:
            if f.nullable or (t == "section" and not f.required):
                return None
            self.err("V004", tr("{where} needs a value", where=where), node)
            return f.default
        if t == "section":
            return self.section(node, f.fields, where, extra)
        if t == "kinds":
            if node.kind != "map":
                self.err("V004", tr("`{where}` must map kind names to their rules", where=where), node)
                return {}
            kinds: dict[str, tuple[Node, dict[str, Any]]] = {}
            for k, body in node.items:
                name = self.kind_name(k, "deal kind name")
                text = name if name is not None else _key_text(k)
                kinds[text] = (k, self.section(body, f.fields, f"{where}.{text}", extra))
            return kinds
        if t == "schedule":
            return node  # checked by schedule()
        if t == "words":
            return self.words(node, f, where)
        if t == "ints":
            if node.kind != "seq" or any(i.kind != "scalar" or isinstance(i.value, bool) or not isinstance(i.value, int)
                                         for i in node.children):
                self.err("V004", tr("`{where}` must be a list of whole numbers, e.g. [3, 1, -1, -3]", where=where),
                         node)
                return ()
            return tuple(i.value for i in node.children)
        if t == "cards":
            return self.cards(node, where)
        if t == "params":
            if node.kind != "map":
                self.err("V004", tr("`{where}` must map names to integers", where=where), node)
                return {}
            params: dict[str, int] = {}
            for k, item in node.items:
                value, name = item.value, _key_text(k)
                if item.kind != "scalar" or isinstance(value, bool) or not isinstance(value, int):
                    self.err("V004", tr("parameter {name!r} must be an integer", name=name), item)
                elif isinstance(k.value, bool):
                    self.boolean(k, f"`{where}`: the name", name)
                elif not name.isidentifier():
                    self.err("V004", tr("parameter name {name!r} is not a plain name", name=name), k)
                else:
                    params[name] = value
            return params
        if t == "players":
            sec = self.section(node, {
                "min": Field("int", "", 3, minimum=2, maximum=12),
                "max": Field("int", "", 6, minimum=2, maximum=12),
                "default": Field("int", "", None, nullable=True, minimum=2, maximum=12),
            }, where, extra)
            return sec
        if node.kind != "scalar":
            self.err("V004", tr("`{where}` must be a single value, not a {value}",
                                where=where, value='list' if node.kind == 'seq' else 'mapping'),
                     node)
            return f.default
        v = node.value
        if t == "bool":
            if isinstance(v, bool):
                return v
            self.err("V004", tr("`{where}` must be true or false, not {raw!r}",
                                where=where, raw=node.raw), node)
            return f.default
        if t == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                self.err("V004", tr("`{where}` must be a whole number, not {raw!r}",
                                    where=where, raw=node.raw), node)
                return f.default
            if f.choices and str(v) not in f.choices:
                self.err("V005", tr("`{where}` must be one of {items}, not {v}",
                                    where=where, items=', '.join(f.choices), v=v), node)
                return f.default
            if (f.minimum is not None and v < f.minimum) or (f.maximum is not None and v > f.maximum):
                if f.maximum is None:
                    bound = f"at least {f.minimum}"
                elif f.minimum is None:
                    bound = f"at most {f.maximum}"
                else:
                    bound = f"between {f.minimum} and {f.maximum}"
                self.err("V008", tr("`{where}` must be {bound}, not {v}",
                                    where=where, bound=bound, v=v), node)
                return f.default
            return v
        if t in ("word", "str"):
            if isinstance(v, bool) and node.raw not in YAML11_BOOLEANS:
                self.err("V004", tr("`{where}` must be a word, not the boolean {raw!r}",
                                    where=where, raw=node.raw), node)
                return f.default
            if node.style is None and node.raw in YAML11_BOOLEANS:
                self.err("V007", tr("`{where}`: {raw!r} is read by YAML as a boolean",
                                    where=where, raw=node.raw), node,
                         hint=tr("quote it: '{raw}'", raw=node.raw))
                return f.default
            text = str(v)
            if t == "word" and f.choices and text not in f.choices:
                close = difflib.get_close_matches(text, f.choices, n=1)
                self.err("V005", tr("`{where}` must be one of {items}, not {text!r}",
                                    where=where, items=', '.join(f.choices), text=text), node,
                         hint=tr("did you mean {value!r}?", value=close[0]) if close else None)
                return f.default
            return text
        if t == "suit":
            try:
                return Suit.parse(str(v))
            except CardError:
                self.err("V005", tr("`{where}` must be a suit (S, H, D, C), not {raw!r}",
                                    where=where, raw=node.raw), node)
                return None
        if t == "card":
            try:
                return Card.parse(str(v))
            except CardError:
                self.err("V005", tr("`{where}`: not a card: {raw!r}", where=where, raw=node.raw), node,
                         hint=tr("write rank then suit, e.g. 7S, 10H"))
                return None
        if t == "formula":
            return self.formula(node, f.names + extra, where)
        raise AssertionError(t)  # pragma: no cover - schema types are closed

    def boolean(self, node: Node, what: str, text: str) -> None:
        """A word that YAML read as a boolean: V007 for YAML 1.1's (``no``, ``on``), else V004."""
        if node.style is None and node.raw in YAML11_BOOLEANS:
            self.err("V007", tr("{what} {raw!r} is read by YAML as a boolean", what=what, raw=node.raw), node,
                     hint=tr("quote it: '{raw}'", raw=node.raw))
        else:
            self.err("V004", tr("{what} must be a word, not the boolean {text!r}",
                                what=what, text=text), node,
                     hint=tr("quote it: '{text}'", text=text))

    def kind_name(self, node: Node, what: str = "deal kind") -> str | None:
        """A deal kind's name as written (a key of ``kinds``, a schedule item's ``kind``), or
        None when it is not a word: a boolean to YAML (``off``), empty, or a list or mapping."""
        if node.kind == "scalar" and isinstance(node.value, bool):
            self.boolean(node, what, node.raw)
            return None
        if node.kind != "scalar" or node.value is None:
            self.err("V004", tr("{what} must be a word", what=what), node)
            return None
        return node.raw

    def formula(self, node: Node, names: tuple[str, ...], where: str) -> Formula | None:
        if node.kind != "scalar" or isinstance(node.value, bool) or node.value is None:
            self.err("V004", tr("`{where}` must be a number or a formula", where=where), node)
            return None
        source = node.value if isinstance(node.value, int) else str(node.value)
        if "True" in names or "False" in names:  # a parameter `yes:` (V007): no cascade of F002
            names += tuple(w for w in YAML11_BOOLEANS | {"true", "false"}
                           if str(w.lower() in ("yes", "on", "true")) in names)
        key = f"schedule[].{where}" if where in SCHEDULE_FORMULAS else where
        elsewhere = name_places(language())
        if key.startswith("schedule[].") and self.params:
            param = tr("it is a parameter (`scoring.params`), and the schedule's formulas cannot use parameters")
            elsewhere = {**{p: param for p in self.params}, **elsewhere}
        try:
            return compile_formula(source, names, path=node.path, where=node.text_where, key=key,
                                   elsewhere=elsewhere)
        except FormulaError as exc:
            self.problems.extend(exc.diagnostics)
            return None

    def words(self, node: Node | None, f: Field, where: str) -> tuple[str, ...]:
        if node is None:
            return tuple(f.default)  # type: ignore[arg-type]
        if node.kind == "scalar" and isinstance(node.value, str):
            items = [node]
        elif node.kind == "seq":
            items = node.children
        else:
            self.err("V004", tr("`{where}` must be a list of words", where=where), node)
            return tuple(f.default)  # type: ignore[arg-type]
        out = []
        for item in items:
            if item.kind != "scalar" or (f.choices and str(item.value) not in f.choices):  # (no choices: any word)
                self.err("V005", tr("`{where}`: {raw!r} is not one of {items}",
                                    where=where, raw=item.raw, items=', '.join(f.choices)), item)
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
                self.err("V005", tr("`{where}`: not a card: {raw!r}", where=where, raw=item.raw), item,
                         hint=tr("write rank then suit, e.g. 7S, 10H"))
        return tuple(out)


def _homes(key: str, fields: dict[str, Field] | None = None, where: str = "") -> list[str]:
    """The sections of a variant file where ``key`` is a key (``play`` for ``must_trump``)."""
    from .schema import SCHEMA

    out: list[str] = []
    for name, f in (SCHEMA if fields is None else fields).items():
        if f.type == "section" and f.fields:
            path = f"{where}.{name}" if where else name
            if key in f.fields:
                out.append(path)
            out += _homes(key, f.fields, path)
    return out
