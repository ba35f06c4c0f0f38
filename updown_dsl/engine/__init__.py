"""The engine: one state machine for every variant, fed by the loaded rules.

Import order is one way: ``tables`` (the pack as integers) and ``plan`` (a variant's
rules per table size) first, then ``state`` (phases, the end of a game, refusals, the deal
log), ``kernel`` (the play kernel: hands, the cards played, the trick; the only code that
knows how a card is checked, played and wins), ``auction`` (which call of an auction wins),
``bidding`` (a deal's bids: the range, the hook, the dash limit, an auction's calls),
``dealing`` (shuffling, random and given deals, the cut and the trump they make) and
``scoring`` (the result values, set premiums and the settlement), all joined in ``game``, the
state machine that goes from deal to deal; ``view`` is what one seat may see, ``worlds`` a
seat's position rebuilt with guessed hands (for search bots); ``display`` the hook through
which a game or a deal's result draws itself in a notebook with the pages' renderers.

May import: the cards, actions and diagnostics and the variant language. Nothing of the
records, the players or the command line.
"""

from __future__ import annotations

from .game import Game
from .plan import seat_by_rule, trump_rule_for
from .kernel import PlayKernel, PlayRules
from .state import CardFault, EndKind, GameEnd, IllegalAction, Phase, Trick, TrickPlay

__all__ = ["CardFault", "EndKind", "Game", "GameEnd", "IllegalAction", "Phase", "PlayKernel", "PlayRules", "Trick", "TrickPlay", "seat_by_rule", "trump_rule_for"]

# The public classes are shown (and pickled) under the package that exports them.
for _cls in (CardFault, EndKind, Game, GameEnd, IllegalAction, Phase, PlayKernel, PlayRules, Trick, TrickPlay):
    _cls.__module__ = __name__
del _cls
