"""A variant's rules for ``updown variant show``, ``score`` and the play screen.

Nothing is rendered here: the rules as data and the schedule are the rule book's
(:mod:`updown_dsl.lang.rulebook`), the table of resolved rules is
:func:`updown_dsl.lang.bookrender.rules_table`, the pack and the kinds in words are
:mod:`updown_dsl.lang.rulewords`'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lang.bookrender import rules_table
from ..lang.rulebook import deals_data, hand_sizes as hand_sizes_text, rules_data
from ..lang.rulewords import kind_title as kind_label, pack_text
from ..lang.schedule import deal_mark

if TYPE_CHECKING:  # pragma: no cover
    from ..lang.variant import Variant

__all__ = ["deal_mark", "deals_data", "hand_sizes_text", "kind_label", "pack_text", "rules_data",
           "rules_sections"]


def rules_sections(variant: Variant) -> list[tuple[str, list[tuple[str, str]]]]:
    """The resolved rules as ``[(section, [(key, text), ...]), ...]`` for a two-column table."""
    return rules_table(rules_data(variant))
