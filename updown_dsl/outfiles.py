"""What a file the tools write may replace: a regular file, never anything else.

``--force`` (``convert -o``, ``view -o``, ``play --save``, ``simulate --report``) writes a new
file beside the target and renames it over the target in one step. A rename replaces the
*name*: over a device node, a FIFO or a symbolic link it would leave a regular file where the
device, the pipe or the link was (as root, ``--save /dev/full --force`` would have deleted
the machine's ``/dev/full``). :func:`not_replaceable` names what is there when it is not a
regular file, and the writers refuse it. :func:`umask_mode` is the mode a new file gets from
the umask (a temporary file is made 0600; the file put in its place is given this mode).
"""

from __future__ import annotations

import os
import stat

from .i18n import tr

__all__ = ["file_kind", "not_replaceable", "refusal", "umask_mode"]


def not_replaceable(path: str | os.PathLike[str]) -> str | None:
    """What is at ``path`` when it is something a writer must not replace (a symbolic link,
    a folder, a device, a FIFO, a socket), in words; None when nothing is there or a regular
    file is."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None  # nothing there (or the writer's own error says it better)
    return file_kind(mode)


def file_kind(mode: int) -> str | None:
    """What a file of ``mode`` (``st_mode``) is, in words, when it is not a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return tr("a symbolic link")
    if stat.S_ISDIR(mode):
        return tr("a folder")
    if stat.S_ISFIFO(mode):
        return tr("a FIFO (a named pipe)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return tr("a device")
    return tr("not a regular file")


def refusal(path: str | os.PathLike[str], what: str) -> str:
    """The message of a refused ``--force``: ``path`` is ``what``."""
    return tr("{path} is {what}: --force replaces only a regular file; name another file",
              path=os.fspath(path), what=what)


def umask_mode() -> int:
    """The mode a new file gets under the process's umask (0o666 less the umask)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask
