"""The variant language: what a variant file says and how it becomes a rule set.

``variant`` is the model (immutable values) and the rules hash, ``schema`` every key of a
variant file, ``yamltree`` the YAML read with the position of every value (``treecache`` the
user's cache of the trees of files read before), ``loader`` the
file found and its ``extends`` chain merged, ``values`` each value checked against the
schema, ``build`` the model made from the checked tree, ``soundness`` the check that every
deal can be bid and scored, ``formula`` the scoring-formula language compiled to closures
(``formula_trees`` writes the cached parse trees),
``schedule`` the deals of a game for a table size, ``files`` the files shipped with the
package, ``docgen`` the reference pages written from the schema and the catalogue,
``editor_schema`` the JSON Schema of variant files that editors read, and the rule book: the
rules in words written from the model (``rulebook``, with its sections on scoring and the end
of the game in ``rulescore`` and on wild cards in ``rulewild``, cards and formulas in words in
``rulewords``), the document it is (``bookmodel``), rendered as text, Markdown or HTML
(``bookrender``), and written into docs/variants.md (``bookdocs``).

May import: the cards, actions and diagnostics. Nothing of the engine, the records, the
players or the command line.
"""
