"""Players: bots, a game played at the table, and simulations of many games.

``bots`` choose actions from a seat's view only, with ``knowledge`` what a seat has seen
and ``calling`` their calls in an auction for trump; ``search`` looks ahead over deals
``sampling`` guesses, by the information-set tree search of ``tree`` or played out by
``rollout``; ``analysis`` judges every decision of a recorded game by that search, from the
acting seat's view (``updown analyse``); ``dominance`` proves a decision that misses the bid in
every deal of the unseen cards while another keeps a chance, which the bots never choose;
``session`` is the play loop of ``updown play``, ``replies`` reads what a player types,
``recorder`` writes the record as the game goes and rebuilds a game to resume it, in the
file ``savefile`` makes whole, locks and repairs after a crash; ``simulate`` plays and
summarises many bot games. ``keeper`` keeps the score of a game played with real cards (each
entry checked by the rules, corrections re-scored), saved after every entry in the file
``keptfile`` writes whole, and shared as a short URL-safe string (``share``). The engine
protocol (``docs/protocol.md``): ``protocol`` holds its messages and JSON forms, ``referee``
answers a front end's requests, ``execbot`` seats another program as a bot (the one module
that runs a process).

May import: the cards, actions and diagnostics, the variant language, the engine and the
records. Nothing of the command line.
"""
