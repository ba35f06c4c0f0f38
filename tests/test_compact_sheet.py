"""The compact score sheet: one row per deal (``updown_dsl.records.compact``, the reader and the
writer, ``game_transcript(..., compact=True)``, ``updown convert --compact`` / ``--long``).

* a row is read into exactly the events of the long form, each in the column of its own cell;
* a row that cannot be read gives one reader diagnostic at the bad cell and is kept as written;
* every bundled variant's score sheet written in rows checks as the long form does (same
  totals, same diagnostics), and round trips through the text and the JSON form;
* a wrong score in a row gives the R050 the long form gives, on the row's line;
* ``updown convert --compact`` writes the sheet of a full, plays or sheet record and refuses
  a record that breaks a rule; ``--long`` writes the rows back as lines.
"""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clikit import make_runner
from updown_dsl import Game, load_variant
from updown_dsl.cli import app
from updown_dsl.lang.loader import bundled_names
from updown_dsl.records.checker import CheckReport, check_text, check_transcript
from updown_dsl.records.compact import compact_events, long_events
from updown_dsl.records.record import check_names, game_transcript
from updown_dsl.records.transcript import (Event, Transcript, format_transcript, parse_transcript,
                                           transcript_from_json, transcript_to_json)

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zina", "Ivan", "Kira", "Lev")
HEAD = "variant: odessa\nplayers: Anna Boris Vera Gleb\nfirst-dealer: Gleb\nlevel: sheet\n\n"
ROW = "deal 3 cards 3 dealer Vera trump H | 1 1 11 12 | 0 1 1 -9 | 2 0 -20 -30 | 0 1 1 1  # the third deal"


@lru_cache(maxsize=None)
def played(name: str, players: int, seed: int) -> Game:
    game = Game(load_variant(name), players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def sheet(game: Game, compact: bool) -> str:
    return format_transcript(game_transcript(game, NAMES[: game.players], level="sheet", compact=compact))


def read(text: str) -> Transcript:
    t, diags = parse_transcript(text, "game.log")
    assert t is not None and diags == [], [d.format() for d in diags]
    return t


def brief(e: Event) -> tuple[object, ...]:
    return (e.kind, e.line, e.col, e.arg_col, e.actor, e.number, e.suit and e.suit.value, e.amounts, e.cells,
            e.row, e.comment)


# ------------------------------------------------------------------ reading a row


def test_a_row_is_read_as_the_events_of_the_long_form() -> None:
    t = read(HEAD + ROW + "\n")
    assert [brief(e) for e in t.events] == [
        ("deal", 6, 1, 6, 2, 3, None, (), (), True, "the third deal"),
        ("trump", 6, 28, 34, None, None, "H", (), (), True, None),
        ("bid", 6, 38, 38, 0, 1, None, (), (), True, None),
        ("bid", 6, 50, 50, 1, 0, None, (), (), True, None),
        ("bid", 6, 61, 61, 2, 2, None, (), (), True, None),
        ("bid", 6, 75, 75, 3, 0, None, (), (), True, None),
        ("took", 6, 40, 40, 0, 1, None, (), (), True, None),
        ("took", 6, 52, 52, 1, 1, None, (), (), True, None),
        ("took", 6, 63, 63, 2, 0, None, (), (), True, None),
        ("took", 6, 77, 77, 3, 1, None, (), (), True, None),
        ("score", 6, 42, 42, None, None, None, (11, 1, -20, 1), (42, 54, 65, 79), True, None),
        ("total", 6, 45, 45, None, None, None, (12, -9, -30, 1), (45, 56, 69, 81), True, None),
    ]
    # each column is its own cell's number
    for e in t.events[2:10]:
        assert ROW[e.col - 1:].split()[0] == str(e.number)
    # the same events as the long form, line for line
    long = read(HEAD + "deal 3 cards 3 dealer Vera  # the third deal\ntrump H\n"
                "Anna bid 1\nBoris bid 0\nVera bid 2\nGleb bid 0\n"
                "Anna took 1\nBoris took 1\nVera took 0\nGleb took 1\n"
                "score Anna 11 Boris 1 Vera -20 Gleb 1\ntotal Anna 12 Boris -9 Vera -30 Gleb 1\n")
    plain = lambda e: e._replace(line=0, col=1, arg_col=0, cells=(), row=False)  # noqa: E731
    assert [plain(e) for e in t.events] == [plain(e) for e in long.events]
    assert format_transcript(t) == HEAD + ROW + "\n"


def test_a_row_may_leave_numbers_out_and_is_written_canonically() -> None:
    text = HEAD + (
        "DEAL 17 Cards 6 Dealer p3 TRUMP ♥ |- 2 -20|-  1 -10 -130|  - 2 | - 1 - -290 |  # a minimum deal\n"
        "deal 18 cards 6 dealer Gleb | 2 | 1 | 0 | 3\n"
        "penalty Boris -50 R010\nreplay\ntotal Anna 5 Boris -45 Vera 1 Gleb 5\n"
        "deal 18 cards 6 dealer Gleb trump none | 2 1 | 1 - | 0 2 | 3 3\n")
    t = read(text)
    kinds = [(e.kind, e.line, e.actor, e.number, e.amounts) for e in t.events]
    assert kinds == [
        ("deal", 6, 2, 17, ()), ("trump", 6, None, None, ()),
        ("took", 6, 0, 2, ()), ("took", 6, 1, 1, ()), ("took", 6, 2, 2, ()), ("took", 6, 3, 1, ()),
        ("score", 6, None, None, (-20, -10, None, None)), ("total", 6, None, None, (None, -130, None, -290)),
        ("deal", 7, 3, 18, ()), ("bid", 7, 0, 2, ()), ("bid", 7, 1, 1, ()), ("bid", 7, 2, 0, ()), ("bid", 7, 3, 3, ()),
        ("penalty", 8, 1, -50, ()), ("replay", 9, None, None, ()), ("total", 10, None, None, (5, -45, 1, 5)),
        ("deal", 11, 3, 18, ()), ("trump", 11, None, None, ()),
        ("bid", 11, 0, 2, ()), ("bid", 11, 1, 1, ()), ("bid", 11, 2, 0, ()), ("bid", 11, 3, 3, ()),
        ("took", 11, 0, 1, ()), ("took", 11, 2, 2, ()), ("took", 11, 3, 3, ()),
    ]
    assert t.events[0].comment == "a minimum deal" and t.events[1].no_trump is False and t.events[1].suit.value == "H"
    assert t.events[-8].no_trump
    assert t.events[6].cells == (40, 49, 0, 0)
    assert format_transcript(t) == HEAD + (
        "deal 17 cards 6 dealer Vera trump H | - 2 -20 - | - 1 -10 -130 | - 2 - - | - 1 - -290  # a minimum deal\n"
        "deal 18 cards 6 dealer Gleb | 2 | 1 | 0 | 3\n"
        "penalty Boris -50 R010\nreplay\ntotal Anna 5 Boris -45 Vera 1 Gleb 5\n"
        "deal 18 cards 6 dealer Gleb trump none | 2 1 | 1 - | 0 2 | 3 3\n")
    assert t.level == "sheet"


def test_rows_and_long_deals_mix_and_keep_their_form() -> None:
    text = HEAD + ("deal 1 cards 1 dealer Gleb trump H | 0 1 1 1 | 0 0 5 5 | 1 0 -10 -10 | 1 0 -10 -10\n"
                   "# a comment between rows\n"
                   "deal 2 cards 2 dealer Anna trump S | 2 1 -5 -4 | 2 0 -20 -15 | 0 0 5 -5 | 0 1 1 -9\n\n"
                   "deal 3 cards 3 dealer Boris\ntrump C\nAnna bid 2\n")
    assert format_transcript(read(text)) == text


BAD_ROWS = [
    # (row, code, column, words of the message); the first ones keep their deal, the last ones
    # cannot be read as a deal at all
    ("deal 3 cards 3 dealer Vera | 1 1 | 0 1 | 2 0", "T002", 45, "the row has 3 cells, but there are 4 players"),
    ("deal 3 cards 3 dealer Vera | 1 | 0 | 2 | 0 | 3", "T002", 46, "the row has 5 cells"),
    ("deal 3 cards 3 dealer Vera | 1 | 0 |   | 0", "T002", 36, "Vera's cell is empty"),
    ("deal 3 cards 3 dealer Vera | 1 x | 0 | 2 | 0", "T004", 32, "not a whole number: 'x' (Anna's tricks taken)"),
    ("deal 3 cards 3 dealer Vera | 1 | 0 | 2 1 1 two | 0", "T004", 44, "(Vera's total)"),
    ("deal 3 cards 3 dealer Vera | 1 | 0 1 1 1 1 | 2 | 0", "T002", 42, "Boris's cell holds 5 numbers"),
    ("deal 3 cards 3 dealer Vera | 1 | 1234567890123456789 | 2 | 0", "T004", 34, "'1234567890123456789'"),
    ("deal 3 cards 3 dealer Vera trump X | 1 | 0 | 2 | 0", "T003", 34, "not a suit: 'X'"),
    ("deal 3 cards 3 dealer Vera trump | 1 | 0 | 2 | 0", "T002", 28, "'trump' takes a suit or 'none'"),
    ("deal 3 cards 3 dealer Vera trump H S | 1 | 0 | 2 | 0", "T002", 28, "'trump' takes a suit or 'none'"),
    ("deal 3 cards 3 dealer Zoe | 1 | 0 | 2 | 0", "T005", 23, "unknown player 'Zoe'"),
    ("deal 3 cards | 1 | 0 | 2 | 0", "T002", 8, "unexpected 'cards' after 'deal 3'"),
    ("deal | 1 | 0 | 2 | 0", "T002", 1, "'deal' needs its number"),
    ("  deal three | 1 | 0 | 2 | 0", "T004", 8, "not a whole number: 'three'"),
]


NO_DEAL = {r[0] for r in BAD_ROWS[-4:]}


@pytest.mark.parametrize(("row", "code", "col", "words"), BAD_ROWS, ids=[r[0] for r in BAD_ROWS])
def test_a_bad_row_is_one_diagnostic_at_its_cell_and_is_kept(row: str, code: str, col: int, words: str) -> None:
    t, diags = parse_transcript(HEAD + row + "  # kept\n", "game.log")
    assert t is not None
    assert [(d.code, d.line, d.col) for d in diags] == [(code, 6, col)], [d.format() for d in diags]
    assert words in diags[0].message
    assert diags[0].hint
    first = t.events[0]
    assert (first.text, first.comment) == (row.strip(), "kept")
    if row in NO_DEAL:  # no deal: the line is kept as written
        assert [e.kind for e in t.events] == ["raw"]
        assert format_transcript(t) == HEAD[:-1] + row.strip() + "  # kept\n"
    else:  # the deal stands, with what could be read of the row
        assert first.kind == "deal" and first.row and all(e.row and e.line == 6 for e in t.events)
        assert format_transcript(t) == HEAD + row.strip() + "  # kept\n"  # nothing lost on rewriting
        js, _ = transcript_from_json(json.loads(json.dumps(transcript_to_json(t))))
        assert js is not None and format_transcript(js) == format_transcript(t)


def test_a_bad_cell_loses_only_its_number() -> None:
    t, diags = parse_transcript(HEAD + "deal 3 cards 3 dealer Vera trump X | 1 x 2 3 | 0 1 1 1 1 | 2 0 -20 | 0\n")
    assert t is not None and [d.code for d in diags] == ["T003"]  # the first problem of the line
    assert [(e.kind, e.actor, e.number, e.amounts) for e in t.events] == [
        ("deal", 2, 3, ()), ("bid", 0, 1, ()), ("bid", 2, 2, ()), ("bid", 3, 0, ()), ("took", 2, 0, ()),
        ("score", None, None, (2, None, -20, None)), ("total", None, None, (3, None, None, None))]
    rows = (EXAMPLES / "odessa-sheet-compact.log").read_text(encoding="utf-8").splitlines()
    rows[9] = rows[9].replace("| 1 0 -10 -15 |", "| 1 0 x -15 |")
    assert [(d.code, d.line) for d in check_text("\n".join(rows) + "\n").diagnostics] == [("T004", 10)]
    # a tricks-taken number the reader cannot read is that mistake, not a missing one (R053)
    rows[9] = rows[9].replace("| 1 0 x -15 |", "| 1 ? -10 -15 |")
    assert [(d.code, d.line) for d in check_text("\n".join(rows) + "\n").diagnostics] == [("T004", 10)]


def test_the_carets_of_bad_cells_cover_the_word() -> None:
    _, diags = parse_transcript(HEAD + "deal 3 | 1 | 0 | 2 two | 0\n")
    assert [(d.col, d.end_col) for d in diags] == [(20, 23)]


def test_a_closing_bar_is_allowed_and_names_may_not_hold_one() -> None:
    t = read(HEAD + "deal 1 cards 1 dealer Gleb | 0 | 1 | 0 | 0 |\n")
    assert [e.kind for e in t.events] == ["deal", "bid", "bid", "bid", "bid"]
    _, diags = parse_transcript("variant: odessa\nplayers: Anna B|ob\n")
    assert [d.code for d in diags] == ["T005"]
    with pytest.raises(ValueError, match="'|'"):
        check_names(["Anna", "B|ob"])


WEIRD = ["deal |", "deal 1 |||||", "deal 1 trump |", "deal 1 | - - - - - |", "deal 1 cards 1 dealer Anna trump H | 1 |",
         "deal 1 ||||", "deal 1 | + | - | -- | 0x1", "deal 1 |\t|\t|\t|", "deal -0 cards 007 | +1 | -1 | 0 | 00",
         "deal 1 | 1 | 2 | 3 | 4 | | | |", "DEAL 1 DEALER p9 | 1 | 2 | 3 | 4", "deal 1 | 1 | 2 | 3 | 4 # | 5",
         "deal 1 trump trump | 1 | 2 | 3 | 4", "deal 1 dealer Anna dealer Anna | 1 | 2 | 3 | 4"]


@pytest.mark.parametrize("header", ["", "variant: odessa\n", "variant: odessa\nplayers: Anna\n", HEAD])
def test_the_reader_never_raises_on_odd_rows(header: str) -> None:
    for row in WEIRD:
        t, _ = parse_transcript(header + row + "\n")
        assert t is not None
        text = format_transcript(t)
        assert format_transcript(parse_transcript(text)[0]) == text  # type: ignore[arg-type]


_TOKENS = ["deal", "1", "3", "-", "-9", "x", "|", "||", " ", "trump", "H", "none", "cards", "dealer", "Vera", "#",
           "penalty Boris -50 R010", "replay", "score Anna 1", "total Vera 2", "Anna bid 1", "\t"]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(rows=st.lists(st.lists(st.sampled_from(_TOKENS), max_size=14), max_size=6))
def test_any_row_reads_without_raising_and_its_canonical_text_is_a_fixpoint(rows: list[list[str]]) -> None:
    text = HEAD + "".join(" ".join(["deal", *r]) + "\n" for r in rows)
    t, _ = parse_transcript(text)
    assert t is not None
    canonical = format_transcript(t)
    again, diags = parse_transcript(canonical)
    assert again is not None and format_transcript(again) == canonical
    assert [e._replace(line=0, col=1, arg_col=0, cells=()) for e in again.events] == \
        [e._replace(line=0, col=1, arg_col=0, cells=()) for e in t.events]


# ------------------------------------------------------------------ Event.cells


def test_long_amount_lines_say_where_each_number_is() -> None:
    text = HEAD + ("deal 1 cards 1 dealer Gleb\n"
                   "score Anna 1 Boris -10 Vera 5 Gleb -10\n"
                   "  total\tgleb 3   p1 -7  # Boris and Vera not written\n"
                   "settlement Vera 5 Anna 7\n")
    t = read(text)
    lines = text.splitlines()
    got = {e.kind: e.cells for e in t.events[1:]}
    assert got == {"score": (12, 20, 29, 36), "total": (21, 0, 0, 14), "settlement": (24, 0, 17, 0)}
    for e in t.events[1:]:
        for seat, col in enumerate(e.cells):
            if col:
                assert lines[e.line - 1][col - 1:].split()[0] == str(e.amounts[seat])
    assert game_transcript(played("odessa", 4, 1), level="sheet").events[-2].cells == ()


# ------------------------------------------------------------------ every variant

CLEAN = [(name, players, seed) for name in bundled_names()
         for players in sorted({load_variant(name).min_players, min(max(4, load_variant(name).min_players),
                                                                      load_variant(name).max_players),
                                load_variant(name).max_players})
         for seed in (0, 1)]


def report_summary(r: CheckReport) -> tuple[object, ...]:
    g = r.game
    assert g is not None
    return (tuple(d.code for d in r.diagnostics), r.finished, tuple(g.totals), g.over_reason,
            tuple((x.deal.number, x.event, x.seats) for x in g.results))


@pytest.mark.parametrize(("name", "players", "seed"), CLEAN)
def test_every_variant_written_in_rows_checks_as_the_long_form(name: str, players: int, seed: int) -> None:
    game = played(name, players, seed)
    long, compact = sheet(game, False), sheet(game, True)
    t = read(compact)
    assert format_transcript(t) == compact  # canonical compact text round trips byte for byte
    deals = [line for line in compact.splitlines() if line.startswith("deal ")]
    # Every deal is a row, but an auction's (a row has no cell for the calls: its lines stay).
    blocks = compact.split("\ndeal ")[1:]
    assert deals and all((" | " in line) != (" call " in block) for line, block in zip(deals, blocks))
    assert len(deals) == long.count("\ndeal ")
    report = check_text(compact, "game.log")
    assert report.clean and report.finished and report.game is not None
    assert report.game.totals == game.totals
    assert report_summary(report) == report_summary(check_text(long, "game.log"))
    # JSON and back: the same text, every event on its line
    t2, diags = transcript_from_json(json.loads(json.dumps(transcript_to_json(t))))
    assert t2 is not None and diags == []
    assert format_transcript(t2) == compact
    assert [(e.line, e.row) for e in t2.events] == [(e.line, e.row) for e in t.events]
    # the long sheet made rows is the same record, and the rows made lines check the same
    lt = read(long)
    assert format_transcript(Transcript(lt.headers, lt.players, tuple(compact_events(lt.events, players)))) == compact
    back = Transcript(t.headers, t.players, tuple(long_events(t.events)))
    assert " | " not in format_transcript(back)
    assert report_summary(check_transcript(read(format_transcript(back)))) == report_summary(report)


def test_special_deals_in_rows() -> None:
    # Russian minimum and maximum deals have no bids: '-' in every cell
    russian = sheet(played("russian", 4, 15), True)
    assert re.search(r"^deal 17 cards 6 dealer \w+ trump \w+ \| - \d+ -?\d+ -?\d+ \| - ", russian, re.M)
    # Odessa's blind deal: the bids come before the cards, which changes nothing on a sheet
    odessa = read(sheet(played("odessa", 4, 3), True))
    last = [e for e in odessa.events if e.line == max(x.line for x in odessa.events if x.kind == "deal")]
    assert [e.kind for e in last][:6] == ["deal", "trump", "bid", "bid", "bid", "bid"]
    assert load_variant("odessa").kinds[played("odessa", 4, 3).deals[-1].kind].bidding == "before_deal"
    # Georgian nine-card deals: eldest names the trump; on the sheet it is the deal's trump
    georgian = sheet(played("georgian", 4, 1), True)
    assert all(" trump " in line for line in georgian.splitlines() if line.startswith("deal ") and "cards 9" in line)


def test_a_wrong_score_in_a_row_is_the_R050_of_the_long_form() -> None:
    game = played("up-and-down", 4, 1)
    long, compact = sheet(game, False).splitlines(), sheet(game, True).splitlines()
    i = next(k for k, line in enumerate(long) if line.startswith("deal 6 "))
    j = next(k for k in range(i, len(long)) if long[k].startswith("score "))
    words = long[j].split()
    words[6] = str(int(words[6]) + 10)  # Vera's score
    long[j] = " ".join(words)
    r = next(k for k, line in enumerate(compact) if line.startswith("deal 6 "))
    head, *cells = compact[r].split(" | ")
    vera = cells[2].split()
    vera[2] = str(int(vera[2]) + 10)
    cells[2] = " ".join(vera)
    compact[r] = " | ".join([head, *cells])
    want = check_text("\n".join(long) + "\n", "game.log").diagnostics
    got = check_text("\n".join(compact) + "\n", "game.log").diagnostics
    assert [(d.code, d.message, d.line) for d in want] == [("R050", want[0].message, j + 1)]
    assert [(d.code, d.message, d.line) for d in got] == [("R050", want[0].message, r + 1)]
    score = next(e for e in read("\n".join(compact) + "\n").events if e.line == r + 1 and e.kind == "score")
    assert got[0].col in (score.col, score.cells[2])  # the row's score, or Vera's number in it


# ------------------------------------------------------------------ penalties and the odd lines


def test_lines_a_row_does_not_hold_follow_it() -> None:
    text = HEAD + ("deal 2 cards 2 dealer Anna\n"
                   "Boris bid 1\nVera bid 0\n"
                   "cut Gleb 7S\n"
                   "trump S\nGleb bid 0\nAnna bid 0\n"
                   "penalty Boris -50 R010\n"
                   "Anna took 1\nBoris took 1\nVera took 0  # a comment of its own\nGleb took 0\n"
                   "score Anna 1 Boris 10 Vera 5 Gleb 5\ntotal Anna 1 Boris -40 Vera 5 Gleb 5\n"
                   "\nsettlement Anna 1 Boris -40 Vera 5 Gleb 5\n")
    t = read(text)
    rows = Transcript(t.headers, t.players, tuple(compact_events(t.events, 4)))
    assert format_transcript(rows) == HEAD + (
        "deal 2 cards 2 dealer Anna trump S | 0 1 | 1 1 | 0 - | 0 0\n"
        "cut Gleb 7S\n"
        "penalty Boris -50 R010\n"
        "Vera took 0  # a comment of its own\n"
        "score Anna 1 Boris 10 Vera 5 Gleb 5\ntotal Anna 1 Boris -40 Vera 5 Gleb 5\n"
        "\nsettlement Anna 1 Boris -40 Vera 5 Gleb 5\n")
    again = read(format_transcript(rows))
    assert [e._replace(line=0, col=1, arg_col=0, cells=()) for e in again.events] == \
        [e._replace(line=0, col=1, arg_col=0, cells=()) for e in rows.events]
    assert compact_events(rows.events, 4) == list(rows.events)  # already rows


def test_a_revoke_caught_at_the_table_in_rows() -> None:
    runner = make_runner()
    r = runner.invoke(app, ["convert", str(EXAMPLES / "odessa-revoke-penalty.log"), "--compact", "--to", "log"])
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    k = lines.index("penalty Boris -50 R010")
    assert re.fullmatch(r"deal 3 cards 3 dealer Vera trump \w \| \d \| \d \| \d", lines[k - 1])  # the bids only
    assert lines[k + 1:k + 3] == ["replay", "total Anna -30 Boris -30 Vera 0"]
    assert lines[k + 3].startswith("deal 3 cards 3 dealer Vera trump ")
    report = check_text(r.stdout, "rows.log")
    assert report.clean and report.game is not None
    full = check_text((EXAMPLES / "odessa-revoke-penalty.log").read_text(encoding="utf-8"), "full.log")
    assert full.game is not None and report.game.totals == full.game.totals


def test_json_rows_share_their_line_and_odd_flags_are_harmless() -> None:
    t = read(HEAD + ROW + "\n")
    data = transcript_to_json(t)
    assert {(e["line"], e.get("row")) for e in data["events"]} == {(6, True)}  # type: ignore[index,union-attr]
    events = data["events"]
    assert isinstance(events, list)
    events.append({"kind": "penalty", "line": 6, "player": "Boris", "number": -50, "row": True})
    back, diags = transcript_from_json(data)
    assert back is not None and diags == []
    assert format_transcript(back) == HEAD + ROW + "\npenalty Boris -50\n"


def test_compact_is_a_sheet_level() -> None:
    with pytest.raises(ValueError, match="sheet"):
        game_transcript(played("odessa", 4, 1), level="full", compact=True)


def test_the_example_is_the_odessa_sheet_in_rows() -> None:
    t = read((EXAMPLES / "odessa-sheet.log").read_text(encoding="utf-8"))
    rows = Transcript(t.headers, t.players, tuple(compact_events(t.events, len(t.players))))
    assert format_transcript(rows) == (EXAMPLES / "odessa-sheet-compact.log").read_text(encoding="utf-8")


# ------------------------------------------------------------------ the command line

RUNNER = make_runner()


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    result = RUNNER.invoke(app, list(args), input=input, env={"COLUMNS": "100"})
    assert "Traceback" not in result.stdout and "Traceback" not in result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def write(folder: Path, name: str, text: str) -> str:
    (folder / name).write_text(text, encoding="utf-8")
    return str(folder / name)


def record(level: str, name: str = "odessa", seed: int = 3) -> str:
    return format_transcript(game_transcript(played(name, 4, seed), NAMES[:4], level=level, variant=name))


@pytest.mark.slow
@pytest.mark.parametrize("level", ["full", "plays", "sheet"])
def test_convert_compact_writes_the_sheet_of_any_record(tmp_path: Path, level: str) -> None:
    want = format_transcript(game_transcript(played("odessa", 4, 3), NAMES[:4], level="sheet", variant="odessa",
                                             compact=True))
    r = run("convert", write(tmp_path, "g.log", record(level)), "--compact", "--to", "log")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == want  # the header lines kept, 'level: sheet'
    out = tmp_path / "rows.log"
    r = run("convert", write(tmp_path, "g.log", record(level)), "--compact", "--to", "log", "-o", str(out))
    assert r.exit_code == 0 and out.read_text(encoding="utf-8") == want
    r = run("check", str(out))
    assert r.exit_code == 0


def test_convert_long_writes_the_rows_as_lines_and_json_keeps_them(tmp_path: Path) -> None:
    rows = write(tmp_path, "rows.log", record("sheet").replace("level: sheet", "level: sheet  # ours"))
    compact = run("convert", rows, "--compact", "--to", "log").stdout
    assert "level: sheet  # ours" in compact and " | " in compact
    lines = write(tmp_path, "rows2.log", compact)
    long = run("convert", lines, "--long", "--to", "log")
    assert long.exit_code == 0 and " | " not in long.stdout
    assert check_text(long.stdout).clean
    assert run("convert", lines, "--to", "log").stdout == compact  # as written, by default
    js = run("convert", lines, "--to", "json")
    assert js.exit_code == 0
    assert run("convert", write(tmp_path, "g.json", js.stdout), "--to", "log").stdout == compact
    assert run("convert", lines, "--long", "--compact", "--to", "log").stdout == compact  # the last one wins


def test_updown_sheet_reads_rows_as_lines(tmp_path: Path) -> None:
    got = json.loads(run("sheet", write(tmp_path, "rows.log", sheet(played("georgian", 4, 1), True)), "--json").stdout)
    want = json.loads(run("sheet", write(tmp_path, "long.log", sheet(played("georgian", 4, 1), False)),
                          "--json").stdout)
    assert {k: v for k, v in got.items() if k != "path"} == {k: v for k, v in want.items() if k != "path"}


def test_convert_compact_refuses_a_record_that_breaks_a_rule(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.log", (EXAMPLES / "invalid-revoke.log").read_text(encoding="utf-8"))
    out = tmp_path / "out.log"
    r = run("convert", bad, "--compact", "-o", str(out))
    assert r.exit_code == 1
    assert "error[R010]" in r.stderr and "is not converted" in r.stderr and "--compact" in r.stderr
    assert r.stdout == "" and not out.exists()
    unknown = write(tmp_path, "unknown.log", record("full").replace("variant: odessa", "variant: odesa"))
    r = run("convert", unknown, "--compact")
    assert r.exit_code == 3 and "is not converted" in r.stderr and r.stdout == ""
    # a sheet is rewritten line for line, without checking it
    wrong = write(tmp_path, "wrong.log", (EXAMPLES / "invalid-score.log").read_text(encoding="utf-8"))
    r = run("convert", wrong, "--compact")  # the log form, without --to
    assert r.exit_code == 0 and r.stdout.startswith("variant: ")
    # a line with a comment of its own stays a line (and the ones after it keep their place)
    assert "score Anna 3 Boris 13 Vera 10 Gleb 0  # Vera's score is 10 too high; the total is right" \
        in r.stdout.splitlines()
    assert [(d.code, d.message) for d in check_text(r.stdout).errors] == \
        [(d.code, d.message) for d in check_text(Path(wrong).read_text(encoding="utf-8")).errors]


def test_convert_compact_of_an_unfinished_game_and_an_archive(tmp_path: Path) -> None:
    text = (EXAMPLES / "up-and-down-unfinished.log").read_text(encoding="utf-8")
    r = run("convert", write(tmp_path, "u.log", text), "--compact", "--to", "log")
    assert r.exit_code == 0, r.stderr
    report = check_text(r.stdout)
    assert report.clean and not report.finished
    archive = record("full") + "\n" + record("plays", "russian", 2)
    r = run("convert", write(tmp_path, "two.log", archive), "--compact", "--to", "json")
    data = json.loads(r.stdout)
    assert r.exit_code == 0 and len(data) == 2
    assert all(h["value"] == "sheet" for game in data for h in game["headers"] if h["key"] == "level")
