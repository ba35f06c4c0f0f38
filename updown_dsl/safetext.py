"""Text that came from a record, a variant file or a name, made safe for one medium.

One function per medium, and every command shows such text through it:

* :func:`for_terminal` -- control characters (C0 but tab and line end, DEL, C1) and the
  bidirectional overrides shown as visible escapes (``\\x1b``, ``\\u202e``), so that no text
  can move the cursor, clear the screen, set a title or reorder what is shown;
* :func:`for_markdown` -- the terminal escapes, then each character that can start markup
  backslash-escaped (CommonMark's escape), so no emphasis, link, raw HTML, entity, table cell
  or block marker is read (:func:`for_markdown_spans` keeps `code spans` as code);
* :func:`for_html` -- the terminal escapes, then ``& < > " '`` as entities;
* :func:`for_json` -- JSON text with those characters as ``\\u`` escapes (the same JSON).

>>> for_terminal("Anna\\x1b[2J")
'Anna\\\\x1b[2J'
>>> print(for_markdown("<img src=x onerror=alert(1)>"))
\\<img src=x onerror=alert(1)\\>
>>> for_html("<b>")
'&lt;b&gt;'

:func:`excerpt` cuts a long line to a bounded window around a column (for quoting a source
line under a diagnostic). The module is pure: no I/O.
"""

from __future__ import annotations

import html
import re

__all__ = ["for_terminal", "for_markdown", "for_markdown_spans", "for_html", "for_json", "excerpt", "UNSAFE"]

#: What a terminal may act on: C0 controls but tab and line feed, DEL, C1 controls, and the
#: Unicode bidirectional embeddings, overrides and isolates (which reorder what is shown).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_LINE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")

_NAMED = {"\r": "\\r", "\x1b": "\\x1b"}


def _visible(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: str, *, one_line: bool = False) -> str:
    """``text`` with every character a terminal would act on shown as a visible escape.

    Tabs and line ends are kept (``one_line``: line ends are escaped too, for a name or a
    quoted line that must stay on one line)."""
    pattern = _UNSAFE_LINE if one_line else UNSAFE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_visible, text)


#: What CommonMark (and GitHub's tables and strikethrough) can read as markup anywhere in a line.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>&!|#~])")
#: What it reads as a block marker at the start of a line: a list item, a quote, a setext underline.
_MD_LINE_START = re.compile(r"(?m)^([ \t]*)([-+=>]|\d+(?=[.)]))")


def for_markdown(text: str, *, one_line: bool = False) -> str:
    """``text`` as literal CommonMark text: controls escaped as for a terminal, then each
    character that can start markup backslash-escaped (no emphasis, link, image, code, raw
    HTML, entity, table cell, heading, list or quote is read). ``one_line``: line ends become
    spaces (a heading, a table cell)."""
    if one_line:
        text = " ".join(text.split())
    text = _MD_SPECIAL.sub(r"\\\1", for_terminal(text))
    return _MD_LINE_START.sub(lambda m: m.group(1) + ("\\" + m.group(2) if not m.group(2)[0].isdigit()
                                                       else m.group(2) + "\\"), text)


def for_markdown_spans(text: str) -> str:
    """:func:`for_markdown` for the text outside `code spans`, which are kept as code (a code
    span reads nothing inside it; its backticks and line ends are the only danger)."""
    parts = _CODE_SPAN.split(text)
    return "".join(f"`{for_terminal(' '.join(p.split()))}`" if i % 2 else for_markdown(p)
                   for i, p in enumerate(parts))


_CODE_SPAN = re.compile(r"`([^`\n]*)`")


def for_html(text: str) -> str:
    """``text`` as HTML text or attribute value: controls escaped, then ``& < > " '``."""
    return html.escape(for_terminal(text), quote=True)


def for_json(text: str) -> str:
    """JSON text (as :func:`json.dumps` writes it) with every character of :data:`UNSAFE` as a
    ``\\uXXXX`` escape: the same JSON to a reader, nothing a terminal acts on. (JSON text holds
    such characters only inside strings, where the escape means the same character.)"""
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def excerpt(line: str, col0: int, width: int = 120, ellipsis: str = "…") -> tuple[str, int]:
    """A window of at most about ``width`` characters of ``line`` around the 0-based ``col0``,
    with ``ellipsis`` where it is cut, and where ``col0`` falls in it.

    >>> excerpt("x" * 1000, 500, width=20)
    ('…xxxxxxxxxxxxxxxxxxxx…', 11)
    """
    if len(line) <= width:
        return line, col0
    half = width // 2
    start = max(0, min(col0 - half, len(line) - width))
    end = min(len(line), start + width)
    head = ellipsis if start > 0 else ""
    tail = ellipsis if end < len(line) else ""
    return head + line[start:end] + tail, col0 - start + len(head)
