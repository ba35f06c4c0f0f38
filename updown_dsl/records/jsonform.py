"""The lossless JSON form of a transcript, which keeps every line's number.

Each event is one entry; the events of a compact score-sheet row share the row's line and
say ``"row": true`` (see :mod:`~updown_dsl.records.compact`), so the text written back
from the JSON form has the same rows.
"""

from __future__ import annotations

from dataclasses import replace

from ..i18n import tr
from ..diagnostics import Diagnostic
from .model import UNKNOWN, Event, Header, Transcript
from .reader import parse_transcript
from .tableevents import KINDS as TABLE_KINDS, json_entry as table_entry
from .tablelines import json_entry
from .writer import format_header

#: The largest JSON form read (bytes): a game is a few hundred kilobytes; more is not read.
MAX_JSON_BYTES = 64 * 1024 * 1024


def read_json_bytes(stream: object) -> bytes:
    """The JSON form from a binary stream, at most :data:`MAX_JSON_BYTES` and one more (so that
    :func:`load_json` can say it is too large) -- never the whole of an endless stream."""
    parts, size = [], 0
    while size <= MAX_JSON_BYTES:  # a pipe gives what it has: read until the end or the limit
        part = stream.read(MAX_JSON_BYTES + 1 - size)  # type: ignore[attr-defined]
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def load_json(data: bytes | str, path: str | None = None) -> tuple[object, Diagnostic | None]:
    """The JSON value of ``data``, or None and the diagnostic that says why it is not JSON
    (``T001``, also when it is larger than :data:`MAX_JSON_BYTES`; ``T018`` when it is nested
    more deeply than Python's parser can follow)."""
    import json

    if len(data) > MAX_JSON_BYTES:
        return None, Diagnostic("T001", tr("the JSON form is larger than {mb} MB: it is not read",
                                           mb=MAX_JSON_BYTES >> 20), path=path, line=1, col=1)

    try:
        return json.loads(data), None
    except RecursionError:
        return None, Diagnostic("T018", tr("the JSON is nested too deeply to read (a record nests four levels)"),
                                path=path, line=1, col=1)
    except (ValueError, UnicodeDecodeError) as exc:
        return None, Diagnostic("T001", tr("not valid JSON: {exc}", exc=exc), path=path, line=1, col=1)


def transcript_to_json(t: Transcript) -> dict[str, object]:
    """A lossless JSON-ready form of the transcript."""

    def ev(e: Event) -> dict[str, object]:
        if e.kind == "correction":
            return json_entry(e, t.players)
        if e.kind in TABLE_KINDS:
            out_table: dict[str, object] = table_entry(e, t.players)
            if e.comment is not None:
                out_table["comment"] = e.comment
            return out_table
        out: dict[str, object] = {"kind": e.kind, "line": e.line}
        if e.kind == "hint":  # the action shown, as its line writes it: {"action": "play QS"}
            from .writer import hint_action

            out["player"] = t.players[e.actor or 0]
            out["action"] = hint_action(e, t.players)
            if e.comment is not None:
                out["comment"] = e.comment
            return out
        if e.actor is not None:
            out["player"] = t.players[e.actor]
        if e.number is not None:
            out["number"] = e.number
        if e.size is not None:
            out["cards_each"] = e.size
        if e.cards:
            out["cards"] = [UNKNOWN if c is None else str(c) for c in e.cards]
        if e.kind == "play":
            out["play"] = UNKNOWN if e.play is None else str(e.play)
        if e.kind in ("trump", "call"):
            out["suit"] = None if e.no_trump or e.suit is None else e.suit.value
        if e.amounts:
            out["amounts"] = {p: a for p, a in zip(t.players, e.amounts) if a is not None}
        if e.code is not None:
            out["code"] = e.code
        if e.kind in ("comment", "raw") or e.text:
            out["text"] = e.text
        if e.comment is not None:
            out["comment"] = e.comment
        if e.row:
            out["row"] = True
        return out

    return {
        "format": "updown-transcript",
        "version": 1,
        "headers": [
            {"key": h.key, "value": h.value, "line": h.line,
             **({"comment": h.comment} if h.comment is not None else {})}
            for h in t.headers
        ],
        "players": list(t.players),
        "events": [ev(e) for e in t.events],
    }


def transcript_from_json(data: object, path: str | None = None) -> tuple[Transcript | None, list[Diagnostic]]:
    """Read the JSON form back; never raises (``T001`` when it is not a transcript)."""
    if not isinstance(data, dict) or data.get("format") != "updown-transcript":
        return None, [Diagnostic("T001", tr("not an updown transcript in JSON form"), path=path, line=1, col=1)]
    try:
        players = tuple(str(p) for p in data.get("players", []))
        headers = data.get("headers", [])
        entries = [
            (h.get("line"), format_header(Header(str(h["key"]), str(h["value"]), 0,
                                                 None if h.get("comment") is None else str(h["comment"]))))
            for h in headers
        ]
        rows: set[int] = set()
        as_written = None  # the line of a row written as it was (its deal's text): its events are in it
        for e in data.get("events", []):
            row = e.get("row") is True
            if row and e.get("kind") != "deal" and as_written is not None and e.get("line") == as_written:
                continue
            as_written = e.get("line") if row and e.get("kind") == "deal" and e.get("text") else None
            if row:
                rows.add(len(entries))
            entries.append((e.get("line"), _json_line(e, players)))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return None, [Diagnostic("T001", tr("a JSON transcript entry is malformed: {exc}",
                                            exc=exc), path=path,
                                 line=1, col=1)]
    lines: list[str] = []
    where: dict[int, int] = {}  # line of the text read -> the entry's own line, where they differ
    row_lines: set[int] = set()
    for k, (line_no, text) in enumerate(entries):
        if "\n" in text or "\r" in text:
            return None, [Diagnostic("T001", tr("a JSON transcript entry holds a line break"), path=path,
                                     line=1, col=1)]
        # Keep each entry on the line it came from, so diagnostics point at the same lines.
        valid = isinstance(line_no, int) and not isinstance(line_no, bool) and 0 < line_no <= 10**6
        if valid and len(lines) + 1 < line_no:
            lines.extend([""] * (line_no - 1 - len(lines)))
        lines.append(text)
        if valid and line_no != len(lines):
            where[len(lines)] = line_no  # the events of a row share its line: each has one here
        if k in rows:
            row_lines.add(len(lines))
    t, diags = parse_transcript("\n".join(lines) + "\n", path)
    if t is None or not (where or row_lines):
        return t, diags
    events = tuple(e._replace(line=where.get(e.line, e.line), row=e.line in row_lines and e.kind != "raw")
                   for e in t.events)
    diags = [d if d.line not in where else replace(d, line=where[d.line]) for d in diags]
    return Transcript(t.headers, t.players, events, t.path), diags


def _json_line(e: dict[str, object], players: tuple[str, ...]) -> str:
    kind = str(e["kind"])
    who = str(e.get("player", ""))
    if kind == "comment":
        line = f"# {e.get('text', '')}".rstrip()
        return line
    if kind == "raw":
        line = str(e.get("text", ""))
        if "comment" in e:
            line += f"  # {e['comment']}" if e["comment"] else "  #"
        return line
    if kind == "deal" and e.get("text"):
        line = str(e["text"])
    elif kind == "deal":
        line = f"deal {e['number']}"
        if "cards_each" in e:
            line += f" cards {e['cards_each']}"
        if who:
            line += f" dealer {who}"
    elif kind in ("hand", "cut"):
        cards = e.get("cards", [])
        line = " ".join([kind, who, *(str(c) for c in (cards if isinstance(cards, list) else []))])
    elif kind == "turned":
        cards = e.get("cards")
        if not isinstance(cards, list) or len(cards) != 1:
            raise ValueError("a 'turned' entry needs one card")
        line = f"turned {cards[0]}"
    elif kind == "trump":
        suit = e.get("suit") or "none"
        line = f"{who} trump {suit}" if who else f"trump {suit}"
    elif kind in ("bid", "took", "undo"):
        line = f"{who} {kind} {e['number']}"
    elif kind == "call":
        line = f"{who} call dash" if not e.get("number") else f"{who} call {e['number']} {e.get('suit') or 'none'}"
    elif kind == "play":
        line = f"{who} play {e['play']}"
    elif kind == "hint":
        line = f"{who} hint {e['action']}"
    elif kind == "redeal":
        line = f"{who} redeal"
    elif kind in ("score", "total", "settlement"):
        amounts = e.get("amounts", {})
        if not isinstance(amounts, dict):
            raise ValueError(f"'amounts' of a {kind} entry must map players to numbers")
        line = kind + "".join(f" {p} {amounts[p]}" for p in players if p in amounts)
    elif kind == "penalty":
        line = f"penalty {who} {e['number']}" + (f" {e['code']}" if e.get("code") else "")
    elif kind == "replay":
        line = "replay"
    elif kind == "correction" or kind in TABLE_KINDS:
        line = f"{kind} {e['text']}"
    else:
        raise ValueError(f"unknown event kind {kind!r}")
    if "comment" in e:
        line += f"  # {e['comment']}" if e["comment"] else "  #"
    return line
