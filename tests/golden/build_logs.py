#!/usr/bin/env python3
"""Build the transcripts of ``docs/examples/`` and ``tests/golden/`` from seeded games.

Every ``.log`` here is a game played by the engine with random legal actions
(``Game(load_variant(name), players, seed=S)``), written by ``record.game_transcript``
and then, for the broken ones, edited in one known place. Each edit says what a
correct checker must report, so the ``.expected`` files written here are *designed*,
not copied from the checker:

    python tests/golden/build_logs.py          # write every .log and .expected
    python tests/golden/build_logs.py --check  # write nothing; show where the checker disagrees

``tests/golden/regenerate.py`` is the other direction: it rewrites the golden
``.expected`` files from what the current checker says (after a deliberate change).
"""

from __future__ import annotations

import functools
import inspect
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Union

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from updown_dsl import Game, load_variant  # noqa: E402
from updown_dsl.actions import Bid, Play  # noqa: E402
from updown_dsl.cards import Card, parse_cards  # noqa: E402
from updown_dsl.engine import Phase  # noqa: E402
from updown_dsl.records.compact import compact_events  # noqa: E402
from updown_dsl.records.record import game_transcript  # noqa: E402
from updown_dsl.records.transcript import (Event, Transcript, format_transcript, parse_transcript,  # noqa: E402
                                           transcript_to_json)

EXAMPLES = ROOT / "docs" / "examples"
GOLDEN = ROOT / "tests" / "golden"
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dima", "Elena", "Fedor", "Ivan", "Kira", "Lev")
MAIN_VARIANTS = ("up-and-down", "oh-hell", "odessa", "georgian", "russian")
LEVELS = ("full", "plays", "sheet")

# (line, col, severity, code); line None: a diagnostic about the whole record (T020).
Diag = tuple[int | None, int | None, str, str]


# ---------------------------------------------------------------------------- games


def play_game(variant: str, players: int = 4, seed: int = 1,
              until: Callable[[Game], bool] | None = None) -> Game:
    """A game played with random legal actions from ``seed`` (stopped early by ``until``)."""
    game = Game(load_variant(variant), players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and not (until is not None and until(game)):
        game.apply(rng.choice(game.legal_actions()))
    return game


def record_lines(game: Game, variant: str, level: str) -> list[str]:
    names = NAMES[: game.players]
    return format_transcript(game_transcript(game, names, level=level, variant=variant)).splitlines()


def add_settlement(log: "Log", game: Game) -> None:
    """End a finished game with its settlement line (newer writers write it themselves)."""
    if not any(x.startswith("settlement") for x in log.lines):
        log.lines += ["", "settlement " + " ".join(f"{n} {a}" for n, a in zip(log.players, game.settlement()))]


def deal_results(game: Game) -> list:
    return [r for r in game.results if r.event == "deal"]


# ---------------------------------------------------------------------------- editing


def suit(card: str) -> str | None:
    """The suit letter of a card as written canonically (None for a joker)."""
    return None if card.startswith("JK") else card[-1]


@dataclass
class Log:
    """The lines of a transcript being edited, with the diagnostics the edits call for."""

    lines: list[str]
    expect: list[Diag] = field(default_factory=list)

    @property
    def players(self) -> list[str]:
        line = next(x for x in self.lines if x.startswith("players:"))
        return line.split(":", 1)[1].split()

    def block(self, number: int, occurrence: int = 1) -> tuple[int, int]:
        """[start, end) line indexes of deal ``number`` (its ``occurrence``-th block)."""
        seen = 0
        for i, text in enumerate(self.lines):
            words = text.split()
            if len(words) >= 2 and words[0] == "deal" and words[1] == str(number):
                seen += 1
                if seen == occurrence:
                    end = i + 1
                    while end < len(self.lines) and self.lines[end].strip() and \
                            not self.lines[end].startswith("deal "):
                        end += 1
                    return i, end
        raise KeyError(f"no deal {number}")

    def find(self, number: int, pred: Callable[[str], bool], last: bool = False) -> int:
        start, end = self.block(number)
        hits = [i for i in range(start, end) if pred(self.lines[i])]
        if not hits:
            raise KeyError(f"nothing found in deal {number}")
        return hits[-1] if last else hits[0]

    def plays(self, number: int) -> list[tuple[int, str, list[str]]]:
        """(index, player, words after 'play') of each card line of a deal, in order."""
        start, end = self.block(number)
        out = []
        for i in range(start, end):
            w = self.lines[i].split("#")[0].split()
            if len(w) >= 3 and w[1] == "play":
                out.append((i, w[0], w[2:]))
        return out

    def tricks(self, number: int) -> list[list[tuple[int, str, list[str]]]]:
        p = self.plays(number)
        n = len(self.players)
        return [p[k : k + n] for k in range(0, len(p), n)]

    def trump(self, number: int) -> str | None:
        """The trump suit shown by a plain ``turned`` card (None when not simply known)."""
        start, end = self.block(number)
        for i in range(start, end):
            w = self.lines[i].split()
            if w[0] == "turned":
                return None if w[1] in ("6S", "JK", "JK2") else suit(w[1])
        return None

    def amount(self, index: int, player: str, delta: int) -> None:
        """Add ``delta`` to ``player``'s number on a score/total/settlement line."""
        w = self.lines[index].split()
        k = w.index(player)
        w[k + 1] = str(int(w[k + 1]) + delta)
        self.lines[index] = " ".join(w)

    def truncate_after(self, number: int) -> None:
        """Stop the record after deal ``number`` (an unfinished game: note T020)."""
        _, end = self.block(number)
        self.lines = self.lines[:end]
        self.expect.append((None, None, "note", "T020"))

    def insert(self, index: int, *new: str) -> None:
        """Insert lines before ``index``, moving the expected lines below it."""
        self.lines[index:index] = list(new)
        self.expect = [(ln + len(new) if ln is not None and ln > index else ln, c, s, k)
                       for ln, c, s, k in self.expect]

    def error(self, index: int, code: str, col: int = 1, severity: str = "error") -> None:
        self.expect.append((index + 1, col, severity, code))

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def swap_plays(log: Log, a: int, b: int) -> None:
    """Exchange the cards of two card lines of the same player."""
    wa, wb = log.lines[a].split(), log.lines[b].split()
    wa[2:], wb[2:] = wb[2:], wa[2:]
    log.lines[a], log.lines[b] = " ".join(wa), " ".join(wb)


def plain(words: list[str], avoid: tuple[str, ...] = ("6S", "7S")) -> bool:
    """A card played without a declaration, not a joker nor a special card."""
    return len(words) == 1 and not words[0].startswith("JK") and words[0] not in avoid


def find_swap(log: Log, kind: str, numbers: range) -> tuple[int, int, int]:
    """(deal, index of the illegal card line, index of the later line) for an edit that makes
    ``kind`` (R010: does not follow; R011: does not trump when void; R012: trumps while
    holding the led suit)."""
    for number in numbers:
        trump = log.trump(number)
        if trump is None:
            continue
        tricks = log.tricks(number)
        for t, trick in enumerate(tricks):
            if not plain(trick[0][2]):
                continue
            led = suit(trick[0][2][0])
            for i, who, words in trick[1:]:
                if not plain(words):
                    continue
                later = [(j, w2) for tr in tricks[t + 1 :] for j, p, w2 in tr if p == who]
                rest = [w2[0] for _, w2 in later] + [words[0]]
                if any(not plain([c]) for c in rest):
                    continue  # keep jokers and special cards out of the way
                c = words[0]
                for j, w2 in later:
                    d = w2[0]
                    if kind == "R010" and suit(c) == led and suit(d) not in (led, trump):
                        return number, i, j
                    if kind == "R012" and led != trump and suit(c) == led and suit(d) == trump:
                        return number, i, j
                    if kind == "R011" and led != trump and suit(c) == trump and \
                            suit(d) != trump and all(suit(x) != led for x in rest):
                        return number, i, j
    raise LookupError(f"no place for {kind}")


def make_revoke(log: Log, kind: str, numbers: range) -> int:
    """Swap two cards of one player so that the earlier one breaks rule ``kind``."""
    number, i, j = find_swap(log, kind, numbers)
    swap_plays(log, i, j)
    return i


def hook_deal(log: Log, numbers: range) -> tuple[int, int, int]:
    """(deal, index of the last bid line, the forbidden bid) for the first deal with a hook."""
    for number in numbers:
        start, end = log.block(number)
        cards = int(log.lines[start].split()[3])
        bids = [i for i in range(start, end) if log.lines[i].split()[1:2] == ["bid"]]
        if len(bids) != len(log.players):
            continue
        total = sum(int(log.lines[i].split()[2]) for i in bids[:-1])
        if total <= cards:
            return number, bids[-1], cards - total
    raise LookupError("no deal with a hook")


def set_word(log: Log, index: int, position: int, word: str) -> None:
    w = log.lines[index].split()
    w[position] = word
    log.lines[index] = " ".join(w)


def dealt_cards(log: Log, number: int) -> set[str]:
    start, end = log.block(number)
    out: set[str] = set()
    for i in range(start, end):
        w = log.lines[i].split()
        if w[0] in ("hand", "turned"):
            out.update(w[2:] if w[0] == "hand" else w[1:])
    return out


# ---------------------------------------------------------------------------- special games


def revoke(game: Game, seat: int, code: str, play: Play) -> None:
    """The penalty for an illegal card caught at the table (the card kept for the record
    where the engine takes it)."""
    if "play" in inspect.signature(game.revoke).parameters:
        game.revoke(seat, code, play)
    else:
        game.revoke(seat, code)


def splice_revoke(game_before: Transcript, final: Transcript, illegal: Event | None,
                  level: str) -> Log:
    """The final record with the annulled deal put back in front of its penalty lines:
    the writer gives only ``penalty``, ``replay`` and ``total`` for it."""
    events = list(game_before.events)
    last_total = max((i for i, e in enumerate(events) if e.kind == "total"), default=-1)
    partial = events[last_total + 1 :]
    if level == "sheet":
        partial = [e for e in partial if e.kind != "play"]
    elif illegal is not None:
        partial.append(illegal)
    body = list(final.events)
    at = next(i for i, e in enumerate(body) if e.kind == "penalty")
    if at > 0 and body[at - 1].kind != "total":
        return Log(format_transcript(final).splitlines())  # the writer kept the annulled deal
    text = format_transcript(Transcript(final.headers, final.players, tuple(body[:at] + partial + body[at:])))
    return Log(text.splitlines())


def table_revoke(variant: str, players: int, seed: int, deal: int, code: str, level: str,
                 trick: int = 1) -> Log:
    """A game in which, from trick ``trick`` of deal ``deal`` on, the first player able to
    break rule ``code`` does so, is caught at the table and pays the variant's penalty."""
    g = Game(load_variant(variant), players, seed=seed)
    rng = random.Random(seed)
    names = NAMES[:players]
    illegal = None
    snapshot = None
    while not g.is_over:
        if snapshot is None and g.deal.number == deal and g.phase is Phase.PLAY and \
                len(g.tricks) + 1 >= trick:
            bad = [Play(c) for c in g.hand(g.to_act)
                   if not c.is_joker and (p := g.check(Play(c))) is not None and p.code == code]
            if bad:
                snapshot = game_transcript(g, names, level=level, variant=variant)
                illegal = Event("play", actor=g.to_act, play=bad[0])
                revoke(g, g.to_act, code, bad[0])
                continue
        g.apply(rng.choice(g.legal_actions()))
    if snapshot is None:
        raise LookupError(f"no {code} in deal {deal}")
    final = game_transcript(g, names, level=level, variant=variant)
    return splice_revoke(snapshot, final, illegal, level)


def revoke_game(level: str, *, comments: bool = False) -> Log:
    """TC-04 at the table: Odessa, three players, Boris does not follow spades in deal 3,
    pays 50 and the deal is dealt again by the same dealer."""
    names = NAMES[:3]
    game = Game(load_variant("odessa"), 3, seed=4, first_dealer=0, auto_deal=False)
    rng = random.Random(4)

    def step() -> None:
        if game.phase is Phase.DEAL:
            order = list(game.table.cards)
            rng.shuffle(order)
            game.deal_from_order(order)
        else:
            game.apply(rng.choice(game.legal_actions()))

    while game.deal.number < 3:
        step()
    game.deal_cards([list(parse_cards(h)) for h in ("AS KD 7C", "9S QD 8C", "JS 10D AC")],
                    turned=Card.parse("10H"))
    for b in (2, 0, 0):
        game.apply(Bid(b))
    game.apply(Play(Card.parse("AS")))
    snapshot = game_transcript(game, names, level=level, variant="odessa")
    revoke(game, 1, "R010", Play(Card.parse("QD")))
    while not game.is_over:
        step()
    final = game_transcript(game, names, level=level, variant="odessa")
    log = splice_revoke(snapshot, final, Event("play", actor=1, play=Play(Card.parse("QD"))), level)
    if comments:
        i = log.lines.index("Boris play QD")
        log.lines[i] += "  # Boris holds 9S: a revoke, seen at once"
        j = log.lines.index("replay")
        log.lines[j] += "  # the deal is annulled: no scores, Vera deals deal 3 again"
        k = log.lines.index("penalty Boris -50 R010")
        log.lines[k] += "  # 50 off Boris's total"
        log.insert(log.block(3)[0], "# Deal 3 is docs/worked-cases.md TC-04 (three players, turned 10H).")
    return log


def with_unknown_cards(game: Game, variant: str) -> Log:
    """The plays level with cards nobody wrote down (``??``) and the tricks taken in those deals."""
    log = Log(record_lines(game, variant, "plays"))
    results = deal_results(game)
    names = log.players

    def took_lines(number: int) -> list[str]:
        r = results[number - 1]
        return [f"{names[s]} took {seat.taken}" for s, seat in enumerate(r.seats)]

    # deal 4: one card forgotten
    i, who, _ = log.plays(4)[2]
    log.lines[i] = f"{who} play ??  # nobody remembers this card"
    at = log.find(4, lambda s: s.startswith("score"))
    log.insert(at, *took_lines(4))
    log.error(log.find(4, lambda s: " bid " in s), "T021", severity="note")
    # deal 9: the last trick gathered before it was written
    last = log.tricks(9)[-1]
    for i, who, _ in last:
        log.lines[i] = f"{who} play ??"
    log.lines[last[0][0]] += "  # last trick not written down"
    at = log.find(9, lambda s: s.startswith("score"))
    log.insert(at, *took_lines(9))
    # the note stands at the first line that needs the cards: eldest naming trump, or a bid
    log.error(log.find(9, lambda s: " bid " in s or " trump " in s), "T021", severity="note")
    return log


# ---------------------------------------------------------------------------- cases


Made = Union[Log, bytes, str, tuple[bytes, list[Diag]]]
Maker = Callable[[], Made]


@dataclass
class Case:
    path: Path
    make: Maker
    expect: list[Diag] | None = None  # None: from the Log


CASES: list[Case] = []


def case(path: Path) -> Callable[[Maker], Maker]:
    def register(fn: Maker) -> Maker:
        CASES.append(Case(path, fn))
        return fn
    return register


GAME_CACHE: dict[tuple[str, int, int], Game] = {}


def game(variant: str, players: int = 4, seed: int = 1) -> Game:
    key = (variant, players, seed)
    if key not in GAME_CACHE:
        GAME_CACHE[key] = play_game(variant, players, seed)
    return GAME_CACHE[key]


def log_of(variant: str, level: str, players: int = 4, seed: int = 1) -> Log:
    return Log(record_lines(game(variant, players, seed), variant, level))


def compact_of(log: Log) -> Log:
    """A score sheet one row per deal, as ``updown convert --compact`` writes it."""
    t, _ = parse_transcript(log.text())
    assert t is not None
    events = tuple(compact_events(t.events, len(t.players)))
    return Log(format_transcript(Transcript(t.headers, t.players, events)).splitlines())


# -- docs/examples: one clean game per main variant and level
for _v in MAIN_VARIANTS:
    for _lvl in LEVELS:
        CASES.append(Case(EXAMPLES / f"{_v}-{_lvl}.log",
                          functools.partial(log_of, _v, _lvl, 4, MAIN_VARIANTS.index(_v) + 1)))


# the odessa sheet above, one row per deal
CASES.append(Case(EXAMPLES / "odessa-sheet-compact.log",
                  lambda: compact_of(log_of("odessa", "sheet", 4, MAIN_VARIANTS.index("odessa") + 1))))


@case(EXAMPLES / "odessa-revoke-penalty.log")
def _ex_revoke() -> Log:
    return revoke_game("full", comments=True)


@case(EXAMPLES / "odessa-unknown-cards.log")
def _ex_unknown() -> Log:
    log = with_unknown_cards(game("odessa", 4, 3), "odessa")
    log.insert(next(i for i, x in enumerate(log.lines) if x.startswith("rules:")) + 1,
               "# Written from memory the next morning: a few cards are '??'.",
               "# A deal with an unknown card gives its tricks taken instead.")
    return log


@case(EXAMPLES / "georgian-sets-commented.log")
def _ex_georgian_sets() -> Log:
    g = game("georgian", 4, 2)
    log = Log(record_lines(g, "georgian", "sheet"))
    sets = {1: "# Set 1: one card up to eight. Trump is the card turned after the deal.",
            9: "# Set 2: four deals of nine cards. All 36 cards are dealt, so eldest names\n"
               "# trump (or none) after seeing three cards.",
            13: "# Set 3: eight cards down to one.",
            21: "# Set 4: four more deals of nine cards."}
    for number in sorted(sets, reverse=True):
        start, _ = log.block(number)
        log.insert(start, *sets[number].split("\n"))
    start, _ = log.block(1)
    i = log.find(1, lambda s: s.startswith("trump"))
    log.lines[i] += "  # the turned card's suit"
    i = log.find(9, lambda s: s.startswith("trump"))
    log.lines[i] += "  # named by eldest"
    i = log.find(24, lambda s: s.startswith("total"))
    log.lines[i] += "  # final"
    header_end = next(i for i, x in enumerate(log.lines) if x.startswith("rules:")) + 1
    log.insert(header_end, "# Georgian Joker, a sheet kept by Vera: bids, tricks taken, points.")
    return log


@case(EXAMPLES / "odessa-by-hand.log")
def _ex_by_hand() -> Log:
    """A sheet written at the table: lax spelling the reader accepts."""
    log = log_of("odessa", "sheet", 4, 5)
    out: list[str] = []
    for text in log.lines:
        w = text.split()
        if text.startswith("variant:"):
            out += ["# Odessa poker at the dacha, written as we played.", "Variant: odessa"]
            continue
        if text.startswith("players:"):
            out.append("Players: Anna, Boris, Vera, Gleb")
            continue
        if text.startswith("level:"):  # left out: a record without hands or cards is a sheet
            out += ["date: 2024-07-14", "event: dacha, Saturday evening"]
            continue
        if text.startswith(("writer:", "rules:")):
            continue
        if w and w[0] == "deal":
            out.append(f"Deal {w[1]}   cards {w[3]}   dealer {w[5].lower()}")
            continue
        if w and w[0] == "trump":
            sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(w[1], w[1])
            out.append(f"  trump {sym}")
            continue
        if len(w) == 3 and w[1] in ("bid", "took"):
            seat = log.players.index(w[0]) + 1
            who = f"p{seat}" if w[1] == "took" else w[0].lower()
            out.append(f"  {who} {w[1]} {w[2]}")
            continue
        out.append(text)
    hand = Log(out)
    i = next(k for k, x in enumerate(hand.lines) if x.startswith("Deal 15 "))
    hand.lines[i] += "  # the blind deal: bids before the cards, points doubled"
    return hand


@case(EXAMPLES / "up-and-down-unfinished.log")
def _ex_unfinished() -> Log:
    log = log_of("up-and-down", "full", 4, 6)
    log.truncate_after(7)
    log.lines.append("# stopped here: the train arrived")
    return log


# -- docs/examples: broken records


@case(EXAMPLES / "invalid-revoke.log")
def _ex_bad_revoke() -> Log:
    log = log_of("odessa", "full", 4, 3)
    i = make_revoke(log, "R010", range(2, 16))
    log.lines[i] += "  # a revoke, and no penalty line follows"
    log.error(i, "R010")
    return log


@case(EXAMPLES / "invalid-hook.log")
def _ex_bad_hook() -> Log:
    log = log_of("oh-hell", "full", 4, 2)
    _, i, forbidden = hook_deal(log, range(3, 24))
    set_word(log, i, 2, str(forbidden))
    log.lines[i] += "  # the bids now add up to the number of cards: the hook forbids it"
    log.error(i, "R021")
    return log


@case(EXAMPLES / "invalid-score.log")
def _ex_bad_score() -> Log:
    log = log_of("up-and-down", "sheet", 4, 1)
    i = log.find(6, lambda s: s.startswith("score"))
    log.amount(i, "Vera", 10)
    log.lines[i] += "  # Vera's score is 10 too high; the total is right"
    log.error(i, "R050")
    return log


@case(EXAMPLES / "invalid-compact-score.log")
def _ex_bad_compact_score() -> Log:
    # invalid-score.log's mistake on the compact sheet of the same game
    return bad_compact_score(compact_of(log_of("up-and-down", "sheet", 4, 1)))


def bad_compact_score(log: Log) -> Log:
    i = log.find(6, lambda s: s.startswith("deal "))
    head, *cells = log.lines[i].split(" | ")
    seat = log.players.index("Vera")
    items = cells[seat].split()
    items[2] = str(int(items[2]) + 10)
    cells[seat] = " ".join(items)
    log.lines[i] = " | ".join([head, *cells]) + "  # Vera's score is 10 too high; the total is right"
    # R050 is at Vera's score, in her cell (Event.cells)
    log.error(i, "R050", col=len(" | ".join([head, *cells[:seat], " ".join(items[:2])])) + 2)
    return log


@case(EXAMPLES / "invalid-total.log")
def _ex_bad_total() -> Log:
    log = log_of("georgian", "sheet", 4, 4)
    i = log.find(10, lambda s: s.startswith("total"))
    log.amount(i, "Boris", 100)
    log.lines[i] += "  # Boris's total is 100 too high"
    log.error(i, "R051")
    return log


@case(EXAMPLES / "invalid-dealer.log")
def _ex_bad_dealer() -> Log:
    log = log_of("russian", "plays", 4, 5)
    i, _ = log.block(5)
    w = log.lines[i].split()
    right = w[5]
    w[5] = log.players[(log.players.index(w[5]) + 1) % 4]
    log.lines[i] = " ".join(w) + f"  # {right} deals this deal"
    log.error(i, "R042")
    return log


@case(EXAMPLES / "invalid-duplicate-card.log")
def _ex_bad_duplicate() -> Log:
    log = log_of("odessa", "full", 4, 6)
    start, _ = log.block(5)
    a, b = start + 1, start + 3
    card = log.lines[a].split()[2]
    w = log.lines[b].split()
    w[2] = card
    log.lines[b] = " ".join(w) + f"  # {card} is also in {log.lines[a].split()[1]}'s hand"
    log.error(b, "R043")
    return log


@case(EXAMPLES / "invalid-leader.log")
def _ex_bad_leader() -> Log:
    log = log_of("up-and-down", "plays", 4, 7)
    trick = log.tricks(8)[3]
    first = trick[0]
    rows = [log.lines[i] for i, _, _ in trick]
    for (i, _, _), text in zip(trick, rows[1:] + rows[:1]):
        log.lines[i] = text
    log.lines[first[0]] += f"  # {first[1]} won the trick before and leads this one"
    log.error(first[0], "R003")
    return log


@case(EXAMPLES / "invalid-sheet-tricks.log")
def _ex_bad_tricks() -> Log:
    log = log_of("georgian", "sheet", 4, 8)
    i = log.find(6, lambda s: s.startswith("Gleb took"))
    w = log.lines[i].split()
    w[2] = str(int(w[2]) + 1)
    log.lines[i] = " ".join(w) + "  # one trick too many"
    log.error(i, "R052")  # (the scores show it is Gleb's number that is wrong)
    return log


@case(EXAMPLES / "invalid-sheet-tricks-unclear.log")
def _ex_bad_tricks_unclear() -> Log:
    log = log_of("georgian", "sheet", 4, 8)
    i = log.find(6, lambda s: s.startswith("Gleb took"))
    w = log.lines[i].split()
    w[2] = str(int(w[2]) + 1)
    log.lines[i] = " ".join(w) + "  # one trick too many: the sheet stops here, with no score to tell whose"
    del log.lines[i + 1:]
    log.error(i, "R053")
    log.error(i, "T020", severity="note")
    return log


@case(EXAMPLES / "invalid-binary.log")
def _ex_binary() -> bytes:
    return b"\x89PNG\r\n\x1a\n" + random.Random(7).randbytes(600)


@case(EXAMPLES / "invalid-unknown-variant.log")
def _ex_unknown_variant() -> Log:
    log = log_of("odessa", "sheet", 4, 9)
    log.lines[0] = "variant: odesa  # misspelt"
    log.error(0, "T010")
    return log


# ---------------------------------------------------------------------------- golden
# tests/golden/<variant>/<name>.log; names tell what the record shows.

ALL_VARIANTS = ("up-and-down", "oh-hell", "odessa", "georgian", "russian", "georgian-khishti",
                "odessa-converge", "odessa-first-trick-demand", "odessa-hard-pass", "odessa-two-blind",
                "russian-cut", "russian-protection", "up-and-down-ascending", "up-and-down-free-trump",
                "up-and-down-online", "up-and-down-online-partial", "oh-hell-two-packs", "clag",
                "estimation-void-redeal", "super-screw-your-neighbour")

_PLAYERS = {"up-and-down": 5, "oh-hell": 3, "odessa": 3, "georgian": 5, "russian": 6,
            "georgian-khishti": 3, "odessa-converge": 5, "odessa-first-trick-demand": 6,
            "odessa-hard-pass": 3, "odessa-two-blind": 5, "russian-cut": 3, "russian-protection": 5,
            "up-and-down-ascending": 3, "up-and-down-free-trump": 6, "up-and-down-online": 3,
            "up-and-down-online-partial": 5, "oh-hell-two-packs": 10, "clag": 7,
            "estimation-void-redeal": 4, "super-screw-your-neighbour": 5}
#: The table of the whole games at the full and sheet levels, where four cannot play.
_TABLE = {"oh-hell-two-packs": 8}

for _n, _v in enumerate(ALL_VARIANTS):
    # every variant: a whole game at each level, four players, and one with another number
    CASES.append(Case(GOLDEN / _v / "clean-full.log", functools.partial(log_of, _v, "full", _TABLE.get(_v, 4),
                                                                        100 + _n)))
    CASES.append(Case(GOLDEN / _v / "clean-sheet.log", functools.partial(log_of, _v, "sheet", _TABLE.get(_v, 4),
                                                                         200 + _n)))
    CASES.append(Case(GOLDEN / _v / f"clean-plays-{_PLAYERS[_v]}p.log",
                      functools.partial(log_of, _v, "plays", _PLAYERS[_v], 300 + _n)))


def golden(variant: str, name: str) -> Callable[[Maker], Maker]:
    return case(GOLDEN / variant / f"{name}.log")


def short(variant: str, level: str, deals: int, players: int = 4, seed: int = 11) -> Log:
    log = log_of(variant, level, players, seed)
    log.truncate_after(deals)
    return log


# -- up-and-down
@golden("up-and-down", "unfinished")
def _g1() -> Log:
    return short("up-and-down", "full", 9)


@golden("up-and-down", "revoke-refused")
def _g2() -> Log:
    log = short("up-and-down", "full", 12)
    log.error(make_revoke(log, "R010", range(3, 13)), "R010")
    return log


@golden("up-and-down", "must-trump")
def _g3() -> Log:
    log = short("up-and-down", "plays", 13, seed=12)
    log.error(make_revoke(log, "R011", range(3, 14)), "R011")
    return log


@golden("up-and-down", "trump-while-following")
def _g4() -> Log:
    log = short("up-and-down", "full", 13, seed=13)
    log.error(make_revoke(log, "R012", range(3, 14)), "R012")
    return log


@golden("up-and-down", "card-not-in-hand")
def _g5() -> Log:
    log = short("up-and-down", "full", 4)
    i, who, words = log.plays(2)[1]
    free = next(c for c in ("2C", "3C", "4C", "5C", "2D", "3D") if c not in dealt_cards(log, 2))
    log.lines[i] = f"{who} play {free}"
    log.error(i, "R013")
    return log


@golden("up-and-down", "record-goes-on")
def _g6() -> Log:
    log = log_of("up-and-down", "sheet", 4, 14)
    start, end = log.block(25)
    copy = [x.replace("deal 25", "deal 26") for x in log.lines[start:end]]
    log.insert(end, "", *copy)
    log.error(end + 1, "R047")
    return log


@golden("up-and-down", "seven-players")
def _g7() -> Log:
    log = short("up-and-down", "sheet", 2)
    log.expect.clear()
    i = log.lines.index(next(x for x in log.lines if x.startswith("players:")))
    log.lines[i] += " Dima Elena Fedor"
    log.error(i, "T012")
    return log


@golden("up-and-down", "not-a-line")
def _g8() -> Log:
    log = short("up-and-down", "sheet", 5)
    i = log.find(3, lambda s: s.startswith("score"))
    log.insert(i, "Boris drops his cards on the floor")
    log.error(i, "T002")
    return log


@golden("up-and-down", "wrong-score")
def _g9() -> Log:
    log = log_of("up-and-down", "full", 4, 15)
    i = log.find(13, lambda s: s.startswith("score"))
    log.amount(i, "Anna", -1)
    log.error(i, "R050")
    return log


# -- oh-hell
@golden("oh-hell", "hook-sheet")
def _g10() -> Log:
    log = short("oh-hell", "sheet", 10, seed=21)
    _, i, forbidden = hook_deal(log, range(2, 11))
    set_word(log, i, 2, str(forbidden))
    log.error(i, "R021")
    return log


@golden("oh-hell", "wrong-leader-full")
def _g11() -> Log:
    log = short("oh-hell", "full", 8, seed=22)
    trick = log.tricks(7)[2]
    rows = [log.lines[i] for i, _, _ in trick]
    for (i, _, _), text in zip(trick, rows[2:] + rows[:2]):
        log.lines[i] = text
    log.error(trick[0][0], "R003")
    return log


@golden("oh-hell", "wrong-deal-number")
def _g12() -> Log:
    log = short("oh-hell", "plays", 6, seed=23)
    i, _ = log.block(4)
    set_word(log, i, 1, "5")
    log.error(i, "R040")
    return log


@golden("oh-hell", "wrong-hand-size")
def _g13() -> Log:
    log = short("oh-hell", "sheet", 6, seed=24)
    i, _ = log.block(5)
    set_word(log, i, 3, "6")
    log.error(i, "R041")
    return log


@golden("oh-hell", "not-a-card")
def _g14() -> Log:
    log = short("oh-hell", "full", 5, seed=25)
    i, who, _ = log.plays(4)[1]
    log.lines[i] = f"{who} play 11H"
    log.error(i, "T003", col=len(who) + 7)
    j, who2, _ = log.plays(4)[2]
    log.error(j, "R001")  # the card line was not read: the next player is out of turn
    return log


@golden("oh-hell", "free-trump-is-legal")
def _g15() -> Log:
    # oh-hell lets a void player discard although holding a trump: what is R011 elsewhere
    # is a legal card here, so a whole game with such discards is clean.
    log = log_of("oh-hell", "plays", 4, 26)
    for number in range(2, 24):
        trump = log.trump(number)
        tricks = log.tricks(number)
        for t, trick in enumerate(tricks):
            led = suit(trick[0][2][0])
            for _, who, words in trick[1:]:
                rest = [w[0] for tr in tricks[t:] for _, p, w in tr if p == who]
                if trump and suit(words[0]) not in (led, trump) and \
                        all(suit(c) != led for c in rest) and any(suit(c) == trump for c in rest):
                    return log
    raise LookupError("no discard while holding a trump")


# -- odessa
@golden("odessa", "revoke-penalty-full")
def _g20() -> Log:
    return revoke_game("full")


@golden("odessa", "revoke-penalty-plays")
def _g21() -> Log:
    return revoke_game("plays")


@golden("odessa", "revoke-penalty-sheet")
def _g22() -> Log:
    return revoke_game("sheet")


@golden("odessa", "revoke-no-penalty")
def _g23() -> Log:
    log = log_of("odessa", "plays", 4, 31)
    log.error(make_revoke(log, "R010", range(2, 16)), "R010")
    return log


@golden("odessa", "must-trump-no-penalty")
def _g24() -> Log:
    log = log_of("odessa", "full", 4, 32)
    log.error(make_revoke(log, "R011", range(2, 16)), "R011")
    return log


@golden("odessa", "penalty-wrong-points")
def _g25() -> Log:
    log = revoke_game("full")
    i = log.lines.index("penalty Boris -50 R010")
    log.lines[i] = "penalty Boris -40 R010"
    log.error(i, "R055")
    # the total after it is written with -50 taken off: it is right, the checker uses the
    # variant's penalty
    return log


@golden("odessa", "penalty-without-revoke")
def _g26() -> Log:
    log = short("odessa", "full", 6, seed=33)
    i = log.find(4, lambda s: s.startswith("score"))
    log.insert(i, "penalty Vera -50 R010")
    log.error(i, "R055")
    return log


@golden("odessa", "joker-undeclared")
def _g27() -> Log:
    log = log_of("odessa", "full", 4, 34)
    for number in range(2, 16):
        for i, who, words in log.plays(number):
            if words[0] == "6S" and len(words) > 1:
                log.lines[i] = f"{who} play 6S"
                log.error(i, "R015")
                return log
    raise LookupError("no joker")


@golden("odessa", "trump-named")
def _g28() -> Log:
    log = short("odessa", "full", 4, seed=35)
    i = log.find(3, lambda s: s.startswith("turned"))
    log.insert(i + 1, "Anna trump H")
    log.error(i + 1, "R022")
    return log


@golden("odessa", "duplicate-turned")
def _g29() -> Log:
    log = short("odessa", "full", 5, seed=36)
    i = log.find(4, lambda s: s.startswith("turned"))
    card = log.lines[log.find(4, lambda s: s.startswith("hand"))].split()[2]
    log.lines[i] = f"turned {card}"
    log.error(i, "R043")
    return log


@golden("odessa", "card-not-in-pack")
def _g30() -> Log:
    log = short("odessa", "full", 5, seed=37)
    i = log.find(3, lambda s: s.startswith("hand Vera"))
    set_word(log, i, 3, "2H")
    log.error(i, "R044")
    return log


@golden("odessa", "unknown-header-key")
def _g31() -> Log:
    log = log_of("odessa", "sheet", 4, 38)
    log.insert(2, "venue: the dacha")
    log.error(2, "T008", severity="warning")
    return log


@golden("odessa", "option-converge")
def _g32() -> Log:
    # odessa with the hook switched off by an option line: a dealer "making the bids
    # total" is legal (the record comes from odessa-converge)
    log = log_of("odessa-converge", "sheet", 4, 39)
    log.lines[0] = "variant: odessa"
    log.insert(1, "option: bidding.hook=false")
    return log


@golden("odessa", "option-bad")
def _g33() -> Log:
    log = short("odessa", "sheet", 3, seed=40)
    log.expect.clear()
    log.insert(1, "option: bidding.hook=perhaps")
    log.error(1, "T011")
    return log


@golden("odessa", "json-form")
def _g34() -> str:
    g = game("odessa", 4, 41)
    t = game_transcript(g, NAMES[:4], level="plays", variant="odessa")
    return json.dumps(transcript_to_json(t), ensure_ascii=False, indent=1) + "\n"


@golden("odessa", "archive-two-games")
def _g35() -> Log:
    a = log_of("odessa", "sheet", 4, 42)
    b = log_of("russian", "sheet", 3, 43)
    i = b.find(7, lambda s: s.startswith("score"))
    b.amount(i, "Vera", 5)
    offset = len(a.lines) + 1
    log = Log(a.lines + [""] + b.lines)
    log.error(offset + i, "R050")
    return log


@golden("odessa", "hook-blind-deal")
def _g36() -> Log:
    for seed in range(44, 90):
        log = log_of("odessa", "plays", 4, seed)
        start, end = log.block(15)
        bids = [i for i in range(start, end) if log.lines[i].split()[1:2] == ["bid"]]
        total = sum(int(log.lines[i].split()[2]) for i in bids[:-1])
        if total <= 6:
            set_word(log, bids[-1], 2, str(6 - total))
            log.error(bids[-1], "R021")
            return log
    raise LookupError("no blind deal with a hook")


@golden("odessa", "revoke-penalty-last-deal")
def _g37() -> Log:
    return table_revoke("odessa", 4, 6, 15, "R010", "full")


@golden("odessa", "demand-not-answered")
def _g38() -> Log:
    for seed in range(90, 200):
        log = log_of("odessa", "full", 4, seed)
        for number in range(3, 15):
            hands = {}
            start, end = log.block(number)
            for i in range(start, end):
                w = log.lines[i].split()
                if w[0] == "hand":
                    hands[w[1]] = w[2:]
            tricks = log.tricks(number)
            for t, trick in enumerate(tricks):
                lead = trick[0][2]
                if lead[0] != "6S" or lead[1:2] != ["demand"]:
                    continue
                asked = lead[2]
                for i, who, words in trick[1:]:
                    later = [(j, w) for tr in tricks[t + 1 :] for j, p, w in tr if p == who]
                    lower = [(j, w) for j, w in later if plain(w) and suit(w[0]) == asked]
                    if plain(words) and suit(words[0]) == asked and lower:
                        j, _ = lower[0]
                        swap_plays(log, i, j)
                        log.error(i, "R014")
                        return log
    raise LookupError("no demand with two cards of the suit")


@golden("odessa", "played-too-few")
def _g39() -> Log:
    log = short("odessa", "plays", 7, seed=45)
    i, _, _ = log.plays(6)[-1]
    del log.lines[i]
    log.error(log.block(6)[0], "R045")
    return log


@golden("odessa", "score-before-end")
def _g39b() -> Log:
    log = short("odessa", "full", 7, seed=46)
    i = log.find(5, lambda s: s.startswith("score"))
    text = log.lines.pop(i)
    log.lines.insert(i - 4, text)
    log.error(i - 4, "R047")
    return log


@golden("odessa", "no-first-dealer")
def _g39c() -> Log:
    # without a first-dealer line the last player named deals first (transcript-format.md)
    log = log_of("odessa", "sheet", 4, 47)
    log.lines = [x for x in log.lines if not x.startswith("first-dealer:")]
    return log


@golden("odessa", "unknown-card-no-took")
def _g39j() -> Log:
    # a card written as ?? at the plays level, and no 'took' lines (a sheet-level line):
    # the deal's cards are not checked (note T021), the rest of the record is
    log = log_of("odessa", "plays", 4, 51)
    i, who, _ = log.plays(5)[5]
    log.lines[i] = f"{who} play ??"
    log.error(log.find(5, lambda s: " bid " in s), "T021", severity="note")
    return log


@golden("odessa", "unfinished-full-mid-trick")
def _g39d() -> Log:
    log = log_of("odessa", "full", 4, 48)
    log.lines = log.lines[: log.find(8, lambda s: " play " in s) + 6]
    log.expect.append((None, None, "note", "T020"))
    return log


@golden("odessa", "unfinished-plays-mid-trick")
def _g39e() -> Log:
    log = log_of("odessa", "plays", 4, 48)
    log.lines = log.lines[: log.find(8, lambda s: " play " in s) + 6]
    log.error(log.find(8, lambda s: " bid " in s), "T021", severity="note")
    log.expect.append((None, None, "note", "T020"))
    return log


@golden("odessa", "unfinished-sheet-mid-bidding")
def _g39f() -> Log:
    log = log_of("odessa", "sheet", 4, 48)
    log.lines = log.lines[: log.find(8, lambda s: " bid " in s) + 2]
    log.expect.append((None, None, "note", "T020"))
    return log


@golden("odessa", "unfinished-sheet-mid-took")
def _g39g() -> Log:
    # the writer stopped while writing the tricks taken: unfinished, like a stop mid-bidding
    log = log_of("odessa", "sheet", 4, 48)
    log.lines = log.lines[: log.find(8, lambda s: " took " in s) + 2]
    log.expect.append((None, None, "note", "T020"))
    return log


@golden("odessa", "crlf-bom")
def _g39h() -> tuple[bytes, list[Diag]]:
    text = log_of("odessa", "plays", 4, 49).text()
    return ("\ufeff" + text.replace("\n", "\r\n")).encode("utf-8"), []


@golden("odessa", "hand-written-plays")
def _g39i() -> Log:
    """Lax spelling, comments and blank lines between tricks: all read as written."""
    log = short("odessa", "plays", 6, seed=50)
    log.expect.clear()
    out: list[str] = []
    for text in log.lines:
        w = text.split()
        if len(w) >= 3 and w[1] == "play":
            seat = log.players.index(w[0])
            who = [w[0].lower(), f"p{seat + 1}", w[0].upper(), w[0]][seat]
            card = w[2]
            if not card.startswith("JK") and card[-1] in "SHDC":
                card = card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]
            out.append(f"   {who}   play {' '.join([card] + w[3:])}")
        elif w and w[0] == "score":
            out += ["", text + "  # checked by Boris"]
        else:
            out.append(text)
    hand = Log(out)
    # a blank line and a comment after every trick of deal 5
    tricks = hand.tricks(5)
    for trick in reversed(tricks[:-1]):
        hand.insert(trick[-1][0] + 1, "", "# next trick")
    hand.expect.append((None, None, "note", "T020"))
    return hand


@golden("odessa", "settlement-highest")
def _g39k() -> Log:
    g = game("odessa", 4, 52)
    log = Log(record_lines(g, "odessa", "sheet"))
    add_settlement(log, g)
    return log


@golden("odessa", "bare-deal-lines")
def _g39l() -> Log:
    # 'deal N' alone: the number of cards and the dealer may be left out
    log = log_of("odessa", "plays", 4, 53)
    log.lines = ["deal " + x.split()[1] if x.startswith("deal ") else x for x in log.lines]
    return log


@golden("odessa", "archive-unreadable-first")
def _g39m() -> Log:
    # an archive goes on after a game that cannot be checked (seven players for odessa)
    a = short("odessa", "sheet", 2, seed=54)
    a.expect.clear()
    i = a.lines.index(next(x for x in a.lines if x.startswith("players:")))
    a.lines[i] += " Dima Elena Fedor"
    a.error(i, "T012")
    b = log_of("odessa", "sheet", 4, 55)
    j = b.find(3, lambda x: x.startswith("score"))
    b.amount(j, "Anna", 1)
    log = Log(a.lines + [""] + b.lines, a.expect)
    log.error(len(a.lines) + 1 + j, "R050")
    return log


@golden("odessa", "house-rules-file")
def _g39n() -> Log:
    # the variant named by a path, relative to the transcript's folder
    path = "../../../docs/house-rules/odessa-house.yaml"
    g = Game(load_variant(str(ROOT / "docs" / "house-rules" / "odessa-house.yaml")), 4, seed=56)
    rng = random.Random(56)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    return Log(record_lines(g, path, "full"))


@golden("odessa", "option-hard-pass")
def _g39o() -> Log:
    log = log_of("odessa-hard-pass", "full", 4, 57)
    log.lines[0] = "variant: odessa"
    log.insert(1, "option: scoring.params.pass=0")
    return log


# -- georgian
@golden("georgian", "tricks-do-not-add-up")
def _g40() -> Log:
    log = short("georgian", "sheet", 12, seed=51)
    i = log.find(10, lambda s: s.startswith("Anna took"))
    w = log.lines[i].split()
    w[2] = str(int(w[2]) + 2)
    log.lines[i] = " ".join(w)
    log.error(log.find(10, lambda s: s.startswith("score")), "R053")
    return log


@golden("georgian", "tricks-missing")
def _g41() -> Log:
    log = short("georgian", "sheet", 6, seed=52)
    i = log.find(5, lambda s: s.startswith("Vera took"))
    del log.lines[i]
    log.error(log.find(5, lambda s: s.startswith("score")), "R053")
    return log


@golden("georgian", "took-wrong-plays")
def _g42() -> Log:
    g = game("georgian", 4, 53)
    log = Log(record_lines(g, "georgian", "plays"))
    r = deal_results(g)[6]
    i = log.find(7, lambda s: s.startswith("score"))
    names = log.players
    taken = [seat.taken for seat in r.seats]
    wrong = next(s for s in range(4) if taken[s] > 0)
    lines = [f"{names[s]} took {taken[s] - (s == wrong)}" for s in range(4)]
    log.insert(i, *lines)
    log.error(i + wrong, "R052")
    return log


@golden("georgian", "trump-by-wrong-player")
def _g43() -> Log:
    log = short("georgian", "full", 10, seed=54)
    i = log.find(9, lambda s: " trump " in s)
    w = log.lines[i].split()
    w[0] = log.players[(log.players.index(w[0]) + 1) % 4]
    log.lines[i] = " ".join(w)
    log.error(i, "R001")
    return log


@golden("georgian", "unknown-cards")
def _g44() -> Log:
    return with_unknown_cards(game("georgian", 4, 55), "georgian")


@golden("georgian", "sets-commented")
def _g45() -> Made:
    return _ex_georgian_sets()


@golden("georgian", "revoke-penalty-full")
def _g46() -> Log:
    return table_revoke("georgian", 4, 5, 6, "R011", "full")


@golden("georgian", "revoke-penalty-plays")
def _g47() -> Log:
    return table_revoke("georgian", 4, 5, 10, "R010", "plays")


@golden("georgian", "revoke-penalty-sheet")
def _g48() -> Log:
    return table_revoke("georgian", 4, 5, 10, "R010", "sheet")


# -- russian
@golden("russian", "trump-line-wrong")
def _g50() -> Log:
    log = short("russian", "full", 6, seed=61)
    i = log.find(5, lambda s: s.startswith("turned"))
    card = log.lines[i].split()[1]
    other = next(s for s in "SHDC" if s != suit(card))
    log.insert(i + 1, f"trump {other}")
    log.error(i + 1, "R046")
    return log


@golden("russian", "bid-out-of-turn")
def _g51() -> Log:
    log = short("russian", "full", 6, seed=62)
    start, end = log.block(4)
    bids = [i for i in range(start, end) if log.lines[i].split()[1:2] == ["bid"]]
    log.lines[bids[0]], log.lines[bids[1]] = log.lines[bids[1]], log.lines[bids[0]]
    log.error(bids[0], "R001")
    return log


@golden("russian", "bid-out-of-turn-sheet")
def _g52() -> Log:
    # a paper sheet may list the bids by seat: not an error there
    log = short("russian", "sheet", 6, seed=62)
    start, end = log.block(4)
    bids = [i for i in range(start, end) if log.lines[i].split()[1:2] == ["bid"]]
    log.lines[bids[0]], log.lines[bids[1]] = log.lines[bids[1]], log.lines[bids[0]]
    return log


@golden("russian", "bid-out-of-range")
def _g53() -> Log:
    log = short("russian", "sheet", 4, seed=63)
    i = log.find(3, lambda s: " bid " in s)
    set_word(log, i, 2, "4")
    log.error(i, "R020")
    return log


@golden("russian", "not-a-number")
def _g54() -> Log:
    log = short("russian", "sheet", 4, seed=64)
    i = log.find(2, lambda s: s.startswith("Boris took"))
    log.lines[i] = "Boris took one"
    log.error(i, "T004", col=12)
    log.error(log.find(2, lambda s: s.startswith("score")), "R053")
    return log


@golden("russian", "unknown-player")
def _g55() -> Log:
    log = short("russian", "full", 3, seed=65)
    i = log.find(2, lambda s: s.startswith("hand Vera"))
    log.lines[i] = log.lines[i].replace("hand Vera", "hand Vara")
    log.error(i, "T005", col=6)
    log.error(log.block(2)[0], "R041")
    return log


@golden("russian", "missing-variant")
def _g56() -> Log:
    log = short("russian", "sheet", 2, seed=66)
    log.expect.clear()
    del log.lines[0]
    log.error(0, "T006")
    return log


@golden("russian", "header-twice")
def _g57() -> Log:
    log = short("russian", "sheet", 3, seed=67)
    log.insert(3, "first-dealer: Anna")
    log.error(3, "T007")
    return log


# -- overlays
@golden("georgian-khishti", "wrong-score")
def _g60() -> Log:
    log = log_of("georgian-khishti", "sheet", 4, 71)
    i = log.find(11, lambda s: s.startswith("score"))
    log.amount(i, "Gleb", 50)
    log.error(i, "R050")
    return log


@golden("odessa-converge", "wrong-total")
def _g61() -> Log:
    log = log_of("odessa-converge", "plays", 4, 72)
    i = log.find(8, lambda s: s.startswith("total"))
    log.amount(i, "Anna", -10)
    log.error(i, "R051")
    return log


@golden("odessa-first-trick-demand", "wrong-dealer")
def _g62() -> Log:
    log = short("odessa-first-trick-demand", "sheet", 9, seed=73)
    i, _ = log.block(9)
    w = log.lines[i].split()
    w[5] = log.players[(log.players.index(w[5]) + 2) % 4]
    log.lines[i] = " ".join(w)
    log.error(i, "R042")
    return log


@golden("odessa-hard-pass", "pass-scored-5")
def _g63() -> Log:
    g = game("odessa-hard-pass", 4, 74)
    log = Log(record_lines(g, "odessa-hard-pass", "sheet"))
    for r in deal_results(g):
        for s, seat in enumerate(r.seats):
            if seat.bid == 0 and seat.taken == 0:
                i = log.find(r.deal.number, lambda x: x.startswith("score"))
                log.amount(i, log.players[s], 5)
                log.error(i, "R050")
                return log
    raise LookupError("no pass made")


@golden("odessa-two-blind", "revoke-no-penalty")
def _g64() -> Log:
    log = log_of("odessa-two-blind", "full", 4, 75)
    log.error(make_revoke(log, "R010", range(2, 18)), "R010")
    return log


@golden("odessa-two-blind", "revoke-penalty-blind-deal")
def _g64b() -> Log:
    return table_revoke("odessa-two-blind", 4, 8, 17, "R012", "full")


@golden("odessa-first-trick-demand", "demand-after-first-trick")
def _g64c() -> Log:
    for seed in range(120, 300):
        log = log_of("odessa-first-trick-demand", "full", 4, seed)
        for number in range(3, 15):
            for t, trick in enumerate(log.tricks(number)):
                i, who, words = trick[0]
                if t >= 1 and words[0] == "6S" and words[1:2] == ["high"] and len(words) == 3:
                    log.lines[i] = f"{who} play 6S demand {words[2]}"
                    log.error(i, "R015")
                    return log
    raise LookupError("no high joker led after the first trick")


@golden("russian-cut", "cut-by-wrong-player")
def _g65() -> Log:
    for seed in range(76, 120):
        g = game("russian-cut", 4, seed)
        log = Log(record_lines(g, "russian-cut", "sheet"))
        cuts = [i for i, x in enumerate(log.lines) if x.startswith("cut ")]
        if cuts:
            i = cuts[0]
            w = log.lines[i].split()
            w[1] = log.players[(log.players.index(w[1]) + 1) % 4]
            log.lines[i] = " ".join(w)
            log.error(i, "R001")
            return log
    raise LookupError("no cut")


@golden("russian-protection", "duplicate-card-plays")
def _g66() -> Log:
    log = short("russian-protection", "plays", 8, seed=77)
    plays = log.plays(7)
    i, who, words = plays[5]
    j, who2, words2 = next(p for p in plays if p[1] != who)
    log.lines[i] = f"{who} play {words2[0]}"
    log.error(i, "R043")
    return log


@golden("up-and-down-ascending", "wrong-total")
def _g67() -> Log:
    log = log_of("up-and-down-ascending", "sheet", 4, 78)
    i = log.find(13, lambda s: s.startswith("total"))
    log.amount(i, "Vera", 1)
    log.error(i, "R051")
    return log


@golden("up-and-down-free-trump", "revoke-refused")
def _g68() -> Log:
    log = log_of("up-and-down-free-trump", "plays", 4, 79)
    log.error(make_revoke(log, "R010", range(3, 25)), "R010")
    return log


def _online(seed: int) -> tuple[Game, Log]:
    g = game("up-and-down-online", 4, seed)
    log = Log(record_lines(g, "up-and-down-online", "sheet"))
    add_settlement(log, g)
    return g, log


@golden("up-and-down-online", "settlement")
def _g69() -> Log:
    return _online(80)[1]


@golden("up-and-down-online", "settlement-wrong")
def _g70() -> Log:
    _, log = _online(81)
    i = next(k for k, x in enumerate(log.lines) if x.startswith("settlement"))
    log.amount(i, "Gleb", 10)
    log.error(i, "R054")
    return log


@golden("up-and-down-online", "settlement-too-early")
def _g71() -> Log:
    g = game("up-and-down-online", 4, 82)
    log = Log(record_lines(g, "up-and-down-online", "sheet"))
    log.truncate_after(1)
    log.lines += ["", "settlement Anna 0 Boris 0 Vera 0 Gleb 0"]
    log.error(len(log.lines) - 1, "R054")
    return log


@golden("up-and-down-online-partial", "wrong-score")
def _g72() -> Log:
    log = log_of("up-and-down-online-partial", "full", 4, 83)
    i = log.find(3, lambda s: s.startswith("score"))
    log.amount(i, "Boris", -10)
    log.error(i, "R050")
    return log


# ---------------------------------------------------------------------------- writing


def render(expect: list[Diag], examples: bool) -> str:
    out = []
    for line, col, sev, code in expect:
        where = f"{line}:{col}: " if line is not None else ""
        out.append(f"{where}{code}" if examples else f"{where}{sev}[{code}]")
    return "".join(x + "\n" for x in out)


READER_CODES = ("T001", "T002", "T003", "T004", "T005", "T006", "T007", "T008")


def order(d: Diag) -> tuple[int, int]:
    """The checker's order: what the reader found, then the walk through the record, then
    notes about the whole record."""
    line, _, _, code = d
    if line is None:
        return (2, 0)
    return (0 if code in READER_CODES else 1, line)


def build(write: bool) -> int:
    sys.path.insert(0, str(GOLDEN))
    from regenerate import checker_lines  # the same rendering as the golden test

    problems = 0
    for c in CASES:
        made = c.make()
        if isinstance(made, Log):
            data = made.text().encode("utf-8")
            expect = sorted(made.expect, key=order)
        elif isinstance(made, tuple):
            data, expect = made
        elif isinstance(made, str):
            data, expect = made.encode("utf-8"), []
        else:
            data = made
            expect = [(1, 1, "error", "T001")]
        if c.path.parent == EXAMPLES:
            if "invalid" not in c.path.name and expect and any(d[2] == "error" for d in expect):
                raise AssertionError(f"{c.path.name}: a valid example with errors")
            text = render(expect, examples=True) if "invalid" in c.path.name else None
        else:
            text = render(expect, examples=False)
        if write:
            c.path.parent.mkdir(parents=True, exist_ok=True)
            c.path.write_bytes(data)
            if text is not None:
                c.path.with_suffix(".expected").write_text(text, encoding="utf-8")
        # compare with the checker
        tmp = c.path if write else Path("/tmp") / c.path.name
        if not write:
            tmp.write_bytes(data)
        got = checker_lines(tmp)
        want = render(expect, examples=False).splitlines()
        if got != want:
            problems += 1
            print(f"== {c.path.relative_to(ROOT)}")
            print("   designed:", want)
            print("   checker: ", got)
    print(f"{len(CASES)} transcripts, {problems} where the checker disagrees with the design")
    return problems


if __name__ == "__main__":
    build(write="--check" not in sys.argv)
