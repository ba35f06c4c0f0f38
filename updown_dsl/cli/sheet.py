"""The score sheet as rows of plain data: the library's (:mod:`updown_dsl.pages.sheet`), named here too."""

from ..pages.sheet import deal_mark, sheet_cell, sheet_rows, sheet_summary, trump_mark

__all__ = ["deal_mark", "sheet_cell", "sheet_rows", "sheet_summary", "trump_mark"]
