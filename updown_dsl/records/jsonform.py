"""The lossless JSON form of a transcript, which keeps every line's number."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from .model import UNKNOWN, Event, Header, Transcript
from .reader import parse_transcript
from .writer import format_header

def load_json(data: bytes | str, path: str | None = None) -> tuple[object, Diagnostic | None]:
    """The JSON value of ``data``, or None and the diagnostic that says why it is not JSON
    (``T001``; ``T018`` when it is nested more deeply than Python's parser can follow)."""
    import json

    try:
        return json.loads(data), None
    except RecursionError:
        return None, Diagnostic("T018", "the JSON is nested too deeply to read (a record nests four levels)",
                                path=path, line=1, col=1)
    except (ValueError, UnicodeDecodeError) as exc:
        return None, Diagnostic("T001", f"not valid JSON: {exc}", path=path, line=1, col=1)


def transcript_to_json(t: Transcript) -> dict[str, object]:
    """A lossless JSON-ready form of the transcript."""

    def ev(e: Event) -> dict[str, object]:
        out: dict[str, object] = {"kind": e.kind, "line": e.line}
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
        if e.kind == "trump":
            out["suit"] = None if e.no_trump or e.suit is None else e.suit.value
        if e.amounts:
            out["amounts"] = {p: a for p, a in zip(t.players, e.amounts) if a is not None}
        if e.code is not None:
            out["code"] = e.code
        if e.kind in ("comment", "raw"):
            out["text"] = e.text
        if e.comment is not None:
            out["comment"] = e.comment
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
        return None, [Diagnostic("T001", "not an updown transcript in JSON form", path=path, line=1, col=1)]
    try:
        players = tuple(str(p) for p in data.get("players", []))
        entries = [
            (h.get("line"), format_header(Header(str(h["key"]), str(h["value"]), 0,
                                                 None if h.get("comment") is None else str(h["comment"]))))
            for h in data.get("headers", [])
        ]
        entries += [(e.get("line"), _json_line(e, players)) for e in data.get("events", [])]
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return None, [Diagnostic("T001", f"a JSON transcript entry is malformed: {exc}", path=path,
                                 line=1, col=1)]
    lines: list[str] = []
    for line_no, text in entries:
        if "\n" in text or "\r" in text:
            return None, [Diagnostic("T001", "a JSON transcript entry holds a line break", path=path,
                                     line=1, col=1)]
        # Keep each entry on the line it came from, so diagnostics point at the same lines.
        if isinstance(line_no, int) and not isinstance(line_no, bool) and len(lines) + 1 < line_no <= 10**6:
            lines.extend([""] * (line_no - 1 - len(lines)))
        lines.append(text)
    return parse_transcript("\n".join(lines) + "\n", path)


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
    if kind == "deal":
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
    elif kind in ("bid", "took"):
        line = f"{who} {kind} {e['number']}"
    elif kind == "play":
        line = f"{who} play {e['play']}"
    elif kind in ("score", "total", "settlement"):
        amounts = e.get("amounts", {})
        if not isinstance(amounts, dict):
            raise ValueError(f"'amounts' of a {kind} entry must map players to numbers")
        line = kind + "".join(f" {p} {amounts[p]}" for p in players if p in amounts)
    elif kind == "penalty":
        line = f"penalty {who} {e['number']}" + (f" {e['code']}" if e.get("code") else "")
    elif kind == "replay":
        line = "replay"
    else:
        raise ValueError(f"unknown event kind {kind!r}")
    if "comment" in e:
        line += f"  # {e['comment']}" if e["comment"] else "  #"
    return line
