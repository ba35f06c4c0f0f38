"""Records of games: the transcript format, writing a game as one, and auditing one.

``transcript`` is the record (headers and events) and the archive reader, ``reader`` one
game's lines read laxly, ``writer`` the canonical text, ``jsonform`` the lossless JSON,
``record`` a game played by the engine written at any level, ``walk`` the walk over a
record with a visitor, ``checker`` the audit (a visitor that replays every line through
the engine), and ``quickcheck`` its quick path for records in canonical form.

May import: the cards, actions and diagnostics, the variant language and the engine.
Nothing of the players or the command line.
"""
