"""The variant language: what a variant file says and how it becomes a rule set.

``variant`` is the model (immutable values), ``schema`` every key of a variant file,
``yamltree`` the YAML read with the position of every value, ``loader`` the file (with
its ``extends`` chain) checked against the schema and built into a model, ``formula`` the
scoring-formula language compiled to closures, ``schedule`` the deals of a game for a
table size, and ``docgen`` the reference pages written from the schema and the catalogue.

May import: the cards, actions and diagnostics. Nothing of the engine, the records, the
players or the command line.
"""
