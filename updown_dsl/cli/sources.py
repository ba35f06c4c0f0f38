"""The source lines quoted under diagnostics, from the input as it streams past.

A record is read once, as a stream (a file, standard input, a FIFO), and never held whole.
:class:`LineWindow` passes the stream's blocks to the reader and keeps the last few megabytes
of them; the lines a game's diagnostics name are looked up there when the game's report is
rendered (just after the game is read), in constant time per diagnostic, however large the
file. A line no longer in the window is not quoted (the diagnostic still names its place).
"""

from __future__ import annotations

from collections import deque

#: How much of the stream is kept to quote from (the games just read are in it).
WINDOW_BYTES = 8 << 20
#: The most of one line decoded to quote (a longer one is cut; the quote is an excerpt anyway).
QUOTE_BYTES = 64 << 10


class LineWindow:
    """A binary stream read through (:meth:`read`), keeping its last blocks to quote lines from
    (:meth:`get`). ``head``: the stream's first bytes, when it is a
    :class:`~updown_dsl.records.archive.Peeked` one."""

    def __init__(self, stream: object, keep: int = WINDOW_BYTES, owner: object = None) -> None:
        self._stream = stream
        self._owner = owner  # the file to close when done (None: standard input, left open)
        self._keep = keep
        self._blocks: deque[tuple[int, bool, bytes]] = deque()  # (first line, starts a line, bytes)
        self._size = 0
        self._line = 1
        self._at_start = True
        self._lines: list[bytes] | None = None
        self._first = 1
        self.head: bytes = getattr(stream, "head", b"")

    def read(self, size: int = -1) -> bytes:
        """Read on, keeping what is read."""
        data: bytes = self._stream.read(size)  # type: ignore[attr-defined]
        if data:
            self._blocks.append((self._line, self._at_start, data))
            self._size += len(data)
            while self._size > self._keep and len(self._blocks) > 1:
                self._size -= len(self._blocks.popleft()[2])
            self._line += data.count(b"\n")
            self._at_start = data.endswith(b"\n")
            self._lines = None
        return data

    def close(self) -> None:
        """Close the file read (standard input is left open)."""
        if self._owner is not None:
            self._owner.close()  # type: ignore[attr-defined]

    def get(self, number: int) -> str | None:
        """Line ``number`` (1-based, without its line end), or None when it is not in the window."""
        if not self._blocks:
            return None
        if self._lines is None:
            first, at_start, _ = self._blocks[0]
            parts = b"".join(block for _, _, block in self._blocks).split(b"\n")
            if not at_start:  # the window starts inside a line: that line is not whole
                parts = parts[1:]
                first += 1
            self._lines, self._first = parts, first
        i = number - self._first
        if not 0 <= i < len(self._lines):
            return None
        text = self._lines[i][:QUOTE_BYTES].decode("utf-8", errors="replace").rstrip("\r")
        return text.lstrip("\ufeff") if number == 1 else text
