"""Writing a transcript in its canonical form (read back and written again, byte for byte
the same)."""

from __future__ import annotations

from typing import Iterable, Iterator

from .model import UNKNOWN, Event, Header, Transcript

def _amounts_text(players: tuple[str, ...], amounts: Iterable[int | None]) -> str:
    return "".join(f" {p} {a}" for p, a in zip(players, amounts) if a is not None)


def format_event(event: Event, players: tuple[str, ...]) -> str:
    """One event as its canonical line (without a newline)."""
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
        line = " ".join([k, who, *(UNKNOWN if c is None else str(c) for c in event.cards)])
    elif k == "turned":
        c = event.cards[0] if event.cards else None
        line = f"turned {UNKNOWN if c is None else c}"
    elif k == "trump":
        suit = "none" if event.no_trump or event.suit is None else event.suit.value
        line = f"{who} trump {suit}" if event.actor is not None else f"trump {suit}"
    elif k in ("bid", "took"):
        line = f"{who} {k} {event.number}"
    elif k == "play":
        line = f"{who} play {UNKNOWN if event.play is None else event.play}"
    elif k in ("score", "total", "settlement"):
        line = f"{k}{_amounts_text(players, event.amounts)}"
    elif k == "penalty":
        line = f"penalty {who} {event.number}" + (f" {event.code}" if event.code else "")
    elif k == "replay":
        line = "replay"
    else:  # pragma: no cover - kinds are closed
        raise ValueError(f"unknown event kind {k!r}")
    if event.comment is not None:
        line += f"  # {event.comment}" if event.comment else "  #"
    return line


def format_header(h: Header) -> str:
    """One header line in canonical form."""
    if h.key == "#":
        return f"# {h.value}" if h.value else "#"
    line = f"{h.key}: {h.value}"
    if h.comment is not None:
        line += f"  # {h.comment}" if h.comment else "  #"
    return line


def format_transcript(t: Transcript) -> str:
    """The canonical text of a transcript (ends with a newline).

    Header lines keep their order; a transcript made by :func:`new_transcript`
    has them in the order of ``HEADER_KEYS``.
    """
    lines = [format_header(h) for h in t.headers]
    for e in t.events:
        if e.kind == "deal" or (e.kind == "settlement" and lines and lines[-1] != ""):
            lines.append("")
        lines.append(format_event(e, t.players))
    return "\n".join(lines) + "\n"


def iter_lines(t: Transcript) -> Iterator[str]:
    """The canonical text line by line (for writing a game as it goes)."""
    yield from format_transcript(t).splitlines()
