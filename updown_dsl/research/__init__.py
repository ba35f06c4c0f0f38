"""Research interfaces: ``space``, a fixed action space and an observation encoding per
variant; ``spiel``, an OpenSpiel game (needs ``open_spiel``); ``env``, a PettingZoo AEC
environment (needs ``pettingzoo``); ``vector``, many games in lock-step over processes with
gymnasium's vector environments (needs ``gymnasium``). See docs/research.md.

Nothing here is imported by ``import updown_dsl``; the optional packages are imported only by
the module that needs them (``pip install updown-dsl[research]``).

May import: the cards and actions, the variant language, the engine (its public API and
play kernel) and the players (bots seated as opponents, the search bot's sampler for
OpenSpiel's resampling). Nothing of the records or the command line.
"""
