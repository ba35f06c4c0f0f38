#!/usr/bin/env python3
"""Write the golden records of the table's events (``tests/golden/*/table-*.log``).

    python tests/golden/table_logs.py          # write them (then: python tests/golden/regenerate.py)
    python tests/golden/table_logs.py --check  # only say whether they are as this script makes them

Each clean record is a game kept with :class:`~updown_dsl.players.keeper.Keeper` at random
(seeded, ``tests/keepkit.py``) with one kind of the table's events typed at a given deal; its
broken twin is the same record edited in one place (the edited line ends with
``# edited: was '...'``), and the expected diagnostics are what the edit must produce:

- ``georgian/table-late``: Gleb comes late and plays from deal 3 (and deal 4 is corrected at deal 6);
  ``-broken``: a bid of Gleb's in deal 2, before he came (R057).
- ``georgian/table-leave``: Vera leaves at deal 20; ``-broken``: a bid of hers in deal 22 (R057).
- ``odessa/table-out``: Boris sits deal 7 out; ``-broken``: a score of his written in it (R057).
- ``odessa/table-adjust``: Gleb's total -20 at deal 5; ``-broken``: the adjustment made -30,
  the totals left as they were (R051 at deal 5's total of Gleb).
- ``odessa/table-schedule``: deal 10 played with 3 cards (the schedule has 5); ``-broken``: with 10 cards each,
  more than the pack holds for four (R058).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for p in (ROOT, ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from keepkit import kept_game  # noqa: E402
from updown_dsl.records.transcript import format_transcript  # noqa: E402

#: name -> (variant, seed, events by deal)
CLEAN = {
    "georgian/table-late": ("georgian", 3, {1: ["late Gleb"], 3: ["join Gleb"], 6: ["edit 4 swap"]}),
    "georgian/table-leave": ("georgian", 5, {20: ["leave Vera"]}),
    "odessa/table-out": ("odessa", 7, {7: ["out Boris"]}),
    "odessa/table-adjust": ("odessa", 9, {5: ["adjust Gleb -20 left the table for ten minutes"]}),
    "odessa/table-schedule": ("odessa", 11, {10: ["cards 3"]}),
}


def clean(name: str) -> str:
    variant, seed, events = CLEAN[name]
    _, k = kept_game(variant, seed, events)
    assert k.is_over
    text = format_transcript(k.transcript())
    head, body = text.split("\n\n", 1)
    head = "\n".join(x for x in head.splitlines() if not x.startswith("date:"))
    return f"# kept with updown keep: {name.split('/')[1].replace('table-', '')} (tests/golden/table_logs.py)\n" \
           f"{head}\n\n{body}"


def _edit(text: str, start: str, change: "callable[[str], str]") -> str:  # type: ignore[valid-type]
    lines = text.splitlines()
    k = next(i for i, x in enumerate(lines) if x.startswith(start))
    was = lines[k]
    lines[k] = change(was) + f"  # edited: was '{was}'"
    return "\n".join(lines) + "\n"


def _cell(row: str, seat: int, cell: str) -> str:
    """``row`` with the cell of ``seat`` replaced."""
    parts = row.split("|")
    parts[seat + 1] = f" {cell} "
    return "|".join(parts).rstrip()


def broken(name: str, text: str) -> tuple[str, str]:
    """The broken twin of clean record ``name`` and what the checker must say of it."""
    if name == "georgian/table-late":
        out = _edit(text, "deal 2 ", lambda row: _cell(row, 3, "1 - - 0"))
        return out, f"{_line(out, 'deal 2 ')}:{_cell_col(out, 'deal 2 ', 3)}: error[R057]"
    if name == "georgian/table-leave":
        out = _edit(text, "deal 22 ", lambda row: _cell(row, 2, "1 - - " + row.split("|")[3].split()[-1]))
        return out, f"{_line(out, 'deal 22 ')}:{_cell_col(out, 'deal 22 ', 2)}: error[R057]"
    if name == "odessa/table-out":
        def score(row: str) -> str:
            total = row.split("|")[2].split()[-1]
            return _cell(row, 1, f"- - 5 {total}")
        out = _edit(text, "deal 7 ", score)
        col = _cell_col(out, "deal 7 ", 1) + len("- - ")
        return out, f"{_line(out, 'deal 7 ')}:{col}: error[R057]"
    if name == "odessa/table-adjust":
        out = _edit(text, "adjust Gleb", lambda x: x.replace("-20", "-30"))
        row = _line(out, "deal 5 ")
        total = out.splitlines()[row - 1].split("#")[0].rstrip()
        col = total.rfind(" ") + 2
        return out, f"{row}:{col}: error[R051]"
    if name == "odessa/table-schedule":
        out = _edit(text, "schedule cards", lambda x: x.replace("cards 3", "cards 10"))
        out = _edit(out, "deal 10 ", lambda x: x.replace("cards 3", "cards 10"))
        return out, f"{_line(out, 'schedule cards')}:1: error[R058]"
    raise KeyError(name)


def _line(text: str, start: str) -> int:
    return next(i for i, x in enumerate(text.splitlines(), 1) if x.startswith(start))


def _cell_col(text: str, start: str, seat: int) -> int:
    """The column of the first number of ``seat``'s cell in the row starting with ``start``."""
    row = text.splitlines()[_line(text, start) - 1]
    at = -1
    for _ in range(seat + 1):
        at = row.index("|", at + 1)
    return at + 3  # "| " then the number


def main(check: bool = False) -> int:
    stale = []
    for name in CLEAN:
        text = clean(name)
        bad, expected = broken(name, text)
        for path, content in ((HERE / f"{name}.log", text), (HERE / f"{name}-broken.log", bad),
                              (HERE / f"{name}-broken.expected", expected + "\n"),
                              (HERE / f"{name}.expected", "")):
            if not path.exists() or path.read_text(encoding="utf-8") != content:
                stale.append(path)
                if not check:
                    path.write_text(content, encoding="utf-8")
    for p in stale:
        print(("stale: " if check else "wrote ") + str(p.relative_to(HERE)))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
