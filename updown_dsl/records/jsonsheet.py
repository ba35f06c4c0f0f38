"""A score sheet as JSON from another app, read as a record whose every line remembers the place
of its number in the JSON text, as a CSV sheet's lines remember their cells
(:mod:`~updown_dsl.records.csvsheet`); ``VARIANT`` is a bundled variant's name or a file's::

    {"variant": "VARIANT", "players": ["Anna", "Boris", "Vera", "Gleb"], "first-dealer": "Gleb",
     "deals": [{"deal": 1, "trump": "H", "bids": [1, 0, 0, 1], "took": [1, 0, 0, 0]},
               {"deal": 2, "trump": "S", "bids": [0, 1, 0, 1], "took": [0, 1, 1, 0],
                "scores": [5, 10, 1, 5], "totals": [15, 5, 6, 10]}]}

Per deal ``deal``, ``cards``, ``dealer``, ``trump`` and, one number per player in the order of
``players``, ``bids`` and ``took`` (``tricks`` too), ``scores`` and ``totals`` when the sheet
has them, ``calls`` (``"5 S"``, ``"dash"``) in an auction; ``null`` is a number not written.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from ..diagnostics import Diagnostic
from ..i18n import tr
from .csvsheet import CsvRecord, deal_lines

#: How deep a sheet's JSON may nest (it needs three levels).
MAX_DEPTH = 16
_KINDS = (("calls", "call"), ("bids", "bid"), ("took", "took"), ("tricks", "took"), ("scores", "score"),
          ("totals", "total"))
_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null)|([{}\[\],:]))')


class _Scan:
    """JSON read with the offset of every value (a scalar is ``(value, offset)``)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def token(self) -> tuple[str, Any, int]:
        m = _TOKEN.match(self.text, self.pos)
        if m is None:
            raise ValueError(f"unexpected text at offset {self.pos}")
        self.pos = m.end()
        at = m.start(m.lastindex or 0)
        if m.group(1) is not None:
            return "value", json.loads(m.group(1)), at
        if m.group(2) is not None:
            return "value", json.loads(m.group(2)), at
        if m.group(3) is not None:
            return "value", {"true": True, "false": False, "null": None}[m.group(3)], at
        return m.group(4), None, at

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise ValueError("nested too deeply")
        kind, val, at = self.token()
        if kind == "value":
            return (val, at)
        if kind == "[":
            items: list[Any] = []
            while True:
                save = self.pos
                k, _, _ = self.token()
                if k == "]" and not items:
                    return items
                self.pos = save
                items.append(self.value(depth + 1))
                k, _, _ = self.token()
                if k == "]":
                    return items
                if k != ",":
                    raise ValueError(f"',' or ']' expected at offset {self.pos}")
        if kind == "{":
            obj: dict[str, Any] = {}
            while True:
                k, key, _ = self.token()
                if k == "}" and not obj:
                    return obj
                if k != "value" or not isinstance(key, str):
                    raise ValueError(f"a key expected at offset {self.pos}")
                if self.token()[0] != ":":
                    raise ValueError(f"':' expected at offset {self.pos}")
                obj[key] = self.value(depth + 1)
                k, _, _ = self.token()
                if k == "}":
                    return obj
                if k != ",":
                    raise ValueError(f"',' or '}}' expected at offset {self.pos}")
        raise ValueError(f"a value expected at offset {at}")


def _at(where: dict[int, tuple[int, int]], first: tuple[int, int]) -> Callable[[int], tuple[int, int]]:
    """A deal's number, by its column's index: its line and column in the JSON (``first``: the deal's)."""
    return lambda c: where.get(c, first)


def looks_like_json_sheet(head: str) -> bool:
    """The start of a JSON file is a sheet of this module's form (not the transcript's JSON form)."""
    return '"deals"' in head and "updown-transcript" not in head


def read_json_sheet(text: str, path: str | None = None) -> CsvRecord:
    """The record a JSON sheet stands for (see the module's docstring)."""
    out = CsvRecord("")
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def place(offset: int) -> tuple[int, int]:
        line = max(i for i, s in enumerate(starts) if s <= offset)
        return line + 1, offset - starts[line] + 1

    try:
        scan = _Scan(text)
        data = scan.value()
        if text[scan.pos:].strip():
            raise ValueError(f"text after the sheet at offset {scan.pos}")
    except (ValueError, RecursionError) as exc:
        out.problems.append(Diagnostic("T001", tr("not a JSON sheet: {exc}", exc=exc), path=path, line=1, col=1))
        return out
    if not isinstance(data, dict) or not isinstance(data.get("players"), list) or \
            not isinstance(data.get("deals"), list):
        out.problems.append(Diagnostic("T001", tr("a JSON sheet is an object with 'variant', 'players' and 'deals'"),
                                       path=path, line=1, col=1))
        return out
    players = [str(p[0]) for p in data["players"] if isinstance(p, tuple)]
    lines = [f"players: {' '.join(players)}", "level: sheet"]
    for key in ("variant", "first-dealer", "date", "event"):
        if isinstance(data.get(key), tuple) and data[key][0] is not None:
            lines.insert(0 if key == "variant" else len(lines) - 1, f"{key}: {data[key][0]}")
    n = len(players)
    columns: dict[int, tuple[str, int | None]] = {0: ("deal", None), 1: ("cards", None), 2: ("dealer", None),
                                                  3: ("trump", None)}
    for k, (_, kind) in enumerate(_KINDS):
        for seat in range(n):
            columns[4 + k * n + seat] = (kind, seat)
    for deal in data["deals"]:
        if not isinstance(deal, dict):
            continue
        row: list[str] = [""] * (4 + len(_KINDS) * n)
        where: dict[int, tuple[int, int]] = {}
        for c, key in enumerate(("deal", "cards", "dealer", "trump")):
            if isinstance(deal.get(key), tuple):
                value, at = deal[key]
                row[c], where[c] = "" if value is None else str(value), place(at)
        for k, (key, _) in enumerate(_KINDS):
            cells = deal.get(key)
            if isinstance(cells, list):
                for seat, cell in enumerate(cells[:n]):
                    if isinstance(cell, tuple):
                        row[4 + k * n + seat] = "" if cell[0] is None else str(cell[0])
                        where[4 + k * n + seat] = place(cell[1])
        first = min(where.values(), default=(1, 1))
        deal_lines(out, lines, columns, players, row, _at(where, first))
    out.text = "\n".join(lines) + "\n"
    return out
