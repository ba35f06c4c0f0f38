"""Records of games: the transcript format, writing a game as one, and auditing one.

``model`` holds the values of a record (headers, events, a transcript), ``reader`` reads one
game's lines laxly, ``archive`` splits a file of many games, ``writer`` writes the canonical
text, ``jsonform`` the lossless JSON, and ``transcript`` gathers them as one public module;
``compact`` reads and writes the one-line-per-deal rows of a compact score sheet, and
``tablelines`` a kept sheet's deals as values and the lines a score keeper adds to one (a
correction of a past deal); ``tableevents`` the table's events (a late arrival, a departure, a
deal sat out, a one-off adjustment, a changed number of cards) and the scoring of a deal not
played by the whole table as scheduled;
``csvsheet`` writes a sheet as CSV and reads one back, each line remembering its cell, and
``jsonsheet`` reads another app's JSON of bids and tricks the same way, and ``pbn`` a deal of
Oh Hell another program exported in the PBN style.
``record`` writes a game played by the engine at any level. ``checker`` holds the entry
points of the audit (a text, a file, an archive of many games, the JSON form) and ``audit``
the audit itself: one :class:`~updown_dsl.records.audit.Audit` per record, one
:class:`~updown_dsl.records.audit.DealAudit` per deal block, replaying every line through the
engine (the cards nobody wrote down are read by ``infer``); ``report`` is its result.

May import: the cards, actions and diagnostics, the variant language and the engine.
Nothing of the players or the command line.
"""
