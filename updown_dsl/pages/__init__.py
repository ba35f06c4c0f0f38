"""Pictures of games: self-contained web pages of records and simulations, and their charts.

``sheet`` gives the score sheet of a game as rows of plain data (shared with the terminal's
``updown sheet`` and play screen); ``replay`` turns a checked record into the data of its
replay (the engine's deals, tricks and totals, with each diagnostic at its deal and trick);
``charts`` draws the charts with matplotlib (an optional extra, imported when a chart is
drawn); ``html`` holds what every page shares (escaping, the frame, the inline assets in
``assets/``); ``game`` builds the page of a record and the index of an archive; ``balance``
the balance report of simulations; ``notebook`` draws a game, a deal and a checked record in a
notebook (registered with the engine's ``display`` hook).

May import: every stage before it (base values, ``lang``, ``engine``, ``records``, ``players``,
``batch``). Nothing of the command line. No module here reads or writes a file other than
its own assets, and none prints.
"""
