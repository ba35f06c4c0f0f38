"""The transcript of a game as values: its header lines, its events, the whole record.

The text form these values are read from and written to is shown in
:mod:`updown_dsl.records.transcript` and described in ``docs/transcript-format.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple, Sequence

from ..actions import Action, Bid, Call, ChooseTrump, Play
from ..cards import Card, Suit

HEADER_KEYS = ("variant", "option", "players", "first-dealer", "level", "date", "event", "seed",
               "writer", "rules", "rules-text")
LEVELS = ("full", "plays", "sheet")
UNKNOWN = "??"
#: A whole number as the reader takes it: an optional sign and at most 18 digits (every total a
#: game can reach: a variant whose totals can pass 10**15 is refused at load, ``V015``).
NUMBER = re.compile(r"[+-]?\d{1,18}")

# Events with an actor first (``Anna bid 2``) and events with a keyword first (``hand Anna AS``).
ACTOR_EVENTS = ("bid", "call", "play", "trump", "took", "hint", "undo", "redeal")
#: Lines that note what happened at the table without being part of the game: a suggestion
#: shown to a player (``Anna hint play QS``) and decisions taken back (``Anna undo 3``).
ANNOTATIONS = ("hint", "undo")
KEYWORD_EVENTS = ("deal", "hand", "cut", "turned", "trump", "score", "total", "penalty", "replay",
                  "settlement", "correction", "late", "leave", "out", "adjust", "schedule")


@dataclass(frozen=True, slots=True)
class Header:
    """One ``key: value`` header line (key ``#``: a comment line in the header)."""

    key: str
    value: str
    line: int = 0
    comment: str | None = None


class Event(NamedTuple):
    """One line of a transcript body (an immutable value).

    ``kind`` is one of ``deal hand cut turned trump call bid play took score total penalty
    replay settlement correction late leave out adjust schedule hint undo comment raw``
    (``hint``: the action suggested to ``actor``, its verb in ``code`` and its fields as that
    action's line has them; ``undo``: ``actor`` took back ``number`` action lines; ``correction``: see
    :mod:`~updown_dsl.records.tablelines`; the table's events ``late leave out adjust schedule``:
    :mod:`~updown_dsl.records.tableevents`; ``raw``: a line that could not be read, kept as
    written in ``text``). Which fields are set depends on the kind. The events of a compact
    row all have the row's line; ``col`` and ``arg_col`` are those of their own cell.
    """

    kind: str
    line: int = 0
    col: int = 1
    actor: int | None = None
    """Seat (0-based) of the player the line is about."""
    number: int | None = None
    """Deal number, bid, a call's tricks (0: a dash), tricks taken or penalty points."""
    size: int | None = None
    """``deal``: cards per player, when written."""
    cards: tuple[Card | None, ...] = ()
    """``hand``, ``cut``, ``turned``: cards (None for ``??``)."""
    play: Play | None = None
    """``play``: the card and declaration (None for ``??``)."""
    suit: Suit | None = None
    """``trump``, ``call``: the suit (None with ``no_trump`` for no trump)."""
    no_trump: bool = False
    amounts: tuple[int | None, ...] = ()
    """``score``, ``total``, ``settlement``: one amount per seat (None: not written)."""
    code: str | None = None
    """``penalty``: the rule broken (e.g. ``R010``)."""
    text: str = ""
    """``comment``: the text after ``#``; ``raw``: the line; ``deal`` of a compact row the
    reader could not read in full: the row as written (the writer writes it back so)."""
    comment: str | None = None
    """A ``# comment`` at the end of the line."""
    arg_col: int = 0
    """Column of the line's first argument (the card of a ``play``, the number of a ``bid``)."""
    cells: tuple[int, ...] = ()
    """``score``, ``total``, ``settlement`` read from text: the 1-based column of each seat's
    number (0 where the seat is not written), so a diagnostic about one player's number can
    point at it. Empty for an event not read from text (e.g. made by ``game_transcript``)."""
    row: bool = False
    """The event is part of a compact score-sheet row (``deal … | cell | cell …``, see
    :mod:`updown_dsl.records.compact`): read from one, or to be written in one. The writer
    writes a ``deal`` event with ``row`` set and the row events after it as one line."""

    def replace(self, **changes: object) -> Event:
        """This event with some fields changed."""
        return self._replace(**changes)  # type: ignore[arg-type]

    def as_call(self) -> Call:
        """A ``call`` event's call (a dash for 0 tricks)."""
        return Call(self.number or 0, None if self.no_trump or not self.number else self.suit)

    @property
    def action(self) -> Action | None:
        """The action the line records: a ``bid``'s Bid, a ``call``'s Call, a player's ``trump``
        (ChooseTrump) or a ``play``'s Play; None for any other line and for a card written
        ``??``."""
        kind = self.kind
        if kind == "play":
            return self.play
        if kind == "bid":
            return Bid(self.number or 0)
        if kind == "call":
            return self.as_call()
        if kind == "trump" and self.actor is not None:
            return ChooseTrump(None if self.no_trump else self.suit)
        return None

    @property
    def hinted(self) -> Action | None:
        """A ``hint`` line's suggested action (None for any other line)."""
        return self._replace(kind=self.code).action if self.kind == "hint" and self.code else None


@dataclass(frozen=True, slots=True)
class Transcript:
    """A whole record: header, players and body events in file order."""

    headers: tuple[Header, ...]
    players: tuple[str, ...]
    events: tuple[Event, ...]
    path: str | None = None

    def header(self, key: str) -> str | None:
        """The value of the first header line with ``key``, or None."""
        for h in self.headers:
            if h.key == key:
                return h.value
        return None

    @property
    def variant(self) -> str | None:
        """The variant named in the header (bundled name or path)."""
        return self.header("variant")

    @property
    def options(self) -> tuple[tuple[str, str], ...]:
        """``option: key.path=value`` overrides, in order."""
        out = []
        for h in self.headers:
            if h.key == "option" and "=" in h.value:
                k, v = h.value.split("=", 1)
                out.append((k.strip(), v.strip()))
        return tuple(out)

    @property
    def first_dealer(self) -> int | None:
        """Seat of the first dealer, when the header names one."""
        name = self.header("first-dealer")
        return None if name is None else seat_of(self.players, name)

    @property
    def level(self) -> str:
        """``full`` (hands dealt), ``plays`` (cards without hands) or ``sheet`` (bids and scores)."""
        written = self.header("level")
        if written in LEVELS:
            return written
        kinds = {e.kind for e in self.events}
        if "hand" in kinds:
            return "full"
        if "play" in kinds:
            return "plays"
        return "sheet"

    def deals(self) -> list[list[Event]]:
        """The body split into deal blocks (each starts with its ``deal`` event), as played: the
        action lines an ``undo`` took back, and the ``hint`` and ``undo`` lines themselves, are
        left out (:meth:`annotations` has them)."""
        events = self.events
        kinds = [e[0] for e in events]
        starts = [i for i, k in enumerate(kinds) if k == "deal"]
        blocks = [list(events[i:j]) for i, j in zip(starts, starts[1:] + [len(events)])]
        if "settlement" in kinds:
            blocks = [[e for e in b if e.kind != "settlement"] for b in blocks]
        if "hint" in kinds or "undo" in kinds:
            blocks = [as_played(b)[0] for b in blocks]
        if "redeal" in kinds:
            blocks = [part for b in blocks for part in _after_redeal(b)]
        return blocks

    def deals_as_written(self) -> list[list[Event]]:
        """The body split into deal blocks with every line (taken back or not)."""
        events = self.events
        starts = [i for i, e in enumerate(events) if e.kind == "deal"]
        return [list(events[i:j]) for i, j in zip(starts, starts[1:] + [len(events)])]

    def annotations(self) -> list[tuple[int, Event, tuple[Event, ...]]]:
        """Every ``hint`` and ``undo`` line: its deal block's index, the line, and for an
        ``undo`` the action lines it took back (in order)."""
        out: list[tuple[int, Event, tuple[Event, ...]]] = []
        for k, block in enumerate(self.deals_as_written()):
            if any(e.kind in ANNOTATIONS for e in block):
                _, notes, _ = as_played(block)
                out += [(k, e, back) for e, back in notes]
        return out


#: The ``code`` of a ``deal`` event a record did not write: the deal dealt again after a
#: ``redeal`` line whose lines follow it without their own ``deal`` line.
IMPLIED = "implied"


def _after_redeal(block: list[Event]) -> list[list[Event]]:
    """A block with lines after a ``redeal``: the deal as far as the redeal, then the deal dealt
    again, under the same ``deal`` line (marked :data:`IMPLIED`, at the first line after)."""
    for k, e in enumerate(block):
        if e.kind == "redeal":
            rest = block[k + 1:]
            first = next((x for x in rest if x.kind not in ("comment", "raw")), None)
            if first is None:
                break
            header = block[0]._replace(code=IMPLIED, line=first.line, col=1)
            return [block[:k + 1]] + _after_redeal([header, *rest])
    return [block]


def as_played(block: Sequence[Event]) -> tuple[list[Event], list[tuple[Event, tuple[Event, ...]]], list[Event]]:
    """A deal block as played: without the action lines each ``undo`` took back (the last
    ``number`` action lines before it that are still in play, the first of them its player's)
    and without the ``hint`` and ``undo`` lines; those lines with what each took back; and the
    ``undo`` lines that do not fit (more lines than there are, or the first not its player's:
    they take nothing back)."""
    kept: list[Event] = []
    notes: list[tuple[Event, tuple[Event, ...]]] = []
    misfits: list[Event] = []
    for e in block:
        if e.kind == "hint":
            notes.append((e, ()))
        elif e.kind == "undo":
            count = e.number or 0
            actions = [k for k, x in enumerate(kept) if x.kind in ("bid", "call", "play") or
                       (x.kind == "trump" and x.actor is not None)]
            if count < 1 or count > len(actions) or kept[actions[-count]].actor != e.actor:
                misfits.append(e)
                notes.append((e, ()))
                continue
            back = [kept[k] for k in actions[-count:]]
            drop = set(actions[-count:])
            kept = [x for k, x in enumerate(kept) if k not in drop]
            notes.append((e, tuple(back)))
        else:
            kept.append(e)
    return kept, notes, misfits


def seat_of(players: tuple[str, ...], name: str) -> int | None:
    """The seat of a player written as a name (any case) or as ``p1``…``pN``."""
    for i, p in enumerate(players):
        if p == name:
            return i
    low = name.lower()
    for i, p in enumerate(players):
        if p.lower() == low:
            return i
    m = re.fullmatch(r"[pP](\d+)", name)
    if m and 1 <= int(m.group(1)) <= len(players):
        return int(m.group(1)) - 1
    return None
