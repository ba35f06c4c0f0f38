"""YAML read into a tree that remembers where every value came from.

PyYAML's safe composer gives nodes with marks; this module turns them into
:class:`Node` values (mapping, sequence or scalar) with 1-based line and
column, reports duplicate keys, and keeps each scalar's raw text so the
loader can tell ``no`` the word from ``no`` the YAML 1.1 boolean.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import yaml

from .diagnostics import Diagnostic

#: Plain scalars that YAML 1.1 (and so PyYAML) reads as booleans.
YAML11_BOOLEANS = frozenset(
    "y Y yes Yes YES n N no No NO true True TRUE false False FALSE on On ON off Off OFF".split()
)


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


class _Constructor(yaml.constructor.SafeConstructor):
    pass


def _scalar_value(node: yaml.ScalarNode) -> object:
    return _Constructor().construct_object(node)


def _where_for(text: str, node: yaml.ScalarNode) -> Callable[[int], tuple[int, int]]:
    """Map offsets in a scalar's value to file positions.

    Exact for plain and quoted single-line scalars and for literal blocks;
    folded and multi-line flow scalars map to the right line start.
    """
    start = node.start_mark
    style = node.style
    if style in ("|", ">"):
        # Content starts on the line after the indicator, at the block indent.
        lines = text.splitlines()
        first = start.line + 1
        indent = 0
        for i in range(first, len(lines)):
            if lines[i].strip():
                indent = len(lines[i]) - len(lines[i].lstrip(" "))
                first = i
                break

        def where_block(offset: int) -> tuple[int, int]:
            before = node.value[:offset]
            line = first + before.count("\n")
            col = offset - (before.rfind("\n") + 1)
            return line + 1, indent + col + 1

        return where_block
    shift = 1 if style in ("'", '"') else 0

    def where_flow(offset: int) -> tuple[int, int]:
        before = node.value[:offset]
        nl = before.count("\n")
        if nl == 0:
            return start.line + 1, start.column + shift + offset + 1
        return start.line + 1 + nl, offset - before.rfind("\n")

    return where_flow


def parse_yaml(text: str, path: str | None = None) -> tuple[Node | None, list[Diagnostic]]:
    """Compose ``text`` into a located tree; never raises.

    Returns the root node (None for an empty or unreadable document) and the
    problems found: V001 for YAML syntax, V002 for duplicate keys.
    """
    diags: list[Diagnostic] = []
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        problem = exc.problem or "invalid YAML"
        if exc.context:
            problem = f"{exc.context}: {problem}" if "while" not in exc.context else problem
        diags.append(Diagnostic("V001", f"not valid YAML: {problem}", path=path, line=line, col=col))
        return None, diags
    except yaml.YAMLError as exc:
        diags.append(Diagnostic("V001", f"not valid YAML: {exc}", path=path, line=1, col=1))
        return None, diags
    if root is None:
        return None, diags

    def convert(n: yaml.Node) -> Node:
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
                            f"duplicate key {kn.raw!r} (first defined at line {first.line})",
                            path=path,
                            line=kn.line,
                            col=kn.col,
                            hint="remove one of them; YAML would silently keep the last",
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
        except yaml.YAMLError:
            value = n.value
        return Node(
            "scalar",
            line,
            col,
            path,
            value=value,
            raw=n.value,
            style=n.style,
            text_where=_where_for(text, n),
        )

    return convert(root), diags
