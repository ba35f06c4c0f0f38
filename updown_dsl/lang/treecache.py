"""The user's cache of read variant files: a file's YAML tree as JSON, keyed by its text.

Reading a variant file needs PyYAML, whose import is a large part of the start-up of a small
``updown check``; a file read before is taken from here instead, without it. The cache is a mode
of the one YAML reader (:func:`updown_dsl.lang.yamltree.parse_yaml`), never a second reader:
an entry holds exactly what that reader made of the text, and every entry is checked as it is
read. An entry is named by the SHA-256 of the text (with the cache's format and the package's
version), so a changed file is a new entry; a missing, stale, unreadable or malformed entry is
a miss (as is, on POSIX, an entry another user wrote), and a folder that cannot be written
is no cache. Only plain data is stored (JSON: no
pickle, nothing is evaluated).

The folder: ``$UPDOWN_CACHE_DIR`` when set (empty: no cache), else ``updown`` in
``$XDG_CACHE_HOME`` or ``~/.cache`` (``%LOCALAPPDATA%`` on Windows).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: The form of an entry; a change of it (or of the package's version) leaves old entries unread.
FORMAT = 1
#: The largest text kept (a variant file is a few kilobytes).
MAX_TEXT = 256 * 1024
#: The most entries kept; the oldest go first when a new one would pass it.
MAX_ENTRIES = 200

_SUBDIR = "yaml-trees"


def cache_dir() -> Path | None:
    """The folder of the cache, or None when there is none."""
    env = os.environ.get("UPDOWN_CACHE_DIR")
    if env is not None:
        return Path(env) / _SUBDIR if env else None
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif os.environ.get("XDG_CACHE_HOME"):
        base = Path(os.environ["XDG_CACHE_HOME"])
    else:
        try:
            base = Path.home() / ".cache"
        except (RuntimeError, KeyError, OSError):  # no home to speak of
            return None
    return base / "updown" / _SUBDIR


def _key(text: str) -> str:
    import hashlib

    from .. import __version__

    return hashlib.sha256(f"{FORMAT}\0{__version__}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()


def load(text: str) -> Any:
    """The data stored for ``text``, or None (no cache, no entry, or one that cannot be read)."""
    folder = cache_dir()
    if folder is None or len(text) > MAX_TEXT:
        return None
    key = _key(text)
    try:
        with open(folder / f"{key}.json", encoding="utf-8") as f:
            if hasattr(os, "getuid") and os.fstat(f.fileno()).st_uid != os.getuid():
                return None  # (in a shared folder: an entry someone else wrote is not read)
            entry = json.load(f)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != key:
        return None
    return entry.get("tree")


def store(text: str, data: Any) -> None:
    """Keep ``data`` for ``text``, if the cache can (never raises: a cache that cannot be
    written is none)."""
    folder = cache_dir()
    if folder is None or len(text) > MAX_TEXT:
        return
    key = _key(text)
    tmp = folder / f".{key}.{os.getpid()}.tmp"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _prune(folder)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"key": key, "tree": data}, f, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, folder / f"{key}.json")  # whole or not at all, for a reader at the same time
    except (OSError, ValueError, TypeError, RecursionError):
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def _prune(folder: Path) -> None:
    """Make room for one more entry: drop the oldest beyond :data:`MAX_ENTRIES`."""
    entries = []
    with os.scandir(folder) as it:
        for e in it:
            if e.name.endswith(".json"):
                try:
                    entries.append((e.stat().st_mtime_ns, e.path))
                except OSError:
                    continue
    if len(entries) < MAX_ENTRIES:
        return
    entries.sort()
    for _, p in entries[:len(entries) - MAX_ENTRIES + 1]:
        try:
            os.unlink(p)
        except OSError:
            pass
