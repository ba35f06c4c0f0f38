"""The table's events (:mod:`updown_dsl.records.tableevents`): ``late``, ``leave``, ``out``,
``adjust`` and ``schedule`` lines read, written, in the JSON form, kept by ``convert``, shown
by ``sheet`` and ``view``, held to the rules by ``check``; kept with ``updown keep``."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

import updown_dsl as ud
from updown_dsl.cli import app
from updown_dsl.players.keeper import Keeper, KeepError
from updown_dsl.records.checker import check_text
from updown_dsl.records.jsonform import transcript_from_json, transcript_to_json
from updown_dsl.records.transcript import format_transcript, parse_transcript

from clikit import make_runner
from keepkit import NAMES, kept_game

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"

HEAD = "variant: odessa\nplayers: Anna Boris Vera Gleb\nfirst-dealer: Gleb\nlevel: sheet\n\n"


def untimed(text: str) -> str:
    """A kept record without its date line and the times of its corrections."""
    return re.sub(r" on \S+", "", text.split("\nwriter:")[1])


def codes(text: str) -> list[str]:
    return [d.code for d in check_text(text, "game.log").diagnostics if d.code != "T020"]


# ---------------------------------------------------------------------------- reading and writing


def test_every_table_line_reads_and_is_written_back_the_same() -> None:
    text = HEAD + ("deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 1 0 -10 -10 | - - - -\n"
                   "out Gleb  # at the bar\n"
                   "leave Vera\n"
                   "late Boris\n"
                   "adjust Anna -50 reason left the table for a call\n"
                   "adjust Gleb +20 reason a mistake of the dealer's\n"
                   "schedule cards 3\n")
    t, diags = parse_transcript(text)
    assert t is not None and not diags
    kinds = [(e.kind, e.actor, e.number, e.size, e.text) for e in t.events if e.kind not in ("deal", "trump", "bid",
                                                                                             "took", "score", "total")]
    assert kinds == [("out", 3, None, None, ""), ("leave", 2, None, None, ""), ("late", 1, None, None, ""),
                     ("adjust", 0, -50, None, "left the table for a call"),
                     ("adjust", 3, 20, None, "a mistake of the dealer's"), ("schedule", None, None, 3, "")]
    assert format_transcript(t) == text
    back, problems = transcript_from_json(transcript_to_json(t))
    assert back is not None and not problems and format_transcript(back) == text


@pytest.mark.parametrize("line, code, col", [
    ("out", "T002", 1), ("out Gleb Vera", "T002", 1), ("late Zoe", "T005", 6),
    ("adjust Gleb -50", "T002", 1), ("adjust Gleb fifty reason late", "T004", 13),
    ("adjust Gleb -50 because late", "T002", 1), ("schedule 5", "T002", 1), ("schedule cards five", "T004", 16),
])
def test_a_table_line_that_cannot_be_read_is_kept_and_pointed_at(line: str, code: str, col: int) -> None:
    text = HEAD + "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 1 0 -10 -10 | 0 0 5 5\n" + line + "\n"
    t, diags = parse_transcript(text)
    assert [(d.code, d.line, d.col) for d in diags] == [(code, 7, col)]
    assert t is not None and format_transcript(t) == text  # nothing the user wrote is lost


def test_convert_keeps_the_table_lines_at_every_level(tmp_path: Path) -> None:
    runner = make_runner()
    src = GOLDEN / "georgian" / "table-late.log"
    long = tmp_path / "long.log"
    assert runner.invoke(app, ["convert", str(src), "--long", "-o", str(long)]).exit_code == 0
    assert "\nlate Gleb\n" in long.read_text() and "\nout Gleb\n" in long.read_text()
    back = runner.invoke(app, ["convert", str(long), "--compact"])
    assert back.exit_code == 0
    assert back.stdout.split("\n\n", 1)[1] == src.read_text().split("\n\n", 1)[1]
    as_json = tmp_path / "g.json"
    assert runner.invoke(app, ["convert", str(src), "--to", "json", "-o", str(as_json)]).exit_code == 0
    assert runner.invoke(app, ["check", str(as_json)]).exit_code == 0
    assert runner.invoke(app, ["check", str(long)]).exit_code == 0


def test_the_long_form_of_a_record_with_table_lines_checks_the_same() -> None:
    t, _ = parse_transcript((GOLDEN / "odessa" / "table-adjust.log").read_text())
    assert t is not None
    from updown_dsl.records.compact import long_events
    from updown_dsl.records.model import Transcript

    long = format_transcript(Transcript(t.headers, t.players, tuple(long_events(t.events))))
    report = check_text(long, "g.log")
    assert report.clean and report.game is not None
    assert report.game.totals == tuple(int(x) for x in long.split("settlement ")[1].split()[1::2])


def test_sheet_and_view_show_who_sat_out_and_the_adjustments(tmp_path: Path) -> None:
    runner = make_runner()
    late = runner.invoke(app, ["sheet", str(GOLDEN / "georgian" / "table-late.log")])
    assert late.exit_code == 0
    assert "1: sitting out: Gleb" in late.stdout and "3: Gleb arrives" in late.stdout
    assert " out " in late.stdout
    adjust = runner.invoke(app, ["sheet", str(GOLDEN / "odessa" / "table-adjust.log")])
    assert "5: Gleb -20: left the table for ten minutes" in adjust.stdout
    page = tmp_path / "late.html"
    assert runner.invoke(app, ["view", str(GOLDEN / "odessa" / "table-schedule.log"), "-o", str(page)]).exit_code == 0
    html = page.read_text()
    assert "10: played with 3 cards each" in html


# ---------------------------------------------------------------------------- the check


def _row_game(*rows: str) -> str:
    return HEAD + "".join(r + "\n" for r in rows)


def test_a_player_out_scores_nothing_and_the_others_are_held_to_the_rules() -> None:
    # Deal 1 (1 card), Gleb deals and sits out: Anna, Boris, Vera bid; Vera bids last (the hook).
    clean = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 1 0 -10 -10 | - - - 0"
    assert codes(_row_game(clean, "out Gleb")) == []
    hooked = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 0 0 5 5 | -"
    assert codes(_row_game(hooked, "out Gleb")) == ["R021"]
    tricks = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 1 -5 -5 | 1 0 -10 -10 | -"
    assert codes(_row_game(tricks, "out Gleb")) == ["R053"]
    score = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 6 6 | 1 0 -10 -10 | -"
    assert codes(_row_game(score, "out Gleb")) == ["R050"]
    total = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 1 0 -10 -10 | - - - 5"
    assert codes(_row_game(total, "out Gleb")) == ["R051"]
    no_bid = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | - 0 | 1 0 -10 -10 | -"
    assert codes(_row_game(no_bid, "out Gleb")) == ["R001"]


def test_a_total_after_a_short_deal_must_count_its_points() -> None:
    d1 = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 1 0 -10 -10 | 0 0 5 5 | 1 0 -10 -10"
    d2 = "deal 2 cards 2 dealer Anna trump S | 0 1 1 11 | 0 0 5 -5 | 1 1 10 15 | - - - -10"
    d3 = "deal 3 cards 3 dealer Boris trump C | 0 1 1 12 | 1 1 10 5 | 0 1 1 16 | 0 0 5 -5"
    assert codes(_row_game(d1, d2, "out Gleb", d3)) == []
    forgot = d3.replace("0 1 1 12", "0 1 1 11")  # Anna's total without deal 2's point
    assert codes(_row_game(d1, d2, "out Gleb", forgot)) == ["R051"]


def test_late_and_leave_say_who_plays_which_deals() -> None:
    d1 = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 1 0 -10 -10 | -"
    d2 = "deal 2 cards 2 dealer Anna trump S | 1 1 10 20 | 0 0 5 10 | 0 1 1 -9 | 0 0 5 5"
    assert codes(_row_game(d1, d2, "late Gleb")) == []  # Gleb sat deal 1 out: no 'out' line needed
    assert codes(_row_game(d1, "late Gleb", d2)) == ["R001"]  # he came for deal 1: his bid is missing
    assert codes(_row_game(d1, "out Gleb", "late Gleb", d2)) == ["R057"]  # he came for deal 1 and sat it out
    assert codes(_row_game(d1, "out Gleb", d2, "late Gleb", "late Gleb")) == ["R057"]  # arrives twice
    all4 = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 1 0 -10 -10 | 0 0 5 5 | 1 0 -10 -10"
    gone = "deal 2 cards 2 dealer Anna trump S | 0 1 1 11 | 0 0 5 -5 | 1 1 10 15 | - - - -10"
    assert codes(_row_game(all4, gone, "leave Gleb")) == []
    assert codes(_row_game(all4, gone.replace("| - - - -10", "| 0 0"), "leave Gleb")) == ["R057", "R057"]
    assert codes(_row_game(all4, gone, "leave Gleb", "leave Gleb")) == ["R057"]


def test_an_adjustment_counts_in_the_total_of_its_deal() -> None:
    d1 = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 1 0 -10 -10 | 0 0 5 5 | 1 0 -10 -10"
    assert codes(_row_game(d1.replace("-10 -10", "-10 -30", 2).replace("-10 -30", "-10 -10", 1),
                           "adjust Gleb -20 reason late")) == []
    assert codes(_row_game(d1, "adjust Gleb -20 reason late")) == ["R051"]
    assert codes(_row_game(d1, "adjust Gleb 0 reason nothing")) == ["R057"]


def test_a_changed_schedule_holds_the_deal_to_its_new_size() -> None:
    d1 = "deal 1 cards 2 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 1 0 -10 -10 | 1 1 10 10"
    assert codes(_row_game(d1, "schedule cards 2")) == []
    assert codes(_row_game(d1.replace("cards 2", "cards 1"), "schedule cards 2")) == ["R041"]
    assert codes(_row_game(d1.replace("| 1 1 10 10 | 0 0", "| 3 1 10 10 | 0 0"), "schedule cards 2")) == ["R020"]
    too_many = d1.replace("cards 2", "cards 10")
    assert codes(_row_game(too_many, "schedule cards 10")) == ["R058"]
    assert codes(_row_game(d1, "schedule cards 2", "schedule cards 2")) == ["R058"]


def test_a_deal_needs_two_players() -> None:
    d1 = "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | - | - | -"
    assert "R057" in codes(_row_game(d1, "out Boris", "out Vera", "out Gleb"))


def test_a_record_that_stops_in_a_short_deal_is_unfinished_not_wrong() -> None:
    text = _row_game("deal 1 cards 1 dealer Gleb trump H | 1 | 0 | - | -", "out Gleb")
    assert [d.code for d in check_text(text, "g.log").diagnostics] == ["T020"]


def test_the_messages_are_in_russian_too() -> None:
    from updown_dsl import i18n

    text = (GOLDEN / "georgian" / "table-late-broken.log").read_text()
    try:
        i18n.set_language("ru")
        message = check_text(text, "g.log").diagnostics[0].message
    finally:
        i18n.set_language(None)
    assert message.startswith("Gleb пропускает сдачу 2")


# ---------------------------------------------------------------------------- the keeper


def keeper(variant: str = "odessa") -> Keeper:
    return Keeper(ud.load_variant(variant), NAMES, label=variant)  # type: ignore[arg-type]


def test_a_late_player_sits_out_until_joining_and_the_sheet_resumes() -> None:
    lines, k = kept_game("odessa", 2, {1: ["late Gleb"], 3: ["join Gleb"]}, stop=4)
    assert [d.out for d in k.deals] == [frozenset({3}), frozenset({3}), frozenset(), frozenset()]
    text = format_transcript(k.transcript())
    assert "out Gleb" in text and "late Gleb" in text
    t, _ = parse_transcript(text)
    assert t is not None
    again = Keeper.from_transcript(t, k.variant)
    assert format_transcript(again.transcript()) == text
    assert check_text(text, "g.log").clean


def test_a_player_still_waiting_is_still_late_after_a_resume() -> None:
    _, k = kept_game("odessa", 2, {1: ["late Gleb"]}, stop=2)
    t, _ = parse_transcript(format_transcript(k.transcript()))
    assert t is not None
    again = Keeper.from_transcript(t, k.variant)
    assert again.waiting == {3} and again.current.out == {3}
    again.join(3)
    assert again.current.out == frozenset()


def test_the_keeper_refuses_a_table_change_after_the_first_bid() -> None:
    k = keeper()
    k.give_trump(None)
    k.give_bid(1)
    with pytest.raises(KeepError) as exc:
        k.sit_out(3)
    assert exc.value.diagnostic.code == "R057"
    with pytest.raises(KeepError):
        k.join(3)  # not waiting
    with pytest.raises(KeepError) as exc:
        k.adjust(3, 0, "nothing")
    assert exc.value.diagnostic.code == "R057"


def test_the_keeper_refuses_more_cards_than_the_pack_holds() -> None:
    k = keeper()
    with pytest.raises(KeepError) as exc:
        k.schedule(10)
    assert exc.value.diagnostic.code == "R058"
    k.schedule(3)
    assert k.cards() == 3 and k.step().deal.cards == 3


def test_a_deal_short_of_a_player_asks_only_the_players_who_play() -> None:
    k = keeper()
    k.sit_out(0)
    k.give_trump(None)
    step = k.step()
    assert step.order == (1, 2, 3) and step.seat == 1
    k.give_bids([0, 0])
    step = k.step()
    assert step.seat == 3 and step.forbidden == 1 and 1 not in step.choices
    with pytest.raises(KeepError) as exc:
        k.give_bid(1)
    assert exc.value.diagnostic.code == "R021"
    k.give_bid(0)
    with pytest.raises(KeepError) as exc:
        k.give_tricks([0, 1, 1, 0])
    assert exc.value.diagnostic.code == "R053"
    k.give_tricks([0, 0, 1, 0])
    assert k.totals == (0, 5, 1, 5)


# ---------------------------------------------------------------------------- the Done-when, at the terminal


EVENTS = {1: ["late Gleb"], 3: ["join Gleb"], 6: ["edit 4 swap"]}


@pytest.mark.parametrize("variant, deals", [("georgian", 24), ("odessa", 15)])
def test_keep_a_whole_game_with_a_late_arrival_and_a_correction(tmp_path: Path, variant: str, deals: int) -> None:
    lines, k = kept_game(variant, 3, EVENTS)
    save = tmp_path / "game.log"
    runner = make_runner()
    result = runner.invoke(app, ["keep", "--variant", variant, "--players", " ".join(NAMES), "--save", str(save)],
                           input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "The game is over" in result.output
    assert "sitting out: Gleb" in result.output
    text = save.read_text(encoding="utf-8")
    assert untimed(text) == untimed(format_transcript(k.transcript()))
    assert len([x for x in text.splitlines() if x.startswith("deal ")]) == deals
    assert "\nlate Gleb\n" in text and "\ncorrection " in text and "level: sheet" in text
    check = runner.invoke(app, ["check", str(save)])
    assert check.exit_code == 0, check.output
    assert "1 clean" in check.stdout


@pytest.mark.parametrize("variant", ["georgian", "odessa"])
def test_the_same_with_a_wrong_trick_count_is_refused_on_the_spot(tmp_path: Path, variant: str) -> None:
    lines, k = kept_game(variant, 3, EVENTS)
    # the tricks of deal 1 (Gleb out) given with one trick too many, then right
    first = next(i for i, x in enumerate(lines) if len(x.split()) == 3 and i > 3)
    wrong = lines[first].split()
    wrong[0] = str(int(wrong[0]) + 1)
    typed = lines[:first] + [" ".join(wrong)] + lines[first:]
    save = tmp_path / "game.log"
    result = make_runner().invoke(app, ["keep", "-v", variant, "-p", " ".join(NAMES), "--save", str(save)],
                                  input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "error[R053] tricks taken" in result.output and "do not add up to the 1 cards of deal 1" in result.output
    assert "The game is over" in result.output
    assert make_runner().invoke(app, ["check", str(save)]).exit_code == 0


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals here")
def test_keep_a_georgian_game_with_a_late_arrival_in_a_pseudo_terminal(tmp_path: Path) -> None:
    """The Done-when at a real terminal: 24 deals, Gleb late, deal 4 corrected at deal 6, one
    wrong trick count refused with its rule; the saved sheet checks clean."""
    import pty  # noqa: F401 - POSIX only

    lines, k = kept_game("georgian", 3, EVENTS)
    first = next(i for i, x in enumerate(lines) if len(x.split()) == 3 and i > 3)
    wrong = lines[first].split()
    wrong[0] = str(int(wrong[0]) + 1)
    typed = lines[:first] + [" ".join(wrong)] + lines[first:]
    save = tmp_path / "pty.log"
    master, slave = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "80", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "updown_dsl", "keep", "-v", "georgian", "-p",
                             "Anna Boris Vera Gleb", "--save", str(save)],
                            stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path)
    os.close(slave)
    out = b""

    def read_until(done: "Callable[[bytes], bool]") -> None:
        nonlocal out
        while not done(out):
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, out.decode(errors="replace")[-2000:]
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk

    try:
        for i, answer in enumerate(typed):  # each line typed answers one prompt ("…> ")
            read_until(lambda seen: seen.count(b"> ") > i)
            os.write(master, answer.encode() + b"\n")
        read_until(lambda seen: b"updown check" in seen)
    finally:
        proc.wait(timeout=120)
        os.close(master)
    text = out.decode(errors="replace")
    assert proc.returncode == 0
    assert "error[R053]" in text and "sitting out: Gleb" in text and "The game is over" in text
    saved = save.read_text()
    assert untimed(saved) == untimed(format_transcript(k.transcript()))
    assert check_text(saved, str(save)).clean


def test_the_example_of_the_transcript_format_checks_clean_and_shows_its_events() -> None:
    doc = (ROOT / "docs" / "transcript-format.md").read_text(encoding="utf-8")
    part = doc.split("### The table's events", 1)[1]
    text = part.split("```text\n", 1)[1].split("```", 1)[0]
    report = check_text(text, "table.log")
    assert [d.code for d in report.diagnostics] == ["T020"]  # six deals of fifteen: unfinished
    sheet = make_runner().invoke(app, ["sheet", "-"], input=text)
    assert sheet.exit_code == 0, sheet.output
    for note in ("1: sitting out: Gleb", "3: Gleb arrives", "5: Vera -10: left for a call",
                 "6: played with 4 cards each", "4: sitting out: Boris"):
        assert note in sheet.stdout
    assert note_in_doc(part, "1: sitting out: Gleb")


def note_in_doc(part: str, note: str) -> bool:
    return f"`{note}`" in part


def test_a_shared_sheet_keeps_the_table_lines() -> None:
    from updown_dsl.players.share import read_share, share_string

    _, k = kept_game("georgian", 3, EVENTS)
    shared = share_string(k)
    again = read_share(shared, lambda label: ud.load_variant(label))  # type: ignore[arg-type,return-value]
    assert format_transcript(again.transcript()) == format_transcript(k.transcript())
    assert len(shared) <= 600


def test_a_csv_sheet_cannot_hold_the_table_lines_and_says_so() -> None:
    result = make_runner().invoke(app, ["share", "--csv", str(GOLDEN / "odessa" / "table-out.log")])
    assert result.exit_code == 3 and result.stdout == ""
    assert "the table's events" in result.stderr


FULL = (ROOT / "docs" / "examples" / "odessa-full.log").read_text(encoding="utf-8")


def test_an_adjustment_in_a_full_record_leaves_its_cards_checked() -> None:
    lines = FULL.splitlines()
    at = lines.index("total Anna 1 Boris 5 Vera -10 Gleb -10")
    adjusted = lines[:at] + ["total Anna -9 Boris 5 Vera -10 Gleb -10", "adjust Anna -10 reason slow play"] + lines[at + 1:]
    report = check_text("\n".join(adjusted) + "\n", "full.log")
    # deal 1 counts it; deal 2's total, written without it, is wrong once (and carried on after)
    second_total = next(i for i, x in enumerate(adjusted, 1) if x.startswith("total") and i > at + 2)
    assert [(d.code, d.line) for d in report.diagnostics] == [("R051", second_total)]


def test_a_full_record_with_a_deal_sat_out_checks_its_numbers_and_says_its_cards_are_not() -> None:
    deal1 = """deal 1 cards 1 dealer Gleb
out Gleb
hand Anna QH
hand Boris 9H
hand Vera QS
turned 7H
Anna bid 0
Boris bid 0
Vera bid 0
Anna play QH
Boris play 9H
Vera play QS
Anna took 1
Boris took 0
Vera took 0
score Anna 1 Boris 5 Vera 5
total Anna 1 Boris 5 Vera 5 Gleb 0
"""
    text = FULL.split("\n\n")[0] + "\n\n" + deal1
    report = check_text(text, "full.log")
    assert [(d.code, d.severity.value) for d in report.diagnostics] == [("T021", "note"), ("T020", "note")]
    wrong = check_text(text.replace("score Anna 1", "score Anna 10"), "full.log")
    assert [d.code for d in wrong.diagnostics] == ["T021", "R050", "T020"]


def test_an_adjustment_beyond_a_billion_points_is_not_read() -> None:
    text = HEAD + "deal 1 cards 1 dealer Gleb trump H | 1 1 10 10 | 0 0 5 5 | 1 0 -10 -10 | 0 0 5 5\n" \
        "adjust Gleb 1000000001 reason overflow\n"
    _, diags = parse_transcript(text)
    assert [(d.code, d.col) for d in diags] == [("T004", 13)]
    with pytest.raises(KeepError):
        keeper().adjust(3, 10**12, "overflow")


def test_the_table_commands_in_russian(tmp_path: Path) -> None:
    from updown_dsl import i18n

    try:
        r = make_runner().invoke(app, ["keep", "-v", "odessa", "-p", "Anna Boris Vera Gleb", "--lang", "ru",
                                       "--save", str(tmp_path / "g.log")], input="out Gleb\nч\n1\n0\n0\n")
    finally:
        i18n.set_language(None)
    assert r.exit_code == 0
    assert "Сдача 1 · карт каждому: 1 · порядок заказов: Anna Boris Vera · пропускают: Gleb" in r.output
    assert "error[R021]" in r.output  # Vera, last of the three, may not make the bids total 1
