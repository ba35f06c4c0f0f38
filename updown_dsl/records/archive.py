"""Archives: many games in one file or stream, read one game at a time.

:func:`split_games` cuts the input into games (a ``variant:`` line after a game's deals
starts the next), reading a file a megabyte at a time; memory does not grow with the
archive. :func:`iter_transcripts` reads each game as it comes.

Memory is bounded whatever the input: a line that has not ended after
:data:`~updown_dsl.records.reader.MAX_LINE` characters is cut there while it is read, and a
game of more than :data:`MAX_GAME_LINES` lines or :data:`MAX_GAME_CHARS` characters is cut
there; either ends the input with a diagnostic (``T015``, ``T019``) at once, the games before
it checked as usual. :class:`Peeked` looks at the start of a stream without seeking back, so
pipes and FIFOs are read like files.
"""

from __future__ import annotations

from typing import Iterable, Iterator, NamedTuple

from ..i18n import tr
from ..diagnostics import Diagnostic
from .model import Transcript
from .reader import _HEADER_LINE, MAX_LINE, _mostly_binary, read_game

#: The most lines of one game (a long game of real play has a few thousand).
MAX_GAME_LINES = 50_000
#: The most characters of one game's lines (a long game of real play has a few hundred thousand).
MAX_GAME_CHARS = 4_000_000
#: Bytes of a line that has not ended after which it is cut (every character is at most four).
_LONG_BYTES = 4 * (MAX_LINE + 1)


class Peeked:
    """A binary stream whose first ``size`` bytes (:attr:`head`) have been read to look at,
    and are read again by :meth:`read`: no seek, so a pipe or a FIFO works like a file."""

    def __init__(self, stream: object, size: int = 64) -> None:
        self._stream = stream
        self.head: bytes = stream.read(size) or b""  # type: ignore[attr-defined]
        self._pending = self.head

    def __iter__(self) -> Iterator[bytes]:
        """The lines, as a binary file gives them (the archive reader reads blocks with :meth:`read`
        instead); a line over :data:`_LONG_BYTES` comes in pieces of that size, never held whole."""
        rest = b""
        while True:
            block = self.read(1 << 16)
            if not block:
                if rest:
                    yield rest
                return
            lines = (rest + block).split(b"\n")
            rest = lines.pop()
            yield from (line + b"\n" for line in lines)
            while len(rest) > _LONG_BYTES:
                yield rest[:_LONG_BYTES]
                rest = rest[_LONG_BYTES:]

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all that is left when negative), the peeked ones first."""
        out, self._pending = self._pending, b""
        if size < 0:
            return out + self._stream.read()  # type: ignore[attr-defined,no-any-return]
        if len(out) > size:
            out, self._pending = out[:size], out[size:]
            return out
        if not out:
            return self._stream.read(size)  # type: ignore[attr-defined,no-any-return]
        return out + (self._stream.read(size - len(out)) if size > len(out) else b"")  # type: ignore[attr-defined]


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
    chars = 0  # of the game's lines so far
    for number, block in _text_blocks(lines, path):
        if isinstance(block, Diagnostic):
            if block.code == "T015" and seen_any:  # a line cut while read: the game before it stands
                yield GameLines(game, first_line)
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
                    chars = 0
                    first_line = number + k
                    in_body = False
                else:
                    upto = starts[next_start] if starts[next_start] > k else starts[next_start + 1]
                    part = block[k:upto]
                    game.extend(part)
                    chars += sum(map(len, part))
                    if len(game) > MAX_GAME_LINES or chars > MAX_GAME_CHARS:
                        yield from _cut_game(game, first_line, path)
                        return
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
            chars += len(raw)
            if len(game) > MAX_GAME_LINES or chars > MAX_GAME_CHARS:
                yield from _cut_game(game, first_line, path)
                return
            k += 1
    if seen_any:
        yield GameLines(game, first_line)
    else:
        yield Diagnostic("T001", tr("the file is empty"), path=path, line=1, col=1)


def _cut_game(game: list[str], first_line: int, path: str | None) -> Iterator[GameLines | Diagnostic]:
    """A game over the limits: its first lines up to them, then ``T019``, which ends the input."""
    keep, chars = 0, 0
    for line in game:
        if keep >= MAX_GAME_LINES or chars + len(line) > MAX_GAME_CHARS:
            break
        keep += 1
        chars += len(line)
    del game[keep:]
    yield GameLines(game, first_line)
    yield Diagnostic("T019", tr("the game goes on past {lines:,} lines or {chars:,} characters, more than a "
                                "record of real play holds: the rest of the input is not read",
                                lines=MAX_GAME_LINES, chars=MAX_GAME_CHARS),
                     path=path, line=first_line + keep, col=1,
                     hint=tr("is this a game record? A missing 'variant:' line may join many games into one"))


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
            if len(rest) > _LONG_BYTES:  # a line with no end in sight: cut it now, never hold it all
                yield from _long_line(rest, path, number)
                return
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


def _long_line(data: bytes, path: str | None, number: int) -> Iterator[tuple[int, list[str] | Diagnostic]]:
    """A line that has not ended after :data:`_LONG_BYTES`: ``T001`` when what there is of it is
    not text, else ``T015``; either ends the input (the rest is not read)."""
    head = data[:4096]
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = head[:exc.start].decode("utf-8") if exc.start >= len(head) - 3 else "\x00"
    if "\x00" in text or _mostly_binary(text):
        yield number, Diagnostic("T001", tr("not a transcript: the file holds binary data"), path=path,
                                 line=number, col=1)
        return
    yield number, Diagnostic("T015", tr("the line goes on past {MAX_LINE:,} characters: it is not read, nor is "
                                        "the rest of the input", MAX_LINE=MAX_LINE), path=path, line=number, col=1,
                             hint=tr("a record's lines are short: is this file a game record?"))


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
                yield number, Diagnostic("T001", tr("not a text file (not UTF-8 at line {number})",
                                                    number=number), path=path,
                                         line=number, col=1)
                return
        if "\x00" in raw or (number <= 20 and _mostly_binary(raw)):
            if block:
                yield start, block
            yield number, Diagnostic("T001", tr("not a transcript: the file holds binary data"), path=path,
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
