"""What every page shares: escaping, data for scripts, the frame with the inline assets.

A page is one self-contained HTML text: its style sheet and script are read from this
package's ``assets/`` and written inside it, its charts are inline SVG, and its content
security policy lets it load nothing from anywhere (``default-src 'none'``), so a page opened
from a mail or a USB stick shows the same and asks no server for anything.
"""

from __future__ import annotations

import json
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any, Iterable

from ..i18n import language

__all__ = ["asset", "esc", "json_script", "page", "table"]

_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
        "font-src data:")


def esc(value: object) -> str:
    """Text for HTML (quotes too, so it may go in an attribute)."""
    return escape("" if value is None else str(value), quote=True)


@lru_cache(maxsize=None)
def asset(name: str) -> str:
    """The text of one of the package's ``assets/`` files."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def json_script(element_id: str, data: Any) -> str:
    """``data`` as JSON in a ``<script type="application/json">`` a page script reads.

    ``<``, ``>`` and ``&`` are written as ``\\u`` escapes, so no text in the data (a name, a
    comment of the record) can end the element or start a tag.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{esc(element_id)}">{text}</script>'


def table(head: Iterable[object], rows: Iterable[Iterable[object]], *, cls: str = "") -> str:
    """A plain table of text cells (escaped)."""
    out = [f'<table class="{esc(cls)}"><thead><tr>']
    out += [f"<th>{esc(h)}</th>" for h in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def page(title: str, body: str, *, script: str | None = None) -> str:
    """A whole page: ``body`` (HTML) in the frame, with the style sheet and ``script`` (an
    asset's name) inline."""
    js = f"<script>{asset(script)}</script>" if script else ""
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{language()}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="updown">'
        f"<title>{esc(title)}</title><style>{asset('page.css')}</style></head>"
        f"<body>{body}{js}</body></html>\n"
    )
