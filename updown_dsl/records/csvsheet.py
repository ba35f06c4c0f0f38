"""A score sheet as CSV, one row per deal: written from a game, and read back as a record whose
every line remembers the cell it came from, so a problem the checker finds points at the cell.

The CSV a sheet is written as (``VARIANT``: a bundled variant's name or a file's)::

    # variant: VARIANT
    # first-dealer: Gleb
    deal,cards,dealer,trump,Anna bid,Anna took,Anna score,Anna total,Boris bid,...
    1,1,Gleb,H,1,0,-10,-10,0,0,5,5,...

Lines starting with ``#`` before the table are header lines of the record (``variant`` is
needed; ``players`` and ``first-dealer`` may be left out: the players are the names of the
columns, in order). The columns are ``deal``, ``cards``, ``dealer``, ``trump`` and, per player,
``NAME bid`` and ``NAME took`` (``NAME tricks`` too), with ``NAME score`` and ``NAME total``
when the sheet has them (and ``NAME call``, ``5 S`` or ``dash``, in an auction for trump, where
the calls name the trump and only the bids that are not a call are written); any of them may be missing and a cell may be empty (not written).
A table from another app (or from a photo read by a program) needs only the ``# variant`` line
and its bid and took columns.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..cards import CardError, Suit
from ..diagnostics import Diagnostic, Severity
from ..i18n import tr

_KINDS = {"bid": "bid", "bids": "bid", "took": "took", "tricks": "took", "taken": "took", "score": "score",
          "points": "score", "total": "total", "call": "call"}
_COLUMN = re.compile(r"(.+?)[ _:.-]+(bids?|took|tricks|taken|score|points|total|call)", re.IGNORECASE)


@dataclass
class CsvRecord:
    """A CSV sheet read as the text of a record, with where each line's numbers came from."""

    text: str
    """The record, in the long form of the transcript format."""
    cells: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    """Per line of ``text``: ``(column in the line, CSV line, CSV column)``, by column."""
    problems: list[Diagnostic] = field(default_factory=list)
    """What could not be read, at its cell."""
    took: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Per line of :attr:`text`, the CSV cell of its deal's first number of tricks taken."""

    def place(self, line: int | None, col: int | None, code: str | None = None) -> tuple[int, int] | None:
        """The CSV line and column of a place in :attr:`text` (None: not from a cell); tricks
        that do not add up (``code`` R053) are at the deal's first tricks cell."""
        if line is None or line not in self.cells:
            return None
        if code == "R053" and line in self.took:
            return self.took[line]
        best = None
        for start, row, column in self.cells[line]:
            if best is None or start <= (col or 1):
                best = (row, column)
        return best


def _cell_columns(line: str, count: int) -> list[int]:
    """The 1-based column where each of ``count`` cells of a CSV line starts."""
    starts, col, quoted = [1], 1, False
    for ch in line:
        col += 1
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            starts.append(col)
    return (starts + [col] * count)[:count]


def read_csv_sheet(text: str, path: str | None = None) -> CsvRecord:
    """The record a CSV sheet stands for (see the module's docstring)."""
    lines = text.splitlines()
    headers: list[str] = []
    k = 0
    while k < len(lines) and (not lines[k].strip() or lines[k].lstrip().startswith("#")):
        body = lines[k].lstrip()[1:].strip()
        if ":" in body:
            headers.append(body)
        k += 1
    out = CsvRecord("")
    if k >= len(lines):
        out.problems.append(Diagnostic("T002", tr("the CSV has no table: a row of column names, then a row per deal"),
                                       path=path, line=max(len(lines), 1), col=1))
        return out
    head_line = k + 1
    names_row = next(csv.reader([lines[k]]))
    head_cols = _cell_columns(lines[k], len(names_row))
    players: list[str] = []
    columns: dict[int, tuple[str, int | None]] = {}  # CSV column -> (kind, seat)
    for c, name in enumerate(names_row):
        word = name.strip().lower()
        if word in ("deal", "cards", "dealer", "trump"):
            columns[c] = (word, None)
            continue
        m = _COLUMN.fullmatch(name.strip())
        if m is None:
            out.problems.append(Diagnostic("T002", tr("column {name!r} is not deal, cards, dealer, trump or "
                                                      "'NAME bid', 'NAME took', 'NAME score', 'NAME total'", name=name),
                                           path=path, line=head_line, col=head_cols[c], severity=Severity.WARNING))
            continue
        who = m.group(1).strip()
        if who not in players:
            players.append(who)
        columns[c] = (_KINDS[m.group(2).lower()], players.index(who))
    written: list[str] = []
    if not any(h.lower().startswith("players:") for h in headers):
        headers.append("players: " + " ".join(players))
    written += headers
    if not any(h.lower().startswith("level:") for h in headers):
        written.append("level: sheet")
    text_lines = list(written)
    for r in range(k + 1, len(lines)):
        raw = lines[r]
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        row = next(csv.reader([raw]))
        cols = _cell_columns(raw, len(row))
        deal_lines(out, text_lines, columns, players, row, _at_line(r + 1, cols))
    out.text = "\n".join(text_lines) + "\n"
    return out


def _at_line(line: int, cols: Sequence[int]) -> Callable[[int], tuple[int, int]]:
    """A CSV line's cell, by its column's index: its line and character column."""
    return lambda c: (line, cols[c])


def deal_lines(out: CsvRecord, text_lines: list[str], columns: dict[int, tuple[str, int | None]],
               players: Sequence[str], row: Sequence[str], where: Callable[[int], tuple[int, int]]) -> None:
    """The lines of one deal, each remembering its cells (``where``: a column's line and column
    in the file read)."""
    def add(line: str, spans: list[tuple[int, int]]) -> None:
        text_lines.append(line)
        out.cells[len(text_lines)] = [(start, *where(c)) for start, c in spans]

    value = {kind: (c, row[c].strip()) for c, (kind, seat) in columns.items() if seat is None and c < len(row)}
    number = value.get("deal", (0, ""))[1] or str(sum(1 for x in text_lines if x.startswith("deal ")) + 1)
    head = f"deal {number}"
    spans = [(1, value["deal"][0] if "deal" in value else 0)]
    for key, word in (("cards", "cards"), ("dealer", "dealer")):
        if value.get(key, (0, ""))[1]:
            spans.append((len(head) + 2, value[key][0]))
            head += f" {word} {value[key][1]}"
    text_lines.append("")
    add(head, spans)
    deal_line = len(text_lines)
    trump = value.get("trump", (0, ""))
    if trump[1]:
        word = trump[1]
        try:
            word = Suit.parse(word).value if word.lower() not in ("none", "nt", "-") else "none"
        except CardError:
            pass  # the reader says what is wrong with it, at its cell
        add(f"trump {word}", [(1, trump[0])])
    per: dict[str, list[tuple[int, str]]] = {"call": [], "bid": [], "took": [], "score": [], "total": []}
    for c, (kind, seat) in sorted(columns.items()):
        if seat is not None and c < len(row) and row[c].strip() not in ("", "-"):
            per[kind].append((c, f"{players[seat]}|{row[c].strip()}"))
    for kind in ("call", "bid", "took"):
        for c, item in per[kind]:
            who, number_text = item.split("|", 1)
            line = f"{who} {kind} {number_text}"
            add(line, [(1, c), (len(who) + len(kind) + 3, c)])
    for kind in ("score", "total"):
        if per[kind]:
            line, spans = kind, []
            for c, item in per[kind]:
                who, number_text = item.split("|", 1)
                spans.append((len(line) + 2, c))
                line += f" {who} {number_text}"
            add(line, spans)
    if per["took"]:
        for n in range(deal_line, len(text_lines) + 1):
            out.took[n] = where(per["took"][0][0])


def _bid_written(r: Any, seat: int, variant: Any) -> bool:
    """The seat's bid is a number of its own, not its call of an auction (the highest call, a dash)."""
    if not r.calls:
        return True
    from ..engine.auction import call_ranks, highest_call
    from ..engine.plan import seat_by_rule

    call = r.calls[seat]
    if call is None or not call.tricks or variant is None or variant.bidding.auction is None:
        return call is not None and bool(call.tricks)
    n = len(r.seats)
    first = seat_by_rule(variant.bidding.first_bidder, r.dealer, n)
    order = [(first + i) % n for i in range(n)]
    return highest_call(r.calls, order, call_ranks(variant.bidding.auction.order)) != seat


def sheet_csv(players: Sequence[str], results: Sequence[Any], headers: Sequence[tuple[str, str]],
              variant: Any = None) -> str:
    """A game's sheet as CSV: ``results`` are the engine's deal results (each with its deal, dealer,
    trump and per seat bid, tricks and points), ``headers`` the record's header lines to keep,
    ``variant`` the rules (needed for an auction's deals: which bids are calls)."""
    buf = io.StringIO()
    for key, value in headers:
        buf.write(f"# {key}: {value}\n")
    w = csv.writer(buf, lineterminator="\n")
    auction = any(r.calls for r in results)
    kinds = ("call", "bid", "took", "score", "total") if auction else ("bid", "took", "score", "total")
    w.writerow(["deal", "cards", "dealer", "trump", *(f"{p} {k}" for p in players for k in kinds)])
    totals = [0] * len(players)
    for r in results:
        r.apply_to(totals)
        if r.event not in ("deal", "abandoned"):
            continue
        cells: list[object] = [r.deal.number, r.deal.cards, players[r.dealer],
                               "" if r.calls else "none" if r.trump is None else r.trump.value]
        for s, seat in enumerate(r.seats):
            if auction:
                call = r.calls[s] if r.calls else None
                cells.append("" if call is None else "dash" if not call.tricks else
                             f"{call.tricks} {'none' if call.suit is None else call.suit.value}")
            bid = "" if seat.bid is None or not _bid_written(r, s, variant) else seat.bid
            cells += [bid, seat.taken, seat.points + seat.bonus, totals[s]]
        w.writerow(cells)
    return buf.getvalue()
