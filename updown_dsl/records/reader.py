"""Reading one game's text: lax, never raising, every problem a ``T`` diagnostic.

:func:`parse_transcript` returns the record it could read and the diagnostics; a line that
cannot be read is kept as written (a ``raw`` event), so nothing is lost on rewriting.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from ..i18n import tr
from ..actions import DECLARATIONS, SUITED_DECLARATIONS, Play, PlayFault, PlayWordsError, play_from_words
from ..cards import Card, CardError, Suit, build_deck
from ..diagnostics import Diagnostic, Severity
from .compact import RowError, read_cells, row_events
from .tableevents import LineError, read_table_line
from .tablelines import read_correction
from .model import (ACTOR_EVENTS, HEADER_KEYS, KEYWORD_EVENTS, LEVELS, NUMBER, UNKNOWN, Event, Header, Transcript,
                    seat_of)

# ---------------------------------------------------------------------------- reading
#
# The reader is on the hot path of `updown check`: a line is split once with str.split,
# dispatched on its first (or second) word through a table, and made into its Event in
# one step. Positions of words are worked out again only for a line that has a problem.

_new_event = tuple.__new__

#: The longest line read (a line of a real record is under 200 characters); longer ones are
#: kept as written but not read (``T015``), which also bounds the work per line.
MAX_LINE = 10_000
#: The most players a ``players`` line may name (``T016``); variants allow at most 12.
MAX_PLAYERS = 64


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
        self._body = ""  # the line being read, without its comment
        self.memo: dict[str, Event] | None = None
        """The action lines read before for these players (set with the players)."""
        self.players_missing_said = False  # T006 for the players was reported at a deal line

    def err(self, code: str, msg: str, line: int, col: int = 1, hint: str | None = None,
            severity: Severity = Severity.ERROR, end_col: int | None = None) -> None:
        self.diags.append(Diagnostic(code, msg, severity, self.path, line, col, end_col, hint))

    def line(self, raw: str, number: int) -> None:
        if len(raw) > MAX_LINE:
            self.err("T015", tr("the line is {count:,} characters long, more than {MAX_LINE:,}: it is not read",
                                count=len(raw), MAX_LINE=MAX_LINE), number, hint=tr("a record's lines are short: is this file a game record?"))
            self.in_body = True
            self.events.append(Event("raw", number, 1, text=raw.strip()))
            return
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
        if reader is _Reader.deal:
            if not self.players:
                self.err("T006", tr("the header must name the players before the first deal"), number, col,
                         hint=tr("add a line such as 'players: Anna Boris Vera Gleb'"))
                self.players_missing_said = True
            if "|" in body:
                self.in_body = True
                self.row(body, number, col, comment)
                return
        self.in_body = True
        self._body = body
        # The column of the first argument (the card of a play, the number of a bid).
        verb = _VERB.get(words[1]) or _VERB.get(words[1].lower()) if len(words) > 1 else None
        if verb is not None and len(words) > 2:
            arg = body.find(words[2], body.find(words[1], lead + len(first)) + len(words[1])) + 1
        elif len(words) > 1:
            arg = body.find(words[1], lead + len(first)) + 1
        else:
            arg = col
        said = len(self.diags)
        try:
            if reader is not None:
                event = reader(self, words, number, col, comment, arg)
            elif verb is not None:
                event = self.actor_event(words, number, col, comment, arg, verb)
            else:
                raise _Bad("T002", tr("not a transcript line: {items!r}", items=' '.join(words)), 0,
                           hint=tr("events: deal, hand, cut, turned, trump, <player> bid|call|play|took|trump, score, total, penalty, replay, settlement"))
        except (_Bad, LineError) as bad:
            stripped = body.strip()
            at = _word_offsets(stripped, words)[bad.index] if bad.index >= 0 else 0
            self.err(bad.code, bad.message, number, col + at, bad.hint)
            # Keep the line as written: nothing the user wrote is lost on rewriting.
            self.events.append(Event("raw", number, col, text=stripped, comment=comment))
            return
        self.events.append(event)
        if reader is None and verb is not None and comment is None and len(self.diags) == said and self.memo is not None \
                and len(self.memo) < _MEMO_LIMIT:
            self.memo[raw] = event

    def row(self, body: str, number: int, col: int, comment: str | None) -> None:
        """A compact score-sheet row, ``deal … [trump SUIT] | cell | …``: the events of its deal
        (:mod:`~updown_dsl.records.compact`), each in the column of its own cell."""
        bar = body.find("|")
        words = body[:bar].split()
        at = [c + 1 for c in _word_offsets(body, words)]
        k = next((j for j in range(2, len(words)) if words[j].lower() == "trump"), len(words))
        try:
            deal = self.deal(words[:k], number, col, comment, at[1] if k > 1 else col)
        except _Bad as bad:  # no deal: the line is kept as written, as a deal line would be
            self.err(bad.code, bad.message, number, at[bad.index] if bad.index >= 0 else col,
                     bad.hint or _ROW_HINT)
            self.events.append(Event("raw", number, col, text=body.strip(), comment=comment))
            return
        trump = problem = None
        if k < len(words):
            try:
                trump = self.trump(words[k:], number, at[k], None, at[-1])
            except _Bad as bad:
                problem = RowError(bad.code, bad.message, at[k + max(bad.index, 0)], hint=bad.hint or _ROW_HINT)
        cells, bad_cell = read_cells(body, bar, self.players)
        events = row_events(deal, trump, cells)
        problem = problem or bad_cell
        if problem is not None:  # what could be read stands; the row is written back as written
            self.err(problem.code, problem.message, number, problem.col, problem.hint, end_col=problem.end_col)
            events[0] = events[0]._replace(text=body.strip())
        self.events += events

    def header(self, text: str, number: int, comment: str | None) -> None:
        key, value = text.split(":", 1)
        key, value = key.strip().lower(), " ".join(value.split())
        if key not in HEADER_KEYS and not key.startswith("_"):
            self.err("T008", tr("unknown header key {key!r} (kept, not used)", key=key), number,
                     severity=Severity.WARNING, hint=tr("private keys start with '_'"))
        if key != "option" and any(h.key == key for h in self.headers):
            self.err("T007", tr("header key {key!r} is given twice", key=key), number)
            return
        if key == "players":
            names = tuple(value.replace(",", " ").split())
            if len(names) > MAX_PLAYERS:
                self.err("T016", tr("'players' names {count:,} players; a record has at most {MAX_PLAYERS}",
                                    count=len(names), MAX_PLAYERS=MAX_PLAYERS), number)
                names = ()
            if len(set(n.lower() for n in names)) != len(names):
                self.err("T005", tr("a player name is given twice in 'players'"), number)
            for name in names:
                if name.lower() in RESERVED_NAMES or not _NAME.fullmatch(name):
                    self.err("T005", tr("{name!r} cannot be a player's name (it reads as something else)",
                                        name=name),
                             number)
            value = " ".join(names)
            self.players = names
            self._seats, self._seats_lower = _seat_tables(names)
            self.memo = _memo_for(names)
        elif key == "first-dealer" and self.players and seat_of(self.players, value) is None:
            self.err("T005", tr("the first dealer {value!r} is not one of the players", value=value), number)
        elif key == "level" and value not in LEVELS:
            self.err("T009", tr("level must be one of {items}, not {value!r}",
                                items=', '.join(LEVELS), value=value), number)
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
                raise _Bad("T005", tr("unknown player {word!r}", word=word), k,
                           hint=tr("players: ") + " ".join(self.players) if self.players else None)
        return seat

    # -- one method per kind of line: (words, line number, column) -> Event ---------------
    def deal(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) < 2:
            raise _Bad("T002", tr("'deal' needs its number"), 0)
        n = _int(words, 1)
        size = dealer = None
        k = 2
        while k < len(words):
            key = words[k].lower()
            if key not in ("cards", "dealer") or len(words) < k + 2:
                raise _Bad("T002", tr("unexpected {value!r} after 'deal {n}'", value=words[k], n=n), k,
                           hint=tr("write 'deal N cards K dealer NAME'"))
            if key == "cards":
                size = _int(words, k + 1)
            else:
                dealer = self.seat(words, k + 1)
            k += 2
        return _new_event(Event, ("deal", number, col, dealer, n, size, (), None, None, False, (), None,
                                  "", comment, arg, (), False))

    def hand(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        kind = words[0].lower()
        if len(words) < 2:
            raise _Bad("T002", tr("'{kind}' needs a player", kind=kind), 0)
        seat = self.seat(words, 1)
        cards = tuple(map(_CARDS.get, words[2:]))  # canonical tokens; any other spelling below
        if not all(cards):  # (a card is always true: no comparison with None per card)
            cards = tuple([_card(words, k) for k in range(2, len(words))])
        if kind == "cut" and len(cards) != 1:
            raise _Bad("T002", tr("'cut' takes a player and one card"), 0)
        return _new_event(Event, (kind, number, col, seat, None, None, cards, None, None, False, (), None,
                                  "", comment, arg, (), False))

    def turned(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) != 2:
            raise _Bad("T002", tr("'turned' takes one card"), 0)
        return _new_event(Event, ("turned", number, col, None, None, None, (_card(words, 1),), None, None,
                                  False, (), None, "", comment, arg, (), False))

    def trump(self, words: list[str], number: int, col: int, comment: str | None, arg: int,
              seat: int | None = None, at: int = 0) -> Event:
        if len(words) != at + 2:
            raise _Bad("T002", tr("'trump' takes a suit or 'none'"), at)
        suit = _trump_word(words, at + 1)
        return Event("trump", number, col, actor=seat, suit=suit, no_trump=suit is None, comment=comment,
                     arg_col=arg)

    def call(self, words: list[str], number: int, col: int, comment: str | None, arg: int,
             seat: int) -> Event:
        """``NAME call 5 S``, ``NAME call 5 none`` or ``NAME call dash`` (an auction's call)."""
        dash = len(words) == 3 and words[2].lower() in ("dash", "0")
        if len(words) != 4 and not dash:
            raise _Bad("T002", tr("'call' takes a number of tricks and a trump, or 'dash'"), 1,
                       hint=tr("e.g. 'Anna call 5 S', 'Anna call 6 none' or 'Anna call dash'"))
        suit = None if dash else _trump_word(words, 3)
        return Event("call", number, col, actor=seat, number=0 if dash else _int(words, 2), suit=suit,
                     no_trump=suit is None, comment=comment, arg_col=arg)

    def amounts(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        kind = words[0].lower()
        if len(words) % 2 == 0:
            raise _Bad("T002", tr("'{value}' takes pairs of player and number", value=words[0]), 0,
                       hint=tr("e.g. '{value} Anna 15 Boris -10'", value=words[0]))
        out: list[int | None] = [None] * len(self.players)
        cells = [0] * len(self.players)  # the column of each seat's number
        at = col + len(words[0]) + 1  # the column of words[k], as long as one blank parts the words
        for k in range(1, len(words), 2):
            value = _int(words, k + 1)  # (the number is read before the name, as written)
            seat = self.seat(words, k)
            out[seat] = value
            cells[seat] = at = at + len(words[k]) + 1
            at += len(words[k + 1]) + 1
        if at != len(self._body) + 2:  # more blanks somewhere: where the numbers are
            offsets = _word_offsets(self._body, words)
            for k in range(1, len(words), 2):
                cells[self.seat(words, k)] = offsets[k + 1] + 1
        return _new_event(Event, (kind, number, col, None, None, None, (), None, None, False, tuple(out),
                                  None, "", comment, arg, tuple(cells), False))

    def penalty(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) not in (3, 4):
            raise _Bad("T002", tr("'penalty' takes a player, points and a rule code"), 0,
                       hint=tr("e.g. 'penalty Boris -50 R010'"))
        code = words[3].upper() if len(words) == 4 else None
        if code is not None and not _CODE.fullmatch(code):
            raise _Bad("T002", tr("not a rule code: {value!r}", value=words[3]), 3, hint="e.g. R010")
        seat = self.seat(words, 1)
        return Event("penalty", number, col, actor=seat, number=_int(words, 2), code=code, comment=comment,
                     arg_col=arg)

    def replay(self, words: list[str], number: int, col: int, comment: str | None, arg: int) -> Event:
        if len(words) != 1:
            raise _Bad("T002", tr("'replay' takes nothing"), 1)
        return Event("replay", number, col, comment=comment, arg_col=arg)

    def actor_event(self, words: list[str], number: int, col: int, comment: str | None, arg: int,
                    verb: str) -> Event:
        seat = self.seat(words, 0)
        if verb == "play":
            if len(words) < 3:
                raise _Bad("T002", tr("'play' needs a card"), 1)
            return _new_event(Event, ("play", number, col, seat, None, None, (), _play(words, 2), None,
                                      False, (), None, "", comment, arg, (), False))
        if verb == "trump":
            return self.trump(words, number, col, comment, arg, seat, 1)
        if verb == "call":
            return self.call(words, number, col, comment, arg, seat)
        if verb == "hint":  # the action a player was shown, written as its own line would be
            inner = words[2].lower() if len(words) > 2 else ""
            if inner not in ("bid", "call", "play", "trump"):
                raise _Bad("T002", tr("'hint' takes an action: bid N, call, play CARD or trump SUIT"), 1,
                           hint=tr("e.g. 'Anna hint play QS'"))
            shown = self.actor_event([words[0], *words[2:]], number, col, comment, arg, inner)
            return shown._replace(kind="hint", code=inner)
        if verb == "redeal":  # a player void in a suit asks for the deal again
            if len(words) != 2:
                raise _Bad("T002", tr("'redeal' takes nothing"), 2)
            return _new_event(Event, ("redeal", number, col, seat, None, None, (), None, None, False, (),
                                      None, "", comment, arg, (), False))
        if len(words) != 3:
            raise _Bad("T002", tr("'{verb}' takes one number", verb=verb), 1)
        if verb == "undo" and _int(words, 2) < 1:
            raise _Bad("T002", tr("'undo' takes the number of action lines taken back, 1 or more"), 2)
        return _new_event(Event, (verb, number, col, seat, _int(words, 2), None, (), None, None, False, (),
                                  None, "", comment, arg, (), False))


_KEYWORD_READERS = {
    "deal": _Reader.deal, "hand": _Reader.hand, "cut": _Reader.hand, "turned": _Reader.turned,
    "trump": _Reader.trump, "score": _Reader.amounts, "total": _Reader.amounts,
    "settlement": _Reader.amounts, "penalty": _Reader.penalty, "replay": _Reader.replay,
    "correction": lambda r, *a: read_correction(r.seat, *a),
    **{k: (lambda r, *a: read_table_line(r.seat, *a)) for k in ("late", "leave", "out", "adjust", "schedule")},
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


#: Action lines already read, for each table of players: a record repeats the same few hundred
#: (``Anna play 10H``), each read once. Bounded, as an archive may hold many tables.
_MEMOS: dict[tuple[str, ...], dict[str, Event]] = {}
_MEMO_LIMIT = 1 << 16


def _memo_for(players: tuple[str, ...]) -> dict[str, Event]:
    memo = _MEMOS.get(players)
    if memo is None:
        if len(_MEMOS) >= 32:
            del _MEMOS[next(iter(_MEMOS))]
        memo = _MEMOS[players] = {}
    return memo


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


_ROW_HINT = "a row is 'deal N cards K dealer NAME trump SUIT' and a cell per player: '| bid took score total'"
_HEADER_LINE = re.compile(r"[A-Za-z_][\w-]*\s*:")
_NAME = re.compile(r"[^\s#:|]+")
_CODE = re.compile(r"[A-Z]\d{3}")
_INT = NUMBER
#: Words that begin a body line: a player may not be called by one of them.
RESERVED_NAMES = frozenset(KEYWORD_EVENTS) | {"option", "variant", "players"}


def _trump_word(words: list[str], k: int) -> Suit | None:
    """The suit ``words[k]`` names as trump, None for no trump."""
    if words[k].lower() in ("none", "nt", "no-trump", "notrump"):
        return None
    try:
        return Suit.parse(words[k])
    except CardError:
        raise _Bad("T003", tr("not a suit: {word!r}", word=words[k]), k, hint=tr("S, H, D, C or none")) from None


def _int(words: list[str], k: int) -> int:
    word = words[k]
    n = _SMALL.get(word)
    if n is not None:
        return n
    if _INT.fullmatch(word):
        return int(word)
    raise _Bad("T004", tr("not a whole number: {word!r}", word=word), k)


def _card(words: Sequence[str], k: int) -> Card | None:
    word = words[k]
    card = _CARDS.get(word)
    if card is not None:
        return card
    if word == UNKNOWN:
        return None
    try:
        return Card.parse(word)
    except CardError:
        raise _Bad("T003", tr("not a card: {word!r}", word=word), k,
                   hint=tr("write rank then suit (AS, 10H, 7♠), JK for a joker, ?? for unknown")) from None


#: Numbers as the writer writes them, for the common case.
_SMALL = {str(n): n for n in range(-999, 1000)}

#: Canonical card tokens (what the writer writes) -> cards, for the common case.
_CARDS: dict[str, Card] = {}


def _play(words: list[str], k: int) -> Play | None:
    """The play ``words[k:]`` write (None: an unknown card), read by the one reader of a play
    (:func:`~updown_dsl.actions.play_from_words`); a canonical plain card is one lookup."""
    if len(words) == k + 1:
        play = _PLAYS.get(words[k])
        if play is not None:
            return play
    try:
        return play_from_words(words, k, _card)
    except PlayWordsError as exc:
        raise _play_fault(exc, words) from None


def _play_fault(exc: PlayWordsError, words: list[str]) -> _Bad:
    """The reader's words for a play that does not fit."""
    fault, at = exc.fault, exc.index
    if fault is PlayFault.NOT_A_DECLARATION:
        return _Bad("T003", tr("not a declaration: {value!r}", value=words[at]), at,
                    hint=tr("declarations: ") + ", ".join(sorted(DECLARATIONS)))
    if fault is PlayFault.UNKNOWN_DECLARED:
        return _Bad("T003", tr("an unknown card '??' cannot be declared"), at)
    if fault is PlayFault.AS_ONE_CARD:
        return _Bad("T003", tr("'as' takes one card"), at)
    if fault is PlayFault.AS_UNKNOWN_CARD:
        return _Bad("T003", tr("'as' needs a known card"), at)
    if fault is PlayFault.SUIT_NOT_TAKEN:
        declare = exc.declare
        return _Bad("T003", tr("{declare!r} takes {value}",
                               declare=declare, value='a suit' if declare in SUITED_DECLARATIONS else 'no suit'), at)
    return _Bad("T003", tr("not a suit: {value!r}", value=words[at]), at)


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
            return None, [Diagnostic("T001", tr("not a text file (not UTF-8 at byte {start})",
                                                start=exc.start),
                                     path=path, line=1, col=1)]
    if "\x00" in text or _mostly_binary(text):
        return None, [Diagnostic("T001", tr("not a transcript: the file holds binary data"), path=path,
                                 line=1, col=1)]
    return read_game(text_lines(text) or (), 1, path)


def text_lines(text: str | bytes) -> list[str] | None:
    """The lines :func:`parse_transcript` reads from ``text`` (None: it is not text)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if "\x00" in text or _mostly_binary(text):
        return None
    # Line ends are "\n", "\r\n" and "\r": form feeds and the like are text.
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _finish(reader: _Reader, path: str | None, first_line: int) -> tuple[Transcript, list[Diagnostic]]:
    if not any(h.key == "variant" for h in reader.headers):
        reader.err("T006", tr("the header does not name the variant"), first_line,
                   hint=tr("add a line such as 'variant: <bundled name or file>'"))
    if not reader.players and not reader.players_missing_said:
        reader.err("T006", tr("the header does not name the players"), first_line,
                   hint=tr("add a line such as 'players: Anna Boris Vera Gleb'"))
    return Transcript(tuple(reader.headers), reader.players, tuple(reader.events), path), reader.diags


def read_game(lines: Iterable[str], first_line: int = 1, path: str | None = None
              ) -> tuple[Transcript, list[Diagnostic]]:
    """Read one game's lines (numbered from ``first_line``); never raises."""
    reader = _Reader(path)
    line = reader.line
    numbered = enumerate(lines, start=first_line)
    for number, raw in numbered:
        line(raw, number)
        if reader.in_body and reader.memo is not None:
            break
    memo = reader.memo
    if memo is not None:  # the body: an action line read before is one lookup, its event the same but the line
        add = reader.events.append
        known_line = memo.get
        for number, raw in numbered:
            known = known_line(raw)
            if known is not None:
                add(_new_event(Event, (known[0], number, *known[2:])))
            else:
                line(raw, number)
    return _finish(reader, path, first_line)


def _mostly_binary(text: str) -> bool:
    sample = text[:4096]
    if not sample:
        return False
    odd = sum(1 for ch in sample if (ord(ch) < 32 and ch not in "\t\r\n\f") or ch == "\ufffd")
    return odd * 10 > len(sample)
