"""The generated rule books of ``docs/variants.md``: one block per bundled variant.

Each variant's section of the page holds its rule book (:mod:`.rulebook`, in English, as
Markdown) between ``<!-- BEGIN RULE BOOK name -->`` and ``<!-- END RULE BOOK name -->``; an
overlay (a variant that ``extends`` another) holds only what it changes. The prose around
the blocks (sources, readings of the ambiguities) is written by hand and left alone.

Command line::

    python -m updown_dsl.lang.bookdocs --write docs/variants.md   # refresh every block
    python -m updown_dsl.lang.bookdocs --check docs/variants.md   # exit 1 when one is stale
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

BLOCK = re.compile(r"(<!-- BEGIN RULE BOOK ([a-z0-9-]+) -->\n)(.*?)(<!-- END RULE BOOK \2 -->)", re.S)


def begin(name: str) -> str:
    """The line that opens ``name``'s block."""
    return f"<!-- BEGIN RULE BOOK {name} -->"


def book_markdown(name: str) -> str:
    """The Markdown of bundled variant ``name``'s block (English, whatever the locale)."""
    from .. import i18n
    from .bookrender import to_markdown
    from .loader import load_variant
    from .rulebook import base_variant, rule_book

    before = i18n._chosen
    i18n.set_language("en")
    try:
        variant = load_variant(name)
        base = base_variant(variant)
        book = rule_book(variant, None, base, deal_table=False)
        if base is not None:
            book = book._replace(sections=book.sections[:1])
        return to_markdown(book, title=False)
    finally:
        i18n.set_language(before)


def names_in(text: str) -> list[str]:
    """The variants that have a block in ``text``, in order."""
    return [m.group(2) for m in BLOCK.finditer(text)]


def refresh(text: str) -> str:
    """``text`` with every block written afresh."""
    return BLOCK.sub(lambda m: m.group(1) + book_markdown(m.group(2)) + m.group(4), text)


def main(argv: Sequence[str] | None = None) -> int:
    """``--write FILE`` or ``--check FILE``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] not in ("--write", "--check"):
        sys.stderr.write("usage: python -m updown_dsl.lang.bookdocs --write FILE | --check FILE\n")
        return 2
    from .docgen import write_or_check

    return write_or_check(args[0], args[1], refresh, "a rule book is stale",
                          "python -m updown_dsl.lang.bookdocs --write")


if __name__ == "__main__":  # pragma: no cover - command line
    raise SystemExit(main())
