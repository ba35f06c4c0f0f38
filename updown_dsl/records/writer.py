"""Writing a transcript in its canonical form (read back and written again, byte for byte
the same)."""

from __future__ import annotations

from typing import Iterable, Iterator

from ..actions import Play
from ..cards import Card, card_text, suit_text
from .compact import cells_text, take_row
from .model import UNKNOWN, Event, Header, Transcript
from .tableevents import KINDS as TABLE_KINDS, table_line
from .tablelines import correction_args


def _amounts_text(players: tuple[str, ...], amounts: Iterable[int | None]) -> str:
    return "".join(f" {p} {a}" for p, a in zip(players, amounts) if a is not None)


def _card(c: Card | None, cards: str) -> str:
    return UNKNOWN if c is None else card_text(c, cards)


def _play(p: Play | None, cards: str) -> str:
    if p is None:
        return UNKNOWN
    if cards == "en":
        return str(p)
    parts = [card_text(p.card, cards)]
    if p.declare:
        parts.append(p.declare)
    if p.suit is not None:
        parts.append(suit_text(p.suit, cards))
    if p.as_card is not None:
        parts.append(card_text(p.as_card, cards))
    return " ".join(parts)


def format_event(event: Event, players: tuple[str, ...], cards: str = "en") -> str:
    """One event as its canonical line (without a newline); ``cards="ru"`` writes the cards
    and suits in Russian letters (``Тп``, ``10ч``, ``trump б``), read back as the same."""
    k = event.kind
    who = players[event.actor] if event.actor is not None else ""
    if k == "comment":
        text = f"# {event.text}" if event.text else "#"
        return text
    if k == "raw":
        line = event.text
        if event.comment is not None:
            line += f"  # {event.comment}" if event.comment else "  #"
        return line
    if k == "deal":
        parts = [f"deal {event.number}"]
        if event.size is not None:
            parts.append(f"cards {event.size}")
        if event.actor is not None:
            parts.append(f"dealer {who}")
        line = " ".join(parts)
    elif k in ("hand", "cut"):
        line = " ".join([k, who, *(_card(c, cards) for c in event.cards)])
    elif k == "turned":
        c = event.cards[0] if event.cards else None
        line = f"turned {_card(c, cards)}"
    elif k == "trump":
        suit = _suit_text(event, cards)
        line = f"{who} trump {suit}" if event.actor is not None else f"trump {suit}"
    elif k in ("bid", "took", "undo"):
        line = f"{who} {k} {event.number}"
    elif k == "call":
        line = f"{who} call dash" if not event.number else f"{who} call {event.number} {_suit_text(event)}"
    elif k == "play":
        line = f"{who} play {_play(event.play, cards)}"
    elif k == "hint":
        line = f"{who} hint {hint_action(event, players, cards)}"
    elif k == "redeal":
        line = f"{who} redeal"
    elif k in ("score", "total", "settlement"):
        line = f"{k}{_amounts_text(players, event.amounts)}"
    elif k == "penalty":
        line = f"penalty {who} {event.number}" + (f" {event.code}" if event.code else "")
    elif k == "replay":
        line = "replay"
    elif k == "correction":
        line = "correction " + correction_args(event, players)
    elif k in TABLE_KINDS:
        line = table_line(event, players)
    else:  # pragma: no cover - kinds are closed
        raise ValueError(f"unknown event kind {k!r}")
    if event.comment is not None:
        line += f"  # {event.comment}" if event.comment else "  #"
    return line


def hint_action(event: Event, players: tuple[str, ...], cards: str = "en") -> str:
    """A ``hint`` line's action as its own line writes it, without the player: ``play QS``."""
    line = format_event(event._replace(kind=event.code or "play", comment=None), players, cards)
    return line.split(" ", 1)[1]


def _suit_text(event: Event, cards: str = "en") -> str:
    return "none" if event.no_trump or event.suit is None else suit_text(event.suit, cards)


def _comment_text(comment: str | None) -> str:
    if comment is None:
        return ""
    return f"  # {comment}" if comment else "  #"


def format_row(events: tuple[Event, ...], start: int, players: tuple[str, ...],
               cards: str = "en") -> tuple[str, int]:
    """The compact row that starts at the ``deal`` event ``events[start]`` (one with ``row``
    set), and the index of the first event after it."""
    deal = events[start]
    trump, cells, end = take_row(events, start, len(players))
    if deal.text:  # a row the reader could not read in full: as written
        return deal.text + _comment_text(deal.comment), end
    line = format_event(deal._replace(comment=None), players)
    if trump is not None:
        line += f" trump {_suit_text(trump, cards)}"
    return line + cells_text(cells) + _comment_text(deal.comment), end


def format_header(h: Header) -> str:
    """One header line in canonical form."""
    if h.key == "#":
        return f"# {h.value}" if h.value else "#"
    line = f"{h.key}: {h.value}"
    if h.comment is not None:
        line += f"  # {h.comment}" if h.comment else "  #"
    return line


def format_transcript(t: Transcript, cards: str = "en") -> str:
    """The canonical text of a transcript (ends with a newline).

    Header lines keep their order; a transcript made by :func:`new_transcript`
    has them in the order of ``HEADER_KEYS``. A deal whose events are marked ``row`` is
    written as one compact score-sheet row (:mod:`~updown_dsl.records.compact`). ``cards``:
    the notation of the cards (``en`` or ``ru``, :data:`~updown_dsl.cards.NOTATIONS`).
    """
    lines = [format_header(h) for h in t.headers]
    events, players = t.events, t.players
    i = 0
    rows = False  # the last deal was written as a row: the next row follows it without a blank line
    while i < len(events):
        e = events[i]
        if e.kind == "deal":
            row = e.row and bool(players)
            if not (row and rows):
                lines.append("")
            rows = row
            if row:
                line, i = format_row(events, i, players, cards)
                lines.append(line)
                continue
        elif e.kind == "settlement" and lines and lines[-1] != "":
            lines.append("")
        lines.append(format_event(e, players, cards))
        i += 1
    return "\n".join(lines) + "\n"


def iter_lines(t: Transcript, cards: str = "en") -> Iterator[str]:
    """The canonical text line by line (for writing a game as it goes)."""
    yield from format_transcript(t, cards).splitlines()
