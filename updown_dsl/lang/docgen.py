"""Generate the reference parts of the documentation from the code's own tables.

:func:`dsl_reference` renders every key of a variant file from
:data:`updown_dsl.lang.schema.SCHEMA` (dotted path, type, default, allowed values,
formula variables and the doc text); ``docs/dsl.md`` holds its output between
the markers :data:`BEGIN` and :data:`END`. :func:`diagnostics_reference` does the
same for :data:`updown_dsl.diagnostics.CATALOGUE` in ``docs/diagnostics.md``.

Everything here is a pure function of those tables; nothing is read or
written at import time.

>>> "#### `jokers.lead_on`" in dsl_reference()
True
>>> key_paths()[:3]
['name', 'description', 'source']

Command line::

    python -m updown_dsl.lang.docgen                      # print the key reference
    python -m updown_dsl.lang.docgen --diagnostics        # print the diagnostics table
    python -m updown_dsl.lang.docgen --write docs/dsl.md  # refresh the generated part of a file
    python -m updown_dsl.lang.docgen --check docs/dsl.md  # exit 1 when the file is stale
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence

from ..diagnostics import CATALOGUE, EXAMPLES
from .schema import SCHEDULE_ITEM_FIELDS, SCHEDULE_NAMES, SCHEMA, Field

__all__ = [
    "BEGIN",
    "DIAG_BEGIN",
    "DIAG_END",
    "END",
    "diagnostics_reference",
    "dsl_reference",
    "generated_part",
    "key_paths",
    "main",
    "splice",
]

#: Markers around the generated key reference in ``docs/dsl.md``.
BEGIN = "<!-- BEGIN GENERATED KEYS -->"
END = "<!-- END GENERATED KEYS -->"
#: Markers around the generated code table in ``docs/diagnostics.md``.
DIAG_BEGIN = "<!-- BEGIN GENERATED DIAGNOSTICS -->"
DIAG_END = "<!-- END GENERATED DIAGNOSTICS -->"

#: Placeholder used in paths for the user-chosen name of a deal kind.
KIND_NAME = "<name>"

_TYPES: dict[str, str] = {
    "int": "a whole number",
    "bool": "`true` or `false`",
    "word": "one word from a fixed list",
    "words": "a list of words from a fixed list (a single word is read as a one-word list)",
    "ints": "a list of whole numbers, e.g. `[3, 1, -1, -3]`",
    "str": "free text",
    "formula": "a number or a scoring-language formula (see `docs/formulas.md`)",
    "card": "one card, rank then suit: `7S`, `10H`, `JK`",
    "cards": "a list of cards, e.g. `[6S, 6C]`",
    "suit": "a suit letter: `S`, `H`, `D` or `C`",
    "section": "a mapping of the keys listed below it",
    "kinds": "a mapping from kind names to a mapping of the keys listed below it",
    "schedule": "a list: of schedule items (see `schedule[]` below), or for `ramp` the pair `[from, to]`",
    "params": "a mapping from names to whole numbers",
    "players": "a mapping `{min, max, default}` of player counts (each 2 to 12)",
}


def _walk(fields: Mapping[str, Field], prefix: str) -> Iterator[tuple[str, Field, bool]]:
    """(dotted path, field, is-in-the-schedule) for every key, depth first, in file order."""
    for key, f in fields.items():
        path = f"{prefix}{key}"
        yield path, f, False
        if f.type == "kinds":
            yield from _walk(f.fields, f"{path}.{KIND_NAME}.")
        elif f.fields:
            yield from _walk(f.fields, f"{path}.")
        if f.type == "schedule" and path == "schedule":
            for item_key, item in SCHEDULE_ITEM_FIELDS.items():
                yield f"schedule[].{item_key}", item, True


def key_paths() -> list[str]:
    """Every dotted key path a variant file may use, in schema order.

    Deal kinds appear as ``kinds.<name>.KEY`` and schedule items as
    ``schedule[].KEY``.

    >>> "kinds.<name>.trump.rule" in key_paths(), "schedule[].ramp" in key_paths()
    (True, True)
    """
    return [path for path, _, _ in _walk(SCHEMA, "")]


def _yaml_value(value: object) -> str:
    """A default written the way it would be written in a variant file."""
    if value is None:
        return "~"
    if value == "":
        return '""'

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_yaml_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _code(text: str) -> str:
    return f"`{text}`"


def _facts(f: Field) -> list[str]:
    facts = [f"*{f.type}*"]
    if f.required:
        facts.append("**required**")
    elif f.type == "section":
        facts.append("optional")
    elif f.default is None:
        facts.append("no default")
    else:
        facts.append(f"default: {_code(_yaml_value(f.default))}")
    if f.choices:
        words = ", ".join(_code(c) for c in f.choices)
        facts.append(f"words from {words}" if f.type == "words" else f"one of {words}")
    if f.minimum is not None and f.maximum is not None:
        facts.append(f"from {f.minimum} to {f.maximum}")
    elif f.minimum is not None:
        facts.append(f"at least {f.minimum}")
    elif f.maximum is not None:
        facts.append(f"at most {f.maximum}")
    if f.nullable:
        facts.append("may be `~` (empty)")
    return facts


def _names_line(f: Field, in_schedule: bool) -> str:
    names = ", ".join(_code(n) for n in f.names)
    if in_schedule:
        return f"Formula variables: {names} (no parameters)."
    return f"Formula variables: {names}, and every name in `scoring.params`."


def _entry(path: str, f: Field, in_schedule: bool, level: str = "####") -> list[str]:
    lines = [f"{level} {_code(path)}", "", " · ".join(_facts(f)), "", f.doc]
    if f.type == "formula":
        lines += ["", _names_line(f, in_schedule)]
    elif path == "schedule[].ramp":
        names = ", ".join(_code(n) for n in SCHEDULE_NAMES)
        lines += ["", f"Both ends are formulas. Formula variables: {names} (no parameters)."]
    if f.example:
        lines += ["", f"Example: {_code(f.example)}"]
    lines.append("")
    return lines


def dsl_reference() -> str:
    """The markdown reference of every variant-file key, built from ``SCHEMA``.

    One ``###`` heading per top-level key and one ``####`` entry per key path
    with its type, default, allowed values, formula variables and doc text.
    """
    out: list[str] = [
        "Generated from `updown_dsl/lang/schema.py` by `python -m updown_dsl.lang.docgen`; do not edit by hand.",
        "",
        "Types:",
        "",
    ]
    out += [f"- *{name}*: {text}" for name, text in _TYPES.items()]
    out.append("")
    for path, f, in_schedule in _walk(SCHEMA, ""):
        out += _entry(path, f, in_schedule, "###" if path in SCHEMA else "####")
    return "\n".join(out).rstrip("\n") + "\n"


def diagnostics_reference() -> str:
    """A markdown table of every diagnostic code in ``CATALOGUE``, by stage."""
    stages = {"V": "variant files", "F": "scoring formulas", "C": "card notation",
              "T": "transcripts", "R": "rules (engine refusals and the checker)"}
    out = ["Generated from `updown_dsl/diagnostics.py` by `python -m updown_dsl.lang.docgen --diagnostics`; "
           "do not edit by hand.", "", "| Code | Stage | Meaning | Example |", "|---|---|---|---|"]
    for code, summary in sorted(CATALOGUE.items(), key=lambda kv: ("VFCTR".index(kv[0][0]), kv[0])):
        cell = summary.replace("|", "\\|")
        example = EXAMPLES.get(code, "").replace("|", "\\|")
        out.append(f"| `{code}` | {stages.get(code[0], '?')} | {cell} | `{example}` |")
    return "\n".join(out) + "\n"


def generated_part(text: str, begin: str = BEGIN, end: str = END) -> str:
    """The text between the markers (without the newlines right after/before them).

    :raises ValueError: when the markers are missing or out of order.
    """
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < 0 or j < i:
        raise ValueError(f"markers {begin!r} ... {end!r} not found in order")
    return text[i + len(begin):j].strip("\n") + "\n"


def splice(text: str, generated: str, begin: str = BEGIN, end: str = END) -> str:
    """``text`` with the part between the markers replaced by ``generated``.

    >>> splice("a\\n<!-- BEGIN GENERATED KEYS -->\\nold\\n<!-- END GENERATED KEYS -->\\nb", "new\\n")
    'a\\n<!-- BEGIN GENERATED KEYS -->\\nnew\\n<!-- END GENERATED KEYS -->\\nb'
    """
    generated_part(text, begin, end)  # validates the markers
    i, j = text.find(begin), text.find(end)
    return text[: i + len(begin)] + "\n" + generated.strip("\n") + "\n" + text[j:]


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: print, ``--write FILE`` or ``--check FILE``."""
    args = list(sys.argv[1:] if argv is None else argv)
    diagnostics = "--diagnostics" in args
    args = [a for a in args if a != "--diagnostics"]
    generated = diagnostics_reference() if diagnostics else dsl_reference()
    markers = (DIAG_BEGIN, DIAG_END) if diagnostics else (BEGIN, END)
    if not args:
        sys.stdout.write(generated)
        return 0
    if len(args) != 2 or args[0] not in ("--write", "--check"):
        sys.stderr.write("usage: python -m updown_dsl.lang.docgen [--diagnostics] [--write FILE | --check FILE]\n")
        return 2
    return write_or_check(args[0], args[1], lambda text: splice(text, generated, *markers),
                          "the generated part is stale",
                          f"python -m updown_dsl.lang.docgen {'--diagnostics ' if diagnostics else ''}--write")


def write_or_check(mode: str, name: str, refresh: Callable[[str], str], stale: str, rerun: str) -> int:
    """``--write``: rewrite the page ``name`` as ``refresh`` makes it (only when it changes);
    ``--check``: 1, saying so on stderr, when the page is not what ``refresh`` makes (else 0)."""
    from pathlib import Path

    path = Path(name)
    text = path.read_text(encoding="utf-8")
    fresh = refresh(text)
    if mode == "--check":
        if fresh != text:
            sys.stderr.write(f"{path}: {stale}; run {rerun} {path}\n")
            return 1
        return 0
    if fresh != text:
        path.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover - command line
    raise SystemExit(main())
