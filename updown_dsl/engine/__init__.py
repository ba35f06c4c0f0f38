"""The engine: one state machine for every variant, fed by the loaded rules.

Import order is one way: ``tables`` (the pack as integers) and ``plan`` (a variant's
rules per table size) first, then ``state`` (the slots of a game) and the parts of a
game over it: ``dealing`` (random deals, the cut and trump), ``recorded`` (deals given
card by card, or unknown on a score sheet), ``bidding`` (bids, the hook, the trump
choice), ``auction`` (an auction for trump, and bids counted against a dash limit),
``play`` (legal cards and tricks), ``runs`` (many plain cards at once: a checker's replay,
a search's random play-out; a random card at a time with wild cards), ``restrict`` (when trump may be led, and over-trumping),
``wild`` (jokers and special cards), ``endgame`` (scores, penalties, the end), joined in ``game``; ``scoring`` holds the
result values and the settlement, ``view`` what one seat may see, ``worlds`` a seat's
position rebuilt with guessed hands (for search bots).

May import: the cards, actions and diagnostics and the variant language. Nothing of the
records, the players or the command line.
"""

from __future__ import annotations

from .game import Game
from .plan import seat_by_rule, trump_rule_for
from .state import IllegalAction, Phase, Trick, TrickPlay

__all__ = ["Game", "IllegalAction", "Phase", "Trick", "TrickPlay", "seat_by_rule", "trump_rule_for"]

# The public classes are shown (and pickled) under the package that exports them.
for _cls in (Game, IllegalAction, Phase, Trick, TrickPlay):
    _cls.__module__ = __name__
del _cls
