"""Players: bots, a game played at the table, and simulations of many games.

``bots`` choose actions from a seat's view only, ``session`` is the play loop of
``updown play`` (input, saving as it goes, resuming), ``simulate`` plays and summarises
many bot games.

May import: the cards, actions and diagnostics, the variant language, the engine and the
records. Nothing of the command line.
"""
