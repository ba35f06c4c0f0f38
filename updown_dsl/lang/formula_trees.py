"""Writing ``formula-trees.json``: the parse trees of the bundled variants' formulas.

:mod:`updown_dsl.lang.formula` compiles a formula from its cached tree when the file holds
it, so loading a bundled variant needs no Lark parser (building one is most of the start-up
of a small ``updown check``). Write the file again after changing a bundled formula or the
grammar::

    python -m updown_dsl.lang.formula_trees

``tests/test_formula.py`` fails when the shipped file differs from what Lark parses today.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator

from .formula import TREES_FILE, Formula, lark_tree, tree_to_data
from .loader import bundled_names, load_variant
from .schema import SCHEMA


def formulas_of(value: object) -> Iterator[Formula]:
    """Every compiled formula inside a model value (a variant, its named tuples, tuples and dicts)."""
    if isinstance(value, Formula):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from formulas_of(item)
    elif isinstance(value, tuple):  # named tuples too
        for item in value:
            yield from formulas_of(item)


def bundled_formulas() -> list[str]:
    """The text of every formula in the bundled variant files and the schema's defaults."""
    found: set[str] = set()

    def collect(fields: Any) -> None:
        for f in fields.values():
            if f.type == "formula" and isinstance(f.default, str):
                found.add(f.default)
            if f.fields:
                collect(f.fields)

    collect(SCHEMA)
    for name in bundled_names():
        found.update(f.source for f in formulas_of(load_variant(name)) if not f.source.lstrip("-").isdigit())
    return sorted(found)


def trees_text(sources: Iterable[str]) -> str:
    """The tree cache file for ``sources``, as Lark parses them (formulas that do not parse
    are left out), one formula a line."""
    from lark.exceptions import UnexpectedInput

    trees = {}
    for text in sorted(set(sources)):
        try:
            trees[text] = tree_to_data(lark_tree(text))
        except UnexpectedInput:
            continue
    about = "Parse trees of the bundled formulas, one a line; written by 'python -m updown_dsl.lang.formula_trees'."
    entries = [f" {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in trees.items()]
    return "{\"about\": " + json.dumps(about) + ", \"trees\": {\n" + ",\n".join(entries) + "\n}}\n"


def main() -> int:
    path = Path(__file__).resolve().parent / TREES_FILE
    path.write_text(trees_text(bundled_formulas()), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
