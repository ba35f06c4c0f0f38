"""The engine: one state machine for every variant, fed by the loaded rules.

Import order is one way: ``tables`` (the pack as integers) and ``plan`` (a variant's
rules per table size) first, then ``state`` (phases, the deal log, the slots of a game),
``kernel`` (the play kernel: hands, the cards played, the trick; the only code that knows how
a card is checked, played and wins) and the parts of a game over them: ``dealing`` (random
deals, the cut and trump), ``recorded`` (deals given card by card, or unknown on a score
sheet), ``bidding`` (bids, the hook, the trump choice), ``auction`` (an auction for trump, and
bids counted against a dash limit), ``endgame`` (scores, penalties, the end), joined in
``game``; ``scoring`` holds the result values and the settlement, ``view`` what one seat may
see, ``worlds`` a seat's position rebuilt with guessed hands (for search bots).

May import: the cards, actions and diagnostics and the variant language. Nothing of the
records, the players or the command line.
"""

from __future__ import annotations

from .game import Game
from .plan import seat_by_rule, trump_rule_for
from .kernel import PlayKernel
from .state import CardFault, IllegalAction, Phase, Trick, TrickPlay

__all__ = ["CardFault", "Game", "IllegalAction", "Phase", "PlayKernel", "Trick", "TrickPlay", "seat_by_rule", "trump_rule_for"]

# The public classes are shown (and pickled) under the package that exports them.
for _cls in (CardFault, Game, IllegalAction, Phase, PlayKernel, Trick, TrickPlay):
    _cls.__module__ = __name__
del _cls
