"""The checker's quick path: a clean record checked without building its events.

A record in the canonical form (as updown writes it) is read line by line straight
into the engine: names, cards and numbers are looked up in tables, each action is
applied once (the engine refuses an illegal one), and every written score and total is
compared with the engine's. The quick path has no diagnostics of its own: at the first
thing it does not expect (a mistake, a penalty, an unusual spelling, a line out of its
usual place) it gives up, and :mod:`updown_dsl.records.checker` reads and walks the game in
full. So a report is the same whichever path made it: the quick path only vouches for a
game the full walk finds clean, by the same engine calls in the same order (the cards of
a deal without declarations go in at once through ``Game.play_cards``, which checks and
plays them as ``apply`` does). ``tests/test_quickcheck.py`` holds it to that on clean and corrupted
records of every bundled variant at every level. A compact score-sheet row
(:mod:`~updown_dsl.records.compact`) is left to the full walk: the quick path reads the
long form only.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Callable, Sequence

from ..actions import Bid, Call, ChooseTrump, Play
from ..cards import Card, Suit
from ..diagnostics import Severity
from ..engine import Game, IllegalAction, Phase
from ..engine.bidding import bid_of
from ..lang.formula import FormulaEvalError
from .report import CheckReport, Headers
from .archive import GameLines
from .model import LEVELS, Event, Transcript
from .reader import _Bad, _play, _Reader

class _GiveUp(Exception):
    """The record is not one the quick path vouches for: walk it in full."""


_SUITS = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
_CHOICES: dict[Suit | None, ChooseTrump] = {s: ChooseTrump(s) for s in (*_SUITS.values(), None)}
_DASH = Call(0)


def quick_check(game: GameLines, path: str | None, variant_path: Sequence[str | Path] = (),
                headers: Headers | None = None) -> CheckReport | None:
    """The report of a clean game in canonical form, or None when the full walk must decide."""

    lines, first = game
    reader = _Reader(path)
    k = 0
    while k < len(lines) and not reader.in_body:
        reader.line(lines[k], first + k)
        k += 1
    events = reader.events
    if len(events) != 1 or events[0].kind != "deal" or events[0].size is None or events[0].actor is None \
            or events[0].row:  # (a row: the full walk)
        return None
    diags = list(reader.diags)
    if any(d.severity is Severity.ERROR for d in diags):
        return None
    t = Transcript(tuple(reader.headers), reader.players, (), path)
    level = t.header("level")
    if level not in LEVELS or t.variant is None or t.header("first-dealer") is None:
        return None
    g = (headers or Headers(variant_path)).prepare(t, diags)
    if g is None or any(d.severity is Severity.ERROR for d in diags):
        return None
    try:
        _Quick(g, t.players, level).run(events[0], lines, k)
    except (_GiveUp, FormulaEvalError):  # the full walk reports a formula that fails
        return None
    return CheckReport(path, tuple(diags), readable=True, level=level, finished=True, game=g, source=game)


class _Deal:
    """What one deal block says, gathered before it is replayed."""

    __slots__ = ("number", "size", "dealer", "hands", "turned", "trump", "actions", "cards", "declared",
                 "took", "score", "total")

    def __init__(self, number: int, size: int, dealer: int) -> None:
        self.number, self.size, self.dealer = number, size, dealer
        self.hands: dict[int, list[Card]] = {}
        self.turned: Card | None = None
        self.trump: tuple[Suit | None] | None = None
        """The ``trump`` line's suit (a 1-tuple; None: no trump), or None without a line."""
        self.actions: list[tuple[int, Bid | ChooseTrump | Call]] = []
        """(seat, action) of each bid and named trump, in order (all before the first card)."""
        self.cards: list[tuple[int, int, Play]] = []
        """(seat, card index, play) of each card, in order."""
        self.declared = False
        """A card was played with a declaration (so not every card is a plain one)."""
        self.took: dict[int, int] = {}
        self.score: list[int | None] | None = None
        self.total: list[int | None] | None = None


class _Names:
    """What reading a line needs to know of a table: the seats by name, the cards and plain
    plays by their canonical token, and the action lines already read (a record repeats
    the same few hundred: ``Anna play 10H`` costs one lookup)."""

    __slots__ = ("seats", "cards", "plays", "index", "known_cards", "known_bids", "keep")

    def __init__(self, players: tuple[str, ...], game: Game) -> None:
        table = game.table
        self.seats = {name: i for i, name in enumerate(players)}
        self.cards = {str(c): c for c in table.cards}
        self.plays = {str(c): p for c, p in zip(table.cards, table.plays)}
        self.index = table.index
        self.known_cards: dict[str, tuple[int, int, Play]] = {}
        self.known_bids: dict[str, tuple[int, Bid | ChooseTrump]] = {}
        self.keep = table  # the table the cached plays belong to stays alive with them


# By (player names, id of the card table); bounded, as an archive may hold many tables.
_NAMES: dict[tuple[tuple[str, ...], int], _Names] = {}
_KNOWN_LIMIT = 1 << 16


def _names(players: tuple[str, ...], game: Game) -> _Names:
    key = (players, id(game.table))
    names = _NAMES.get(key)
    if names is None or names.keep is not game.table:
        if len(_NAMES) >= 32:
            del _NAMES[next(iter(_NAMES))]
        names = _NAMES[key] = _Names(players, game)
    return names


def _closed(entry: object) -> None:
    raise _GiveUp  # a card or a bid after the deal's score


class _Quick:
    def __init__(self, game: Game, players: tuple[str, ...], level: str) -> None:
        self.g = game
        self.n = game.players
        self.level = level
        self.names = _names(players, game)
        self.seats = self.names.seats
        self.settlements: list[list[int | None]] = []

    # ------------------------------------------------------------------ reading
    def run(self, head: Event, lines: list[str], k: int) -> None:
        assert head.number is not None and head.size is not None and head.actor is not None
        block = _Deal(head.number, head.size, head.actor)
        known_cards = self.names.known_cards
        line = self.line
        add_card: Callable[[tuple[int, int, Play]], None] = block.cards.append
        for raw in islice(lines, k, None):
            entry = known_cards.get(raw)
            if entry is not None:
                add_card(entry)
                continue
            i = raw.find("#")
            words = (raw[:i] if i >= 0 else raw).split()
            if not words:
                continue
            if "\ufeff" in raw:
                raise _GiveUp
            new = line(words, block, raw if i < 0 else None)
            if new is not None:
                self.replay(block)
                block = new
                add_card = block.cards.append
            elif block.score is not None:
                add_card = _closed
        self.replay(block)
        g = self.g
        if not g.is_over:
            raise _GiveUp  # unfinished: the full walk writes the note
        if self.settlements:
            actual = g.settlement()
            for written in self.settlements:
                if any(w is not None and w != a for w, a in zip(written, actual)):
                    raise _GiveUp

    def line(self, words: list[str], block: _Deal, raw: str | None) -> _Deal | None:
        """Take one line into ``block``; a ``deal`` line returns the next block. ``raw``: the
        line as written when it has no comment (an action line is then remembered)."""
        first = words[0]
        seat = self.seats.get(first)
        if seat is not None:  # names are never keywords
            if len(words) < 3 or block.score is not None:
                raise _GiveUp
            verb = words[1]
            names = self.names
            if verb == "play":
                if len(words) == 3:
                    play = names.plays.get(words[2])
                    if play is None:
                        raise _GiveUp
                else:  # a declaration (never remembered: a block must know it has one)
                    play = self.declaration(words)
                    block.declared = True
                card = (seat, names.index.get(play.card, -1), play)
                block.cards.append(card)
                if len(words) == 3 and raw is not None and len(names.known_cards) < _KNOWN_LIMIT:
                    names.known_cards[raw] = card
                return None
            if verb == "call":
                if block.cards:
                    raise _GiveUp
                block.actions.append((seat, self.call(words)))
                return None
            if len(words) != 3:
                raise _GiveUp
            if verb == "took":
                block.took[seat] = _number(words[2])
                return None
            cached = names.known_bids.get(raw) if raw is not None else None
            if cached is None:
                if verb == "bid":
                    cached = (seat, bid_of(_number(words[2])))
                elif verb == "trump":
                    cached = (seat, _CHOICES[self.suit(words[2])])
                else:
                    raise _GiveUp
                if raw is not None and len(names.known_bids) < _KNOWN_LIMIT:
                    names.known_bids[raw] = cached
            if block.cards:
                raise _GiveUp  # a bid or a named trump after the first card
            block.actions.append(cached)
            return None
        if first == "deal":  # (a compact row has more words: the full walk reads it)
            if len(words) != 6 or words[2] != "cards" or words[4] != "dealer" or words[5] not in self.seats:
                raise _GiveUp
            return _Deal(_number(words[1]), _number(words[3]), self.seats[words[5]])
        cards = self.names.cards
        if first == "hand":
            if len(words) < 2 or words[1] not in self.seats or self.seats[words[1]] in block.hands:
                raise _GiveUp
            try:
                block.hands[self.seats[words[1]]] = [cards[w] for w in words[2:]]
            except KeyError:
                raise _GiveUp from None
        elif first in ("score", "total", "settlement"):
            amounts = self.amounts(words)
            if first == "settlement":
                self.settlements.append(amounts)
            elif first == "score" and block.score is None:
                block.score = amounts
            elif first == "total" and block.score is not None and block.total is None:
                block.total = amounts
            else:
                raise _GiveUp
        elif first == "turned" and len(words) == 2 and words[1] in cards and block.turned is None:
            block.turned = cards[words[1]]
        elif first == "trump" and len(words) == 2 and block.trump is None:
            block.trump = (self.suit(words[1]),)
        else:
            raise _GiveUp
        return None

    @staticmethod
    def declaration(words: list[str]) -> Play:
        try:
            play = _play(words, 2)
        except _Bad:
            raise _GiveUp from None
        if play is None:
            raise _GiveUp
        return play

    @staticmethod
    def suit(word: str) -> Suit | None:
        if word == "none":
            return None
        suit = _SUITS.get(word)
        if suit is None:
            raise _GiveUp
        return suit

    def amounts(self, words: list[str]) -> list[int | None]:
        if len(words) % 2 == 0:
            raise _GiveUp
        out: list[int | None] = [None] * self.n
        seats = self.seats
        for k in range(1, len(words), 2):
            seat = seats.get(words[k])
            if seat is None:
                raise _GiveUp
            out[seat] = _number(words[k + 1])
        return out

    # ------------------------------------------------------------------ replaying
    # Each step below is what the full walk does with the same block, in the same order;
    # where the full walk would write a diagnostic, the quick path gives up.
    def replay(self, block: _Deal) -> None:
        g = self.g
        if g.is_over:
            raise _GiveUp  # the record goes on after the end of the game
        if block.number != g.deal.number or block.size != g.deal.cards or block.dealer != g.dealer:
            raise _GiveUp
        k = g.deal.cards
        rule = g.deal_plan.trump_rule
        if block.turned is not None and rule not in ("turned", "last_dealt"):
            raise _GiveUp  # a shown card the rules do not look at
        if self.level == "full":
            if len(block.hands) != self.n or any(len(h) != k for h in block.hands.values()):
                raise _GiveUp
        elif block.hands:
            raise _GiveUp
        start = len(g.results)
        dealt = False
        if self.level == "sheet":
            if block.cards or any(type(action) is ChooseTrump for _, action in block.actions):
                raise _GiveUp  # cards or a named trump on a score sheet
            if block.actions:
                if g.phase is Phase.DEAL:
                    self.deal(block, rule)
                    dealt = True
                self.sheet_bids(block)
        else:
            try:
                for seat, action in block.actions:
                    if seat != g.to_act:  # (nobody is to act while the cards are not dealt)
                        if g.phase is not Phase.DEAL or dealt:
                            raise _GiveUp
                        self.deal(block, rule)
                        dealt = True
                        if seat != g.to_act:
                            raise _GiveUp
                    g.apply(action)
                if block.cards:
                    if g.phase is Phase.DEAL and not dealt:
                        self.deal(block, rule)
                        dealt = True
                    if not block.declared:
                        if not g.play_cards(block.cards):
                            raise _GiveUp
                    else:
                        apply = g.apply
                        for seat, _, play in block.cards:
                            if seat != g.to_act:
                                raise _GiveUp
                            apply(play)
            except IllegalAction:
                raise _GiveUp from None
        if block.score is None or block.total is None:
            raise _GiveUp
        if g.phase is Phase.DEAL and not dealt:
            self.deal(block, rule)
        if self.level == "sheet" and g.phase is Phase.PLAY and not g.kernel.order:
            if len(block.took) != self.n:
                raise _GiveUp
            try:
                g.record_tricks([block.took[s] for s in range(self.n)])
            except IllegalAction:
                raise _GiveUp from None
        result = g.results[-1] if g.results else None
        if result is None or result.event != "deal" or result.deal.number != block.number \
                or g.phase is Phase.PLAY or len(g.results) == start:
            raise _GiveUp
        seats = result.seats
        for s, written in enumerate(block.score):
            if written is not None and written != seats[s].points + seats[s].bonus:
                raise _GiveUp
        for s, took in block.took.items():
            if seats[s].taken != took:
                raise _GiveUp
        totals = g.totals
        for s, written in enumerate(block.total):
            if written is not None and written != totals[s]:
                raise _GiveUp

    def deal(self, block: _Deal, rule: str) -> None:
        g = self.g
        trump = block.trump[0] if block.trump is not None else None
        try:
            if self.level == "sheet":
                chosen = any(type(action) is ChooseTrump for _, action in block.actions)
                if not chosen and ((rule == "none" and trump is not None) or
                                   (rule == "fixed" and trump != g.deal_plan.trump_rules.suit)):
                    raise _GiveUp  # trump written against the rules: the full walk says so
                g.deal_unknown(trump=trump, turned=block.turned, chosen=chosen, cut_card=None)
                return
            if self.level == "full":
                hands = [block.hands[s] for s in range(self.n)]
                if rule == "last_dealt" and block.turned is not None and hands[g.dealer][-1] != block.turned:
                    raise _GiveUp  # the shown card is not the dealer's last as written: the walk decides
            else:
                hands = [[] for _ in range(self.n)]
                for seat, _, play in block.cards:
                    hands[seat].append(play.card)
                if any(len(h) != g.deal.cards for h in hands):
                    raise _GiveUp
                if rule == "last_dealt" and block.turned is not None:
                    own = hands[g.dealer]  # rebuilt in play order: the shown card was dealt last
                    if block.turned not in own:
                        raise _GiveUp
                    own.remove(block.turned)
                    own.append(block.turned)
            g.deal_cards(hands, turned=block.turned, cut_card=None, random_trump=trump,
                         recorded_trump=trump)
        except IllegalAction:
            raise _GiveUp from None
        if block.trump is not None and block.turned is not None and g.phase is not Phase.TRUMP \
                and trump != g.trump:
            raise _GiveUp

    def call(self, words: list[str]) -> Call:
        """``NAME call dash`` or ``NAME call N SUIT|none`` as the writer writes them."""
        if len(words) == 3 and words[2] == "dash":
            return _DASH
        if len(words) != 4 or (words[3] not in _SUITS and words[3] != "none"):
            raise _GiveUp
        return Call(_number(words[2]), _SUITS.get(words[3]))

    def sheet_bids(self, block: _Deal) -> None:
        """A score sheet's bids (and an auction's calls) are taken in the order they are made,
        whatever order they are written in."""
        g = self.g
        by_seat: dict[tuple[type, int], Bid | ChooseTrump | Call] = {}
        action: Bid | ChooseTrump | Call | None
        for seat, action in block.actions:
            if (type(action), seat) in by_seat:
                raise _GiveUp
            by_seat[(type(action), seat)] = action
        while g.phase is Phase.BID or g.phase is Phase.AUCTION:
            action = by_seat.pop((Bid if g.phase is Phase.BID else Call, g.to_act), None)
            if action is None:
                raise _GiveUp
            try:
                g.apply(action)
            except IllegalAction:
                raise _GiveUp from None
        if by_seat:
            raise _GiveUp


def _number(word: str) -> int:
    """A whole number as the writer writes it (the reader takes more spellings: give up on them)."""
    n = _NUMBERS.get(word)
    if n is not None:
        return n
    digits = word[1:] if word[:1] == "-" else word
    if digits.isascii() and digits.isdigit() and len(digits) <= 12:
        return int(word)
    raise _GiveUp


_NUMBERS = {str(n): n for n in range(-999, 1000)}
