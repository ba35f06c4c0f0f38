"""The located YAML tree (updown_dsl.lang.yamltree)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from updown_dsl.lang import yamltree
from updown_dsl.lang.yamltree import YAML11_BOOLEANS, Node, parse_yaml

DOC = """\
# a comment
name: odessa
players: {min: 2, max: 6}
deck:
  pack: 36
  remove: [6S, 6C]
schedule:
  - ramp: [1, 5]
  - {cards: 6, times: players}
"""


def parse(text: str, path: str | None = "t.yaml") -> Node:
    root, diags = parse_yaml(text, path)
    assert diags == [], diags
    assert root is not None
    return root


# ------------------------------------------------------------------ positions
def test_positions_of_keys_and_values() -> None:
    root = parse(DOC)
    assert (root.kind, root.line, root.col) == ("map", 2, 1)
    assert root.keys() == ["name", "players", "deck", "schedule"]
    k, v = root.items[0]
    assert (k.line, k.col, k.value) == (2, 1, "name")
    assert (v.line, v.col, v.value) == (2, 7, "odessa")
    players = root.get("players")
    assert players is not None and (players.kind, players.line, players.col) == ("map", 3, 10)
    mx = players.get("max")
    assert mx is not None and (mx.line, mx.col, mx.value) == (3, 24, 6)
    deck = root.get("deck")
    assert deck is not None and (deck.line, deck.col) == (5, 3)
    remove = deck.get("remove")
    assert remove is not None and remove.kind == "seq" and (remove.line, remove.col) == (6, 11)
    assert [(c.line, c.col, c.value) for c in remove.children] == [(6, 12, "6S"), (6, 16, "6C")]
    schedule = root.get("schedule")
    assert schedule is not None and (schedule.kind, schedule.line, schedule.col) == ("seq", 8, 3)
    item0, item1 = schedule.children
    assert (item0.kind, item0.line, item0.col) == ("map", 8, 5)
    ramp = item0.get("ramp")
    assert ramp is not None and [(c.line, c.col) for c in ramp.children] == [(8, 12), (8, 15)]
    assert (item1.line, item1.col) == (9, 5)
    times = item1.get("times")
    assert times is not None and (times.line, times.col, times.value) == (9, 23, "players")


def test_path_is_on_every_node() -> None:
    root = parse(DOC, path="some/file.yaml")

    def walk(n: Node) -> None:
        assert n.path == "some/file.yaml"
        for k, v in n.items:
            walk(k)
            walk(v)
        for c in n.children:
            walk(c)

    walk(root)


def test_get_keys_to_python() -> None:
    root = parse(DOC)
    assert root.get("nope") is None
    assert root.to_python() == {
        "name": "odessa",
        "players": {"min": 2, "max": 6},
        "deck": {"pack": 36, "remove": ["6S", "6C"]},
        "schedule": [{"ramp": [1, 5]}, {"cards": 6, "times": "players"}],
    }


def test_empty_documents() -> None:
    for text in ["", "\n", "# only a comment\n"]:
        root, diags = parse_yaml(text)
        assert root is None and diags == []


# ------------------------------------------------------------------ raw text and values
@pytest.mark.parametrize(
    ("text", "value", "raw", "style"),
    [
        ("k: no", False, "no", None),
        ("k: off", False, "off", None),
        ("k: Yes", True, "Yes", None),
        ("k: 'no'", "no", "no", "'"),
        ('k: "off"', "off", "off", '"'),
        ("k: 10", 10, "10", None),
        ("k: 010", 8, "010", None),  # YAML 1.1 octal; the raw text keeps what was written
        ("k: 0x1F", 31, "0x1F", None),
        ("k: '10'", "10", "10", "'"),
        ("k: ~", None, "~", None),
        ("k: null", None, "null", None),
        ("k:", None, "", None),
        ("k: 1.5", 1.5, "1.5", None),
        ("k: a  b", "a  b", "a  b", None),
        ("k: |\n  a\n  b\n", "a\nb\n", "a\nb\n", "|"),
        ("k: >-\n  a\n  b\n", "a b", "a b", ">"),
        ("k: 7♠", "7♠", "7♠", None),
    ],
)
def test_raw_text_is_kept(text: str, value: object, raw: str, style: str | None) -> None:
    node = parse(text).get("k")
    assert node is not None and node.kind == "scalar"
    assert node.value == value and type(node.value) is type(value)
    assert node.raw == raw
    assert node.style == style


def test_yaml11_booleans_cover_every_plain_boolean_spelling() -> None:
    """Every plain word PyYAML reads as a boolean is in YAML11_BOOLEANS (so V007 can catch it),
    except true/false, which are booleans in every YAML version (a wrong type, V004)."""
    import itertools

    for letters in ["yes", "no", "on", "off", "true", "false", "y", "n"]:
        for spelling in {"".join(c) for c in itertools.product(*[(ch, ch.upper()) for ch in letters])}:
            node = parse(f"k: {spelling}").get("k")
            assert node is not None and node.raw == spelling
            if isinstance(node.value, bool) and letters not in ("true", "false"):
                assert spelling in YAML11_BOOLEANS, spelling
            if letters in ("true", "false"):
                assert spelling not in YAML11_BOOLEANS, spelling


# ------------------------------------------------------------------ duplicate keys
def test_duplicate_top_level_key() -> None:
    root, diags = parse_yaml("a: 1\nb: 2\na: 3\n", "d.yaml")
    assert root is not None
    assert [(d.code, d.line, d.col, d.path) for d in diags] == [("V002", 3, 1, "d.yaml")]
    assert "line 1" in diags[0].message
    assert root.keys().count("a") == 1 and root.keys() == ["a", "b"]


def test_duplicate_nested_and_flow_keys() -> None:
    text = "x:\n  y: 1\n  z: 2\n  y: 3\nw: {p: 1, q: 2, p: 3}\nl:\n  - {a: 1}\n  - {a: 1}\n"
    root, diags = parse_yaml(text)
    assert root is not None
    assert [(d.code, d.line, d.col) for d in diags] == [("V002", 4, 3), ("V002", 5, 17)]


def test_duplicate_key_same_value_different_spelling() -> None:
    root, diags = parse_yaml("1: a\n0x1: b\n")
    assert [(d.code, d.line, d.col) for d in diags] == [("V002", 2, 1)]


def test_every_duplicate_is_reported() -> None:
    root, diags = parse_yaml("a: 1\na: 2\na: 3\n")
    assert [(d.code, d.line) for d in diags] == [("V002", 2), ("V002", 3)]


# ------------------------------------------------------------------ syntax errors
@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("a: b: c\n", 1, 5),
        ("a: [1, 2\n", 2, 1),
        ("a: 1\n b: 2\n", 2, 3),
        ("a: 'x\n", 2, 1),
        ("a:\n\t- 1\n", 2, 1),
        ("a: *nope\n", 1, 4),
    ],
)
def test_syntax_errors_are_v001_with_position(text: str, line: int, col: int) -> None:
    root, diags = parse_yaml(text, "s.yaml")
    assert root is None
    assert [(d.code, d.line, d.col, d.path) for d in diags] == [("V001", line, col, "s.yaml")]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_parse_yaml_never_raises(text: str) -> None:
    root, diags = parse_yaml(text)
    assert all(d.code in ("V001", "V002") for d in diags)
    if any(d.code == "V001" for d in diags):
        assert root is None


@pytest.mark.parametrize(
    "text",
    ["a: &x [*x]\n", "a: " + "[" * 3000 + "]" * 3000 + "\n", "a: 2001-13-45\n", "a: !!int x\n",
     "a: !!float x\n", "a: !!timestamp 2001-02-30\n"],
    ids=["recursive alias", "deep nesting", "impossible date", "bad int tag", "bad float tag",
         "bad timestamp tag"],
)
def test_parse_yaml_never_raises_on_known_junk(text: str) -> None:
    """``parse_yaml`` promises never to raise: junk gives V001 (or a usable tree)."""
    root, diags = parse_yaml(text)
    assert root is not None or [d.code for d in diags] == ["V001"]


# ------------------------------------------------------------------ text_where
def where_of(text: str, key: str, needle: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """(mapped position, true position) of ``needle`` inside the scalar under ``key``."""
    node = parse(text).get(key)
    assert node is not None and node.text_where is not None
    offset = str(node.value).index(needle)
    mapped = node.text_where(offset)
    true = None
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            true = (i, line.index(needle) + 1)
    assert true is not None
    return mapped, true


@pytest.mark.parametrize(
    "text",
    [
        "f: aa + bidz\n",
        "f: 'aa + bidz'\n",
        'f: "aa + bidz"\n',
        "x: 1\nf:    aa + bidz   \n",
        "f: |\n  aa\n  + bidz\n",
        "f: |-\n    aa\n    + bidz\n",
        "f: |\n  aa + bidz\n",
        "f: |  # comment\n  aa\n  + bidz\n",
    ],
    ids=["plain", "single-quoted", "double-quoted", "plain spaced", "literal",
         "literal strip deeper indent", "literal one line", "literal with comment"],
)
def test_text_where_exact(text: str) -> None:
    mapped, true = where_of(text, "f", "bidz")
    assert mapped == true


def test_text_where_nested_and_in_flow_sequence() -> None:
    root = parse("top:\n  f: aa + bidz\nseq: [1, 'aa + bidz', cc + bidz]\n")
    top = root.get("top")
    assert top is not None
    f = top.get("f")
    assert f is not None and f.text_where is not None
    assert f.text_where(5) == (2, 11)
    seq = root.get("seq")
    assert seq is not None
    quoted, plain = seq.children[1], seq.children[2]
    assert quoted.text_where is not None and plain.text_where is not None
    assert quoted.text_where(5) == (3, 16)
    assert plain.text_where(5) == (3, 28)


@pytest.mark.parametrize(
    "text",
    [
        "f: >-\n  aa\n  + bidz\n",
        "f: >\n  aa\n\n  + bidz\n",
        "f: |\n\n  aa + bidz\n",
        "f: |2\n    aa + bidz\n",
        "f: aa\n  + bidz\n",
        'f: "aa\n  + bidz"\n',
        "f: 'aa\n  + bidz'\n",
        'f: "a\\tb + bidz"\n',
        "f: 'it''s + bidz'\n",
    ],
    ids=["folded second line", "folded after blank line", "literal after blank line",
         "literal indentation indicator", "plain multi-line", "double-quoted multi-line",
         "single-quoted multi-line", "double-quoted escape", "single-quoted doubled quote"],
)
def test_text_where_exact_in_harder_scalars(text: str) -> None:
    """Formula errors must point at the exact character in every scalar style."""
    mapped, true = where_of(text, "f", "bidz")
    assert mapped == true, f"mapped to {mapped}, the text is at {true}"


def test_text_where_offset_zero_is_value_start() -> None:
    root = parse("a: xyz\nb: 'xyz'\nc: |\n  xyz\n")
    for key, pos in [("a", (1, 4)), ("b", (2, 5)), ("c", (4, 3))]:
        node = root.get(key)
        assert node is not None and node.text_where is not None
        assert node.text_where(0) == pos, key


# ------------------------------------------------------------------ C parser = Python parser
def _located(text: str) -> tuple[list[object], list[str]]:
    root, diags = parse_yaml(text, "f.yaml")
    out: list[object] = []

    def walk(n: object) -> None:
        if n is None:
            out.append(None)
            return
        out.append((n.kind, n.line, n.col, repr(n.value), n.raw, n.style))  # type: ignore[attr-defined]
        if n.kind == "scalar" and n.text_where:  # type: ignore[attr-defined]
            out.append(tuple(n.text_where(k) for k in range(len(n.raw) + 2)))  # type: ignore[attr-defined]
        for k, v in n.items:  # type: ignore[attr-defined]
            walk(k)
            walk(v)
        for c in n.children:  # type: ignore[attr-defined]
            walk(c)

    walk(root)
    return out, [d.format() for d in diags]


_SNIPPETS = [":", " ", "\n", "- ", "'", '"', "|", ">", "#", "  ", "x: y\n", "&a ", "*a", "{", "}", "[", "]",
             "\\", "é", "ж", "«x»", "😀", "\u00a0", "\u3000", "?", "? ", "!", "%", ",", "~", "null ", "yes",
             "<<: *a\n", "\r", "\ufeff", "\x85", "\u2028", "0x1F", ".inf", "---\n", "...\n"]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml")
def test_the_c_parser_gives_the_same_tree_and_diagnostics_as_the_python_parser(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    root = Path(__file__).resolve().parent.parent
    texts = [p.read_text(encoding="utf-8") for p in sorted((root / "variants").glob("*.yaml"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((root / "tests" / "bad_variants").glob("*.yaml"))]
    rng = random.Random(5)
    for n in range(1500):
        text = rng.choice(texts)
        for _ in range(n % 3):
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(_SNIPPETS) + text[i:]
        fast = _located(text)
        monkeypatch.setattr(yamltree, "_HAS_C", False)
        slow = _located(text)
        monkeypatch.setattr(yamltree, "_HAS_C", True)
        assert fast == slow, text


@pytest.mark.parametrize(("text", "fix"), [
    ("scoring:\n  deal: made ? 10 + bid : 0\n", "must be quoted"),
    ("play:\n  must_trump: false\n    lead_trump: any\n", "indented deeper than the one above"),
    ("play:\n\tmust_trump: false\n", "never tabs"),
])
def test_the_usual_yaml_slips_get_a_hint_naming_the_fix(text: str, fix: str) -> None:
    _, diags = parse_yaml(text, "house.yaml")
    (d,) = diags
    assert d.code == "V001" and d.hint is not None and fix in d.hint
