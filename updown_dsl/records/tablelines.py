"""A sheet kept at the table, as values: what the table gave for each deal (:class:`KeptDeal`,
read from a sheet-level record by :func:`sheet_deals`), and the line a score keeper adds to a
sheet: a correction of a past deal, with what it changed and when.

A correction stands in the block of the deal it corrects, after the deal's row::

    deal 2 cards 2 dealer Anna trump H | 1 1 10 11 | 0 1 1 1 | 0 0 5 10 | 1 0 -10 0
    correction Anna bid 0 to 1 at deal 5 on 2024-05-18T21:03

Anna's bid in deal 2 was written 0 and corrected to 1 while deal 5 was being kept (``on``:
the time, free text without blanks, may be left out). The row holds the numbers as
corrected; the line keeps what was there before. The checker reads the row as any other and
holds the line to it (:func:`correction_problems`: ``R056``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from ..actions import Call
from ..cards import Suit
from ..i18n import tr
from .model import NUMBER, Event, Transcript
from .tableevents import KINDS, LineError, TableLines

#: The numbers of a deal a correction can change.
FIELDS = ("bid", "took")


@dataclass(frozen=True)
class Correction:
    """A number of a finished deal changed later: ``field`` of ``seat`` in deal ``deal`` went
    from ``old`` (None: not written) to ``new``, while deal ``at`` was being kept."""

    deal: int
    seat: int
    field: str
    """``bid`` or ``took``."""
    old: int | None
    new: int
    at: int
    when: str = ""
    """The time it was made, as written (no blanks)."""

    @classmethod
    def of_event(cls, e: Event, deal: int) -> Correction:
        """The correction a ``correction`` line of deal ``deal`` holds."""
        at = e.amounts[0] if e.amounts and e.amounts[0] is not None else deal
        return cls(deal, e.actor or 0, e.code or "bid", e.size, e.number or 0, at, e.text)


def correction_event(c: Correction) -> Event:
    """The ``correction`` line of ``c``."""
    return Event("correction", actor=c.seat, code=c.field, size=c.old, number=c.new, amounts=(c.at,),
                 text=c.when)


@dataclass(frozen=True)
class KeptDeal:
    """One deal as the table gave it (seat order; None: not given yet, or no bid)."""

    trump: Suit | None = None
    trump_given: bool = False
    """The table said the trump (``trump`` None and given: no trump)."""
    calls: tuple[Call | None, ...] = ()
    bids: tuple[int | None, ...] = ()
    took: tuple[int, ...] | None = None
    out: frozenset[int] = frozenset()
    """The seats that sit the deal out (:mod:`~updown_dsl.records.tableevents`)."""
    cards: int | None = None
    """The number of cards each, when the table changed the schedule's."""
    table: tuple[Event, ...] = ()
    """The deal's table lines as they are written (``late``, ``leave``, ``out``, ``adjust``,
    ``schedule``)."""

    @property
    def short(self) -> bool:
        """The deal is not played by the whole table as the schedule has it."""
        return bool(self.out) or self.cards is not None

    @property
    def done(self) -> bool:
        """The deal is finished: its tricks are in."""
        return self.took is not None


def sheet_deals(t: Transcript) -> tuple[list[KeptDeal], list[Correction]]:
    """The deals of a sheet-level record as the table gave them (the last one possibly
    unfinished), and its corrections."""
    n = len(t.players)
    deals: list[KeptDeal] = []
    corrections: list[Correction] = []
    table = TableLines.of(t)
    for i, block in enumerate(t.deals()):
        kept = KeptDeal(bids=(None,) * n)
        if table is not None:
            kept = replace(kept, out=table.absent(i), cards=table.size(i),
                           table=tuple(e for e in block if e.kind in KINDS))
        bids: list[int | None] = [None] * n
        calls: list[Call | None] = [None] * n
        took: list[int | None] = [None] * n
        for e in block[1:]:
            if e.kind == "trump":
                kept = replace(kept, trump=None if e.no_trump else e.suit, trump_given=True)
            elif e.kind == "bid" and e.actor is not None:
                bids[e.actor] = e.number
            elif e.kind == "call" and e.actor is not None:
                calls[e.actor] = e.as_call()
            elif e.kind == "took" and e.actor is not None:
                took[e.actor] = e.number
            elif e.kind == "correction":
                corrections.append(Correction.of_event(e, block[0].number or 0))
        full = all(x is not None for s, x in enumerate(took) if s not in kept.out)
        deals.append(replace(kept, bids=tuple(bids), calls=tuple(calls) if any(calls) else (),
                             took=tuple(x or 0 for x in took) if full else None))
    return deals, corrections


def with_table(deals: Sequence[KeptDeal], lines: dict[int, list[Event]], players: tuple[str, ...]
               ) -> list[KeptDeal]:
    """``deals`` with their table lines (deal number -> its ``late``, ``leave``, ``out``,
    ``adjust``, ``schedule`` events), who sits each out and its number of cards worked out
    from them as the checker does."""
    events: list[Event] = []
    for k in range(len(deals)):
        events += [Event("deal", number=k + 1), *lines.get(k + 1, [])]
    table = TableLines.of(Transcript((), players, tuple(events)))
    if table is None:
        return list(deals)
    return [replace(d, out=table.absent(k), cards=table.size(k), table=tuple(lines.get(k + 1, [])))
            for k, d in enumerate(deals)]



_HINT = "e.g. 'correction Anna bid 0 to 1 at deal 5'"


def read_correction(seat: Callable[[list[str], int], int], words: list[str], line: int, col: int,
                    comment: str | None, arg: int) -> Event:
    """A ``correction`` line's event (``seat`` reads a player's name at a word's index).

    :raises LineError: when the line is not ``correction NAME bid|took OLD to NEW at deal N
        [on TIME]``.
    """
    if len(words) not in (9, 11) or words[4].lower() != "to" or words[6].lower() != "at" \
            or words[7].lower() != "deal":
        raise LineError("T002", tr("'correction' takes a player, bid or took, the number before, 'to', "
                                   "the number now and 'at deal N'"), 0, hint=_HINT)
    if len(words) == 11 and words[9].lower() != "on":
        raise LineError("T002", tr("after 'at deal N' a correction takes only 'on TIME'"), 9, hint=_HINT)
    field = words[2].lower()
    if field not in FIELDS:
        raise LineError("T002", tr("a correction changes a bid or the tricks taken (took), not {word!r}",
                                   word=words[2]), 2, hint=_HINT)
    numbers: list[int | None] = []
    for k in (3, 5, 8):
        w = words[k]
        if w == "-" and k == 3:
            numbers.append(None)
        elif NUMBER.fullmatch(w):
            numbers.append(int(w))
        else:
            raise LineError("T004", tr("not a whole number: {word!r}", word=w), k)
    old, new, at = numbers
    who = seat(words, 1)
    return Event("correction", line, col, actor=who, number=new, size=old, code=field,
                 amounts=(at,), text=words[10] if len(words) == 11 else "", comment=comment, arg_col=arg)


def correction_args(e: Event, players: Sequence[str]) -> str:
    """The words of a ``correction`` line after its keyword."""
    who = players[e.actor] if e.actor is not None else ""
    old = "-" if e.size is None else str(e.size)
    at = e.amounts[0] if e.amounts else None
    text = f"{who} {e.code} {old} to {e.number} at deal {at}"
    return text + (f" on {e.text}" if e.text else "")


def correction_problems(e: Event, block: Sequence[Event], deal: int, names: Sequence[str]
                        ) -> list[tuple[str, str, str | None]]:
    """What is wrong with a ``correction`` line of deal ``deal`` (``block``: the deal's lines):
    ``(code, message, hint)`` each, ``R056``. The number it gives must be the one the deal
    holds now, unless a later correction of the same number follows; it must change the number;
    and it must be made at this deal or later."""
    out: list[tuple[str, str, str | None]] = []
    who = names[e.actor] if e.actor is not None and 0 <= e.actor < len(names) else "?"
    at = e.amounts[0] if e.amounts else None
    if at is not None and at < deal:
        out.append(("R056", tr("the correction of {player}'s {field} in deal {number} is said to be made at deal {at}, before the deal was played",
                               player=who, field=e.code, number=deal, at=at), None))
    if e.size == e.number:
        out.append(("R056", tr("the correction of {player}'s {field} in deal {number} changes nothing ({old} to {new})",
                               player=who, field=e.code, number=deal, old=e.size, new=e.number), None))
    later = [x for x in block if x.kind == "correction" and x.actor == e.actor and x.code == e.code
             and x.line > e.line]
    if not later:
        written = [x.number for x in block if x.kind == e.code and x.actor == e.actor]
        if written and written[-1] != e.number:
            out.append(("R056", tr("deal {number} gives {player}'s {field} as {written}, but its correction says {new}",
                                   number=deal, player=who, field=e.code, written=written[-1], new=e.number),
                        tr("write the corrected number in the deal's row")))
    return out


def json_entry(e: Event, players: Sequence[str]) -> dict[str, Any]:
    """The JSON form's entry of a line this module reads (its words in ``text``)."""
    return {"kind": e.kind, "line": e.line, "text": correction_args(e, players)}
