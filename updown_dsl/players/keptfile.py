"""The file a kept score sheet is saved in, after every entry, whole or not at all.

A sheet being kept changes in place (a deal's row grows as its bids and tricks come in, and a
correction re-scores the deals after it), so each save writes the whole record: a save that
only adds lines is appended in one write; any other goes into a hidden file beside it that
then replaces it (:meth:`~updown_dsl.players.savefile.SaveFile.create` with ``force``), so a
process killed at any moment leaves the sheet as it was before the entry or after it. The
file is locked while the sheet is kept, as ``updown play --save`` locks its game.
"""

from __future__ import annotations

import os

from .savefile import SaveFile


class KeptFile:
    """A sheet's file, open and locked while it is kept."""

    def __init__(self, file: SaveFile, text: str) -> None:
        self.file = file
        self.text = text
        """What the file holds now."""

    @property
    def path(self) -> str:
        return self.file.path

    @classmethod
    def create(cls, path: str | os.PathLike[str], text: str, *, force: bool = False) -> KeptFile:
        """A new file holding ``text``.

        :raises FileExistsError: when it exists and ``force`` is not given.
        :raises ~updown_dsl.players.savefile.SaveError: when it cannot be made or is in use.
        """
        return cls(SaveFile.create(path, text, force=force), text)

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> KeptFile:
        """An existing sheet, locked, to keep on.

        :raises ~updown_dsl.players.savefile.SaveError: when it cannot be read or written, or
            another process keeps it (:class:`~updown_dsl.players.savefile.InUseError`).
        """
        file = SaveFile.open(path)
        try:
            data = file.read().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            file.close()
            raise
        return cls(file, data)

    def save(self, text: str) -> None:
        """Make the file hold ``text``: appended when it only adds to it, else replaced whole.

        :raises ~updown_dsl.players.savefile.SaveError: when the system refuses; the file is
            then as it was.
        """
        if text == self.text:
            return
        if text.startswith(self.text):
            self.file.write(text[len(self.text):])
        else:
            path = self.file.path
            self.file.close()  # (our own lock would refuse the replacement)
            self.file = SaveFile.create(path, text, force=True)
        self.text = text

    def close(self) -> None:
        """Close the file (and release its lock)."""
        self.file.close()
