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
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, NamedTuple

from ..actions import DECLARATIONS, SUITED_DECLARATIONS, Play
from ..cards import Card, CardError, Suit, build_deck
from ..diagnostics import Diagnostic, Severity

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


class Event(NamedTuple):
    """One line of a transcript body (an immutable value).

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

    def replace(self, **changes: object) -> Event:
        """This event with some fields changed."""
        return self._replace(**changes)  # type: ignore[arg-type]


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
#
# The reader is on the hot path of `updown check`: a line is split once with str.split,
# dispatched on its first (or second) word through a table, and made into its Event in
# one step. Positions of words are worked out again only for a line that has a problem.

_new_event = tuple.__new__


class _Bad(Exception):
    """A line that cannot be read; ``index`` is the word the problem is at (-1: the line)."""

    def __init__(self, code: str, message: str, index: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.index, self.hint = code, message, index, hint


def _word_offsets(text: str, words: list[str]) -> list[int]:
    """Where each of ``words`` (``text.split()``) starts in ``text``."""
    out = []
    pos = 0
    for w in words:
        pos = text.find(w, pos)
        out.append(pos)
        pos += len(w)
    return out


class _Reader:
    def __init__(self, path: str | None) -> None:
        self.path = path
        self.diags: list[Diagnostic] = []
        self.headers: list[Header] = []
        self.players: tuple[str, ...] = ()
        self.events: list[Event] = []
        self.in_body = False
        self._seats: dict[str, int] = {}
        self._seats_lower: dict[str, int] = {}

    def err(self, code: str, msg: str, line: int, col: int = 1, hint: str | None = None,
            severity: Severity = Severity.ERROR) -> None:
        self.diags.append(Diagnostic(code, msg, severity, self.path, line, col, hint=hint))

    def read(self, text: str) -> None:
        # Line ends are "\n", "\r\n" and "\r": form feeds and the like are text.
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        line = self.line
        for number, raw in enumerate(lines, start=1):
            line(raw, number)

    def line(self, raw: str, number: int) -> None:
        if "\ufeff" in raw:
            raw = raw.replace("\ufeff", "")  # a byte-order mark is never text
        i = raw.find("#")
        if i < 0:
            body, comment = raw, None
        else:
            body, comment = raw[:i], raw[i + 1:].strip()
        words = body.split()
        if not words:
            if comment is not None:
                if self.in_body:
                    self.events.append(Event("comment", number, i + 1, text=comment))
                else:
                    self.headers.append(Header("#", comment, number))
            return
        first = words[0]
        lead = body.find(first)  # whitespace before the first word
        col = lead + 1
        if not self.in_body and _HEADER_LINE.match(body, lead):
            self.header(body.strip(), number, comment)
            return
        reader = _FIRST_WORD.get(first, _UNSEEN)
        if reader is _UNSEEN:
            reader = _first_word(first)
        if reader is _Reader.deal and not self.players:
            self.err("T006", "the header must name the players before the first deal", number, col,
                     hint="add a line such as 'players: Anna Boris Vera Gleb'")
        self.in_body = True
        # The column of the first argument (the card of a play, the number of a bid).
        verb = _VERB.get(words[1]) or _VERB.get(words[1].lower()) if len(words) > 1 else None
        if verb is not None and len(words) > 2:
            arg = body.find(words[2], body.find(words[1], lead + len(first)) + len(words[1])) + 1
        elif len(words) > 1:
            arg = body.find(words[1], lead + len(first)) + 1
        else:
            arg = col
        try:
            if reader is not None:
                event = reader(self, words, number, col, comment, arg)
            elif verb is not None:
                event = self.actor_event(words, number, col, comment, arg, verb)
            else:
                raise _Bad("T002", f"not a transcript line: {' '.join(words)!r}", 0,
                           hint="events: deal, hand, cut, turned, trump, <player> bid|play|took|trump, "
                                "score, total, penalty, replay, settlement")
        except _Bad as bad:
            stripped = body.strip()
            at = _word_offsets(stripped, words)[bad.index] if bad.index >= 0 else 0
            self.err(bad.code, bad.message, number, col + at, bad.hint)
            # Keep the line as written: nothing the user wrote is lost on rewriting.
            self.events.append(Event("raw", number, col, text=stripped, comment=comment))
            return
        self.events.append(event)

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
            self._seats, self._seats_lower = _seat_tables(names)
        elif key == "first-dealer" and self.players and seat_of(self.players, value) is None:
            self.err("T005", f"the first dealer {value!r} is not one of the players", number)
        elif key == "level" and value not in LEVELS:
            self.err("T009", f"level must be one of {', '.join(LEVELS)}, not {value!r}", number)
        self.headers.append(Header(key, value, number, comment))

    def seat(self, words: list[str], k: int) -> int:
        """The seat of the player named by ``words[k]`` (as :func:`seat_of` finds it)."""
        word = words[k]
        seat = self._seats.get(word)
        if seat is None:
            seat = self._seats_lower.get(word.lower())
            if seat is None:
                seat = seat_of(self.players, word)  # the rare spellings: p01, P٣
            if seat is None:
                raise _Bad("T005", f"unknown player {word!r}", k,
                           hint="players: " + " ".join(self.players) if self.players else None)
        return seat

    # -- one method per kind of line: (words, line number, column) -> Event ---------------
    def deal(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) < 2:
            raise _Bad("T002", "'deal' needs its number", 0)
        n = _int(words, 1)
        size = dealer = None
        k = 2
        while k < len(words):
            key = words[k].lower()
            if key not in ("cards", "dealer") or len(words) < k + 2:
                raise _Bad("T002", f"unexpected {words[k]!r} after 'deal {n}'", k,
                           hint="write 'deal N cards K dealer NAME'")
            if key == "cards":
                size = _int(words, k + 1)
            else:
                dealer = self.seat(words, k + 1)
            k += 2
        return _new_event(Event, ("deal", number, col, dealer, n, size, (), None, None, False, (), None,
                                  "", comment, arg))

    def hand(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        kind = words[0].lower()
        if len(words) < 2:
            raise _Bad("T002", f"'{kind}' needs a player", 0)
        seat = self.seat(words, 1)
        cards = tuple([_card(words, k) for k in range(2, len(words))])
        if kind == "cut" and len(cards) != 1:
            raise _Bad("T002", "'cut' takes a player and one card", 0)
        return _new_event(Event, (kind, number, col, seat, None, None, cards, None, None, False, (), None,
                                  "", comment, arg))

    def turned(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) != 2:
            raise _Bad("T002", "'turned' takes one card", 0)
        return _new_event(Event, ("turned", number, col, None, None, None, (_card(words, 1),), None, None,
                                  False, (), None, "", comment, arg))

    def trump(self, words: list[str], number: int, col: int, comment: str | None, arg: int,
              seat: int | None = None, at: int = 0) -> Event:
        if len(words) != at + 2:
            raise _Bad("T002", "'trump' takes a suit or 'none'", at)
        word = words[at + 1]
        if word.lower() in ("none", "nt", "no-trump", "notrump"):
            return Event("trump", number, col, actor=seat, no_trump=True, comment=comment, arg_col=arg)
        try:
            return Event("trump", number, col, actor=seat, suit=Suit.parse(word), comment=comment,
                         arg_col=arg)
        except CardError:
            raise _Bad("T003", f"not a suit: {word!r}", at + 1, hint="S, H, D, C or none") from None

    def amounts(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        kind = words[0].lower()
        if len(words) % 2 == 0:
            raise _Bad("T002", f"'{words[0]}' takes pairs of player and number", 0,
                       hint=f"e.g. '{words[0]} Anna 15 Boris -10'")
        out: list[int | None] = [None] * len(self.players)
        for k in range(1, len(words), 2):
            value = _int(words, k + 1)  # (the number is read before the name, as written)
            out[self.seat(words, k)] = value
        return _new_event(Event, (kind, number, col, None, None, None, (), None, None, False, tuple(out),
                                  None, "", comment, arg))

    def penalty(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) not in (3, 4):
            raise _Bad("T002", "'penalty' takes a player, points and a rule code", 0,
                       hint="e.g. 'penalty Boris -50 R010'")
        code = words[3].upper() if len(words) == 4 else None
        if code is not None and not _CODE.fullmatch(code):
            raise _Bad("T002", f"not a rule code: {words[3]!r}", 3, hint="e.g. R010")
        seat = self.seat(words, 1)
        return Event("penalty", number, col, actor=seat, number=_int(words, 2), code=code, comment=comment,
                     arg_col=arg)

    def replay(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) != 1:
            raise _Bad("T002", "'replay' takes nothing", 1)
        return Event("replay", number, col, comment=comment, arg_col=arg)

    def actor_event(self, words: list[str], number: int, col: int, comment: str | None, arg: int,
                    verb: str) -> Event:
        seat = self.seat(words, 0)
        if verb == "play":
            if len(words) < 3:
                raise _Bad("T002", "'play' needs a card", 1)
            return _new_event(Event, ("play", number, col, seat, None, None, (), _play(words, 2), None,
                                      False, (), None, "", comment, arg))
        if verb == "trump":
            return self.trump(words, number, col, comment, arg, seat, 1)
        if len(words) != 3:
            raise _Bad("T002", f"'{verb}' takes one number", 1)
        return _new_event(Event, (verb, number, col, seat, _int(words, 2), None, (), None, None, False, (),
                                  None, "", comment, arg))


_KEYWORD_READERS = {
    "deal": _Reader.deal, "hand": _Reader.hand, "cut": _Reader.hand, "turned": _Reader.turned,
    "trump": _Reader.trump, "score": _Reader.amounts, "total": _Reader.amounts,
    "settlement": _Reader.amounts, "penalty": _Reader.penalty, "replay": _Reader.replay,
}
_VERB = {v: v for v in ACTOR_EVENTS}
_UNSEEN: Any = object()
#: First words of lines met so far -> their reader (None: not a keyword), so that a line
#: costs one lookup and no lowercasing; bounded, as names and mistakes are unbounded.
_FIRST_WORD: dict[str, Any] = dict(_KEYWORD_READERS)


def _first_word(word: str) -> Any:
    reader = _KEYWORD_READERS.get(word.lower())
    if len(_FIRST_WORD) < 4096:
        _FIRST_WORD[word] = reader
    return reader


def _seat_tables(players: tuple[str, ...]) -> tuple[dict[str, int], dict[str, int]]:
    """Lookups for :func:`seat_of`: exact names first, then any case, then ``p1``…``pN``."""
    exact: dict[str, int] = {}
    lower: dict[str, int] = {}
    for i in range(len(players), 0, -1):
        lower[f"p{i}"] = i - 1
    for i in range(len(players) - 1, -1, -1):
        lower[players[i].lower()] = i
        exact[players[i]] = i
    return exact, lower


_HEADER_LINE = re.compile(r"[A-Za-z_][\w-]*\s*:")
_NAME = re.compile(r"[^\s#:]+")
_CODE = re.compile(r"[A-Z]\d{3}")
_INT = re.compile(r"[+-]?\d{1,12}")
#: Words that begin a body line: a player may not be called by one of them.
RESERVED_NAMES = frozenset(KEYWORD_EVENTS) | {"option", "variant", "players"}


def _int(words: list[str], k: int) -> int:
    word = words[k]
    if _INT.fullmatch(word):
        return int(word)
    raise _Bad("T004", f"not a whole number: {word!r}", k)


def _card(words: list[str], k: int) -> Card | None:
    word = words[k]
    card = _CARDS.get(word)
    if card is not None:
        return card
    if word == UNKNOWN:
        return None
    try:
        return Card.parse(word)
    except CardError:
        raise _Bad("T003", f"not a card: {word!r}", k,
                   hint="write rank then suit (AS, 10H, 7♠), JK for a joker, ?? for unknown") from None


#: Canonical card tokens (what the writer writes) -> cards, for the common case.
_CARDS: dict[str, Card] = {}


def _play(words: list[str], k: int) -> Play | None:
    if len(words) == k + 1:
        play = _PLAYS.get(words[k])
        if play is not None:
            return play
        card = _card(words, k)
        return None if card is None else Play(card)
    card = _card(words, k)
    declare = words[k + 1].lower()
    if declare not in DECLARATIONS:
        raise _Bad("T003", f"not a declaration: {words[k + 1]!r}", k + 1,
                   hint="declarations: " + ", ".join(sorted(DECLARATIONS)))
    if card is None:
        raise _Bad("T003", "an unknown card '??' cannot be declared", k + 1)
    extra = len(words) - k - 2
    if declare == "as":
        if extra != 1:
            raise _Bad("T003", "'as' takes one card", k + 1)
        as_card = _card(words, k + 2)
        if as_card is None:
            raise _Bad("T003", "'as' needs a known card", k + 2)
        return Play(card, "as", None, as_card)
    if extra:
        if declare not in SUITED_DECLARATIONS or extra != 1:
            raise _Bad("T003", f"{declare!r} takes {'a suit' if declare in SUITED_DECLARATIONS else 'no suit'}",
                       k + 2)
        try:
            return Play(card, declare, Suit.parse(words[k + 2]))
        except CardError:
            raise _Bad("T003", f"not a suit: {words[k + 2]!r}", k + 2) from None
    return Play(card, declare)


#: Canonical plain plays -> shared Play values.
_PLAYS: dict[str, Play] = {}
for _c in build_deck(52, jokers=2):
    _CARDS[str(_c)] = _c
    _PLAYS[str(_c)] = Play(_c)
del _c


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


def text_lines(text: str | bytes) -> list[str] | None:
    """The lines :func:`parse_transcript` reads from ``text`` (None: it is not text)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if "\x00" in text or _mostly_binary(text):
        return None
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


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
    for game in split_games(lines, path):
        if isinstance(game, Diagnostic):
            yield None, [game]
        else:
            yield read_game(game.lines, game.first_line, path)


class GameLines(NamedTuple):
    """The lines of one game of an archive (without line ends) and the number of the first."""

    lines: list[str]
    first_line: int


def split_games(lines: Iterable[str | bytes], path: str | None = None) -> Iterator[GameLines | Diagnostic]:
    """The games of an archive as their lines, one at a time, or a ``T001`` diagnostic (and
    nothing more) when the input is not text. A ``variant:`` line after a game's deals
    starts the next game. Never raises."""
    game: list[str] = []
    first_line = 1
    in_body = False
    seen_any = False
    for number, block in _text_blocks(lines, path):
        if isinstance(block, Diagnostic):
            yield block
            return
        # Only a line with "variant:" in it can start a game: look at those one by one and
        # take the lines between them in slices.
        low = "\n".join(block).lower()
        starts: list[int] = []  # indices of the lines with "variant:", in order, then the end
        at = low.find("variant:")
        line_no, pos = 0, 0
        while at >= 0:
            line_no += low.count("\n", pos, at)
            pos = at
            if not starts or starts[-1] != line_no:
                starts.append(line_no)
            at = low.find("variant:", at + 8)
        size = len(block)
        starts.append(size)
        next_start = 0  # index into starts
        k = 0
        while k < size:
            raw = block[k]
            while starts[next_start] < k:
                next_start += 1
            if in_body:
                if starts[next_start] == k and raw.strip().lower().startswith("variant:"):
                    yield GameLines(game, first_line)
                    game = []
                    first_line = number + k
                    in_body = False
                else:
                    upto = starts[next_start] if starts[next_start] > k else starts[next_start + 1]
                    game.extend(block[k:upto])
                    k = upto
                    continue
            # The reader's rule: the body starts at the first line with words that does not
            # look like a header line.
            body = raw.replace("\ufeff", "").split("#", 1)[0]
            words = body.split()
            if words:
                seen_any = True
                if not _HEADER_LINE.match(body, body.find(words[0])):
                    in_body = True
            elif not seen_any and raw.strip():
                seen_any = True
            game.append(raw)
            k += 1
    if seen_any:
        yield GameLines(game, first_line)
    else:
        yield Diagnostic("T001", "the file is empty", path=path, line=1, col=1)


#: Bytes read at a time from a file: decoding and splitting a block is much cheaper than a line at a time.
_BLOCK = 1 << 20


def _text_blocks(lines: Iterable[str | bytes], path: str | None) -> Iterator[tuple[int, list[str] | Diagnostic]]:
    """(number of the first line, the lines) of the input: decoded, without line ends, the
    byte-order mark of the first line dropped; a ``T001`` diagnostic ends the input at the
    first line that is not text."""
    read = getattr(lines, "read", None)
    if read is None:
        yield from _text_lines(lines, path, 1)
        return
    number = 1
    rest = b""
    while True:
        chunk = read(_BLOCK)
        data = rest + chunk if rest else chunk
        if not chunk:
            if data:
                yield from _text_lines([data], path, number)
            return
        cut = data.rfind(b"\n") + 1
        if not cut:
            rest = data
            continue
        body, rest = data[:cut], data[cut:]
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = "\x00"  # find the line by line, below
        block = text.split("\n")
        block.pop()  # the block ends with a line end
        if "\x00" in text or (number <= 20 and any(  # (as a line is read: with its end)
                _mostly_binary(line + "\n") for line in block[:21 - number])):
            for item in _text_lines([line + b"\n" for line in body.split(b"\n")[:-1]], path, number):
                yield item
                if isinstance(item[1], Diagnostic):
                    return
            number += body.count(b"\n")
            continue
        if number == 1:
            block[0] = block[0].lstrip("\ufeff")
        if "\r" in text:
            block = [line.rstrip("\r") for line in block]
        yield number, block
        number += len(block)


def _text_lines(lines: Iterable[str | bytes], path: str | None, number: int
                ) -> Iterator[tuple[int, list[str] | Diagnostic]]:
    """:func:`_text_blocks` for lines given one at a time."""
    block: list[str] = []
    start = number
    for raw in lines:
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError:
                if block:
                    yield start, block
                yield number, Diagnostic("T001", f"not a text file (not UTF-8 at line {number})", path=path,
                                         line=number, col=1)
                return
        if "\x00" in raw or (number <= 20 and _mostly_binary(raw)):
            if block:
                yield start, block
            yield number, Diagnostic("T001", "not a transcript: the file holds binary data", path=path,
                                     line=number, col=1)
            return
        raw = raw.rstrip("\r\n")
        if number == 1:
            raw = raw.lstrip("\ufeff")
        block.append(raw)
        number += 1
        if len(block) >= 4096:
            yield start, block
            block = []
            start = number
    if block:
        yield start, block


def read_game(lines: Iterable[str], first_line: int = 1, path: str | None = None
              ) -> tuple[Transcript, list[Diagnostic]]:
    """Read one game's lines (numbered from ``first_line``); never raises."""
    reader = _Reader(path)
    line = reader.line
    for number, raw in enumerate(lines, start=first_line):
        line(raw, number)
    return _finish(reader, path, first_line)


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
    "GameLines",
    "Header",
    "Transcript",
    "format_event",
    "format_transcript",
    "iter_transcripts",
    "parse_transcript",
    "read_game",
    "seat_of",
    "split_games",
    "transcript_from_json",
    "transcript_to_json",
]
