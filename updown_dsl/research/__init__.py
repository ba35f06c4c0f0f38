"""Research interfaces: a fixed action space and an observation encoding per variant
(:mod:`.space`), an OpenSpiel game (:mod:`.spiel`, needs ``open_spiel``) and a PettingZoo AEC
environment (:mod:`.env`, needs ``pettingzoo``). See docs/research.md.

Nothing here is imported by ``import updown_dsl``; the optional packages are imported only by
the module that needs them (``pip install updown-dsl[research]``).
"""
