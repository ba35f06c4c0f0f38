"""The file a game is saved in: made whole, locked while a game writes it, repaired after a crash.

* **Made whole.** A new save is written to a hidden file beside it (``.NAME.XXXXXXXX.tmp``)
  with its whole header, and only then linked (or, with ``force``, renamed) into place and
  locked, so a process killed while making it leaves no file, or a file with its whole
  header. Where the file system has no hard links the file is made in place, the header in
  one write.
* **Locked.** The file is locked (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows)
  for as long as a game writes it, so a second process is refused (:class:`InUseError`).
  The kernel drops a dead process's lock: nothing stale is left behind. Where the file
  system cannot lock, the game goes on unlocked (:attr:`SaveFile.locked` is False).
* **Appended in whole units.** :meth:`SaveFile.write` writes one unit (the lines of one
  action) without buffering; when the system refuses part way (a full disk), the part
  written is cut off again, so the file still ends where the last whole unit ended, and
  :class:`SaveError` is raised.
* **Repaired.** :func:`whole_part` finds what of a saved file to keep when the process died
  while writing: a line cut short and the blank lines after the last whole line.

Nothing here prints: failures are raised with the file and the reason in their message.
"""

from __future__ import annotations

import errno
import os
import secrets
from dataclasses import dataclass
from typing import Any

from ..i18n import tr
from ..outfiles import file_kind, not_replaceable, refusal

fcntl: Any
msvcrt: Any
try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None
try:
    import msvcrt  # type: ignore[no-redef, unused-ignore]  # (needed where msvcrt exists)
except ImportError:
    msvcrt = None

#: How save files are locked here: ``"flock"`` (POSIX), ``"msvcrt"`` (Windows) or ``"none"``.
LOCKING = "flock" if fcntl is not None else "msvcrt" if msvcrt is not None else "none"
_BINARY = getattr(os, "O_BINARY", 0)
_FAR = 2**31 - 2  # the byte a Windows lock covers: past any record, so readers are not blocked


class SaveError(OSError):
    """A save file that cannot be made, locked or written; ``str()`` names it and says why."""

    def __init__(self, code: int, reason: str, path: str, message: str, doing: str = "") -> None:
        super().__init__(code, reason, path)
        self.message = message
        self.doing = doing
        """What failed: ``create``, ``read``, ``write to`` or ``repair`` (empty: the lock)."""

    def __str__(self) -> str:
        return self.message


class InUseError(SaveError):
    """Another process holds the save file's lock: it is playing that game now."""


def _failed(exc: OSError, path: str, doing: str) -> SaveError:
    reason = exc.strerror or str(exc)
    return SaveError(exc.errno or 0, reason, path, f"cannot {doing} {path}: {reason}", doing)


def _in_use(path: str) -> InUseError:
    return InUseError(errno.EWOULDBLOCK, "in use", path,
                      tr("{path} is in use: another `updown play` is writing this game now (let it finish, or "
                         "stop it first)", path=path))


def _lock_quietly(fd: int) -> None:
    """Lock ``fd`` if this system can (a hidden file being made: nobody else opens it)."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pass


def _sweep_stale(folder: str, base: str) -> None:
    """Remove hidden files of ``base`` left by a process killed while it made the save: the
    ones no living process holds locked (where files can be locked; elsewhere they stay)."""
    if fcntl is None:
        return
    prefix = f".{base}."
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return
    for n in names:
        stale = os.path.join(folder, n)
        try:
            fd = os.open(stale, os.O_RDONLY | _BINARY)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a process is making its save right now
            try:
                os.unlink(stale)
            except OSError:
                pass
        finally:
            _close(fd)


def _lock(fd: int, path: str) -> bool:
    """Lock ``fd`` for this process alone: True, or False where locks are not available.

    :raises InUseError: when another process holds it.
    """
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise _in_use(path) from None
            return False  # ENOLCK, EOPNOTSUPP, ...: a file system without locks
        return True
    if msvcrt is not None:  # pragma: no cover - Windows
        here = os.lseek(fd, 0, os.SEEK_CUR)
        try:
            os.lseek(fd, _FAR, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EDEADLOCK):
                raise _in_use(path) from None
            return False
        finally:
            os.lseek(fd, here, os.SEEK_SET)
        return True
    return False  # pragma: no cover


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:  # pragma: no cover
        pass


class SaveFile:
    """A save file open for appending, and locked (where locks exist) until :meth:`close`.

    It has the ``write``/``flush``/``close`` of a text stream, so a
    :class:`~updown_dsl.players.recorder.RecordWriter` writes to it as to any stream.
    """

    def __init__(self, fd: int, path: str, locked: bool) -> None:
        self.fd = fd
        self.path = path
        self.locked = locked
        self.size = os.fstat(fd).st_size
        """The bytes of whole units in the file (where a failed write is cut back to)."""

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> SaveFile:
        """An existing save, opened to read it and append to it, and locked.

        :raises InUseError: when another process is writing it.
        :raises SaveError: when it cannot be opened for writing (``errno`` says why:
            ``ENOENT`` when it does not exist).
        """
        name = str(path)
        try:
            fd = os.open(name, os.O_RDWR | os.O_APPEND | _BINARY)
        except OSError as exc:
            raise _failed(exc, name, "read" if exc.errno == errno.ENOENT else "write to") from None
        what = file_kind(os.fstat(fd).st_mode)
        if what is not None:  # a device or a FIFO would be read forever
            _close(fd)
            raise SaveError(errno.EINVAL, what, name, tr("cannot resume {path}: it is {what}, not a saved game",
                                                         path=name, what=what), "read")
        try:
            save = cls(fd, name, _lock(fd, name))
        except BaseException:
            _close(fd)
            raise
        # the game is ours now: a hidden file a killed maker left (after linking it in place,
        # before removing it) goes
        _sweep_stale(*os.path.split(os.path.abspath(name)))
        return save

    @classmethod
    def create(cls, path: str | os.PathLike[str], text: str, *, force: bool = False) -> SaveFile:
        """A new save holding ``text`` (the header): there whole, or not at all.

        ``force``: replace a file already there (unless another process is writing it).

        :raises FileExistsError: when ``path`` exists and ``force`` is not given.
        :raises InUseError: with ``force``, when another process is writing the file there.
        :raises SaveError: when it cannot be made (a read-only folder, a full disk).
        """
        name = str(path)
        folder, base = os.path.split(os.path.abspath(name))
        _sweep_stale(folder, base)
        tmp = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
        fd = -1
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o666)
            _lock_quietly(fd)  # held while the hidden file lives: a later sweep leaves it alone
            _write_all(fd, text.encode("utf-8"))
            if force:
                what = not_replaceable(name)
                if what is not None:  # a rename would put a regular file where it is
                    raise SaveError(errno.EEXIST, what, name, refusal(name, what), "create")
                _not_in_use(name)
                os.replace(tmp, name)
            else:
                try:
                    os.link(tmp, name)
                except FileExistsError:
                    raise
                except OSError:  # no hard links on this file system: made in place
                    return cls._create_in_place(name, text)
        except (FileExistsError, SaveError):
            raise
        except OSError as exc:
            raise _failed(exc, name, "create") from None
        finally:
            try:
                os.unlink(tmp)  # put in place, or given up: the hidden name goes
            except OSError:
                pass
            if fd >= 0:
                _close(fd)
        return cls.open(name)  # (a process that locks it first is given the game)

    @classmethod
    def _create_in_place(cls, name: str, text: str) -> SaveFile:
        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND | _BINARY, 0o666)
        except FileExistsError:
            raise
        except OSError as exc:
            raise _failed(exc, name, "create") from None
        try:
            locked = _lock(fd, name)
            _write_all(fd, text.encode("utf-8"))
        except OSError as exc:
            _close(fd)
            try:
                os.unlink(name)  # made just now, its header cut short: nothing is lost
            except OSError:  # pragma: no cover
                pass
            raise (exc if isinstance(exc, SaveError) else _failed(exc, name, "create")) from None
        return cls(fd, name, locked)

    # ------------------------------------------------------------------ reading and writing
    def read(self) -> bytes:
        """The whole file as it is now."""
        os.lseek(self.fd, 0, os.SEEK_SET)
        chunks: list[bytes] = []
        while True:
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)

    def truncate(self, size: int) -> None:
        """Cut the file to its first ``size`` bytes.

        :raises SaveError: when the system refuses.
        """
        try:
            os.ftruncate(self.fd, size)
        except OSError as exc:
            raise _failed(exc, self.path, "repair") from None
        self.size = size

    def write(self, text: str) -> int:
        """Append ``text`` (one unit: the lines of one action) to the file.

        :raises SaveError: when the system refuses (a full disk); the file is cut back to
            where it was, so it still ends with a whole line.
        """
        data = text.encode("utf-8")
        try:
            _write_all(self.fd, data)
        except BaseException as exc:  # a full disk, or Ctrl-C between two writes
            try:
                os.ftruncate(self.fd, self.size)
            except OSError:  # pragma: no cover - resuming drops the line cut short
                pass
            if isinstance(exc, OSError):
                raise _failed(exc, self.path, "write to") from None
            raise
        self.size += len(data)
        return len(text)

    def flush(self) -> None:
        """Nothing to do: every write goes straight to the system."""

    def close(self) -> None:
        """Close the file (and so release its lock)."""
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            _close(fd)

    @property
    def closed(self) -> bool:
        return self.fd < 0


def _not_in_use(name: str) -> None:
    """Refuse to replace a file another process holds."""
    try:
        fd = os.open(name, os.O_RDONLY | _BINARY)
    except OSError:
        return  # not there (or not readable: the rename says what is wrong)
    try:
        _lock(fd, name)
    finally:
        _close(fd)


# ============================================================================ repairing


@dataclass(frozen=True)
class WholePart:
    """What of a saved file to keep (see :func:`whole_part`)."""

    keep: int
    """The bytes to keep."""
    by_play: bool
    """The header is one ``updown play`` writes (it has the ``_bot`` line)."""
    header_cut: bool
    """The file stops inside its header: before any deal, without the ``rules`` line."""

    def dropped(self, data: bytes) -> bytes:
        """What is cut off ``data``."""
        return data[self.keep:]


def whole_part(data: bytes) -> WholePart:
    """What of a saved file ``data`` to keep when resuming it.

    A file ``updown play`` wrote (its header has the ``_bot`` line) keeps its whole lines:
    a last line without its newline was cut short when the process died, and it is dropped,
    with the blank lines before it (the game writes them again); a comment (``#``) is not
    cut short by a game, and stays. Any other file is kept as it is. ``header_cut``: the
    file stops inside its header (it has neither a ``deal`` line nor a ``rules`` line), so
    there is no game in it to go on with.
    """
    whole = data[: data.rfind(b"\n") + 1]
    lines = whole.split(b"\n")[:-1]
    header_cut = not any(x.startswith((b"deal ", b"rules:")) for x in lines)
    header = []
    for x in lines:
        if not x.strip() or x.startswith(b"deal "):
            break
        header.append(x)
    by_play = any(x.startswith(b"_bot:") for x in header)
    if not by_play or header_cut or data[len(whole):].lstrip().startswith(b"#"):
        return WholePart(len(data), by_play, header_cut)
    keep = len(whole)
    while keep and data[:keep].endswith(b"\n\n"):
        keep -= 1
    return WholePart(keep, by_play, header_cut)
