"""YAML read into a tree that remembers where every value came from.

PyYAML's safe composer gives nodes with marks; this module turns them into
:class:`Node` values (mapping, sequence or scalar) with 1-based line and
column, reports duplicate keys, and keeps each scalar's raw text so the
loader can tell ``no`` the word from ``no`` the YAML 1.1 boolean.

A variant file read before is taken from the user's cache (:mod:`.treecache`) as the tree this
module made of it then, without PyYAML (whose import is a large part of a small command's
start-up): PyYAML is imported only to read a text the cache does not hold.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Callable

from ..i18n import tr
from ..diagnostics import Diagnostic
from . import treecache

if TYPE_CHECKING:  # imported when a text is parsed (not when the cache holds its tree)
    import yaml

#: Plain scalars that YAML 1.1 (and so PyYAML) reads as booleans although a
#: reader of the file sees a word (``true``/``false`` are booleans everywhere).
YAML11_BOOLEANS = frozenset("yes Yes YES no No NO on On ON off Off OFF".split())


@dataclass
class Node:
    """A YAML value with its position (1-based line and column)."""

    kind: str
    """``map``, ``seq`` or ``scalar``."""
    line: int
    col: int
    path: str | None = None
    value: object = None
    """Scalars: the safe-loaded Python value (str, int, bool, float or None)."""
    raw: str = ""
    """Scalars: the text as written."""
    style: str | None = None
    """Scalars: None for plain, or one of ``'"|>``."""
    items: list[tuple[Node, Node]] = field(default_factory=list)
    """Mappings: (key, value) pairs in file order."""
    children: list[Node] = field(default_factory=list)
    """Sequences: the elements."""
    text_where: Callable[[int], tuple[int, int]] | None = None
    """Scalars: maps an offset inside ``raw`` to a file (line, col)."""
    span: tuple[int, int] | None = None
    """Scalars: where the value is written in the text (start and end index)."""

    def get(self, key: str) -> Node | None:
        """The value node under ``key`` in a mapping, or None."""
        for k, v in self.items:
            if k.value == key:
                return v
        return None

    def keys(self) -> list[str]:
        """The keys of a mapping, as text."""
        return [str(k.value) for k, _ in self.items]

    def to_python(self) -> object:
        """Plain Python data (dicts, lists, scalars) without positions."""
        if self.kind == "map":
            return {str(k.value): v.to_python() for k, v in self.items}
        if self.kind == "seq":
            return [c.to_python() for c in self.children]
        return self.value


@cache
def _constructor_class() -> type[yaml.constructor.SafeConstructor]:
    import yaml

    class _Constructor(yaml.constructor.SafeConstructor):
        pass

    return _Constructor


def _scalar_value(node: yaml.ScalarNode) -> object:
    return _constructor_class()().construct_object(node)


class _Lines:
    """Where each line of a text starts (worked out once per file, when first needed)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    def position(self, index: int) -> tuple[int, int]:
        """The 1-based (line, col) of a 0-based index into the text."""
        starts = self._starts
        if starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._starts = starts
        line = bisect.bisect_right(starts, index) - 1
        return line + 1, index - starts[line] + 1


def _where_for(lines: _Lines, value: str, style: str | None, start_index: int,
               end_index: int) -> Callable[[int], tuple[int, int]]:
    """Map offsets in a scalar's value (``value``, written from ``start_index`` to ``end_index``
    of the text in ``style``) to 1-based file positions (worked out on first use: most values
    are never asked for a position).

    The value is aligned with the source text character by character: equal
    characters match, and a line break in the source matches the space or
    newline that folding made of it (indentation is skipped). This covers plain,
    quoted, literal and folded scalars over one or several lines.
    """
    found: list[tuple[list[int], int]] = []

    def where(offset: int) -> tuple[int, int]:
        if not found:
            found.append(_align(lines.text, value, style, start_index, end_index))
        positions, start = found[0]
        if not positions:
            index = start
        elif offset < len(positions):
            index = positions[max(offset, 0)]
        else:
            index = positions[-1] + 1 + (offset - len(positions))
        return lines.position(index)

    return where


def _align(text: str, value: str, style: str | None, start: int, end: int) -> tuple[list[int], int]:
    """The index in ``text`` of each character of a scalar's ``value``, and where it starts."""
    block = style in ("|", ">")
    double = style == '"'
    indent = 0
    if block:
        # Content starts on the line after the indicator. Its indentation is what
        # the first non-blank source line has beyond what the value keeps.
        nl = text.find("\n", start)
        start = nl + 1 if nl >= 0 else end
        body = text[start:end]
        src_line = next((ln for ln in body.split("\n") if ln.strip()), "")
        val_line = next((ln for ln in value.split("\n") if ln.strip()), "")
        indent = (len(src_line) - len(src_line.lstrip(" "))) - (len(val_line) - len(val_line.lstrip(" ")))
        if text[start:start + 1] != "\n":
            start += indent
    elif style in ("'", '"'):
        start += 1
    positions: list[int] = []
    pos = start
    limit = max(end, start)

    def skip_indent(p: int) -> int:
        n = 0
        while p < limit and text[p] == " " and (not block or n < indent):
            p += 1
            n += 1
        return p

    for ch in value:
        while pos < limit:
            sc = text[pos]
            if double and sc == "\\":
                nxt = text[pos + 1 : pos + 2]
                if nxt == "\n":  # an escaped line break joins the lines
                    pos = skip_indent(pos + 2)
                    continue
                positions.append(pos)
                pos += {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
                break
            if sc == ch:
                positions.append(pos)
                pos += 1
                break
            if ch in " \n" and sc == "\n":
                positions.append(pos)
                pos = skip_indent(pos + 1)
                break
            pos += 1
        else:
            positions.append(min(pos, len(text)))
    return positions, start


_FAILED = object()
#: Whether PyYAML has its C parser (None: not asked yet, PyYAML is imported only to parse).
_HAS_C: bool | None = None


def _compose_fast(text: str) -> object:
    """The node tree from PyYAML's C parser when it is installed (twice as fast); ``_FAILED``
    when there is none, when it refuses the text, or when the text holds what the two
    parsers read differently: tabs, a ``?`` outside quotes and comments and a ``#`` right
    after ``|`` or ``>`` (libyaml takes some that PyYAML refuses), tags, empty values in
    flow collections (placed a column apart), and the characters each counts or breaks
    lines at in its own way. tests/test_yamltree.py compares the two on mutated files."""
    import yaml

    global _HAS_C
    if _HAS_C is None:
        _HAS_C = hasattr(yaml, "CSafeLoader")
    if not _HAS_C or "\t" in text or "!" in text or (not text.isascii() and re.search(_ODD, text)):
        return _FAILED
    if "?" in text and "?" in re.sub(_QUOTED_OR_COMMENT, "", text, flags=re.M) or re.search(_HASH_AFTER_BLOCK, text):
        return _FAILED
    try:
        root = yaml.compose(text, Loader=yaml.CSafeLoader)
    except Exception:  # any refusal: the pure-Python parser reports it
        return _FAILED
    # An empty value inside [...] or {...}: libyaml places it one column off.
    stack = [root] if root is not None else []
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:  # an alias: looked at already (and maybe its own ancestor)
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            kids = [x for pair in node.value for x in pair]
        elif isinstance(node, yaml.SequenceNode):
            kids = list(node.value)
        else:
            continue
        if node.flow_style and any(isinstance(k, yaml.ScalarNode) and k.value == "" for k in kids):
            return _FAILED
        stack.extend(kids)
    return root


# (The patterns are compiled when first used, by re's own cache: a file read from the
# tree cache needs none of them.)
#: Characters outside printable ASCII that are not plainly letters or signs: YAML's other
#: line breaks, byte-order marks, controls, surrogates and private or unassigned code points.
_ODD = "[^\\n\\x20-\\x7e\\u00a0-\\u2027\\u202a-\\ud7ff\\uf900-\\ufefe\\uff00-\\ufffd]"
#: A comment sign right after a block scalar's indicator (PyYAML refuses it, libyaml not).
_HASH_AFTER_BLOCK = r"[|>][-+0-9]*#"
#: Quoted text on one line, and comments (a ``?`` there is only text).
_QUOTED_OR_COMMENT = r'"[^"\\\n]*"|\'[^\'\n]*\'|(?:^|[ ])#[^\n]*'  # (multi-line)


#: The deepest nesting of flow collections (``[...]``, ``{...}``) read; a variant nests three.
MAX_FLOW_DEPTH = 64
_QUOTED_OR_COMMENTED = r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
_BRACKETS = r"[\[\]{}]"


def _flow_depth(text: str) -> int:
    """How deeply ``[`` and ``{`` nest outside quotes and comments (a close upper bound)."""
    depth = deepest = 0
    for ch in re.findall(_BRACKETS, re.sub(_QUOTED_OR_COMMENTED, "", text)):
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif depth:
            depth -= 1
    return deepest


class _RecursiveAlias(Exception):
    def __init__(self, node: yaml.Node) -> None:
        super().__init__("recursive alias")
        self.node = node


def _slip_hint(text: str, problem: str, line: int | None) -> str | None:
    """What a YAML error usually means in a variant file, and the fix: a tab, a formula with
    ``: `` left unquoted, a key indented deeper than the one above it."""
    lines = text.splitlines()
    if "\t" in problem or (line is not None and 0 < line <= len(lines) and "\t" in lines[line - 1][:1 + len(
            lines[line - 1]) - len(lines[line - 1].lstrip())]):
        return tr("YAML indents with spaces, never tabs: replace the tab with spaces")
    if "mapping values are not allowed" not in problem or line is None or not 0 < line <= len(lines):
        return None
    here = lines[line - 1]
    _, sep, value = here.partition(": ")
    if sep and (": " in value or value.rstrip().endswith(":") or "?" in value):
        return tr("a formula with ': ' (such as 'a ? b : c') must be quoted: key: \"a ? b : c\"")
    above = next((x for x in reversed(lines[:line - 1]) if x.strip() and not x.lstrip().startswith("#")), None)
    indent = len(here) - len(here.lstrip())
    if above is not None and indent > len(above) - len(above.lstrip()) and not above.rstrip().endswith(":"):
        return tr("this key is indented deeper than the one above it: keys of one section line up")
    return tr("a value with ': ' in it must be quoted")


def parse_yaml(text: str, path: str | None = None, *, cached: bool = False
               ) -> tuple[Node | None, list[Diagnostic]]:
    """Compose ``text`` into a located tree; never raises.

    Returns the root node (None for an empty or unreadable document) and the
    problems found: V001 for YAML syntax, V002 for duplicate keys.

    ``cached``: take the tree from the user's cache when it holds this text, and keep it there
    when it does not (for the files of variants, read again and again; a text with problems,
    aliases or values JSON cannot hold exactly is never kept).
    """
    if cached:
        data = treecache.load(text)
        if data is not None:
            try:
                return _from_data(data, path, _Lines(text)), []
            except (TypeError, ValueError, RecursionError):  # a damaged entry: read the text
                pass
    plain = [True]
    root, diags = _parse(text, path, plain)
    if cached and root is not None and not diags and plain[0]:
        treecache.store(text, _to_data(root))
    return root, diags


#: The scalar values an entry of the cache holds exactly.
_PLAIN = (str, int, float, bool, type(None))
_STYLES = (None, "'", '"', "|", ">")


def _to_data(node: Node) -> list[Any]:
    """A tree as plain data for the cache: ``["m", line, col, [[key, value], ...]]``,
    ``["q", line, col, [child, ...]]``, ``["s", line, col, value, raw, style, start, end]``."""
    if node.kind == "map":
        return ["m", node.line, node.col, [[_to_data(k), _to_data(v)] for k, v in node.items]]
    if node.kind == "seq":
        return ["q", node.line, node.col, [_to_data(c) for c in node.children]]
    assert node.span is not None
    return ["s", node.line, node.col, node.value, node.raw, node.style, *node.span]


def _int(x: object) -> int:
    if type(x) is not int:
        raise TypeError("not an int")
    return x


def _from_data(data: object, path: str | None, lines: _Lines) -> Node:
    """The tree :func:`_to_data` wrote, checked part by part (TypeError or ValueError when it
    is not one)."""
    if not isinstance(data, list) or len(data) < 4:
        raise TypeError("not a node")
    kind, line, col = data[0], _int(data[1]), _int(data[2])
    if kind == "m" and len(data) == 4 and isinstance(data[3], list):
        items = []
        for pair in data[3]:
            if not isinstance(pair, list) or len(pair) != 2:
                raise TypeError("not a pair")
            items.append((_from_data(pair[0], path, lines), _from_data(pair[1], path, lines)))
        return Node("map", line, col, path, items=items)
    if kind == "q" and len(data) == 4 and isinstance(data[3], list):
        return Node("seq", line, col, path, children=[_from_data(c, path, lines) for c in data[3]])
    if kind == "s" and len(data) == 8:
        value, raw, style, start, end = data[3], data[4], data[5], _int(data[6]), _int(data[7])
        if type(value) not in _PLAIN or not isinstance(raw, str) or style not in _STYLES:
            raise TypeError("not a scalar")
        if not 0 <= start <= end <= len(lines.text):
            raise ValueError("a scalar outside the text")
        return Node("scalar", line, col, path, value=value, raw=raw, style=style,
                    text_where=_where_for(lines, raw, style, start, end), span=(start, end))
    raise TypeError("not a node")


def _parse(text: str, path: str | None, plain: list[bool]) -> tuple[Node | None, list[Diagnostic]]:
    """:func:`parse_yaml` with PyYAML; ``plain[0]`` is set False when the tree is one the cache
    may not keep (aliases, values JSON does not hold exactly)."""
    import yaml

    diags: list[Diagnostic] = []
    if "[" in text or "{" in text:
        depth = _flow_depth(text)
        if depth > MAX_FLOW_DEPTH:  # PyYAML's own scanner takes quadratic time on these
            diags.append(Diagnostic("V001", tr("not valid YAML: nested too deeply ([ and {{ nested more than {MAX_FLOW_DEPTH} levels)",
                                               MAX_FLOW_DEPTH=MAX_FLOW_DEPTH), path=path, line=1, col=1))
            return None, diags
    lines = _Lines(text)
    fast = _compose_fast(text)
    try:
        # _FAILED: the C parser refused it, and the Python one says why, in its words
        root = fast if fast is None or isinstance(fast, yaml.Node) else yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        problem = exc.problem or "invalid YAML"
        if exc.context:
            problem = f"{exc.context}: {problem}" if "while" not in exc.context else problem
        diags.append(Diagnostic("V001", tr("not valid YAML: {problem}",
                                           problem=problem), path=path, line=line, col=col,
                                hint=_slip_hint(text, exc.problem or "", line)))
        return None, diags
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        diags.append(Diagnostic("V001", tr("not valid YAML: {reason}",
                                           reason=reason), path=path, line=1, col=1))
        return None, diags
    if root is None:
        return None, diags

    # Aliases share nodes: convert each once (anchors reused many times stay linear),
    # and refuse an alias that contains itself.
    done: dict[int, Node] = {}
    active: set[int] = set()

    def convert(n: yaml.Node) -> Node:
        key = id(n)
        if key in done:
            plain[0] = False  # an alias: the tree shares a node
            return done[key]
        if key in active:
            raise _RecursiveAlias(n)
        active.add(key)
        try:
            out = _convert(n)
        finally:
            active.discard(key)
        done[key] = out
        return out

    def _convert(n: yaml.Node) -> Node:
        line, col = n.start_mark.line + 1, n.start_mark.column + 1
        if isinstance(n, yaml.MappingNode):
            out = Node("map", line, col, path)
            seen: dict[object, Node] = {}
            for k, v in n.value:
                kn, vn = convert(k), convert(v)
                hashable = kn.value if kn.kind == "scalar" else id(kn)
                if kn.kind == "scalar" and hashable in seen:
                    first = seen[hashable]
                    diags.append(
                        Diagnostic(
                            "V002",
                            tr("duplicate key {raw!r} (first defined at line {line})",
                               raw=kn.raw, line=first.line),
                            path=path,
                            line=kn.line,
                            col=kn.col,
                            hint=tr("remove one of them; YAML would silently keep the last"),
                        )
                    )
                    continue
                seen[hashable] = kn
                out.items.append((kn, vn))
            return out
        if isinstance(n, yaml.SequenceNode):
            return Node("seq", line, col, path, children=[convert(c) for c in n.value])
        assert isinstance(n, yaml.ScalarNode)
        try:
            value = _scalar_value(n)
        except Exception:  # e.g. an impossible date or an empty !!int: keep the text
            value = n.value
        try:
            hash(value)
        except TypeError:
            value = n.value
        if type(value) not in _PLAIN:  # a date, bytes...
            plain[0] = False
        style = n.style or None  # (the C parser writes "" for a plain scalar)
        span = (n.start_mark.index, n.end_mark.index)
        return Node("scalar", line, col, path, value=value, raw=n.value, style=style,
                    text_where=_where_for(lines, n.value, style, *span), span=span)

    try:
        return convert(root), diags
    except _RecursiveAlias as exc:
        m = exc.node.start_mark
        diags.append(Diagnostic("V001", tr("an alias refers to the node that contains it"),
                                path=path, line=m.line + 1, col=m.column + 1))
    except RecursionError:
        diags.append(Diagnostic("V001", tr("not valid YAML: nested too deeply"), path=path, line=1, col=1))
    return None, diags


def scalar_from_text(text: str) -> object:
    """A single YAML scalar as YAML would read it (``3`` -> 3, ``true`` -> True, else the text)."""
    import yaml

    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, (str, int, bool, type(None))) else text


def value_from_text(text: str) -> object:
    """A value written on one line as YAML reads it: a scalar (as :func:`scalar_from_text`), or
    a flow list or mapping of them (``[demand, high]``, ``{multiplier: 2}``); anything else
    (a tag, nesting deeper than a variant file's, an unreadable value) stays the text."""
    import yaml

    stripped = text.strip()
    if not stripped.startswith(("[", "{")):
        return scalar_from_text(text)
    if _flow_depth(stripped) > 4:
        return text
    try:
        value = yaml.safe_load(stripped)
    except yaml.YAMLError:
        return text

    def plain(v: object) -> bool:
        if isinstance(v, list):
            return all(plain(x) for x in v)
        if isinstance(v, dict):
            return all(isinstance(k, str) and plain(x) for k, x in v.items())
        return isinstance(v, (str, int, bool, type(None)))

    return value if plain(value) else text


def dump_yaml(data: object) -> str:
    """Plain data as YAML text (safe dumper)."""
    import yaml

    text: str = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    return text
