"""A JSON Schema for variant files, written from the schema table, for editors.

Editors that read a ``yaml-language-server`` modeline (VS Code's YAML extension and others)
complete keys, show each key's meaning and flag a wrong key, type or word while a variant
file is typed. The schema is written from :data:`~updown_dsl.lang.schema.SCHEMA`, the table
the loader validates with, so the two cannot drift apart; the loader stays the judge (a
formula's names, cross-key rules and the deal schedule are checked only by it).

``python -m updown_dsl.lang.editor_schema --write`` rewrites the shipped copy,
``updown-variant.schema.json`` beside this module (``updown variant schema`` prints it).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .schema import KIND_FIELDS, SCHEDULE_ITEM_FIELDS, SCHEMA, Field

SHIPPED = Path(__file__).with_name("updown-variant.schema.json")

# A card as the loader reads it: rank then suit, letters or symbols, any case; or a joker.
_CARD = {"type": "string",
         "pattern": "^(?:(?:10|[2-9TtJjQqKkAa])[SsHhDdCc\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667]"
                    "|[Jj][Kk][12]?|[Jj][Oo][Kk][Ee][Rr]2?)$"}
_SUIT = {"type": "string",
         "pattern": "^(?:[SsHhDdCc\u2660\u2665\u2666\u2663]|[Ss]pades?|[Hh]earts?|[Dd]iamonds?|[Cc]lubs?)$"}
_FORMULA = {"type": ["string", "integer"], "description": "A number or a formula (docs/formulas.md)."}


def variant_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a variant file."""
    top = _section(SCHEMA)
    # A file that extends another writes only the keys it changes.
    required = [k for k, f in SCHEMA.items() if f.required]
    top["if"] = {"not": {"required": ["extends"]}}
    top["then"] = {"required": required}
    # The schedule's items, which may hold a set of items, are a definition of their own.
    item = _section(SCHEDULE_ITEM_FIELDS)
    item["properties"]["ramp"] = {"type": "array", "minItems": 2, "maxItems": 2, "items": _FORMULA,
                                  "description": SCHEDULE_ITEM_FIELDS["ramp"].doc}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://updown.invalid/updown-variant.schema.json",
        "title": "updown variant file",
        "description": "A variant of the Up and Down family of exact-bid trick-taking games "
                       "(docs/dsl.md). Written from updown_dsl.lang.schema.",
        **top,
        "$defs": {"item": item},
    }


def _section(fields: dict[str, Field]) -> dict[str, Any]:
    # No key of a section is required here: a file that extends another may write any part
    # of a section (the loader says what the merged file lacks).
    return {
        "type": "object",
        "properties": {k: _field(f) for k, f in fields.items()},
        "additionalProperties": False,
    }


def _nullable(schema: dict[str, Any], f: Field) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]} if f.nullable else schema


def _field(f: Field) -> dict[str, Any]:
    s: dict[str, Any]
    t = f.type
    if t == "int":
        s = {"type": "integer"}
        if f.choices:
            s["enum"] = [int(c) for c in f.choices]
        if f.minimum is not None:
            s["minimum"] = f.minimum
        if f.maximum is not None:
            s["maximum"] = f.maximum
    elif t == "bool":
        s = {"type": "boolean"}
    elif t == "word":
        s = {"type": "string", "enum": list(f.choices)} if f.choices else {"type": "string"}
    elif t == "words":
        item = {"type": "string", "enum": list(f.choices)} if f.choices else {"type": "string"}
        s = {"anyOf": [{"type": "array", "items": item}, item]}  # one word may stand alone
    elif t == "ints":
        s = {"type": "array", "items": {"type": "integer"}}
    elif t == "str":
        s = {"type": "string"}
    elif t == "formula":
        s = dict(_FORMULA)
    elif t == "card":
        s = dict(_CARD)
    elif t == "cards":
        s = {"anyOf": [{"type": "array", "items": _CARD}, {"type": "string"}]}  # a list, or "6S 6C"
    elif t == "suit":
        s = dict(_SUIT)
    elif t == "section":
        s = _section(f.fields)
    elif t == "kinds":
        s = {"type": "object", "additionalProperties": _section(KIND_FIELDS)}
    elif t == "schedule":  # the schedule, or a set of it: items (a ramp is written in the item)
        s = {"type": "array", "items": {"$ref": "#/$defs/item"}}
    elif t == "params":
        s = {"type": "object", "additionalProperties": {"type": "integer"}}
    elif t == "players":
        s = {"type": "object", "properties": {k: {"type": "integer", "minimum": 1} for k in ("min", "max", "default")},
             "additionalProperties": False}
    else:  # pragma: no cover - every type of the table is above
        raise ValueError(f"no JSON Schema for a {t!r} field")
    s = _nullable(s, f)
    s["description"] = f.doc
    return s


def schema_text() -> str:
    """The schema as the shipped file holds it."""
    return json.dumps(variant_json_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """``--write`` rewrites the shipped schema; else print it."""
    text = schema_text()
    if "--write" in argv:
        SHIPPED.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
