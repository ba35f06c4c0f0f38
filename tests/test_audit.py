"""The audit's fast modes give the same report as the plain walk, always.

* The reader reads an action line it has read before (for the same players) by one lookup:
  the events are those of a fresh reading, line numbers included.
* The audit plays a deal's run of plain cards at once (``Game.play_cards``): clean records of
  every bundled variant, at every level and table size, and corrupted records (a word
  replaced, a line dropped, doubled or moved, a number changed) report exactly what the
  card-by-card walk (``batch_plays=False``) reports, with the same game at the end.
* ``Game.play_cards`` plays exactly the cards ``apply`` would accept one after another, and
  leaves the game as ``apply`` does.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from updown_dsl import Game, IllegalAction, Play, load_variant
from updown_dsl.engine import Phase
from updown_dsl.lang.loader import bundled_names
from updown_dsl.records import reader
from updown_dsl.records.audit import Audit
from updown_dsl.records.checker import CheckReport, check_lines, check_text, check_transcript
from updown_dsl.records.record import game_transcript
from updown_dsl.records.report import prepare_game
from updown_dsl.records.transcript import format_transcript, parse_transcript

from gamekit import table_size

VARIANTS = {name: load_variant(name) for name in bundled_names()}
LEVELS = ("full", "plays", "sheet")
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zina", "Ivan", "Kira", "Lev")


def played(name: str, players: int, seed: int) -> Game:
    game = Game(VARIANTS[name], players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def record(game: Game, level: str) -> str:
    return format_transcript(game_transcript(game, NAMES[: game.players], level=level))


def card_by_card(text: str) -> CheckReport:
    """The check of ``text`` with every card applied on its own."""
    t, diags = parse_transcript(text, "game.log")
    assert t is not None
    game = prepare_game(t, diags)
    if game is None:
        return CheckReport(t.path, tuple(diags), readable=False, transcript=t)
    audit = Audit(t, game, diags, batch_plays=False)
    audit.run()
    return CheckReport(t.path, tuple(diags), readable=True, level=t.level, finished=audit.game.is_over,
                       game=audit.game, transcript=t)


def summary(report: CheckReport) -> tuple[object, ...]:
    """What a report says, and the game it leaves (values only)."""
    g = report.game
    game = None if g is None else (
        g.phase, g.deal_index, g.dealer, tuple(g.totals), g.over_reason,
        tuple((r.deal.number, r.dealer, r.seats, r.trump, r.turned, r.event, r.hands,
               tuple((t.leader, t.plays, t.winner) for t in r.tricks)) for r in g.results))
    return (tuple(d.format() for d in report.diagnostics), report.readable, report.level, report.finished, game)


CLEAN = [(name, players, level) for name, v in VARIANTS.items()
         for players in sorted({v.min_players, v.default_players, v.max_players}) for level in LEVELS]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "level"), CLEAN)
def test_clean_records_check_the_same_card_by_card(name: str, players: int, level: str) -> None:
    for seed in range(3):
        text = record(played(name, players, seed), level)
        report = check_text(text, "game.log")
        assert report.clean and report.finished, f"{name} {players}p {level} seed {seed}"
        assert summary(report) == summary(card_by_card(text))
        assert report.transcript is not None and report.transcript.players == NAMES[:players]


def test_lines_read_before_are_the_same_events() -> None:
    text = record(played("oh-hell", 4, 5), "full")
    reader._MEMOS.clear()
    fresh, _ = parse_transcript(text, "game.log")
    memo = reader._MEMOS[NAMES[:4]]
    assert memo and all(e.kind in ("bid", "play") and e.line for e in memo.values())
    again, _ = parse_transcript("# moved down a line\n" + text, "game.log")
    assert fresh is not None and again is not None
    assert [e._replace(line=e.line + 1) for e in fresh.events] == list(again.events)
    # a line with a comment, or one the reader finds a problem in, is read in full every time
    noted, diags = parse_transcript(text.replace("Anna play", "Anna play  ", 1) + "Anna play ZZ\nAnna bid 1 # x\n")
    assert noted is not None and [d.code for d in diags] == ["T003"]
    assert noted.events[-1].comment == "x" and "Anna bid 1 # x" not in memo and "Anna play ZZ" not in memo


def test_an_archive_reports_each_game_in_order() -> None:
    wrong = re.sub(r"^score Anna (-?\d+)", lambda m: f"score Anna {int(m[1]) + 1}",
                   record(played("russian", 4, 2), "plays"), count=1, flags=re.M)
    texts = [record(played("oh-hell", 4, 1), "full"), wrong, record(played("georgian", 4, 3), "sheet")]
    reports = list(check_lines(io.BytesIO("".join(texts).encode("utf-8")), "archive.log"))
    assert [r.clean for r in reports] == [True, False, True]
    assert [d.code for d in reports[1].errors] == ["R050"]
    assert [d.code for d in reports[1].errors] == [d.code for d in card_by_card(wrong).errors]
    assert reports[1].errors[0].line > texts[0].count("\n")  # lines are numbered through the archive


@pytest.mark.parametrize("level", ["full", "plays"])
def test_a_declaration_on_an_ordinary_card_is_refused_in_a_run_of_cards(level: str) -> None:
    text = record(played("oh-hell", 4, 0), level)
    first_play = next(line for line in text.splitlines() if " play " in line)
    broken = text.replace(first_play, first_play + " high", 1)
    report = check_text(broken, "game.log")
    assert [d.code for d in report.errors] == ["R015"]
    assert summary(report) == summary(card_by_card(broken))


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
def test_corrupted_records_report_the_same_card_by_card(name: str, level: str, seed: int,
                                                         data: st.DataObject) -> None:
    v = VARIANTS[name]
    text = corrupt(record(played(name, v.default_players, seed), level), data)
    assert summary(check_text(text, "game.log")) == summary(card_by_card(text))


# ------------------------------------------------------------------ play_cards is apply, card after card
PLAIN = [name for name, v in VARIANTS.items() if not v.wild and not v.deck.jokers]


def snapshot(g: Game) -> tuple[object, ...]:
    return (g.phase, g.to_act, g.deal_index, g.dealer, g.hands, g.bids, g.taken, g.trick, tuple(g.tricks),
            tuple(g.totals), g.leader, g.trump,
            tuple((r.deal.number, r.seats, r.tricks, r.hands) for r in g.results))


def at_play(name: str, seed: int) -> list[Game]:
    """The game of ``seed`` at the first card of each of its deals."""
    game = Game(VARIANTS[name], table_size(VARIANTS[name]), seed=seed)
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


def by_apply(game: Game, cards: list[tuple[int, int, Play]]) -> int:
    """How many of ``cards`` ``apply`` takes one after another (the seat must be the one to act)."""
    deal = game.deal_index
    for n, (seat, _, play) in enumerate(cards):
        if game.phase is not Phase.PLAY or game.deal_index != deal or seat != game.to_act:
            return n
        try:
            game.apply(play)
        except IllegalAction:
            return n
    return len(cards)


@pytest.mark.parametrize("name", PLAIN)
def test_play_cards_leaves_the_game_as_apply_does(name: str) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        for start in at_play(name, seed):
            cards = cards_of_deal(start, rng)
            a, b = start.clone(rng=random.Random(1)), start.clone(rng=random.Random(1))
            assert by_apply(a, cards) == b.play_cards(cards) == len(cards)
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
    assert b.play_cards(cards) == by_apply(a, cards)
    assert snapshot(a) == snapshot(b)


def test_the_note_on_how_a_card_that_cannot_be_was_read_links_to_that_mistake() -> None:
    from pathlib import Path

    from updown_dsl import check_file
    from updown_dsl.diagnostics import Cause

    report = check_file(Path(__file__).parent / "golden" / "odessa" / "revoke-then-card-not-in-pack-plays.log")
    wrong = next(d for d in report.diagnostics if d.code == "R044")
    note = next(d for d in report.diagnostics if d.code == "T021")
    assert note.caused_by == Cause(wrong.line, "R044") and wrong.caused_by is None
    assert note.to_dict()["caused_by"] == {"line": wrong.line, "code": "R044"}
    assert all(d.caused_by is None for d in report.diagnostics if d is not note)
