"""Game transcripts: a line-oriented record of a game, read laxly, written canonically.

A transcript is a header of ``key: value`` lines, then deal blocks with one event
per line, the actor written out (see ``docs/transcript-format.md``)::

    variant: my-rules
    players: Anna Boris Vera Gleb
    first-dealer: Gleb

    deal 1 cards 1 dealer Gleb
    hand Anna AS
    ...
    turned 10H
    Anna bid 0
    ...
    Anna play AS
    score Anna 5 Boris -10 Vera 10 Gleb 5

A score sheet may also be written one row per deal
(``deal 3 cards 3 dealer Vera trump H | 1 1 11 12 | …``, :mod:`~updown_dsl.records.compact`);
a row is read as the lines it stands for.

:func:`parse_transcript` never raises: it returns the record it could read and
diagnostics (codes ``T…``). :func:`format_transcript` writes the canonical text;
canonical text read and written back is byte-identical.
"""

from __future__ import annotations

from .archive import GameLines, iter_transcripts, split_games
from .jsonform import transcript_from_json, transcript_to_json
from .model import (
    ACTOR_EVENTS,
    HEADER_KEYS,
    KEYWORD_EVENTS,
    LEVELS,
    UNKNOWN,
    Event,
    Header,
    Transcript,
    seat_of,
)
from .reader import RESERVED_NAMES, parse_transcript, read_game, text_lines
from .writer import format_event, format_header, format_transcript, iter_lines

__all__ = [
    "ACTOR_EVENTS",
    "Event",
    "GameLines",
    "HEADER_KEYS",
    "Header",
    "KEYWORD_EVENTS",
    "LEVELS",
    "RESERVED_NAMES",
    "Transcript",
    "UNKNOWN",
    "format_event",
    "format_header",
    "format_transcript",
    "iter_lines",
    "iter_transcripts",
    "parse_transcript",
    "read_game",
    "seat_of",
    "split_games",
    "text_lines",
    "transcript_from_json",
    "transcript_to_json",
]
