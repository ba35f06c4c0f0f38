"""Load variant files: YAML -> validated, compiled :class:`Variant`.

The only module that reads variant YAML. It keeps every value's position,
merges ``extends`` chains, validates against :mod:`updown_dsl.lang.schema`,
compiles formulas once, and reports every problem in one pass as
``file:line:col: error[CODE] message``.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

from ..cards import Card, CardError, Suit, build_deck
from ..diagnostics import Diagnostic, UpdownError
from .files import package_file
from .formula import Formula, FormulaError, compile_formula
from .schema import SCHEMA, Field
from .variant import (
    BiddingRules,
    DealKind,
    DeckRules,
    EndRules,
    PlayRules,
    RevokeRules,
    ScheduleItem,
    ScheduleSet,
    ScoringRules,
    SettlementRules,
    TrumpRules,
    Variant,
    WildRules,
)
from .yamltree import YAML11_BOOLEANS, Node, parse_yaml


class VariantError(UpdownError):
    """A variant file could not be loaded; ``diagnostics`` says why."""


def variants_dir() -> Path:
    """Where the bundled variant files are (installed package or source checkout)."""
    return package_file("variants")


def bundled_names() -> list[str]:
    """Names of the bundled variants, sorted."""
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def resolve_variant_path(name_or_path: str, relative_to: Path | None = None) -> Path | None:
    """A bundled name or a file path -> the file, or None if there is none."""
    candidate = Path(name_or_path)
    if relative_to is not None and not candidate.is_absolute():
        rel = relative_to / candidate
        if rel.is_file():
            return rel
    if candidate.is_file():
        return candidate
    bundled = variants_dir() / f"{name_or_path}.yaml"
    if bundled.is_file() and "/" not in name_or_path:
        return bundled
    return None


def load_variant(name_or_path: str | Path) -> Variant:
    """Load a bundled variant by name (the file stem in ``variants/``) or a variant file by path.

    :raises VariantError: with every problem found.
    """
    variant, diags = try_load_variant(name_or_path)
    if variant is None:
        raise VariantError(diags)
    return variant


def try_load_variant(name_or_path: str | Path) -> tuple[Variant | None, list[Diagnostic]]:
    """Like :func:`load_variant` but returns ``(variant or None, diagnostics)``.

    Loads are remembered for the process: loading the same file again, while neither it
    nor a file it extends has changed, returns the same :class:`Variant` at once.
    """
    text = str(name_or_path)
    path = resolve_variant_path(text)
    if path is None:
        looks_like_path = "/" in text or "\\" in text or text.endswith((".yaml", ".yml"))
        if looks_like_path:
            return None, [Diagnostic("V001", f"no such variant file: {text!r}", path=text)]
        close = difflib.get_close_matches(text, bundled_names(), n=1)
        hint = f"did you mean {close[0]!r}?" if close else "bundled variants: " + ", ".join(bundled_names())
        return None, [Diagnostic("V010", f"no bundled variant named {text!r}", hint=hint)]
    key = ("file", str(path.resolve()), os.getcwd())
    hit = _remembered(key)
    if hit is not None:
        return hit
    loader = _Loader()
    variant, diags = loader.load_file(path)
    return _remember(key, loader, variant, sort_diagnostics(diags))


# Loaded variants by what was asked (with the working directory, which diagnostics' paths
# are relative to), each with the files read and their state then; a few dozen at most.
_MEMO: dict[tuple[str, ...], tuple[Variant | None, list[Diagnostic], tuple[tuple[str, int, int], ...]]] = {}
_MEMO_SIZE = 64


def _file_state(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return path, -1, -1
    return path, st.st_mtime_ns, st.st_size


def _remembered(key: tuple[str, ...]) -> tuple[Variant | None, list[Diagnostic]] | None:
    hit = _MEMO.get(key)
    if hit is None:
        return None
    variant, diags, files = hit
    if any(_file_state(state[0]) != state for state in files):
        del _MEMO[key]
        return None
    return variant, list(diags)


def _remember(key: tuple[str, ...], loader: _Loader, variant: Variant | None,
              diags: list[Diagnostic]) -> tuple[Variant | None, list[Diagnostic]]:
    if len(_MEMO) >= _MEMO_SIZE:
        del _MEMO[next(iter(_MEMO))]
    _MEMO[key] = (variant, list(diags), tuple(loader.files))
    return variant, diags


def sort_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file order (stable for equal positions)."""
    return sorted(diags, key=lambda d: (d.path or "", d.line or 0, d.col or 0))


def loads_variant(text: str, path: str = "<string>") -> Variant:
    """Load a variant from YAML text (``extends`` resolves bundled names only).

    :raises VariantError: with every problem found.
    """
    key = ("text", text, path, os.getcwd())
    hit = _remembered(key)
    if hit is None:
        loader = _Loader()
        root, diags = parse_yaml(text, path)
        variant, more = loader.finish(root, diags, path, Path.cwd())
        hit = _remember(key, loader, variant, sort_diagnostics(more) if variant is None else [])
    variant, diags = hit
    if variant is None:
        raise VariantError(diags)
    return variant


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _child(node: Node | None, key: str) -> Node | None:
    return node.get(key) if node is not None and node.kind == "map" else None


def _merge(base: Node, over: Node) -> Node:
    """Deep-merge two mapping nodes: keys of ``over`` win, mappings merge recursively."""
    if base.kind != "map" or over.kind != "map":
        return over
    items = list(base.items)
    index = {k.value: i for i, (k, _) in enumerate(items)}
    for k, v in over.items:
        if k.value in index:
            i = index[k.value]
            old = items[i][1]
            items[i] = (k, _merge(old, v) if old.kind == "map" and v.kind == "map" else v)
        else:
            items.append((k, v))
    return Node("map", over.line, over.col, over.path, items=items)


class _Values:
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


class _Loader(_Values):
    """Reading a variant file: its extends chain, then the model built from the checked values."""

    # -- reading and extends ------------------------------------------------------------
    def read_tree(self, path: Path) -> Node | None:
        shown = _display(path)
        self.files.append(_file_state(str(path.resolve())))
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.diags.append(Diagnostic("V001", f"cannot read variant file: {exc}", path=shown))
            return None
        root, diags = parse_yaml(text, shown)
        self.diags.extend(diags)
        if root is None:
            if not diags:
                self.diags.append(Diagnostic("V001", "the variant file is empty", path=shown, line=1, col=1))
            return None
        return self.expand(root, path.parent, path)

    def expand(self, root: Node, folder: Path, path: Path | None) -> Node | None:
        if root.kind != "map":
            self.diags.append(
                Diagnostic("V004", "a variant file must be a mapping of keys to values",
                           path=root.path, line=root.line, col=root.col)
            )
            return None
        ext = root.get("extends")
        if ext is None or ext.value is None:
            return root
        if not isinstance(ext.value, str):
            self.diags.append(Diagnostic("V004", "`extends` must be a variant name or path",
                                         path=ext.path, line=ext.line, col=ext.col))
            self.extends_failed = True
            return root
        base_path = resolve_variant_path(ext.value, folder)
        if base_path is None:
            close = difflib.get_close_matches(ext.value, bundled_names(), n=1)
            self.diags.append(
                Diagnostic("V010", f"`extends` names no bundled variant or file: {ext.value!r}",
                           path=ext.path, line=ext.line, col=ext.col,
                           hint=f"did you mean {close[0]!r}?" if close else
                           "bundled: " + ", ".join(bundled_names()))
            )
            self.extends_failed = True
            return root
        resolved = base_path.resolve()
        if resolved in self.chain or (path is not None and resolved == path.resolve()):
            self.diags.append(Diagnostic("V010", f"`extends` forms a cycle through {ext.value!r}",
                                         path=ext.path, line=ext.line, col=ext.col))
            self.extends_failed = True
            return root
        self.chain.append(resolved)
        base = self.read_tree(base_path)
        self.chain.pop()
        if base is None:
            self.extends_failed = True
            return root
        merged = _merge(base, root)
        merged.items = [(k, v) for k, v in merged.items if k.value != "extends"]
        return merged

    def load_file(self, path: Path) -> tuple[Variant | None, list[Diagnostic]]:
        self.chain.append(path.resolve())
        tree = self.read_tree(path)
        if tree is None:
            return None, self.diags
        return self.build(tree, _display(path))

    def finish(self, root: Node | None, diags: list[Diagnostic], path: str,
               folder: Path) -> tuple[Variant | None, list[Diagnostic]]:
        self.diags.extend(diags)
        if root is None:
            if not diags:
                self.diags.append(Diagnostic("V001", "the variant text is empty", path=path, line=1, col=1))
            return None, self.diags
        tree = self.expand(root, folder, None)
        if tree is None:
            return None, self.diags
        return self.build(tree, path)

    # -- schedule -----------------------------------------------------------------------
    def schedule(self, node: Node | None, kinds: set[str]) -> tuple[ScheduleSet, ...]:
        from .schema import SCHEDULE_ITEM_FIELDS, SCHEDULE_NAMES

        if node is None:
            return ()
        if node.kind != "seq" or not node.children:
            self.err("V004", "`schedule` must be a non-empty list of deals and sets", node)
            return ()
        sets: list[ScheduleSet] = []
        loose: list[ScheduleItem] = []

        def item(n: Node) -> ScheduleItem | None:
            if n.kind != "map":
                self.err("V004", "a schedule item must be a mapping such as {cards: 6, times: players}", n)
                return None
            keys = n.keys()
            for k, _ in n.items:
                if k.value not in SCHEDULE_ITEM_FIELDS or k.value == "set":
                    close = difflib.get_close_matches(str(k.value), list(SCHEDULE_ITEM_FIELDS), n=1)
                    self.err("V003", f"unknown key {k.value!r} in a schedule item", k,
                             hint=f"did you mean {close[0]!r}?" if close else None)
            kind_node = n.get("kind")
            kind = "normal"
            if kind_node is not None:
                kind = str(kind_node.value)
                if kind != "normal" and kind not in kinds:
                    close = difflib.get_close_matches(kind, sorted(kinds), n=1)
                    self.err("V005", f"deal kind {kind!r} is not defined under `kinds`", kind_node,
                             hint=f"did you mean {close[0]!r}?" if close else None)
            if "ramp" in keys:
                r = n.get("ramp")
                assert r is not None
                if r.kind != "seq" or len(r.children) != 2:
                    self.err("V004", "`ramp` must be [from, to]", r)
                    return None
                a = self.formula(r.children[0], SCHEDULE_NAMES, "ramp")
                b = self.formula(r.children[1], SCHEDULE_NAMES, "ramp")
                if "cards" in keys or "times" in keys:
                    self.err("V012", "a `ramp` item takes no `cards` or `times`", n)
                if a is None or b is None:
                    return None
                return ScheduleItem(cards=a, ramp_to=b, kind=kind)
            c = n.get("cards")
            if c is None:
                self.err("V006", "a schedule item needs `cards` (or `ramp`)", n)
                return None
            cards = self.formula(c, SCHEDULE_NAMES, "cards")
            t = n.get("times")
            times = self.formula(t, SCHEDULE_NAMES, "times") if t is not None else None
            if cards is None or (t is not None and times is None):
                return None
            return ScheduleItem(cards=cards, times=times, kind=kind)

        for child in node.children:
            if child.kind == "map" and child.get("set") is not None:
                if loose:
                    sets.append(ScheduleSet(tuple(loose)))
                    loose = []
                s = child.get("set")
                assert s is not None
                if len(child.items) > 1:
                    self.err("V003", "a `set` item takes only the `set` key", child)
                if s.kind != "seq" or not s.children:
                    self.err("V004", "`set` must be a non-empty list of schedule items", s)
                    continue
                members = [item(x) for x in s.children]
                sets.append(ScheduleSet(tuple(m for m in members if m is not None)))
            else:
                it = item(child)
                if it is not None:
                    loose.append(it)
        if loose:
            sets.append(ScheduleSet(tuple(loose)))
        return tuple(sets)

    # -- building -----------------------------------------------------------------------
    def build(self, tree: Node, path: str) -> tuple[Variant | None, list[Diagnostic]]:
        # Params first: formulas everywhere may use them.
        params: dict[str, int] = {}
        scoring_node = tree.get("scoring")
        if scoring_node is not None and scoring_node.kind == "map":
            pn = scoring_node.get("params")
            if pn is not None and pn.kind == "map":
                params = {str(k.value): v.value for k, v in pn.items
                          if v.kind == "scalar" and isinstance(v.value, int)
                          and not isinstance(v.value, bool) and str(k.value).isidentifier()}
        extra = tuple(params)
        top = self.section(tree, SCHEMA, "", extra)
        kinds_raw: dict[str, tuple[Node, dict[str, Any]]] = top["kinds"] or {}
        schedule = self.schedule(tree.get("schedule"), set(kinds_raw))

        players = top["players"]
        pmin, pmax = players["min"], players["max"]
        pdefault = players["default"] if players["default"] is not None else max(pmin, min(4, pmax))
        pnode = tree.get("players") or tree
        if pmin > pmax:
            self.err("V012", f"players: min {pmin} is more than max {pmax}", pnode)
        elif not pmin <= pdefault <= pmax:
            self.err("V012", f"players: default {pdefault} is outside {pmin}..{pmax}", pnode)

        deck_sec = top["deck"] or self.section(None, SCHEMA["deck"].fields, "deck", extra)
        deck_node = tree.get("deck")
        remove = tuple(deck_sec["remove"])
        designated = tuple(deck_sec["designated_jokers"])
        deck = DeckRules(pack=deck_sec["pack"], jokers=deck_sec["jokers"], remove=remove,
                         designated_jokers=designated)
        full_deck = build_deck(deck.pack, jokers=deck.jokers, remove=deck.remove)
        pack = build_deck(deck.pack, jokers=deck.jokers)
        for key, cards in (("remove", remove), ("designated_jokers", designated)):
            for card in cards:
                if card not in pack:
                    self.err("V011", f"`deck.{key}`: {card} is not in a {deck.pack}-card pack",
                             self.card_node(deck_node, key, card) or deck_node or tree)
        for card in designated:
            if card in remove:
                self.err("V012", f"{card} is both removed and designated as joker", deck_node or tree)

        trump = self.trump(top["trump"], tree.get("trump"))
        kinds: dict[str, DealKind] = {}
        for name, (knode, k) in kinds_raw.items():
            if name == "normal":
                self.err("V012", "`normal` is the built-in kind; define other names", knode)
                continue
            kinds[name] = DealKind(
                name=name,
                bidding=k["bidding"],
                trump=self.trump(k["trump"], _child(_child(_child(tree, "kinds"), name), "trump")) if k["trump"] is not None else None,
                multiplier=k["multiplier"],
                score=k["score"],
                hook=k["hook"],
            )
        kinds["normal"] = DealKind(name="normal")

        b = top["bidding"] or self.section(None, SCHEMA["bidding"].fields, "bidding", extra)
        bidding = BiddingRules(min_bid=b["min"], max_bid=b["max"], hook=b["hook"],
                               hook_exempt=b["hook_exempt"], first_bidder=b["first_bidder"])
        p = top["play"] or self.section(None, SCHEMA["play"].fields, "play", extra)
        play = PlayRules(must_follow=p["must_follow"], must_trump=p["must_trump"],
                         first_leader=p["first_leader"])

        wild: list[WildRules] = []
        joker_cards = tuple(c for c in full_deck if c.is_joker) + designated
        jnode = tree.get("jokers")
        if top["jokers"] is not None:
            j = top["jokers"]
            if not joker_cards:
                self.err("V012", "`jokers` rules given but the deck has no joker", jnode or tree,
                         hint="add `deck.jokers` or `deck.designated_jokers`")
            wild.append(self.wild(j, joker_cards, ordinary=False, node=jnode))
        elif joker_cards:
            defaults = self.section(None, SCHEMA["jokers"].fields, "jokers", extra)
            wild.append(self.wild(defaults, joker_cards, ordinary=False, node=None))
        if top["special_card"] is not None:
            s = top["special_card"]
            snode = tree.get("special_card")
            card = s["card"]
            at = (snode.get("card") if snode is not None and snode.kind == "map" else None) or snode or tree
            if card is not None:
                if card not in full_deck:
                    self.err("V011", f"`special_card.card`: {card} is not in the deck", at)
                elif card in designated or card.is_joker:
                    self.err("V012", f"{card} cannot be both a joker and the special card", at)
                else:
                    wild.append(self.wild(s, (card,), ordinary=True, node=snode))

        sc = top["scoring"] or {}
        deal_formula = sc.get("deal")
        if deal_formula is None:
            if not self.diags:
                self.err("V006", "missing required key 'deal' in `scoring`", tree.get("scoring") or tree)
            return None, self.diags
        scoring = ScoringRules(deal=deal_formula, set_bonus=sc.get("set_bonus"), params=params)
        pen = top["penalties"] or {}
        r = pen.get("revoke")
        revoke = None
        if r is not None:
            revoke = RevokeRules(points=r["points"], replay=r["replay"], covers=tuple(r["covers"]),
                                 multiplied=r["multiplied"])
        e = top["end"] or self.section(None, SCHEMA["end"].fields, "end", extra)
        st = top["settlement"] or self.section(None, SCHEMA["settlement"].fields, "settlement", extra)
        dealing = top["dealing"] or self.section(None, SCHEMA["dealing"].fields, "dealing", extra)
        if self.diags:
            return None, self.diags
        variant = Variant(
            name=top["name"],
            description=top["description"] or "",
            source=top["source"] or "",
            min_players=pmin,
            max_players=pmax,
            default_players=pdefault,
            deck=deck,
            schedule=schedule,
            kinds=kinds,
            trump=trump,
            bidding=bidding,
            play=play,
            wild=tuple(wild),
            scoring=scoring,
            revoke=revoke,
            end=EndRules(stop_loss=e["stop_loss"], stop_on=e["stop_on"], stop_check=e["stop_check"]),
            settlement=SettlementRules(method=st["method"], stake=st["stake"],
                                       negative_doubles=st["negative_doubles"], cap=st["cap"]),
            cut_by=dealing["cut_by"],
            path=path,
            options=tree.to_python(),  # type: ignore[arg-type]
        )
        # Every allowed player count must give a playable schedule.
        from .schedule import schedule_problems

        for n in range(pmin, pmax + 1):
            problems = schedule_problems(variant, n)
            if problems:
                self.err("V009", f"with {n} players: {problems[0]}", tree.get("schedule") or tree)
                break
        if self.diags:
            return None, self.diags
        return variant, self.diags

    @staticmethod
    def card_node(section: Node | None, key: str, card: Card) -> Node | None:
        """The list item naming ``card`` under ``section[key]``, for positions."""
        if section is None or section.kind != "map":
            return None
        items = section.get(key)
        if items is None:
            return None
        for item in items.children if items.kind == "seq" else [items]:
            try:
                if Card.parse(str(item.value)) == card:
                    return item
            except CardError:
                continue
        return None

    def trump(self, t: dict[str, Any] | None, node: Node | None = None) -> TrumpRules:
        if t is None:
            return TrumpRules()
        if t["rule"] == "fixed" and t["suit"] is None and _child(node, "suit") is None:
            self.err("V006", "`trump.suit` is required with `rule: fixed`", node or Node("map", 1, 1))
        return TrumpRules(rule=t["rule"], suit=t["suit"], when_exhausted=t["when_exhausted"],
                          joker_turned=t["joker_turned"], random_no_trump=t["random_no_trump"],
                          chooser=t["chooser"], choose_after=t["choose_after"],
                          choose_no_trump=t["choose_no_trump"])

    def wild(self, w: dict[str, Any], cards: tuple[Card, ...], *, ordinary: bool,
             node: Node | None) -> WildRules:
        lead, follow = tuple(w["lead"]), tuple(w["follow"])
        if not ordinary and not lead:
            self.err("V012", "a joker must have at least one `lead` declaration", node or Node("map", 1, 1))
        if not ordinary and not follow:
            self.err("V012", "a joker must have at least one `follow` declaration", node or Node("map", 1, 1))
        return WildRules(
            cards=cards,
            ordinary=ordinary,
            lead=lead,
            follow=follow,
            exempt=w["exempt"],
            lead_on=w["lead_on"],
            answer=w.get("answer", "highest_of_suit"),
            demand_void=w["demand_void"],
            beaten_by_trump=w["beaten_by_trump"],
            two_high=w["two_high"],
            turned_as_trump=w.get("turned_as_trump", "no_trump"),
            impersonate=w["impersonate"],
            cut_zeroes_total=w.get("cut_zeroes_total", False),
            cut_shows=w.get("cut_shows", "lifted_bottom"),
        )


def load_with_options(
    name_or_path: str | Path, options: list[tuple[str, str]], label: str = "<options>"
) -> tuple[Variant | None, list[Diagnostic]]:
    """A variant with ``key.path=value`` overrides applied (as a one-file ``extends`` overlay)."""
    from .yamltree import dump_yaml, scalar_from_text

    base, diags = try_load_variant(name_or_path)
    if base is None or not options:
        return base, diags
    overlay: dict[str, Any] = {}
    for key, value in options:
        node = overlay
        parts = key.split(".")
        for part in parts[:-1]:
            nxt = node.setdefault(part, {})
            if not isinstance(nxt, dict):
                return None, [Diagnostic("V012", f"option {key!r} clashes with another option")]
            node = nxt
        node[parts[-1]] = scalar_from_text(value)
    found = resolve_variant_path(str(name_or_path))
    extends = str(found.resolve()) if found is not None else str(name_or_path)
    text = dump_yaml({"extends": extends, "name": f"{base.name} (with options)", **overlay})
    try:
        return loads_variant(text, path=label), []
    except VariantError as exc:
        return None, exc.diagnostics
