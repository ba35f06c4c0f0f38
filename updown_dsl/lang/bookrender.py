"""A :class:`~updown_dsl.lang.rulebook.RuleBook` written as plain text, Markdown or HTML.

Pure functions from the document to a string; `code` in backticks becomes plain text,
Markdown code or ``<code>``. The resolved rules as data (:func:`~.rulebook.rules_data`) are
rendered here too, as the rows of the table of ``updown variant show`` (:func:`rules_table`).
"""

from __future__ import annotations

import html
import re
import textwrap
from typing import Any, Mapping

from ..i18n import tr
from ..safetext import for_html, for_markdown, for_markdown_spans, for_terminal
from .bookmodel import Bullets, Item, RuleBook, Table

_CODE = re.compile(r"`([^`]*)`")
_NUMBER = re.compile(r"^[−+-]?\d*$")


def _plain(text: str) -> str:
    return _CODE.sub(r"\1", text)


def _header_lines(book: RuleBook) -> list[str]:
    out = []
    if book.description:
        out.append(book.description)
    if book.source:
        out.append(tr("Source: {source}", source=book.source))
    if book.base:
        out.append(tr("A house rule of `{base}`: it extends it and changes only the rules listed first.",
                      base=book.base.replace("`", "'")))
    return out


def _grid(table: Table) -> list[str]:
    rows = [table.header, *table.rows]
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(table.header))]

    def line(r: tuple[str, ...]) -> str:
        cells = [c.rjust(w) if i and _NUMBER.match(c) else c.ljust(w)
                 for i, (c, w) in enumerate(zip(list(r) + [""] * (len(widths) - len(r)), widths))]
        return "  ".join(cells).rstrip()

    out = [line(table.header), "  ".join("-" * w for w in widths)]
    out.extend(line(r) for r in table.rows)
    if table.caption:
        out.append(table.caption)
    return out


def to_text(book: RuleBook, width: int = 88) -> str:
    """The book as plain text, wrapped at ``width``."""
    name = for_terminal(book.name, one_line=True)
    out = [name, "=" * len(name)]
    for line in _header_lines(book):
        out.extend(textwrap.wrap(_plain(line), width))

    def items(its: tuple[Item, ...], depth: int) -> None:
        for it in its:
            pad = "  " * depth
            out.extend(textwrap.wrap(_plain(it.text), width, initial_indent=pad + "- ",
                                     subsequent_indent=pad + "  ") or [pad + "-"])
            items(it.items, depth + 1)

    for s in book.sections:
        out.extend(["", s.title, "-" * len(s.title)])
        for b in s.blocks:
            if isinstance(b, str):
                out.extend(textwrap.wrap(_plain(b), width))
            elif isinstance(b, Bullets):
                items(b.items, 0)
            else:
                out.extend(_grid(b))
    # the variant file's words (name, description, source) may hold control characters
    return for_terminal("\n".join(out)) + "\n"


def _md_cell(text: str) -> str:
    """A table cell: :func:`for_markdown_spans`, and a bar in a code span escaped too (in a
    table it ends the cell even there)."""
    parts = _CODE.split(text)
    return "".join(f"`{' '.join(p.split())}`".replace("|", "\\|") if i % 2 else for_markdown(p)
                   for i, p in enumerate(parts))


def to_markdown(book: RuleBook, level: int = 1, title: bool = True) -> str:
    """The book as Markdown: its title at heading ``level``, the sections one below (or, with
    ``title=False``, no title and each section a bold lead-in, as in docs/variants.md)."""
    out: list[str] = []
    if title:
        # The name and the description are the variant file's words: escaped, so that no
        # markup, raw HTML or script in them is read by a Markdown renderer.
        out += ["#" * level + " " + for_markdown(book.name, one_line=True), ""]
        header = [for_markdown_spans(line) for line in _header_lines(book)]
        out += [line + "  " if i < len(header) - 1 else line for i, line in enumerate(header)]
        out.append("")

    def items(its: tuple[Item, ...], depth: int) -> None:
        for it in its:
            out.append("  " * depth + "- " + for_markdown_spans(it.text))
            items(it.items, depth + 1)

    for s in book.sections:
        head = for_markdown_spans(" ".join(s.title.split()))
        out += ["#" * (level + 1) + " " + head, ""] if title else ["**" + head + "**", ""]
        for b in s.blocks:
            if isinstance(b, str):
                out.append(for_markdown_spans(b))
            elif isinstance(b, Bullets):
                items(b.items, 0)
            else:
                out.append("| " + " | ".join(_md_cell(h) for h in b.header) + " |")
                out.append("|" + "|".join("---" for _ in b.header) + "|")
                out.extend("| " + " | ".join(_md_cell(c) for c in r) + " |" for r in b.rows)
                if b.caption:
                    out += ["", "*" + for_markdown_spans(b.caption) + "*"]
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _h(text: str) -> str:
    return _CODE.sub(r"<code>\1</code>", html.escape(for_terminal(text), quote=False))


def to_html(book: RuleBook, lang: str = "en") -> str:
    """The book as a page of HTML that stands alone."""
    out = ["<!DOCTYPE html>", f'<html lang="{html.escape(lang)}">', "<head>", '<meta charset="utf-8">',
           f"<title>{for_html(book.name)}</title>",
           "<style>body{font-family:sans-serif;max-width:50em;margin:auto}"
           "table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .5em}"
           "td{text-align:right}td:first-child{text-align:left}</style>",
           "</head>", "<body>", f"<h1>{for_html(book.name)}</h1>"]
    out.extend(f"<p>{_h(line)}</p>" for line in _header_lines(book))

    def items(its: tuple[Item, ...]) -> None:
        out.append("<ul>")
        for it in its:
            out.append(f"<li>{_h(it.text)}")
            if it.items:
                items(it.items)
            out.append("</li>")
        out.append("</ul>")

    for s in book.sections:
        out.append(f'<h2 id="{html.escape(s.key)}">{_h(s.title)}</h2>')
        for b in s.blocks:
            if isinstance(b, str):
                out.append(f"<p>{_h(b)}</p>")
            elif isinstance(b, Bullets):
                items(b.items)
            else:
                out.append("<table>")
                if b.caption:
                    out.append(f"<caption>{_h(b.caption)}</caption>")
                out.append("<tr>" + "".join(f"<th>{_h(h)}</th>" for h in b.header) + "</tr>")
                out.extend("<tr>" + "".join(f"<td>{_h(c)}</td>" for c in r) + "</tr>" for r in b.rows)
                out.append("</table>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def render(book: RuleBook, fmt: str = "text", lang: str = "en") -> str:
    """``text``, ``md`` or ``html``."""
    if fmt == "md":
        return to_markdown(book)
    if fmt == "html":
        return to_html(book, lang)
    return to_text(book)


# ---------------------------------------------------------------- the resolved rules as a table
def _value_text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return tr("yes") if value else tr("no")
    if isinstance(value, (list, tuple)):
        return ", ".join(str(x) for x in value) if value else "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} = {_value_text(x)}" for k, x in value.items()) if value else "—"
    return str(value)


def rules_table(data: Mapping[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
    """The resolved rules (:func:`~.rulebook.rules_data`) as ``[(section, [(key, text), ...]), ...]``,
    for a table of three columns: section, rule, value."""
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    for section, body in data.items():
        if section == "players":
            p = body
            sections.append(("players", [("count", f"{p['min']}–{p['max']} (default {p['default']})")]))
            continue
        if section == "deck":
            rows = [("pack", body["summary"])]
            sections.append(("deck", rows))
            continue
        if section == "kinds":
            rows = []
            for name, k in body.items():
                parts = [f"bidding {k['bidding']}"]
                if k["multiplier"] != 1:
                    parts.append(f"×{k['multiplier']}")
                if "trump" in k:
                    parts.append("trump " + _value_text(k["trump"]))
                if "score" in k:
                    parts.append(f"score: {k['score']}")
                if "hook" in k:
                    parts.append(f"hook {_value_text(k['hook'])}")
                rows.append((name, "; ".join(parts)))
            if rows:
                sections.append(("kinds", rows))
            continue
        if section == "penalties":
            rev = body["revoke"]
            sections.append(("penalties", [("revoke", _value_text(rev) if rev else "—")]))
            continue
        if body is None:
            continue
        sections.append((section, [(k, _value_text(x)) for k, x in body.items()]))
    return sections
