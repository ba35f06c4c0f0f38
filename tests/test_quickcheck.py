"""The checker's quick path gives the same report as the full walk, always.

* Clean records of every bundled variant, at every level and table size, take the quick
  path (it must not give up on them, or it would be useless) and report exactly what the
  full walk reports, with the same game at the end.
* Corrupted records (a word replaced, a line dropped, doubled or moved, a number changed)
  report the same diagnostics, line for line, whichever path checks them.
* ``Game.play_cards``, which the quick path uses for the cards of a plain deal, leaves the
  game exactly as ``apply`` card by card would, and refuses exactly when ``apply`` would.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from updown_dsl import Game, IllegalAction, Play, load_variant
from updown_dsl.records.checker import CheckReport, check_lines, check_text, check_transcript
from updown_dsl.engine import Phase
from updown_dsl.lang.loader import bundled_names
from updown_dsl.records.quickcheck import quick_check
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import GameLines, format_transcript, parse_transcript, text_lines

VARIANTS = {name: load_variant(name) for name in bundled_names()}
LEVELS = ("full", "plays", "sheet")
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zina")


def played(name: str, players: int, seed: int) -> Game:
    game = Game(VARIANTS[name], players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def record(game: Game, level: str) -> str:
    return format_transcript(game_transcript(game, NAMES[: game.players], level=level))


def full_walk(text: str) -> CheckReport:
    t, diags = parse_transcript(text, "game.log")
    assert t is not None
    return check_transcript(t, diags)


def summary(report: CheckReport) -> tuple[object, ...]:
    """What a report says, and the game it leaves (values only)."""
    g = report.game
    game = None if g is None else (
        g.phase, g.deal_index, g.dealer, tuple(g.totals), g.over_reason,
        tuple((r.deal.number, r.dealer, r.seats, r.trump, r.turned, r.event, r.hands,
               tuple((t.leader, t.plays, t.winner) for t in r.tricks)) for r in g.results))
    return (tuple(d.format() for d in report.diagnostics), report.readable, report.level, report.finished, game)


def has_cut_line(text: str) -> bool:
    return any(line.startswith("cut ") for line in text.splitlines())


CLEAN = [(name, players, level) for name, v in VARIANTS.items()
         for players in sorted({v.min_players, v.default_players, v.max_players}) for level in LEVELS]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "level"), CLEAN)
def test_clean_records_take_the_quick_path_and_match_the_full_walk(name: str, players: int, level: str) -> None:
    for seed in range(3):
        text = record(played(name, players, seed), level)
        lines = text_lines(text)
        assert lines is not None
        quick = quick_check(GameLines(lines, 1), "game.log")
        if has_cut_line(text):
            assert quick is None  # the cut is left to the full walk
            continue
        assert quick is not None, f"{name} {players}p {level} seed {seed}: the quick path gave up"
        assert summary(quick) == summary(full_walk(text))
        assert quick.clean and quick.finished
        assert quick.transcript is not None and quick.transcript.players == NAMES[:players]


def test_archives_mix_quick_and_full_walks_in_order() -> None:
    wrong = re.sub(r"^score Anna (-?\d+)", lambda m: f"score Anna {int(m[1]) + 1}",
                   record(played("russian", 4, 2), "plays"), count=1, flags=re.M)
    texts = [record(played("oh-hell", 4, 1), "full"), wrong, record(played("georgian", 4, 3), "sheet")]
    reports = list(check_lines(io.BytesIO("".join(texts).encode("utf-8")), "archive.log"))
    assert [r.clean for r in reports] == [True, False, True]
    assert [d.code for d in reports[1].errors] == ["R050"]
    assert [d.code for d in reports[1].errors] == [d.code for d in full_walk(wrong).errors]
    assert reports[1].errors[0].line > texts[0].count("\n")  # lines are numbered through the archive


@pytest.mark.parametrize("level", ["full", "plays"])
def test_a_declaration_on_an_ordinary_card_is_refused_whichever_path(level: str) -> None:
    text = record(played("oh-hell", 4, 0), level)
    first_play = next(line for line in text.splitlines() if " play " in line)
    broken = text.replace(first_play, first_play + " high", 1)
    report = check_text(broken, "game.log")
    assert [d.code for d in report.errors] == ["R015"]
    assert summary(report) == summary(full_walk(broken))


# ------------------------------------------------------------------ corrupted records
VOCABULARY = ["play", "bid", "took", "trump", "deal", "hand", "turned", "score", "total", "penalty", "replay",
              "settlement", "cards", "dealer", "Anna", "anna", "Boris", "Zoe", "p1", "??", "JK", "JK2", "10H",
              "TH", "AS", "2S", "6S", "7S", "QH", "high", "low", "demand", "takes", "highest", "free", "as", "H",
              "S", "none", "0", "1", "2", "3", "-10", "-50", "15", "R010", "#", "x"]


def corrupt(text: str, data: st.DataObject) -> str:
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        k = data.draw(st.integers(0, len(lines) - 1), label="line")
        words = lines[k].split(" ")
        op = data.draw(st.sampled_from(["word", "insert", "drop-word", "drop-line", "double", "move",
                                        "number", "comment"]), label="op")
        if op == "word":
            words[data.draw(st.integers(0, len(words) - 1))] = data.draw(st.sampled_from(VOCABULARY))
        elif op == "insert":
            words.insert(data.draw(st.integers(0, len(words))), data.draw(st.sampled_from(VOCABULARY)))
        elif op == "drop-word" and len(words) > 1:
            del words[data.draw(st.integers(0, len(words) - 1))]
        elif op == "drop-line":
            del lines[k]
            continue
        elif op == "double":
            lines.insert(k, lines[k])
            continue
        elif op == "move":
            line = lines.pop(k)
            lines.insert(data.draw(st.integers(0, len(lines))), line)
            continue
        elif op == "number":
            numbers = [i for i, w in enumerate(words) if w.lstrip("-").isdigit()]
            if numbers:
                i = data.draw(st.sampled_from(numbers))
                words[i] = str(int(words[i]) + data.draw(st.sampled_from([-1, 1, 10])))
        elif op == "comment":
            words.append("# note")
        lines[k] = " ".join(words)
    return "\n".join(lines)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(VARIANTS)), level=st.sampled_from(LEVELS), seed=st.integers(0, 40),
       data=st.data())
def test_corrupted_records_report_the_same_through_both_paths(name: str, level: str, seed: int,
                                                              data: st.DataObject) -> None:
    v = VARIANTS[name]
    text = corrupt(record(played(name, v.default_players, seed), level), data)
    assert summary(check_text(text, "game.log")) == summary(full_walk(text))


# ------------------------------------------------------------------ play_cards is apply
PLAIN = [name for name, v in VARIANTS.items() if not v.wild and not v.deck.jokers]


def snapshot(g: Game) -> tuple[object, ...]:
    return (g.phase, g.to_act, g.deal_index, g.dealer, g.hands, g.bids, g.taken, g.trick, tuple(g.tricks),
            tuple(g.totals), g.leader, g.trump,
            tuple((r.deal.number, r.seats, r.tricks, r.hands) for r in g.results))


def at_play(name: str, seed: int) -> list[Game]:
    """The game of ``seed`` at the first card of each of its deals."""
    game = Game(VARIANTS[name], 4, seed=seed)
    rng = random.Random(seed)
    out = []
    while not game.is_over:
        if game.phase is Phase.PLAY and not game.tricks and not game.trick:
            out.append(game.clone(rng=random.Random(seed)))
        game.apply(rng.choice(game.legal_actions()))
    return out


def cards_of_deal(game: Game, rng: random.Random) -> list[tuple[int, int, Play]]:
    """A random legal sequence of the deal's cards, as (seat, card index, play)."""
    g = game.clone(rng=random.Random(0))
    out = []
    deal = g.deal_index
    while not g.is_over and g.deal_index == deal and g.phase is Phase.PLAY:
        play = rng.choice(g.legal_actions())
        out.append((g.to_act, g.table.index[play.card], play))
        g.apply(play)
    return out


def by_apply(game: Game, cards: list[tuple[int, int, Play]]) -> bool:
    for seat, _, play in cards:
        if seat != game.to_act:
            return False
        try:
            game.apply(play)
        except IllegalAction:
            return False
    return True


@pytest.mark.parametrize("name", PLAIN)
def test_play_cards_leaves_the_game_as_apply_does(name: str) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        for start in at_play(name, seed):
            cards = cards_of_deal(start, rng)
            a, b = start.clone(rng=random.Random(1)), start.clone(rng=random.Random(1))
            assert by_apply(a, cards) and b.play_cards(cards)
            assert snapshot(a) == snapshot(b)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(PLAIN), seed=st.integers(0, 30), data=st.data())
def test_play_cards_refuses_where_apply_refuses(name: str, seed: int, data: st.DataObject) -> None:
    starts = at_play(name, seed)
    start = starts[data.draw(st.integers(0, len(starts) - 1), label="deal")]
    cards = cards_of_deal(start, random.Random(seed))
    i = data.draw(st.integers(0, len(cards) - 1), label="at")
    op = data.draw(st.sampled_from(["swap", "other card", "other seat", "drop", "extra"]), label="op")
    table = start.table
    if op == "swap" and i + 1 < len(cards):
        cards[i], cards[i + 1] = cards[i + 1], cards[i]
    elif op == "other card":
        c = data.draw(st.integers(0, len(table.cards) - 1), label="card")
        cards[i] = (cards[i][0], c, table.plays[c])
    elif op == "other seat":
        cards[i] = ((cards[i][0] + 1) % start.players, *cards[i][1:])
    elif op == "drop":
        del cards[i]
    else:
        cards.append(cards[i])
    a, b = start.clone(rng=random.Random(1)), start.clone(rng=random.Random(1))
    whole = len(cards) == start.players * start.deal.cards
    ok_apply = by_apply(a, cards) and whole
    ok_batch = b.play_cards(cards)
    assert ok_batch == ok_apply
    if ok_batch:
        assert snapshot(a) == snapshot(b)
