"""Game transcripts: a line-oriented record of a game, read laxly, written canonically.

A transcript is a header of ``key: value`` lines, then deal blocks with one event
per line, the actor written out (see ``docs/transcript-format.md``)::

    variant: my-rules
    players: Anna Boris Vera Gleb
    first-dealer: Gleb

    deal 1 cards 1 dealer Gleb
    hand Anna AS
    ...
    turned 10H
    Anna bid 0
    ...
    Anna play AS
    score Anna 5 Boris -10 Vera 10 Gleb 5

:func:`parse_transcript` never raises: it returns the record it could read and
diagnostics (codes ``T…``). :func:`format_transcript` writes the canonical text;
canonical text read and written back is byte-identical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Iterator

from .actions import DECLARATIONS, SUITED_DECLARATIONS, Play
from .cards import Card, CardError, Suit
from .diagnostics import Diagnostic, Severity

#: Header keys in canonical order (``option`` may repeat; ``_``-keys are kept as written).
HEADER_KEYS = ("variant", "option", "players", "first-dealer", "level", "date", "event", "seed",
               "writer", "rules")
LEVELS = ("full", "plays", "sheet")
UNKNOWN = "??"

# Events with an actor first (``Anna bid 2``) and events with a keyword first (``hand Anna AS``).
ACTOR_EVENTS = ("bid", "play", "trump", "took")
KEYWORD_EVENTS = ("deal", "hand", "cut", "turned", "trump", "score", "total", "penalty", "replay",
                  "settlement")


@dataclass(frozen=True, slots=True)
class Header:
    """One ``key: value`` header line (key ``#``: a comment line in the header)."""

    key: str
    value: str
    line: int = 0
    comment: str | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a transcript body.

    ``kind`` is one of ``deal hand cut turned trump bid play took score total penalty
    replay settlement comment raw`` (``raw``: a line that could not be read, kept as
    written in ``text``). Which fields are set depends on the kind.
    """

    kind: str
    line: int = 0
    col: int = 1
    actor: int | None = None
    """Seat (0-based) of the player the line is about."""
    number: int | None = None
    """Deal number, bid, tricks taken or penalty points."""
    size: int | None = None
    """``deal``: cards per player, when written."""
    cards: tuple[Card | None, ...] = ()
    """``hand``, ``cut``, ``turned``: cards (None for ``??``)."""
    play: Play | None = None
    """``play``: the card and declaration (None for ``??``)."""
    suit: Suit | None = None
    """``trump``: the suit (None with ``no_trump`` for no trump)."""
    no_trump: bool = False
    amounts: tuple[int | None, ...] = ()
    """``score``, ``total``, ``settlement``: one amount per seat (None: not written)."""
    code: str | None = None
    """``penalty``: the rule broken (e.g. ``R010``)."""
    text: str = ""
    """``comment``: the text after ``#``."""
    comment: str | None = None
    """A ``# comment`` at the end of the line."""
    arg_col: int = 0
    """Column of the line's first argument (the card of a ``play``, the number of a ``bid``)."""


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
            return written  # type: ignore[return-value]
        kinds = {e.kind for e in self.events}
        if "hand" in kinds:
            return "full"
        if "play" in kinds:
            return "plays"
        return "sheet"

    def deals(self) -> list[list[Event]]:
        """The body split into deal blocks (each starts with its ``deal`` event)."""
        blocks: list[list[Event]] = []
        for e in self.events:
            if e.kind == "deal":
                blocks.append([e])
            elif blocks and e.kind != "settlement":
                blocks[-1].append(e)
        return blocks


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


# ---------------------------------------------------------------------------- reading


class _Reader:
    def __init__(self, path: str | None) -> None:
        self.path = path
        self.diags: list[Diagnostic] = []
        self.headers: list[Header] = []
        self.players: tuple[str, ...] = ()
        self.events: list[Event] = []
        self.in_body = False

    def err(self, code: str, msg: str, line: int, col: int = 1, hint: str | None = None,
            severity: Severity = Severity.ERROR) -> None:
        self.diags.append(Diagnostic(code, msg, severity, self.path, line, col, hint=hint))

    def read(self, text: str) -> None:
        # Only "\n" ends a line (as in iter_transcripts): form feeds and the like are text.
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        for number, raw in enumerate(lines, start=1):
            self.line(raw.rstrip("\r"), number)

    def line(self, raw: str, number: int) -> None:
        raw = raw.replace("\ufeff", "")  # a byte-order mark is never text
        body, comment = _split_comment(raw)
        stripped = body.strip()
        if not stripped:
            if comment is not None:
                if self.in_body:
                    self.events.append(Event("comment", number, raw.index("#") + 1, text=comment))
                else:
                    self.headers.append(Header("#", comment, number))
            return
        col = len(body) - len(body.lstrip()) + 1
        words: list[str] = [_Tok(m.group(), m.start()) for m in re.finditer(r"\S+", stripped)]
        first = words[0].lower()
        if not self.in_body and _HEADER_LINE.match(stripped):
            self.header(stripped, number, comment)
            return
        if first == "deal" and not self.players:
            self.err("T006", "the header must name the players before the first deal", number, col,
                     hint="add a line such as 'players: Anna Boris Vera Gleb'")
        self.in_body = True
        try:
            event = self.event(words, number, col)
        except _Bad as bad:
            pos = bad.word.pos if isinstance(bad.word, _Tok) else 0
            self.err(bad.code, bad.message, number, col + pos, bad.hint)
            # Keep the line as written: nothing the user wrote is lost on rewriting.
            self.events.append(Event("raw", number, col, text=stripped, comment=comment))
            return
        if event is not None:
            first_arg = 2 if len(words) > 2 and words[1].lower() in ACTOR_EVENTS else 1
            arg_col = col + words[first_arg].pos if len(words) > first_arg else col  # type: ignore[attr-defined]
            event = replace(event, arg_col=arg_col)
            self.events.append(replace(event, comment=comment) if comment is not None else event)

    def header(self, text: str, number: int, comment: str | None) -> None:
        key, value = text.split(":", 1)
        key, value = key.strip().lower(), " ".join(value.split())
        if key not in HEADER_KEYS and not key.startswith("_"):
            self.err("T008", f"unknown header key {key!r} (kept, not used)", number,
                     severity=Severity.WARNING, hint="private keys start with '_'")
        if key != "option" and any(h.key == key for h in self.headers):
            self.err("T007", f"header key {key!r} is given twice", number)
            return
        if key == "players":
            names = tuple(value.replace(",", " ").split())
            if len(set(n.lower() for n in names)) != len(names):
                self.err("T005", "a player name is given twice in 'players'", number)
            for name in names:
                if name.lower() in RESERVED_NAMES or not _NAME.fullmatch(name):
                    self.err("T005", f"{name!r} cannot be a player's name (it reads as something else)",
                             number)
            value = " ".join(names)
            self.players = names
        elif key == "first-dealer" and self.players and seat_of(self.players, value) is None:
            self.err("T005", f"the first dealer {value!r} is not one of the players", number)
        elif key == "level" and value not in LEVELS:
            self.err("T009", f"level must be one of {', '.join(LEVELS)}, not {value!r}", number)
        self.headers.append(Header(key, value, number, comment))

    def seat(self, word: str) -> int:
        seat = seat_of(self.players, word)
        if seat is None:
            raise _Bad("T005", f"unknown player {word!r}", word,
                       hint="players: " + " ".join(self.players) if self.players else None)
        return seat

    def event(self, words: list[str], number: int, col: int) -> Event | None:
        first = words[0].lower()
        if first == "deal":
            return self.deal(words, number, col)
        if first in ("hand", "cut"):
            if len(words) < 2:
                raise _Bad("T002", f"'{first}' needs a player", words[0])
            seat = self.seat(words[1])
            cards = tuple(_card(w) for w in words[2:])
            if first == "cut" and len(cards) != 1:
                raise _Bad("T002", "'cut' takes a player and one card", words[0])
            return Event(first, number, col, actor=seat, cards=cards)
        if first == "turned":
            if len(words) != 2:
                raise _Bad("T002", "'turned' takes one card", words[0])
            return Event("turned", number, col, cards=(_card(words[1]),))
        if first == "trump":
            return self.trump(words[1:], None, number, col, words[0])
        if first in ("score", "total", "settlement"):
            return Event(first, number, col, amounts=self.amounts(words[1:], words[0]))
        if first == "penalty":
            if len(words) not in (3, 4):
                raise _Bad("T002", "'penalty' takes a player, points and a rule code", words[0],
                           hint="e.g. 'penalty Boris -50 R010'")
            code = words[3].upper() if len(words) == 4 else None
            if code is not None and not re.fullmatch(r"[A-Z]\d{3}", code):
                raise _Bad("T002", f"not a rule code: {words[3]!r}", words[3], hint="e.g. R010")
            return Event("penalty", number, col, actor=self.seat(words[1]),
                         number=_int(words[2]), code=code)
        if first == "replay":
            if len(words) != 1:
                raise _Bad("T002", "'replay' takes nothing", words[1])
            return Event("replay", number, col)
        if len(words) >= 2 and words[1].lower() in ACTOR_EVENTS:
            seat = self.seat(words[0])
            verb = words[1].lower()
            rest = words[2:]
            if verb == "trump":
                return self.trump(rest, seat, number, col, words[1])
            if verb in ("bid", "took"):
                if len(rest) != 1:
                    raise _Bad("T002", f"'{verb}' takes one number", words[1])
                return Event(verb, number, col, actor=seat, number=_int(rest[0]))
            if not rest:
                raise _Bad("T002", "'play' needs a card", words[1])
            return Event("play", number, col, actor=seat, play=_play(rest))
        raise _Bad("T002", f"not a transcript line: {' '.join(words)!r}", words[0],
                   hint="events: deal, hand, cut, turned, trump, <player> bid|play|took|trump, "
                        "score, total, penalty, replay, settlement")

    def deal(self, words: list[str], number: int, col: int) -> Event:
        if len(words) < 2:
            raise _Bad("T002", "'deal' needs its number", words[0])
        n = _int(words[1])
        size = dealer = None
        rest = words[2:]
        while rest:
            key = rest[0].lower()
            if key not in ("cards", "dealer") or len(rest) < 2:
                raise _Bad("T002", f"unexpected {rest[0]!r} after 'deal {n}'", rest[0],
                           hint="write 'deal N cards K dealer NAME'")
            if key == "cards":
                size = _int(rest[1])
            else:
                dealer = self.seat(rest[1])
            rest = rest[2:]
        return Event("deal", number, col, number=n, size=size, actor=dealer)

    def trump(self, rest: list[str], seat: int | None, number: int, col: int, at: str) -> Event:
        if len(rest) != 1:
            raise _Bad("T002", "'trump' takes a suit or 'none'", at)
        if rest[0].lower() in ("none", "nt", "no-trump", "notrump"):
            return Event("trump", number, col, actor=seat, no_trump=True)
        try:
            return Event("trump", number, col, actor=seat, suit=Suit.parse(rest[0]))
        except CardError:
            raise _Bad("T003", f"not a suit: {rest[0]!r}", rest[0], hint="S, H, D, C or none") from None

    def amounts(self, words: list[str], at: str) -> tuple[int | None, ...]:
        if len(words) % 2:
            raise _Bad("T002", f"'{at}' takes pairs of player and number", at,
                       hint=f"e.g. '{at} Anna 15 Boris -10'")
        out: list[int | None] = [None] * len(self.players)
        for name, value in zip(words[::2], words[1::2]):
            out[self.seat(name)] = _int(value)
        return tuple(out)


class _Bad(Exception):
    def __init__(self, code: str, message: str, word: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.word, self.hint = code, message, word, hint


class _Tok(str):
    """A word of a line that remembers where it starts (for columns in diagnostics)."""

    pos: int

    def __new__(cls, text: str, pos: int) -> _Tok:
        tok = super().__new__(cls, text)
        tok.pos = pos
        return tok


_HEADER_LINE = re.compile(r"[A-Za-z_][\w-]*\s*:")
_NAME = re.compile(r"[^\s#:]+")
#: Words that begin a body line: a player may not be called by one of them.
RESERVED_NAMES = frozenset(KEYWORD_EVENTS) | {"option", "variant", "players"}


def _split_comment(raw: str) -> tuple[str, str | None]:
    i = raw.find("#")
    if i < 0:
        return raw, None
    return raw[:i], raw[i + 1 :].strip()


def _int(word: str) -> int:
    if re.fullmatch(r"[+-]?\d{1,12}", word):
        return int(word)
    raise _Bad("T004", f"not a whole number: {word!r}", word)


def _card(word: str) -> Card | None:
    if word == UNKNOWN:
        return None
    try:
        return Card.parse(word)
    except CardError:
        raise _Bad("T003", f"not a card: {word!r}", word,
                   hint="write rank then suit (AS, 10H, 7♠), JK for a joker, ?? for unknown") from None


def _play(words: list[str]) -> Play | None:
    card = _card(words[0])
    if len(words) == 1:
        return None if card is None else Play(card)
    declare = words[1].lower()
    if declare not in DECLARATIONS:
        raise _Bad("T003", f"not a declaration: {words[1]!r}", words[1],
                   hint="declarations: " + ", ".join(sorted(DECLARATIONS)))
    if card is None:
        raise _Bad("T003", "an unknown card '??' cannot be declared", words[1])
    extra = words[2:]
    if declare == "as":
        if len(extra) != 1:
            raise _Bad("T003", "'as' takes one card", words[1])
        as_card = _card(extra[0])
        if as_card is None:
            raise _Bad("T003", "'as' needs a known card", extra[0])
        return Play(card, "as", None, as_card)
    if extra:
        if declare not in SUITED_DECLARATIONS or len(extra) != 1:
            raise _Bad("T003", f"{declare!r} takes {'a suit' if declare in SUITED_DECLARATIONS else 'no suit'}",
                       extra[0])
        try:
            return Play(card, declare, Suit.parse(extra[0]))
        except CardError:
            raise _Bad("T003", f"not a suit: {extra[0]!r}", extra[0]) from None
    return Play(card, declare)


def parse_transcript(text: str | bytes, path: str | None = None) -> tuple[Transcript | None, list[Diagnostic]]:
    """Read a transcript; never raises.

    Returns None with a ``T001`` diagnostic when the input is not text at all;
    otherwise the record read so far and every problem found.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, [Diagnostic("T001", f"not a text file (not UTF-8 at byte {exc.start})",
                                     path=path, line=1, col=1)]
    if "\x00" in text or _mostly_binary(text):
        return None, [Diagnostic("T001", "not a transcript: the file holds binary data", path=path,
                                 line=1, col=1)]
    reader = _Reader(path)
    reader.read(text.lstrip("\ufeff"))
    return _finish(reader, path, 1)


def _finish(reader: _Reader, path: str | None, first_line: int) -> tuple[Transcript, list[Diagnostic]]:
    if not any(h.key == "variant" for h in reader.headers):
        reader.err("T006", "the header does not name the variant", first_line,
                   hint="add a line such as 'variant: <bundled name or file>'")
    if not reader.players and not any(d.code == "T006" and "players" in d.message for d in reader.diags):
        reader.err("T006", "the header does not name the players", first_line,
                   hint="add a line such as 'players: Anna Boris Vera Gleb'")
    return Transcript(tuple(reader.headers), reader.players, tuple(reader.events), path), reader.diags


def iter_transcripts(
    lines: Iterable[str | bytes], path: str | None = None
) -> Iterator[tuple[Transcript | None, list[Diagnostic]]]:
    """Read the games of an archive one at a time (memory does not grow with the archive).

    A ``variant:`` line after a game's deals starts the next game. Lines may be bytes
    (a file opened in binary mode); undecodable or binary input ends the stream with a
    ``T001`` diagnostic. Never raises.
    """
    reader = _Reader(path)
    first_line = 1
    seen_any = False
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError:
                yield None, [Diagnostic("T001", f"not a text file (not UTF-8 at line {number})",
                                        path=path, line=number, col=1)]
                return
        if "\x00" in raw or (number <= 20 and _mostly_binary(raw)):
            yield None, [Diagnostic("T001", "not a transcript: the file holds binary data", path=path,
                                    line=number, col=1)]
            return
        raw = raw.rstrip("\r\n")
        if number == 1:
            raw = raw.lstrip("\ufeff")
        if reader.in_body and raw.strip().lower().startswith("variant:"):
            yield _finish(reader, path, first_line)
            reader = _Reader(path)
            first_line = number
        seen_any = seen_any or bool(raw.strip())
        reader.line(raw, number)
    if seen_any or reader.headers:
        yield _finish(reader, path, first_line)
    elif not seen_any:
        yield None, [Diagnostic("T001", "the file is empty", path=path, line=1, col=1)]


def _mostly_binary(text: str) -> bool:
    sample = text[:4096]
    if not sample:
        return False
    odd = sum(1 for ch in sample if (ord(ch) < 32 and ch not in "\t\r\n\f") or ch == "\ufffd")
    return odd * 10 > len(sample)


# ---------------------------------------------------------------------------- writing


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


# ---------------------------------------------------------------------------- JSON


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


__all__ = [
    "Event",
    "Header",
    "Transcript",
    "format_event",
    "format_transcript",
    "iter_transcripts",
    "parse_transcript",
    "seat_of",
    "transcript_from_json",
    "transcript_to_json",
]
