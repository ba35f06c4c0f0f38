"""The document a rule book is (:mod:`.rulebook` writes it, :mod:`.bookrender` renders it):
sections of paragraphs, lists and tables, as immutable values."""

from __future__ import annotations

from typing import NamedTuple, Union


class Item(NamedTuple):
    """One point of a list, with points under it."""

    text: str
    items: tuple[Item, ...] = ()


class Bullets(NamedTuple):
    """A list of points."""

    items: tuple[Item, ...]


class Table(NamedTuple):
    """A table: a header row and rows of cells."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    caption: str = ""


Block = Union[str, Bullets, Table]
"""A paragraph (text, with `code` in backticks), a list or a table."""


class Section(NamedTuple):
    """A part of the book; ``key`` names it whatever the language."""

    key: str
    title: str
    blocks: tuple[Block, ...]


class RuleBook(NamedTuple):
    """The whole book of one variant for one table size."""

    name: str
    description: str
    source: str
    players: int
    sections: tuple[Section, ...]
    base: str | None = None
    """The variant a house rule extends."""
