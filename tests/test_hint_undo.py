"""Hints and undo at the table: ``Session.hint`` and ``Session.take_back``
(updown_dsl/players/session.py), their lines in a record (``NAME hint ...``, ``NAME undo N``:
updown_dsl/records/model.py ``as_played``), and ``updown play``'s ``hint``, ``??``, ``?`` twice,
``undo`` and its ``--no-hints`` / ``--no-undo`` switches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import updown_dsl as ud
from clikit import make_runner
from updown_dsl.actions import Bid
from updown_dsl.cli import app
from updown_dsl.players.bots import HeuristicBot
from updown_dsl.players.search import DEFAULT_LEVEL, SearchBot
from updown_dsl.players.session import Session, bot_seed
from updown_dsl.records.checker import check_text
from updown_dsl.records.jsonform import transcript_from_json, transcript_to_json
from updown_dsl.records.transcript import format_transcript, parse_transcript

RUNNER = make_runner()

RECORD = """\
variant: oh-hell
players: Anna Boris Vera Gleb
first-dealer: Gleb
level: full

deal 1 cards 1 dealer Gleb
hand Anna 4H
hand Boris 5D
hand Vera JS
hand Gleb 10H
turned 6S
Anna hint bid 0
Anna bid 1
Boris bid 0
Vera bid 0
Gleb bid 1
Anna undo 4
Anna bid 0
Boris bid 0
Vera bid 0
Gleb bid 0
Anna play 4H
Boris play 5D
Vera play JS
Gleb play 10H
score Anna 10 Boris 10 Vera 1 Gleb 10
total Anna 10 Boris 10 Vera 1 Gleb 10
"""


def _session(seed: int = 4) -> Session:
    return Session.start(ud.load_variant("oh-hell"), 4, humans=[0], seed=seed)


# -- the record ------------------------------------------------------------------------------

def test_a_record_with_a_hint_and_an_undo_is_checked_as_played() -> None:
    """The four bids Anna took back are not the deal's: the bids as played total 0, and the
    scores are those of the play after them."""
    report = check_text(RECORD)
    assert report.errors == [] and [d.code for d in report.diagnostics] == ["T020"]
    t, _ = parse_transcript(RECORD)
    assert t is not None
    bids = [e.number for e in t.deals()[0] if e.kind == "bid"]
    assert bids == [0, 0, 0, 0]
    notes = t.annotations()
    assert [(e.kind, e.line, [x.line for x in back]) for _, e, back in notes] == [
        ("hint", 12, []), ("undo", 17, [13, 14, 15, 16])]
    assert notes[0][1].hinted == Bid(0)


@pytest.mark.parametrize(("undo", "message"), [
    ("Anna undo 5", "Anna's 'undo 5' takes back more action lines than deal 1 holds before it (4): it takes "
                    "nothing back"),
    ("Anna undo 3", "Anna's 'undo 3' would take back a line of another player first: it takes nothing back"),
])
def test_an_undo_that_does_not_fit_takes_nothing_back(undo: str, message: str) -> None:
    report = check_text(RECORD.replace("Anna undo 4", undo))
    first = report.errors[0]
    assert (first.code, first.line, first.col, first.message) == ("T022", 17, 1, message)


@pytest.mark.parametrize(("line", "code"), [("Anna undo 0", "T002"), ("Anna hint QS", "T002"),
                                            ("Anna hint play ZZ", "T003")])
def test_bad_annotation_lines(line: str, code: str) -> None:
    report = check_text(RECORD.replace("Anna hint bid 0", line))
    assert [d.code for d in report.errors][:1] == [code]


def test_the_lines_are_written_back_and_kept_in_the_json_form() -> None:
    t, _ = parse_transcript(RECORD)
    assert t is not None
    assert format_transcript(t) == RECORD
    data = transcript_to_json(t)
    assert {"kind": "hint", "line": 12, "player": "Anna", "action": "bid 0"} in data["events"]  # type: ignore[operator]
    back, diags = transcript_from_json(json.loads(json.dumps(data)))
    assert diags == [] and back is not None and format_transcript(back) == RECORD


def test_the_page_lists_them(tmp_path: Path) -> None:
    path = tmp_path / "g.log"
    path.write_text(RECORD)
    out = tmp_path / "g.html"
    assert RUNNER.invoke(app, ["view", str(path), "-o", str(out)]).exit_code == 0
    html = out.read_text()
    assert '<li class="annotation">deal 1, Anna was shown: bid 0</li>' in html
    assert ('<li class="annotation">deal 1, Anna took back: Anna bid 1, Boris bid 0, Vera bid 0, Gleb bid 1</li>'
            in html)


# -- the session -----------------------------------------------------------------------------

def test_the_hint_is_the_search_bots_choice_from_the_seats_view() -> None:
    session = _session()
    session.deal_if_needed()
    view = session.game.view(0)
    hint = session.hint()
    rng = random.Random(bot_seed(4, 0, 0) + ":hint")
    expected = SearchBot(rng, DEFAULT_LEVEL, bidder=HeuristicBot(rng)).evaluate(view)
    assert hint.action == expected.best and hint.seat == 0
    assert hint.value == expected.of(expected.best).value  # type: ignore[union-attr]
    assert session.hint() == hint  # the same position, the same seed: the same hint


def test_undo_restores_the_position_and_the_bots_play_on() -> None:
    session = _session()
    session.deal_if_needed()
    before = session.game.view(0)
    session.apply(Bid(0))
    while session.game.to_act != 0 and not session.game.is_over:
        session.apply(session.bot_action())
    assert session.can_undo(0) is None
    taken = session.take_back(0)
    assert taken == 4 and session.actions == 0
    after = session.game.view(0)
    assert (after.hand, after.legal, after.bids, after.phase, after.trump, after.turned) == \
        (before.hand, before.legal, before.bids, before.phase, before.trump, before.turned)
    assert session.can_undo(0) == "there is no decision of yours to take back"
    session.apply(Bid(1))
    assert session.game.bids[0] == 1


def test_the_switches_refuse_them() -> None:
    session = _session()
    session.deal_if_needed()
    session.hints = session.undo = False
    with pytest.raises(PermissionError, match="hints are off at this table"):
        session.hint()
    session.apply(Bid(0))
    assert session.can_undo(0) == "undo is off at this table"


def test_only_a_decision_of_the_deal_being_played_is_taken_back() -> None:
    session = _session()
    session.deal_if_needed()
    while session.game.deal_index == 0:
        seat = session.game.to_act
        session.apply(session.game.legal_actions()[0] if seat == 0 else session.bot_action())
    while session.game.to_act != 0:
        session.apply(session.bot_action())
    assert session.can_undo(0) == ("your last decision was in a deal that is over: only one of this deal can be "
                                   "taken back")


# -- updown play -----------------------------------------------------------------------------

def test_play_hint_twice_and_undo_and_the_record_checks(tmp_path: Path) -> None:
    save = tmp_path / "g.log"
    result = RUNNER.invoke(app, ["play", "--variant", "oh-hell", "--seed", "4", "--save", str(save)],
                           input="hint\n?\n?\n0\nundo\n1\nquit\n", env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    session = _session()
    session.deal_if_needed()
    told = session.hint()
    assert f"» the search bot would play {told.action.tricks}: about" in result.output  # type: ignore[attr-defined]
    assert "↶ taken back: your last decision and 3 after it" in result.output
    text = save.read_text()
    assert text.count(f"You hint bid {told.action.tricks}\n") == 2  # type: ignore[attr-defined]
    assert "\nYou bid 0\n" in text and "\nYou undo 4\nYou bid 1\n" in text
    report = check_text(text)
    assert report.errors == []
    resumed = RUNNER.invoke(app, ["play", "--resume", str(save)], input="quit\n", env={"COLUMNS": "100"})
    assert resumed.exit_code == 0, resumed.output


def test_play_without_hints_or_undo(tmp_path: Path) -> None:
    result = RUNNER.invoke(app, ["play", "--variant", "oh-hell", "--seed", "4", "--no-hints", "--no-undo"],
                           input="hint\n0\nundo\nquit\n", env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert "✗ hints are off at this table" in result.output
    assert "✗ undo is off at this table" in result.output
