"""Archives: many games in one file or stream, read one game at a time.

:func:`split_games` cuts the input into games (a ``variant:`` line after a game's deals
starts the next), reading a file a megabyte at a time; memory does not grow with the
archive. :func:`iter_transcripts` reads each game as it comes.
"""

from __future__ import annotations

from typing import Iterable, Iterator, NamedTuple

from ..i18n import tr
from ..diagnostics import Diagnostic
from .model import Transcript
from .reader import _HEADER_LINE, _mostly_binary, read_game

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
        yield Diagnostic("T001", tr("the file is empty"), path=path, line=1, col=1)


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
