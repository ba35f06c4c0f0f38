"""The score sheet as rows of plain data: the library's (:mod:`updown_dsl.pages.sheet`), named here too."""

import re

from ..i18n import tr, trc
from ..pages.sheet import deal_mark, sheet_cell, sheet_rows, sheet_summary, trump_mark


def reason_text(reason: str) -> str:
    """Why the game ended (the engine's words), in the reader's language."""
    if reason == "schedule complete":
        return tr("schedule complete")
    if reason.startswith("stop-loss reached"):
        return tr("stop-loss reached («просчет»)")
    m = re.fullmatch(r"a total reached (\d+)", reason)
    if m:
        return tr("a total reached {target}", target=m.group(1))
    m = re.fullmatch(r"(\d+) deals played", reason)
    return tr("{n} deals played", n=m.group(1)) if m else reason


def _mark_word(word: str) -> str:
    return {"NT": trc("sheet mark", "NT"), "B": trc("sheet mark", "B"), "H": trc("sheet mark", "H"),
            "MIN": trc("sheet mark", "MIN"), "MAX": trc("sheet mark", "MAX")}.get(word, word)


def shown_mark(mark: str) -> str:
    """A score sheet's mark of a deal or of trump (``6``, ``6B``, ``NT6``, ``MIN6``, ``NT``) as the
    reader's sheet writes it (``6Т``, ``БК6``, ``БК`` in Russian); the data keep the English."""
    m = re.fullmatch(r"([A-Z]*)(\d*)([A-Z]*)", mark)
    if m is None or not (m.group(1) or m.group(3)):
        return mark
    return _mark_word(m.group(1)) + m.group(2) + _mark_word(m.group(3))


__all__ = ["deal_mark", "reason_text", "shown_mark", "sheet_cell", "sheet_rows", "sheet_summary", "trump_mark"]
