"""The compact score sheet: one line per deal, as a score keeper writes it on paper.

A row is a deal line, the deal's trump, then one cell per seat (in the order of the
``players`` line) after a ``|``, each cell ``bid took score total``::

    deal 3 cards 3 dealer Vera trump H | 1 1 11 12 | 0 1 1 -9 | 2 0 -20 -30 | 0 1 1 1

``-`` is a number not written (the bid of a deal without bidding, a score left out), and a
cell may stop after any of its numbers. A row stands for the lines of the long form
(``deal``, ``trump``, a ``bid`` and a ``took`` per seat, ``score``, ``total``): the reader
(:mod:`~updown_dsl.records.reader`) reads its deal line and trump, :func:`read_cells` its
cells, and :func:`row_events` makes the long form's events, each marked ``row``, so nothing
after the reader knows the difference. A row with a bad cell keeps what can be read of it
(the deal goes on being checked) and its ``deal`` event the row as written, in ``text``. The writer writes them back as the row with
:func:`take_row` and :func:`cells_text`. :func:`compact_events` and :func:`long_events` turn
the events of a sheet into rows and back (``updown convert --compact`` / ``--long``).
"""

from __future__ import annotations

import re
from typing import Sequence

from ..i18n import tr
from .model import NUMBER, Event

#: What each number of a cell is, in order, and the kind of event it gives.
CELL = ("bid", "tricks taken", "score", "total")
KINDS = ("bid", "took", "score", "total")
_ITEM = re.compile(r"\S+")
_HINT = "a cell is 'bid took score total', e.g. '| 2 1 -5 14 |', with '-' for a number not written"

Cells = list[list[tuple[int | None, int]]]
"""Per seat, the numbers of its cell (None: ``-``) with the column of each."""


class RowError(Exception):
    """A row that cannot be read: the diagnostic's code, message and column (1-based)."""

    def __init__(self, code: str, message: str, col: int, end_col: int | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.col, self.end_col, self.hint = code, message, col, end_col, hint


# ---------------------------------------------------------------------------- reading


def read_cells(body: str, bar: int, players: Sequence[str]) -> tuple[Cells, RowError | None]:
    """The cells of a row, and the first problem with them: ``body`` is the line without its
    comment and ``bar`` the index of its first ``|``. A closing ``|`` at the end is allowed.

    A problem is an empty cell, more than four numbers in a cell (the cell is then read as
    empty), a word that is not a number (read as not written), or not one cell per player
    (no cell is read: which number is whose is not known).
    """
    pieces: list[tuple[int, str]] = []  # (0-based start, text) of each cell
    start = bar + 1
    while True:
        nxt = body.find("|", start)
        if nxt < 0:
            pieces.append((start, body[start:]))
            break
        pieces.append((start, body[start:nxt]))
        start = nxt + 1
    if len(pieces) > 1 and not pieces[-1][1].strip():
        pieces.pop()  # a closing '|'
    cells: Cells = []
    problems: list[RowError] = []
    for who, (at, text) in zip(players, pieces):
        items = [(m.group(), at + m.start() + 1) for m in _ITEM.finditer(text)]
        cell: list[tuple[int | None, int]] = []
        cells.append(cell)
        if not items:
            problems.append(RowError("T002", tr("{who}'s cell is empty", who=who), at, hint=_HINT))
            continue
        if len(items) > len(CELL):
            word, c = items[len(CELL)]
            problems.append(RowError("T002", tr("{who}'s cell holds {count} numbers; a cell holds four at most: the bid, the tricks taken, the score and the total",
                                                who=who, count=len(items)), c,
                                     c + len(word), hint=tr("cells are separated by '|': is one missing?")))
            continue
        for what, (word, c) in zip(CELL, items):
            if word == "-":
                cell.append((None, c))
            elif NUMBER.fullmatch(word):
                cell.append((int(word), c))
            else:
                cell.append((None, c))
                problems.append(RowError("T004", tr("not a whole number: {word!r} ({who}'s {what})",
                                                    word=word, who=who, what=what), c,
                                         c + len(word), hint=tr("write a number, or '-' for one not written")))
    if len(pieces) != len(players):
        end = len(body.rstrip()) + 1
        if len(pieces) > len(players):
            at, text = pieces[len(players)]
            col, end_col = at + 1 + len(text) - len(text.lstrip()), end
        else:
            col, end_col = end, None
        names = " ".join(players)
        problems.append(RowError("T002", tr("the row has {count} cells, but there are {count2} players: one cell each, in the order of the 'players' line",
                                            count=len(pieces), count2=len(players)) + (f" ({names})" if names else ""), col, end_col,
                                 hint=_HINT))
        return [], problems[0]
    return cells, problems[0] if problems else None


def row_events(deal: Event, trump: Event | None, cells: Cells) -> list[Event]:
    """The events a row stands for, in the order the long form writes them: ``deal``,
    ``trump``, the bids and the tricks taken in seat order, ``score``, ``total`` (a number
    written ``-`` or left out gives no event; a score or total with no number, no line)."""
    line = deal.line
    out = [deal._replace(row=True)]
    if trump is not None:
        out.append(trump._replace(row=True))
    for k in (0, 1):
        for seat, cell in enumerate(cells):
            if len(cell) > k and cell[k][0] is not None:
                value, col = cell[k]
                out.append(Event(KINDS[k], line, col, actor=seat, number=value, arg_col=col, row=True))
    for k in (2, 3):
        written = [cell[k] if len(cell) > k else (None, 0) for cell in cells]
        cols = tuple(c if v is not None else 0 for v, c in written)
        first = next((c for c in cols if c), 0)
        if first:
            out.append(Event(KINDS[k], line, first, amounts=tuple(v for v, _ in written), arg_col=first,
                             cells=cols, row=True))
    return out


# ---------------------------------------------------------------------------- writing

_STAGE = {"trump": 0, "bid": 1, "took": 2, "score": 3, "total": 4}


def take_row(events: Sequence[Event], start: int, seats: int
             ) -> tuple[Event | None, list[list[int | None]], int]:
    """The row that begins at the ``deal`` event ``events[start]``: its trump event, per seat
    the four numbers of its cell (None: not written), and the index after its last event.

    It takes the ``row`` events after the deal that a row can hold, in a row's order
    (trump, bids, tricks taken, score, total; one of each per seat, none with a comment of
    its own), and stops at the first other one, which the writer writes as a line of its own.
    """
    trump = None
    cells: list[list[int | None]] = [[None] * len(CELL) for _ in range(seats)]
    stage = 0
    k = start + 1
    while k < len(events):
        e = events[k]
        st = _STAGE.get(e.kind)
        if not e.row or e.comment is not None or st is None or st < stage:
            break
        if st == 0:
            if e.actor is not None:
                break
            trump, stage = e, 1
        elif st <= 2:
            seat = _seat_of(e, seats)
            if seat is None or e.number is None or cells[seat][st - 1] is not None:
                break
            cells[seat][st - 1] = e.number
            stage = st
        else:
            if not _amounts_of(e, seats):
                break
            for seat, amount in enumerate(e.amounts):
                cells[seat][st - 1] = amount
            stage = st + 1
        k += 1
    return trump, cells, k


def cells_text(cells: Sequence[Sequence[int | None]]) -> str:
    """`` | c1 | c2 …``: each cell as far as the row's last written number, ``-`` for the others."""
    width = max((k + 1 for cell in cells for k, v in enumerate(cell) if v is not None), default=1)
    return "".join(" | " + " ".join("-" if v is None else str(v) for v in cell[:width]) for cell in cells)


def _seat_of(e: Event, seats: int) -> int | None:
    """The seat of a bid or a took event that a row can hold (None: it has none)."""
    return e.actor if e.actor is not None and 0 <= e.actor < seats and e.number is not None else None


def _amounts_of(e: Event, seats: int) -> bool:
    return len(e.amounts) == seats and any(a is not None for a in e.amounts)


# ---------------------------------------------------------------------------- converting


def long_events(events: Sequence[Event]) -> list[Event]:
    """The events with no row: the writer writes each on a line of its own."""
    return [e._replace(row=False) if e.row else e for e in events]


def compact_events(events: Sequence[Event], seats: int) -> list[Event]:
    """The events of a score sheet with each deal made a row, so that the checker reads the
    record as before.

    A deal's ``trump`` (without a player) and ``took`` lines go into its row wherever they
    stand in the deal (the checker reads them from anywhere in it); its bids, score and
    total only while no other line has come between (a penalty, a replay, a comment, a
    second bid for a seat), as the checker takes those in the order written. A line with a
    comment of its own stays a line; the lines left follow the row in their order. A deal
    with nothing a row can hold is left as it is.
    """
    out: list[Event] = []
    i = 0
    while i < len(events):
        if events[i].kind != "deal" or seats <= 0 or events[i].text:  # (text: a row not read in full)
            out.append(events[i])
            i += 1
            continue
        j = i + 1
        while j < len(events) and events[j].kind not in ("deal", "settlement"):
            j += 1
        out += _compact_block(events[i:j], seats)
        i = j
    return out


def _compact_block(block: Sequence[Event], seats: int) -> list[Event]:
    if any(e.kind == "call" for e in block):
        return list(block)  # a row has no cell for an auction's calls: the deal keeps its lines
    trump: Event | None = None
    trump_open = True
    bids: list[Event | None] = [None] * seats
    took: list[Event | None] = [None] * seats
    took_open = [True] * seats
    ordered: list[Event] = []  # score, total
    stage = 1  # what the next ordered line may be: 1 a bid or more, 3 a score or total, 4 a total, 5 none
    rest: list[Event] = []
    for e in block[1:]:
        kind, plain = e.kind, e.comment is None
        if kind == "trump" and e.actor is None:  # movable: the checker reads it from anywhere
            if trump_open and plain:
                trump = e
                trump_open = False
                continue
            trump_open = False  # a later trump line must stay after this one
        elif kind == "took" and (seat := _seat_of(e, seats)) is not None:
            if took_open[seat] and plain:
                took[seat] = e
                took_open[seat] = False
                continue
            took_open[seat] = False
        elif kind == "cut":
            pass  # movable, but not in a row: it follows the row
        elif plain and kind == "bid" and stage <= 1 and (seat := _seat_of(e, seats)) is not None \
                and bids[seat] is None:
            bids[seat] = e
            continue
        elif plain and kind in ("score", "total") and stage <= _STAGE[kind] and _amounts_of(e, seats):
            ordered.append(e)
            stage = _STAGE[kind] + 1
            continue
        else:
            stage = 5  # the lines after this one keep their place after it
        rest.append(e._replace(row=False) if e.row else e)
    row = [e for e in (trump, *bids, *took, *ordered) if e is not None]
    if not row:
        return list(block)
    return [block[0]._replace(row=True), *(e._replace(row=True) for e in row), *rest]
