#!/usr/bin/env python3
"""Two independent mistakes planted in one deal: does ``updown check`` report each once, at
its line, and nothing else?

Run from a source checkout::

    python benchmarks/audit_pairs.py                    # 2,000 records, every bundled variant
    python benchmarks/audit_pairs.py --records 300 --variants oh-hell,odessa --json
    python benchmarks/audit_pairs.py --single --records 3000      # one mistake a record

Each record is a random-bot game of a bundled variant written at one level (full, plays or
sheet). One deal of at least four cards gets two mistakes of the kinds below, in different
places and, where two kinds touch the same numbers, for different players, so that neither
follows from the other. What the checker must say is known from the planting alone: one error
per mistake, with its code, at the edited line; anything else that is an error is an extra.

The kinds (``KINDS``), each written as a player or a scorer would get it wrong:

* ``score`` (R050): one player's score of the deal written one point off;
* ``total`` (R051): one player's running total after the deal written one point off;
* ``hook`` (R021): the last bidder bids the number the hook forbids (where it forbids one);
* ``twice`` (R013 at the full level, R043 at the plays level): a player's card written as a
  card the same player played earlier in the deal;
* ``leader`` (R003, full and plays levels): a trick after the first written as led by the
  player after its leader (the trick's lines turned once round), where the trick before had
  no mistake;
* ``revoke`` (R010, R011 or R012, full and plays levels, variants without wild cards): two
  cards of one player swapped between two tricks so that the earlier breaks a rule of
  following or trumping, and, as the engine's play kernel judges the deal played so, nothing
  else does;
* ``range`` (R020): a bid of one more trick than the deal has;
* ``dealer`` (R042): the ``deal`` line names the player after the dealer;
* ``order`` (R001, full and plays levels): two bids next to each other written the wrong way
  round;
* ``size`` (R041, full level): a hand line short of its last card;
* ``trump`` (R046, full and plays levels): the card turned up written as the card of the same
  rank in the next suit, where that suit shows (the record with this one mistake alone is
  reported so);
* ``took`` (R052, sheet level): one player's tricks taken written one too many, where the
  scores tell whose number it is (the same test).

Mistakes of one deal are kept independent: two mistakes touch different lines, a score or
a total is planted for a player no other mistake changes the numbers of, a wrong leader
never follows a trick with another mistake (a lead right after one may follow from it), a
bid out of range is not planted beside a hook bid (the hook would then not be broken), and
two revokes are judged together.

The tally is by pair of kinds and level: records, misses (a planted mistake not reported at its
line with its code) and extras (any other error).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, Callable

try:  # a source checkout without the package installed
    import updown_dsl  # noqa: F401
except ModuleNotFoundError:  # pragma: no cover - depends on how it is run
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from updown_dsl import Game, bundled_names, check_text, load_variant
from updown_dsl.engine.plan import table_plan
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import format_transcript

NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zina", "Ivan", "Kira", "Lev")
LEVELS = ("full", "plays", "sheet")


class Deal:
    """The lines of one deal block of a record, to plant mistakes in (indices into ``lines``)."""

    def __init__(self, lines: list[str], start: int, end: int, players: tuple[str, ...], level: str = "full") -> None:
        self.lines, self.start, self.end, self.players, self.level = lines, start, end, players, level
        self.clean = list(lines)
        """The record's lines before any mistake was planted."""
        self.touched: set[int] = set()
        """Lines already edited."""
        self.people: set[str] = set()
        """Players whose numbers a mistake already changed."""
        self.tricks_touched: set[int] = set()
        self.led: set[int] = set()
        """Tricks planted with a wrong leader (the trick before one of them holds no mistake:
        a wrong lead right after an illegal card may follow from it)."""
        self.hands_touched: set[str] = set()
        """Players whose cards a mistake already changed."""
        self.hooked = False
        """A bid was made to break the hook."""
        self.swapped: list[tuple[int, Any]] = []
        """(seat, play) of every card of the deal as the revokes planted so far leave them."""
        self.revoked: list[int] = []
        """The positions (in ``swapped``) of the cards those revokes made illegal."""
        self.copies = 1
        """Copies of each card in the pack (two packs: 2)."""

    def find(self, pred: Callable[[list[str]], bool]) -> list[int]:
        return [i for i in range(self.start, self.end) if pred(self.lines[i].split())]

    def plays(self) -> list[int]:
        return self.find(lambda w: len(w) >= 3 and w[1] == "play")

    def tricks(self) -> list[list[int]]:
        p, n = self.plays(), len(self.players)
        return [p[k:k + n] for k in range(0, len(p), n)] if len(p) % n == 0 else []


Planted = tuple[int, str]  # (line index, code)


def plant_score(d: Deal, rng: random.Random) -> Planted | None:
    return _amount(d, rng, "score", "R050")


def plant_total(d: Deal, rng: random.Random) -> Planted | None:
    return _amount(d, rng, "total", "R051")


def _amount(d: Deal, rng: random.Random, kind: str, code: str) -> Planted | None:
    at = d.find(lambda w: w[:1] == [kind])
    if not at or at[0] in d.touched:
        return None
    words = d.lines[at[0]].split()
    people = [words[k] for k in range(1, len(words), 2) if words[k] not in d.people]
    if not people:
        return None
    who = rng.choice(people)
    k = words.index(who)
    words[k + 1] = str(int(words[k + 1]) + 1)
    d.lines[at[0]] = " ".join(words)
    d.touched.add(at[0])
    d.people.add(who)
    return at[0], code


def plant_hook(d: Deal, rng: random.Random, game: Game, number: int) -> Planted | None:
    plan = table_plan(game.variant, game.players).deal_plan(number - 1)
    if not plan.hook or plan.total != "differ":
        return None
    bids = d.find(lambda w: len(w) == 3 and w[1] == "bid")
    if len(bids) != len(d.players) or bids[-1] in d.touched:
        return None
    cards = int(d.lines[d.start].split()[3])
    forbidden = cards - sum(int(d.lines[i].split()[2]) for i in bids[:-1])
    words = d.lines[bids[-1]].split()
    if not plan.lo <= forbidden <= plan.hi or int(words[2]) == forbidden or words[0] in d.people:
        return None
    words[2] = str(forbidden)
    d.lines[bids[-1]] = " ".join(words)
    d.touched.add(bids[-1])
    d.people.add(words[0])  # (that player's score is in question now)
    d.hooked = True
    return bids[-1], "R021"


def plant_twice(d: Deal, rng: random.Random) -> Planted | None:
    plays = d.plays()
    by: dict[str, list[int]] = {}
    for i in plays:
        by.setdefault(d.lines[i].split()[0], []).append(i)
    options = [(who, idx) for who, idx in by.items() if len(idx) >= 2 and who not in d.people | d.hands_touched]
    if not options:
        return None
    who, idx = rng.choice(options)
    later = rng.choice(idx[1:])
    n = len(d.players)
    if later in d.touched or plays.index(later) // n + 1 in d.led:
        return None
    earlier = rng.choice([i for i in idx if i < later])
    card = d.lines[earlier].split()[2:]
    if len(card) != 1:
        return None
    # two packs: the card must already be written as often as the packs hold it
    if sum(1 for i in plays if i != later and i not in d.touched and d.lines[i].split()[2:] == card) < d.copies:
        return None
    d.lines[later] = f"{who} play {card[0]}"
    d.touched.add(later)
    d.people.add(who)
    d.hands_touched.add(who)
    d.tricks_touched.add(plays.index(later) // n)  # (the trick's winner, so the next leader, may change)
    # (at the plays level the hands are the plays: the card is seen twice, R043)
    return later, "R013" if d.level == "full" else "R043"


def plant_leader(d: Deal, rng: random.Random) -> Planted | None:
    tricks = d.tricks()
    # (not a trick holding a declared card: a declaration made in the second seat may not be
    # one a lead can make, and the lines turned round would be a second mistake)
    options = [t for t in range(1, len(tricks)) if not {t - 1, t, t + 1} & d.tricks_touched
               and not any(i in d.touched or len(d.lines[i].split()) > 3 for i in tricks[t])]
    if not options:
        return None
    t = rng.choice(options)
    lines = [d.lines[i] for i in tricks[t]]
    for i, text in zip(tricks[t], lines[1:] + lines[:1]):
        d.lines[i] = text
    d.touched.update(tricks[t])
    d.tricks_touched.add(t)
    d.led.add(t)
    for i in tricks[t]:
        d.people.add(d.lines[i].split()[0])  # (who took the trick is in question)
    return tricks[t][0], "R003"


def plant_revoke(d: Deal, rng: random.Random, game: Game, number: int) -> Planted | None:
    """Two cards of one player swapped between two tricks so that the earlier breaks a rule of
    following or trumping and nothing else does, as the engine's play kernel judges the deal
    (variants without wild cards: the kernel is fed the cards as dealt and played)."""
    if game.table.wild_mask or game.table.joker_mask:
        return None
    result = next((r for r in game.results if r.event == "deal" and r.deal.number == number), None)
    tricks = d.tricks()
    if result is None or not result.tricks or len(tricks) != len(result.tricks):
        return None
    # (the cards as a revoke planted before left them: the two together must break no more)
    plays = d.swapped or [(tp.seat, tp.play) for t in result.tricks for tp in t.plays]
    index = {i: k for k, i in enumerate(x for trick in tricks for x in trick)}  # line -> position
    n = len(d.players)
    options = [(a, b) for a in range(len(plays)) for b in range(a + n, len(plays))
               if plays[a][0] == plays[b][0] and a % n and (a // n) not in d.tricks_touched
               and (b // n) not in d.tricks_touched and (a // n) + 1 not in d.led
               and d.players[plays[a][0]] not in d.hands_touched]
    rng.shuffle(options)
    for a, b in options[:40]:
        trial = list(plays)
        trial[a], trial[b] = (plays[a][0], plays[b][1]), (plays[b][0], plays[a][1])
        broken, winners = _kernel_refusals(game, result, trial)
        # (the same trick winners: the scores written are those of the cards as played)
        if [pos for pos, _ in broken] == sorted(d.revoked + [a]) \
                and all(code in ("R010", "R011", "R012") for _, code in broken) \
                and winners == [t.winner for t in result.tricks]:
            line_a = next(i for i, k in index.items() if k == a)
            line_b = next(i for i, k in index.items() if k == b)
            wa, wb = d.lines[line_a].split(), d.lines[line_b].split()
            d.lines[line_a], d.lines[line_b] = " ".join(wa[:2] + wb[2:]), " ".join(wb[:2] + wa[2:])
            d.touched.update((line_a, line_b))
            d.tricks_touched.update((a // n, b // n))
            d.hands_touched.add(d.players[plays[a][0]])
            d.swapped, d.revoked = trial, d.revoked + [a]
            return line_a, next(code for pos, code in broken if pos == a)
    return None


def _kernel_refusals(game: Game, result: Any, plays: list[tuple[int, Any]]
                     ) -> tuple[list[tuple[int, str]], list[int]]:
    """(position, code) of each card the kernel refuses when the deal of ``result`` is played
    with ``plays`` (each refused card played as written; a card out of turn ends it), and the
    winner of each trick."""
    from updown_dsl.engine import PlayKernel
    from updown_dsl.engine.tables import SUIT_ID

    plan = table_plan(game.variant, game.players)
    table = game.table
    k = PlayKernel(plan, result.deal.cards)
    k.deal([sum(table.bit[table.index[c]] for c in h) for h in result.hands], None)
    if result.trump is not None:
        k.set_trump(SUIT_ID[result.trump])
    k.begin(result.tricks[0].leader)
    out = []
    for pos, (seat, play) in enumerate(plays):
        if seat != k.to_act:
            out.append((pos, "R001"))
            break
        problem = k.refusal(play)
        if problem is not None:
            out.append((pos, problem.code))
            if not (k.hands[seat] >> table.index[play.card]) & 1:
                break
        k.play(table.index[play.card])
    return out, list(k.winners)


def plant_range(d: Deal, rng: random.Random) -> Planted | None:
    """A bid of one more than the cards of the deal (R020), where no bid breaks the hook (it
    would not then)."""
    if d.hooked:
        return None
    bids = [i for i in d.find(lambda w: len(w) == 3 and w[1] == "bid") if i not in d.touched
            and d.lines[i].split()[0] not in d.people]
    if not bids:
        return None
    i = rng.choice(bids)
    words = d.lines[i].split()
    words[2] = str(int(d.lines[d.start].split()[3]) + 1)
    d.lines[i] = " ".join(words)
    d.touched.add(i)
    d.people.add(words[0])  # (the score of a bid in question says nothing more)
    return i, "R020"


def plant_dealer(d: Deal, rng: random.Random) -> Planted | None:
    """The deal line names the player after the dealer as the dealer (R042)."""
    if d.start in d.touched:
        return None
    words = d.lines[d.start].split()
    words[5] = d.players[(d.players.index(words[5]) + 1) % len(d.players)]
    d.lines[d.start] = " ".join(words)
    d.touched.add(d.start)
    return d.start, "R042"


def plant_order(d: Deal, rng: random.Random) -> Planted | None:
    """Two bids next to each other written in the wrong order (R001 at the first of them)."""
    bids = d.find(lambda w: len(w) == 3 and w[1] == "bid")
    pairs = [k for k in range(len(bids) - 1) if not {bids[k], bids[k + 1]} & d.touched]
    if not pairs:
        return None
    k = rng.choice(pairs)
    a, b = bids[k], bids[k + 1]
    d.lines[a], d.lines[b] = d.lines[b], d.lines[a]
    d.touched.update((a, b))
    return a, "R001"


def plant_size(d: Deal, rng: random.Random) -> Planted | None:
    """A hand line short of its last card (R041, full level)."""
    hands = [i for i in d.find(lambda w: w[:1] == ["hand"]) if i not in d.touched
             and d.lines[i].split()[1] not in d.hands_touched]
    if not hands:
        return None
    i = rng.choice(hands)
    d.lines[i] = " ".join(d.lines[i].split()[:-1])
    d.touched.add(i)
    d.hands_touched.add(d.lines[i].split()[1])  # (the plays show the hand: no other mistake in them)
    return i, "R041"


def plant_trump(d: Deal, rng: random.Random, game: Game, number: int) -> Planted | None:
    """The turned card written as the card of the same rank in the next suit, where it is
    no card of a hand (R046; full and plays levels), in a deal where that suit shows: the
    record with this one mistake is reported so (a trump no card of the deal tells apart
    from another is no mistake a check can see)."""
    at = d.find(lambda w: w[:1] == ["turned"] and len(w) == 2)
    if not at or at[0] in d.touched:
        return None
    card = d.lines[at[0]].split()[1]
    suits = "SHDC"
    if card[-1] not in suits or any(card in d.lines[i].split()[1:] for i in range(d.start, d.end) if i != at[0]):
        return None
    other = card[:-1] + suits[(suits.index(card[-1]) + 1) % 4]
    if any(other in d.lines[i].split() for i in range(d.start, d.end)) \
            or other not in {str(c) for c in game.table.cards}:
        return None
    alone = list(d.clean)
    alone[at[0]] = f"turned {other}"
    if [(x.line, x.code) for x in check_text("\n".join(alone), "game.log").errors] != [(at[0] + 1, "R046")]:
        return None
    d.lines[at[0]] = f"turned {other}"
    d.touched.add(at[0])
    return at[0], "R046"


def plant_took(d: Deal, rng: random.Random) -> Planted | None:
    """One player's tricks taken written one more (R052, sheet level), where the scores tell
    whose number it is: the record with this one mistake is reported so (where a missed bid
    scores the same whatever was taken, no check can tell whose number is wrong)."""
    took = [i for i in d.find(lambda w: len(w) == 3 and w[1] == "took") if i not in d.touched
            and d.lines[i].split()[0] not in d.people]
    if not took:
        return None
    i = rng.choice(took)
    words = d.lines[i].split()
    words[2] = str(int(words[2]) + 1)
    alone = list(d.clean)
    alone[i] = " ".join(words)
    if [(x.line, x.code) for x in check_text("\n".join(alone), "game.log").errors] != [(i + 1, "R052")]:
        return None
    d.lines[i] = " ".join(words)
    d.touched.add(i)
    d.people.add(words[0])
    return i, "R052"


KINDS: dict[str, tuple[tuple[str, ...], Any]] = {
    "score": (LEVELS, plant_score),
    "total": (LEVELS, plant_total),
    "hook": (LEVELS, plant_hook),
    "twice": (("full", "plays"), plant_twice),
    "leader": (("full", "plays"), plant_leader),
    "revoke": (("full", "plays"), plant_revoke),
    "range": (LEVELS, plant_range),
    "dealer": (LEVELS, plant_dealer),
    "order": (("full", "plays"), plant_order),
    "size": (("full",), plant_size),
    "trump": (("full", "plays"), plant_trump),
    "took": (("sheet",), plant_took),
}


def played(variant: str, seed: int) -> Game:
    v = load_variant(variant)
    game = Game(v, v.default_players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def plant(game: Game, level: str, kinds: tuple[str, ...], rng: random.Random) -> tuple[str, list[Planted]] | None:
    """The record of ``game`` at ``level`` with two mistakes of ``kinds`` in one deal, and where
    they are (None: no deal takes both)."""
    players = NAMES[:game.players]
    lines = format_transcript(game_transcript(game, players, level=level)).split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("deal ")]
    blocks = [(s, next((j for j in starts if j > s), len(lines))) for s in starts]
    rng.shuffle(blocks)
    for start, end in blocks:
        if int(lines[start].split()[3]) < 4:
            continue
        trial = list(lines)
        d = Deal(trial, start, end, players, level)
        d.copies = game.table.copies
        planted = []
        for kind in kinds:
            levels, fn = KINDS[kind]
            if level not in levels:
                return None
            got = fn(d, rng, game, int(lines[start].split()[1])) if kind in ("hook", "revoke", "trump") else fn(d, rng)
            if got is None:
                break
            planted.append(got)
        else:
            return "\n".join(trial), planted
    return None


def judge(text: str, planted: list[Planted]) -> tuple[int, int, list[str]]:
    """(misses, extras, what was said) of the check of ``text``."""
    report = check_text(text, "game.log")
    errors = [(d.line, d.code) for d in report.errors]
    want = [(i + 1, code) for i, code in planted]
    misses = sum(1 for w in want if w not in errors)
    extras = sum(1 for e in errors if e not in want)
    return misses, extras, [d.format() for d in report.errors]


def run(records: int, variants: list[str], seed: int, out: Callable[[str], None] = print,
        kinds: tuple[str, ...] = tuple(KINDS), single: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    pairs: list[tuple[str, ...]] = [(k,) for k in kinds] if single else list(combinations_with_replacement(kinds, 2))
    tally: Counter[tuple[str, str, str, str]] = Counter()
    examples: dict[str, list[str]] = {}
    done = tries = 0
    while done < records and tries < records * 20:
        tries += 1
        variant = rng.choice(variants)
        level = rng.choice(LEVELS)
        pair = rng.choice(pairs)
        game = played(variant, rng.randrange(10**6))
        made = plant(game, level, pair, rng)
        if made is None:
            continue
        text, planted = made
        misses, extras, said = judge(text, planted)
        key = "+".join(pair)
        tally[(key, level, "records", "")] += 1
        tally[(key, level, "misses", "")] += misses
        tally[(key, level, "extras", "")] += extras
        if (misses or extras) and len(examples.setdefault(f"{key} {level}", [])) < 2:
            examples[f"{key} {level}"].append(f"{variant}: planted {[(i + 1, c) for i, c in planted]}; said {said}")
        done += 1
    rows = sorted({(k, lv) for k, lv, _, _ in tally})
    table = [{"pair": k, "level": lv, "records": tally[(k, lv, "records", "")],
              "misses": tally[(k, lv, "misses", "")], "extras": tally[(k, lv, "extras", "")]} for k, lv in rows]
    total = {m: sum(r[m] for r in table) for m in ("records", "misses", "extras")}
    return {"records": done, "variants": variants, "seed": seed, "total": total, "pairs": table,
            "examples": examples}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=2000)
    ap.add_argument("--variants", default="", help="comma-separated (default: every bundled variant)")
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--single", action="store_true",
                    help="one mistake a record instead of two: each must be reported once, nothing else")
    args = ap.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()] or bundled_names()
    result = run(args.records, variants, args.seed, single=args.single)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{result['records']} records, {len(variants)} variants: misses {result['total']['misses']}, "
          f"extras {result['total']['extras']}")
    print(f"{'pair':<16} {'level':<6} {'records':>7} {'misses':>6} {'extras':>6}")
    for r in result["pairs"]:
        print(f"{r['pair']:<16} {r['level']:<6} {r['records']:>7} {r['misses']:>6} {r['extras']:>6}")
    for key, lines in result["examples"].items():
        print(f"\n{key}:")
        for line in lines:
            print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
