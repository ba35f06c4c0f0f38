"""The walk over a record, with a visitor doing the work at each step.

python-chess reads a PGN game by calling a visitor's methods as it goes; this is the same
idea for a transcript. :func:`walk` goes through the lines before the first deal, every
deal block (its ``deal`` line and the lines up to the next one) and the settlement, and
calls the :class:`Visitor`'s methods in that order. The checker is a visitor that replays
each line through the engine; a score sheet, a statistics pass or a page of the game is
another visitor over the same walk.

A visitor raises :class:`Abandon` to leave the rest of a deal (the walk then calls
:meth:`Visitor.abandoned` and goes on with the next deal), and :class:`StopWalk` to end the
walk before the settlement.
"""

from __future__ import annotations

from .model import Event, Transcript


class Abandon(Exception):
    """Leave the rest of the current deal (after reporting why, if need be)."""


class StopWalk(Exception):
    """Stop at this deal: no further deal is visited (the settlement and the end still are)."""


class Visitor:
    """What a walk calls. Every method does nothing by default."""

    def begin_game(self, t: Transcript) -> None:
        """Before anything else."""

    def stray(self, e: Event) -> None:
        """A line before the first ``deal`` line."""

    def begin_deal(self, block: list[Event], last: bool) -> None:
        """A deal block begins (``block[0]`` is its ``deal`` line; ``last``: no deal follows)."""

    def event(self, e: Event) -> None:
        """One line of the deal, in order (the deal line excepted). Calls ``on_<kind>``."""
        handler = getattr(self, "on_" + e.kind, None)
        if handler is not None:
            handler(e)

    def end_deal(self, block: list[Event], last: bool) -> None:
        """After the deal's last line (not called when the deal was abandoned)."""

    def abandoned(self, block: list[Event]) -> None:
        """The visitor raised :class:`Abandon` in this deal."""

    def settlement(self, e: Event) -> None:
        """A ``settlement`` line (after every deal, wherever it is written)."""

    def end_game(self) -> None:
        """After everything else."""


def walk(t: Transcript, visitor: Visitor) -> None:
    """Walk ``t`` with ``visitor``."""
    visitor.begin_game(t)
    for e in t.events:
        if e.kind == "deal":
            break
        visitor.stray(e)
    blocks = t.deals()
    for i, block in enumerate(blocks):
        last = i == len(blocks) - 1
        try:
            visitor.begin_deal(block, last)
            for e in block[1:]:
                visitor.event(e)
            visitor.end_deal(block, last)
        except Abandon:
            visitor.abandoned(block)
        except StopWalk:
            break
    for e in t.events:
        if e.kind == "settlement":
            visitor.settlement(e)
    visitor.end_game()
