"""A deal of Oh Hell exported by another program in the PBN style (the bridge notation), read as
a record whose every line remembers the place in the PBN text it came from, as a CSV sheet's
lines remember their cells (:mod:`~updown_dsl.records.csvsheet`).

Trickster Cards exports a deal so (its players post them in public bug reports)::

    [Event "Trickster Cards: Practice Oh Hell - 4-player, deal 10..1..10 without hook"]
    [UTCDate "2024.04.14"]
    [GameCode "OhHell"]
    [GameOptionsJson "{"hookRule":false,"noWatching":true}"]
    [West "Fletcher (Auto)"]
    ...
    [Dealer "W"]
    [Deal "W:7..6.AJ6 .64.J.95 A3.T.Q.Q 5.3.94.7"]
    [Undealt "HQHJSKS6D3..."]
    [Auction "N"]
    2 2 0 0
    [Play "N"]
    H4 HT H3 CA
    H6 SA S5 S7
    DJ DQ - -

What maps to what (docs/transcript-format.md, "Deals from other programs"):

- the record is a game of the variant ``pbn_games.json`` names for the export's game (its
  ``[GameCode]`` tag), of the one deal exported: ``option: schedule=[{cards: N}]``
  (the export holds no other deal) for the four seats of the notation (``option: players=...``),
  ``option: bidding.hook=...`` from the ``hookRule`` option;
- the players are the names of the ``North``, ``East``, ``South`` and ``West`` tags in the
  order of play (a name's part in brackets, ``(Auto)``, left out), the dealer is ``Dealer``;
- ``Deal``: each hand as it was dealt, a hand's suits spades, hearts, diamonds, clubs;
- ``Undealt``: the cards left in the pack, the first of them the card turned for trump;
- ``Auction``: the bids, in order from the seat it names; ``Play``: a trick a line, the cards
  in the columns of the seats from the one it names (the first leader) round the table, ``-``
  for a card not played yet. Who led each later trick is the winner of the one before, by the
  rules (:meth:`~updown_dsl.engine.kernel.PlayKernel.trick_winner`), so the cards are written
  in the order they were played;
- ``Event`` and ``UTCDate`` are the record's ``event`` and ``date``; the other tags are kept
  as comments.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..actions import Play
from ..cards import Card, CardError
from ..diagnostics import Diagnostic, Severity
from ..i18n import tr
from .csvsheet import CsvRecord

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.kernel import PlayKernel

#: The seats of the bridge notation, in the order of play.
SEATS = ("N", "E", "S", "W")
_SEAT_TAGS = ("North", "East", "South", "West")
_SUITS = "SHDC"
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"(.*)"\s*\]?\s*$')
_NAME_OK = re.compile(r"[^\s,#:|]+")
_KEYWORDS = {"deal", "hand", "cut", "turned", "trump", "score", "total", "penalty", "replay", "settlement"}
#: The games of the exports updown reads (``[GameCode]``): the bundled variant each is, and
#: which of the export's options map to which rule (the others are table settings, kept in a
#: comment). Data, in ``pbn_games.json``: the library names no variant in its code.
GAMES: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "pbn_games.json").read_text(encoding="utf-8"))


def looks_like_pbn(text: str) -> bool:
    """``text`` holds a PBN deal (a ``[Deal "..."]`` tag)."""
    return re.search(r'^\s*\[\s*Deal\s+"', text, re.MULTILINE) is not None


@dataclass
class _Tag:
    name: str
    value: str
    line: int
    col: int
    """Column of the value's first character."""
    body: list[tuple[str, int, int]] = field(default_factory=list)
    """The tokens of the lines after the tag (an auction's bids, a play's cards), with their places."""


def _scan(text: str, path: str | None, out: CsvRecord) -> list[_Tag]:
    """The tags of the first deal of ``text``, each with the tokens of the lines that follow it."""
    tags: list[_Tag] = []
    deals = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        stripped = line.lstrip()
        if not stripped or stripped.startswith("%") or stripped.startswith(";"):
            continue
        m = _TAG.match(line)
        if m is not None:
            if m.group(1) == "Deal":
                deals += 1
            if deals > 1 or (m.group(1) == "Event" and deals == 1):
                out.problems.append(Diagnostic(
                    "T002", tr("the file holds more than one deal: only the first is read"), path=path, line=n,
                    col=1, severity=Severity.WARNING))
                break
            tags.append(_Tag(m.group(1), m.group(2), n, m.start(2) + 1))
            continue
        if stripped.startswith("[") or not tags:
            out.problems.append(Diagnostic("T002", tr("not a PBN line: {line!r}", line=stripped[:60]),
                                           path=path, line=n, col=len(line) - len(stripped) + 1))
            continue
        tags[-1].body += [(t.group(), n, t.start() + 1) for t in re.finditer(r"\S+", line)]
    return tags


def _name(value: str, seat: str, taken: set[str]) -> str:
    """A player's name as a record writes it: one word, from the tag's value."""
    word = re.sub(r"\s*\(.*?\)\s*", " ", value).strip().replace(" ", "_")
    if not word or not _NAME_OK.fullmatch(word) or word.lower() in _KEYWORDS or word.lower() in taken \
            or re.fullmatch(r"p\d+", word.lower()):
        word = _SEAT_TAGS[SEATS.index(seat)]
    taken.add(word.lower())
    return word


def _card(token: str, suit_first: bool) -> Card | None:
    """A PBN card: ``H4``, ``CT`` (suit first, in a play or the undealt cards), or a rank in a
    hand's suit (``suit_first`` False: ``token`` is rank then suit); None for no card."""
    rank, suit = (token[1:], token[0]) if suit_first else (token[:-1], token[-1])
    if not rank or suit.upper() not in _SUITS:
        return None
    try:
        return Card.parse(rank + suit)
    except CardError:
        return None


class _Reader:
    """One PBN deal turned into the lines of a record, each with its places in the PBN."""

    def __init__(self, text: str, path: str | None) -> None:
        self.path = path
        self.out = CsvRecord("")
        self.tags = {t.name: t for t in _scan(text, path, self.out)}
        self.lines: list[str] = []
        self.game: dict[str, Any] = {}
        """The entry of :data:`GAMES` for the export's game."""

    def problem(self, code: str, message: str, line: int, col: int, hint: str | None = None,
                severity: Severity = Severity.ERROR) -> None:
        self.out.problems.append(Diagnostic(code, message, path=self.path, line=line, col=col, hint=hint,
                                            severity=severity))

    def add(self, line: str, places: Sequence[tuple[int, int, int]]) -> None:
        """A line of the record, with ``(column in it, PBN line, PBN column)`` per part."""
        self.lines.append(line)
        self.out.cells[len(self.lines)] = list(places)

    def read(self) -> CsvRecord:
        deal = self.tags.get("Deal")
        if deal is None:
            self.problem("T001", tr("not a PBN deal: the file has no [Deal] tag"), 1, 1)
            return self.out
        code = self.tags.get("GameCode")
        if code is None or code.value.strip() not in GAMES:
            where = code or deal
            self.problem("T001", tr("updown does not read PBN deals of this game: its [GameCode] is {code!r}",
                                    code=code.value if code else ""), where.line, where.col,
                         hint=tr("updown reads the deals Trickster Cards exports of these games: {codes}",
                                 codes=", ".join(f'[GameCode "{c}"]' for c in GAMES)))
            return self.out
        self.game = GAMES[code.value.strip()]
        dealer = self.tags.get("Dealer")
        first = deal.value.strip()[:1].upper()
        if dealer is None or dealer.value.strip().upper() not in SEATS:
            where = dealer or deal
            self.problem("T009", tr("the [{tag}] tag must name a seat, N, E, S or W", tag="Dealer"), where.line, where.col)
            return self.out
        if first not in SEATS or deal.value.strip()[1:2] != ":":
            self.problem("T009", tr("a [Deal] starts with the seat of its first hand and a colon: 'W:...'"),
                         deal.line, deal.col)
            return self.out
        hands = self.hands(deal, SEATS.index(first))
        if hands is None:
            return self.out
        taken: set[str] = set()
        names = [_name(self.tags[t].value, s, taken) if t in self.tags else _name("", s, taken)
                 for s, t in zip(SEATS, _SEAT_TAGS)]
        dealer_seat = SEATS.index(dealer.value.strip().upper())
        self.header(names, dealer, dealer_seat, len(hands[0]))
        self.body(names, dealer_seat, hands)
        self.out.text = "\n".join(self.lines) + "\n"
        return self.out

    # -- the header
    def header(self, names: list[str], dealer: _Tag, dealer_seat: int, cards: int) -> None:
        deal = self.tags["Deal"]
        self.add(f"variant: {self.game['variant']}", [(1, self.tags["GameCode"].line, self.tags["GameCode"].col)])
        options = self.tags.get("GameOptionsJson")
        if options is not None:
            try:
                data = json.loads(options.value)
                if not isinstance(data, dict):
                    raise ValueError
            except ValueError:
                self.problem("T009", tr("[GameOptionsJson] is not a JSON object: its options are not read"),
                             options.line, options.col, severity=Severity.WARNING)
                data = {}
            rules = self.game["options"]
            for key, value in data.items():
                if key in rules and isinstance(value, bool):
                    self.add(f"option: {rules[key]}={'true' if value else 'false'}",
                             [(1, options.line, options.col)])
        self.add(f"option: schedule=[{{cards: {cards}}}]", [(1, deal.line, deal.col)])
        self.add("option: players={min: 4, max: 4, default: 4}", [(1, deal.line, deal.col)])
        places = [(10, self.tags[t].line, self.tags[t].col) for t in _SEAT_TAGS if t in self.tags][:1]
        self.add("players: " + " ".join(names), places or [(1, deal.line, deal.col)])
        self.add(f"first-dealer: {names[dealer_seat]}", [(1, dealer.line, dealer.col)])
        self.add("level: full", [(1, deal.line, deal.col)])
        date = self.tags.get("UTCDate") or self.tags.get("Date")
        if date is not None and re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", date.value.strip()):
            self.add("date: " + date.value.strip().replace(".", "-"), [(1, date.line, date.col)])
        event = self.tags.get("Event")
        if event is not None and event.value.strip():
            self.add("event: " + " ".join(event.value.split()), [(1, event.line, event.col)])
        for tag in self.tags.values():
            if tag.name not in ("Event", "UTCDate", "Date", "GameCode", "Dealer", "Deal", "Undealt", "Auction", "Play",
                                *_SEAT_TAGS) and tag.value.strip():
                self.add(f"# PBN [{tag.name} {tag.value.strip()}]", [(1, tag.line, tag.col)])

    # -- the cards
    def hands(self, deal: _Tag, first: int) -> list[list[Card]] | None:
        """The four hands, by seat (N, E, S, W), or None (reported) when one cannot be read."""
        parts = [(m.group(), deal.col + m.start()) for m in re.finditer(r"\S+", deal.value)]
        word, col = parts[0]
        parts[0] = (word[2:], col + 2)  # the first hand follows the seat and the colon: "W:..."
        if not parts[0][0]:
            del parts[0]
        if len(parts) != 4:
            self.problem("T009", tr("a [Deal] holds four hands, this one {count}", count=len(parts)), deal.line, deal.col)
            return None
        hands: list[list[Card]] = [[] for _ in SEATS]
        for k, (word, col) in enumerate(parts):
            seat = (first + k) % 4
            suits = word.split(".")
            if word == "-" or len(suits) != 4:
                self.problem("T009", tr("a hand of a [Deal] is four suits, spades to clubs, parted by dots: {hand!r}",
                                        hand=word), deal.line, col)
                return None
            at = col
            for suit, ranks in zip(_SUITS, suits):
                for j, rank in enumerate(ranks):
                    card = _card(rank + suit, suit_first=False)
                    if card is None:
                        self.problem("T003", tr("not a card: {token!r}", token=rank + suit), deal.line, at + j)
                        return None
                    hands[seat].append(card)
                at += len(ranks) + 1
        return hands

    def body(self, names: list[str], dealer_seat: int, hands: list[list[Card]]) -> None:
        deal = self.tags["Deal"]
        self.lines.append("")
        self.add(f"deal 1 cards {len(hands[0])} dealer {names[dealer_seat]}", [(1, deal.line, deal.col)])
        for seat, hand in enumerate(hands):
            self.add(f"hand {names[seat]} " + " ".join(str(c) for c in hand), [(1, deal.line, deal.col)])
        turned = self.turned()
        auction = self.tags.get("Auction")
        if auction is not None:
            start = self.seat_of(auction)
            if start is None:
                return
            for k, (token, line, col) in enumerate(auction.body):
                who = names[(start + k) % 4]
                self.add(f"{who} bid {token}", [(1, line, col), (len(who) + 6, line, col)])
        play = self.tags.get("Play")
        if play is not None:
            self.plays(play, names, hands, turned)

    def turned(self) -> Card | None:
        undealt = self.tags.get("Undealt")
        if undealt is None or not undealt.value.strip():
            return None
        token = undealt.value.strip()[:2]
        card = _card(token, suit_first=True)
        if card is None:
            self.problem("T003", tr("not a card: {token!r}", token=token), undealt.line, undealt.col)
            return None
        self.add(f"turned {card}", [(1, undealt.line, undealt.col)])
        return card

    def seat_of(self, tag: _Tag) -> int | None:
        word = tag.value.strip().upper()
        if word not in SEATS:
            self.problem("T009", tr("the [{tag}] tag must name a seat, N, E, S or W", tag=tag.name), tag.line, tag.col)
            return None
        return SEATS.index(word)

    def plays(self, play: _Tag, names: list[str], hands: list[list[Card]], turned: Card | None) -> None:
        """The cards played, trick by trick, in the order played (each later trick led by the
        winner of the one before, by the rules)."""
        first = self.seat_of(play)
        if first is None:
            return
        rows: dict[int, list[tuple[str, int, int]]] = {}
        for token, line, col in play.body:
            rows.setdefault(line, []).append((token, line, col))
        leader = first
        kernel = _kernel(self.game["variant"])
        trump = turned.suit if turned is not None else None
        for cells in rows.values():
            if len(cells) != 4:
                self.problem("T002", tr("a trick of [Play] has a card (or '-') for each of the four seats, "
                                        "this one {count}", count=len(cells)), cells[0][1], cells[0][2])
                return
            done: list[Play] = []
            ended = False
            for k in range(4):
                seat = (leader + k) % 4
                token, line, col = cells[(seat - first) % 4]
                if token == "-":
                    ended = True
                    continue
                if ended:
                    self.problem("T002", tr("a card after one not played yet in the same trick"), line, col)
                    return
                card = _card(token, suit_first=True)
                if card is None:
                    self.problem("T003", tr("not a card: {token!r}", token=token), line, col)
                    return
                who = names[seat]
                self.add(f"{who} play {card}", [(1, line, col), (len(who) + 7, line, col)])
                done.append(Play(card))
            if ended:
                return
            leader = kernel.trick_winner(leader, done, trump)


def _kernel(variant: str) -> PlayKernel:
    """A play kernel of the bundled ``variant``, for the winner rule (its tricks are played out
    on a scratch copy)."""
    from ..engine import Game
    from ..lang.loader import load_variant

    return Game(load_variant(variant), 4, auto_deal=False).kernel


def read_pbn(text: str, path: str | None = None) -> CsvRecord:
    """The record a PBN deal stands for (see the module's docstring); what cannot be read is in
    its ``problems``, at its place in the PBN."""
    return _Reader(text, path).read()
