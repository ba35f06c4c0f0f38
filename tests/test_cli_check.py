"""Tests for ``updown check``, ``updown sheet`` and ``updown convert`` (updown_dsl.cli) and the
renderers they use (updown_dsl.cli.report).

Every record is a game the engine played (seeded random legal actions), written by
``updown_dsl.records.record.game_transcript``; the broken ones are those records with one line changed.
"""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
import os
from pathlib import Path

import pytest

import updown_dsl
from clikit import make_runner
from updown_dsl import bundled_names
from updown_dsl.actions import Play
from updown_dsl.cli import app
from updown_dsl.engine import Phase
from updown_dsl.records.record import game_transcript
from updown_dsl.cli.report import check_summary
from updown_dsl.cli.rules import deal_mark
from updown_dsl.cli.sheet import sheet_cell, sheet_rows, sheet_summary, trump_mark
from updown_dsl.records.transcript import format_transcript

LEVELS = ("full", "plays", "sheet")




RUNNER = make_runner()


def run(*args: str, input: str | bytes | None = None):
    result = RUNNER.invoke(app, list(args), input=input, env={"COLUMNS": "100"})
    # never a traceback, whatever the input
    assert "Traceback" not in result.stdout
    assert "Traceback" not in result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def run_json(*args: str, code: int = 0, input: str | bytes | None = None):
    result = run(*args, "--json", input=input)
    assert result.exit_code == code, result.stdout + result.stderr
    return json.loads(result.stdout)  # nothing but JSON on stdout


# --------------------------------------------------------------------------- games


@lru_cache(maxsize=None)
def played(name: str, seed: int = 1, stop: int | None = None) -> updown_dsl.Game:
    """A game of ``name`` played with seeded random legal actions (``stop``: after so many)."""
    variant = updown_dsl.load_variant(name)
    game = updown_dsl.Game(variant, variant.default_players, seed=seed)
    rng = random.Random(seed)
    done = 0
    while not game.is_over and (stop is None or done < stop):
        game.apply(rng.choice(game.legal_actions()))
        done += 1
    return game


@lru_cache(maxsize=None)
def record(name: str, level: str = "full", seed: int = 1, stop: int | None = None) -> str:
    return format_transcript(game_transcript(played(name, seed, stop), level=level, variant=name))


def write(folder: Path, name: str, text: str | bytes) -> str:
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def joined(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def blocks(lines: list[str]) -> list[list[int]]:
    """Indices (0-based) of the lines of each deal block."""
    out: list[list[int]] = []
    for i, line in enumerate(lines):
        if line.startswith("deal "):
            out.append([i])
        elif out and line:
            out[-1].append(i)
    return out


def corrupt_score(text: str) -> tuple[str, int]:
    """The record with p1's score in deal 3 raised by 7, and that line's number."""
    lines = lines_of(text)
    block = blocks(lines)[2]
    i = next(i for i in block if lines[i].startswith("score "))
    lines[i] = re.sub(r"\bp1 (-?\d+)", lambda m: f"p1 {int(m.group(1)) + 7}", lines[i], count=1)
    return joined(lines), i + 1


def swap_plays(text: str, deal: int, first: int) -> tuple[str, int]:
    """The record with plays ``first`` and ``first + 1`` of a deal swapped; the first line's number."""
    lines = lines_of(text)
    plays = [i for i in blocks(lines)[deal - 1] if " play " in lines[i]]
    a, b = plays[first], plays[first + 1]
    lines[a], lines[b] = lines[b], lines[a]
    return joined(lines), a + 1


def break_hook(text: str) -> tuple[str, int]:
    """The record with the last bid of the first deal of 2+ cards changed so that the bids
    total the hand size; that line's number."""
    lines = lines_of(text)
    for block in blocks(lines):
        cards = int(lines[block[0]].split()[3])
        bids = [i for i in block if " bid " in lines[i]]
        others = sum(int(lines[i].split()[2]) for i in bids[:-1])
        if cards >= 2 and 0 <= cards - others <= cards:
            who = lines[bids[-1]].split()[0]
            lines[bids[-1]] = f"{who} bid {cards - others}"
            return joined(lines), bids[-1] + 1
    raise AssertionError("no deal to break")  # pragma: no cover


def revoke_record(name: str = "georgian", seed: int = 5, at_deal: int = 3) -> tuple[str, updown_dsl.Game]:
    """A full record with a revoke at the table: the illegal card, the penalty, the deal replayed."""
    variant = updown_dsl.load_variant(name)
    game = updown_dsl.Game(variant, variant.default_players, seed=seed)
    rng = random.Random(seed)
    revoked = False
    while not game.is_over:
        if not revoked and game.phase is Phase.PLAY and game.deal.number >= at_deal and game.trick:
            seat = game.to_act
            bad = [c for c in game.hand(seat)
                   if (p := game.check(Play(c))) is not None and p.code in variant.revoke.covers]
            if bad:
                game.revoke(seat, game.check(Play(bad[0])).code, Play(bad[0]))
                revoked = True
                continue
        game.apply(rng.choice(game.legal_actions()))
    assert revoked
    return format_transcript(game_transcript(game, variant=name)), game


# --------------------------------------------------------------------------- check: clean records


@pytest.mark.parametrize("name", bundled_names())
def test_check_clean_every_variant_every_level(tmp_path, name):
    files = [write(tmp_path, f"{name}-{level}.log", record(name, level)) for level in LEVELS]
    r = run("check", *files)
    assert r.exit_code == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "3 files, 3 games: 3 clean"
    assert r.stderr == ""
    data = run_json("check", *files)
    assert data["diagnostics"] == [] and data["summary"]["verdict"] == "clean"
    assert [g["verdict"] for g in data["games"]] == ["clean"] * 3


def test_check_json_record_is_checked_too(tmp_path):
    log = write(tmp_path, "g.log", record("odessa"))
    converted = run("convert", log, "--to", "json")
    assert converted.exit_code == 0
    f = write(tmp_path, "g.json", converted.stdout)
    r = run("check", f)
    assert r.exit_code == 0
    assert "1 file, 1 game: 1 clean" in r.stdout


# --------------------------------------------------------------------------- check: broken records


def only_error(data: list[dict], code: str) -> dict:
    errors = [d for d in data if d["severity"] == "error"]
    assert [d["code"] for d in errors] == [code], errors
    return errors[0]


def test_check_wrong_score_r050(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text, line = corrupt_score(record("georgian"))
    write(tmp_path, "bad.log", text)
    r = run("check", "bad.log")
    assert r.exit_code == 1
    col = len("score p1 ") + 1  # the caret is on p1's number, the one that is wrong
    assert f"bad.log:{line}:{col}: error[R050] p1 scores " in r.stdout
    assert f"{line} | {lines_of(text)[line - 1]}" in r.stdout  # the source line
    assert re.search(r"(?m)^\s+\| {%d}\^+$" % col, r.stdout)  # and the caret under the number
    assert r.stdout.strip().splitlines()[-1] == "1 file, 1 game: 0 clean, 1 with 1 error"
    d = only_error(run_json("check", "bad.log", code=1)["diagnostics"], "R050")
    assert (d["path"], d["line"], d["col"], d["severity"]) == ("bad.log", line, col, "error")
    assert {"path", "line", "col", "code", "severity", "message"} <= set(d)


@pytest.mark.parametrize("level", ["full", "plays"])
def test_check_plays_out_of_turn_r001(tmp_path, monkeypatch, level):
    monkeypatch.chdir(tmp_path)
    # deal 2 has two cards each: its first two plays are the first trick's lead and answer
    text, line = swap_plays(record("georgian", level), deal=2, first=0)
    write(tmp_path, "swap.log", text)
    r = run("check", "swap.log")
    assert r.exit_code == 1
    assert f"swap.log:{line}:1: error[R001]" in r.stdout
    d = only_error(run_json("check", "swap.log", code=1)["diagnostics"], "R001")
    assert d["line"] == line


def test_check_wrong_leader_r003(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    players = len(played("georgian").totals)
    # the lead of the second trick of deal 2 and the card after it: the wrong player leads
    text, line = swap_plays(record("georgian"), deal=2, first=players)
    write(tmp_path, "swap.log", text)
    r = run("check", "swap.log")
    assert r.exit_code == 1
    assert f"swap.log:{line}:1: error[R003]" in r.stdout
    d = only_error(run_json("check", "swap.log", code=1)["diagnostics"], "R003")
    assert d["line"] == line


def test_check_hook_r021(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text, line = break_hook(record("georgian"))
    write(tmp_path, "hook.log", text)
    r = run("check", "hook.log")
    assert r.exit_code == 1
    col = text.splitlines()[line - 1].rindex(" ") + 2  # the caret points at the bid
    assert f"hook.log:{line}:{col}: error[R021]" in r.stdout
    assert "= hint:" in r.stdout
    d = only_error(run_json("check", "hook.log", code=1)["diagnostics"], "R021")
    assert (d["line"], d["col"]) == (line, col)


# --------------------------------------------------------------------------- check: unreadable


@pytest.mark.parametrize("data", [
    random.Random(0).randbytes(3000),
    b"[" + random.Random(1).randbytes(500),
    b"\x00\x01\x02 variant: odessa\n" * 40,
    b"",
], ids=["random", "bracket", "nul", "empty"])
def test_check_unreadable_exit_3_one_line(tmp_path, data):
    f = write(tmp_path, "noise.bin", data)
    r = run("check", f)
    assert r.exit_code == 3
    err = r.stderr.strip().splitlines()
    assert len(err) == 1, r.stderr
    assert "error[T001]" in err[0] and err[0].startswith(f"{f}:")
    assert r.stdout.strip() == "1 file, 0 games; 1 unreadable"
    data = run_json("check", f, code=3)
    assert [d["code"] for d in data["diagnostics"]] == ["T001"]
    assert data["files"] == [{"file": f, "verdict": "unreadable", "games": 0, "clean": 0, "with_errors": 0,
                              "unreadable": 1}]


def test_check_missing_file_and_directory_exit_3(tmp_path):
    r = run("check", str(tmp_path / "missing.log"), str(tmp_path))
    assert r.exit_code == 3
    assert r.stderr.count("error[T001]") == 2


def test_check_unknown_variant_exit_3(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "x.log", record("odessa").replace("variant: odessa", "variant: odesa"))
    r = run("check", "x.log")
    assert r.exit_code == 3
    assert "x.log:1:1: error[T010]" in r.stderr
    assert "1 unreadable" in r.stdout
    assert "T010" in [d["code"] for d in run_json("check", "x.log", code=3)["diagnostics"]]


def test_check_unreadable_wins_over_errors(tmp_path):
    bad = write(tmp_path, "bad.log", corrupt_score(record("odessa"))[0])
    noise = write(tmp_path, "noise.bin", random.Random(2).randbytes(100))
    good = write(tmp_path, "good.log", record("odessa", "sheet"))
    r = run("check", good, bad, noise)
    assert r.exit_code == 3
    assert "error[R050]" in r.stdout
    assert "error[T001]" in r.stderr
    assert r.stdout.strip().splitlines()[-1] == "3 files, 2 games: 1 clean, 1 with 1 error; 1 unreadable"


def test_check_needs_a_file():
    assert run("check").exit_code == 2


# --------------------------------------------------------------------------- check: many inputs


def test_check_glob_pattern_expanded(tmp_path):
    for i, name in enumerate(("odessa", "russian", "oh-hell")):
        write(tmp_path, f"g{i}.log", record(name, LEVELS[i]))
    write(tmp_path, "other.txt", "not looked at")
    extra = write(tmp_path, "extra.game", record("georgian", "sheet"))
    r = run("check", str(tmp_path / "*.log"), extra)
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "4 files, 4 games: 4 clean" in r.stdout
    r = run("check", str(tmp_path / "*.nothing"))
    assert r.exit_code == 3  # a pattern that matches nothing is a file that is not there


def test_check_archive_of_several_games(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    good = record("odessa", "sheet")
    bad, line = corrupt_score(record("georgian"))
    write(tmp_path, "archive.log", good + "\n" + bad)
    offset = len(lines_of(good)) + 1
    r = run("check", "archive.log")
    assert r.exit_code == 1
    assert r.stdout.strip().splitlines()[-1] == "1 file, 2 games: 1 clean, 1 with 1 error"
    # line numbers count from the top of the file
    assert f"archive.log:{line + offset}:10: error[R050]" in r.stdout  # at p1's number
    assert f"{line + offset} | {lines_of(bad)[line - 1]}" in r.stdout


def test_check_stdin(tmp_path):
    r = run("check", "-", input=record("odessa"))
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "1 file, 1 game: 1 clean" in r.stdout
    text, line = corrupt_score(record("odessa"))
    r = run("check", "-", input=text)
    assert r.exit_code == 1
    assert f"<stdin>:{line}:10: error[R050]" in r.stdout  # at p1's number
    assert f"{line} | {lines_of(text)[line - 1]}" in r.stdout  # the text is kept for the snippet
    d = only_error(run_json("check", "-", input=text, code=1)["diagnostics"], "R050")
    assert d["path"] == "<stdin>"
    r = run("check", "-", input=random.Random(3).randbytes(200))
    assert r.exit_code == 3
    # with files
    f = write(tmp_path, "g.log", record("russian", "plays"))
    r = run("check", f, "-", input=record("odessa", "sheet"))
    assert r.exit_code == 0
    assert "2 files, 2 games: 2 clean" in r.stdout


def test_check_unfinished_is_a_note(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "part.log", record("russian", "full", stop=60))
    r = run("check", "part.log")
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "note[T020]" in r.stdout
    assert r.stdout.strip().splitlines()[-1] == "1 file, 1 game: 1 clean; 1 unfinished"
    data = run_json("check", "part.log")
    assert "T020" in [d["code"] for d in data["diagnostics"]]
    assert {d["severity"] for d in data["diagnostics"]} == {"note"}
    assert data["games"][0]["verdict"] == "clean" and data["games"][0]["finished"] is False
    assert data["summary"]["unfinished"] == 1


def test_check_json_gives_a_verdict_for_every_game_and_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    bad, _ = corrupt_score(record("odessa"))
    write(tmp_path, "two.log", record("odessa") + "\n" + bad)
    write(tmp_path, "noise.log", b"\x00\x01\x02 not text")
    write(tmp_path, "good.log", record("georgian", "plays"))
    data = run_json("check", "two.log", "noise.log", "good.log", code=3)
    assert data["summary"] == {"verdict": "unreadable", "files": 3, "games": 3, "clean": 2, "with_errors": 1,
                               "errors": 1, "unfinished": 0, "unreadable": 1}
    assert [(f["file"], f["verdict"]) for f in data["files"]] == [
        ("two.log", "errors"), ("noise.log", "unreadable"), ("good.log", "clean")]
    assert [(g["file"], g["game"], g["verdict"], g["errors"]) for g in data["games"]] == [
        ("two.log", 1, "clean", 0), ("two.log", 2, "errors", 1), ("noise.log", 1, "unreadable", 1),
        ("good.log", 1, "clean", 0)]
    assert data["games"][1]["diagnostics"][0]["code"] == "R050"
    assert data["diagnostics"] == [d for g in data["games"] for d in g["diagnostics"]]


# --------------------------------------------------------------------------- sheet


def test_sheet_georgian_json(tmp_path):
    game = played("georgian")
    f = write(tmp_path, "g.log", record("georgian"))
    data = run_json("sheet", f)
    rows = data["rows"]
    assert [r["kind"] for r in rows] == ["deal"] * 24
    assert [r["deal"] for r in rows] == list(range(1, 25))
    assert [r["cards"] for r in rows] == list(range(1, 9)) + [9] * 4 + list(range(8, 0, -1)) + [9] * 4
    assert all(r["trump"] in ("♠", "♥", "♦", "♣", "NT") for r in rows)
    last = [s["total"] for s in rows[-1]["seats"]]
    assert last == list(game.totals)
    assert list(data["totals"].values()) == list(game.totals)
    assert list(data["settlement"].values()) == game.settlement()
    assert data["winners"] == [data["players"][s] for s in game.winners()]
    assert data["finished"] is True and data["diagnostics"] == []
    # the points are the engine's: the same as the record's score lines
    r0 = game.results[0]
    assert [s["points"] for s in rows[0]["seats"]] == [x.points for x in r0.seats]
    assert [s["bid"] for s in rows[0]["seats"]] == [x.bid for x in r0.seats]


@pytest.mark.parametrize("level", LEVELS)
def test_sheet_georgian_text(tmp_path, level):
    game = played("georgian")
    f = write(tmp_path, "g.log", record("georgian", level))
    r = run("sheet", f)
    assert r.exit_code == 0, r.stdout + r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if re.match(r"^\s*\d+\s", line)]
    assert [int(row[0]) for row in rows] == list(range(1, 25))
    # each player's cell (bid/taken points [premium]) and then the running total
    last = " ".join(rows[-1])
    assert re.search(r"\s+".join(rf"\d+/\d+ -?\d+(?: [+-]\d+)? {t}" for t in game.totals) + "$", last), last
    assert "game over after deal 24" in r.stdout
    winners = ", ".join(f"p{s + 1}" for s in game.winners())
    assert ("winner: " if len(game.winners()) == 1 else "winners: ") + winners in r.stdout
    assert "…" not in r.stdout  # numbers are never cut short


def test_sheet_unfinished(tmp_path):
    game = played("odessa", 1, 50)
    f = write(tmp_path, "part.log", record("odessa", "full", stop=50))
    r = run("sheet", f)
    assert r.exit_code == 0
    last = max(x.deal.number for x in game.results)
    assert f"unfinished after deal {last} of 15" in r.stdout
    assert "note[T020]" in r.stdout
    data = run_json("sheet", f)
    assert data["finished"] is False and data["settlement"] is None and data["last_deal"] == last


def test_sheet_with_errors_prints_sheet_then_diagnostics(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text, line = break_hook(record("georgian"))
    write(tmp_path, "hook.log", text)
    r = run("sheet", "hook.log")
    assert r.exit_code == 1
    col = text.splitlines()[line - 1].rindex(" ") + 2
    assert r.stdout.index("game over") < r.stdout.index(f"hook.log:{line}:{col}: error[R021]")
    data = run_json("sheet", "hook.log", code=1)
    # the deal goes on with the bid as written (its cards are still checked) ...
    assert "abandoned" not in [row["kind"] for row in data["rows"]]
    assert [d["code"] for d in data["diagnostics"]] == ["R021"]
    # ... and the written score of the bid in question stands, so the totals agree with the record
    assert list(data["totals"].values()) == list(played("georgian").totals)


def test_sheet_revoke_row(tmp_path):
    text, game = revoke_record()
    f = write(tmp_path, "revoke.log", text)
    assert run("check", f).exit_code == 0
    data = run_json("sheet", f)
    revokes = [row for row in data["rows"] if row["kind"] == "revoke"]
    assert len(revokes) == 1
    assert sorted(s["penalty"] for s in revokes[0]["seats"])[0] == -50
    assert "replayed" in revokes[0]["note"]
    assert [s["total"] for s in data["rows"][-1]["seats"]] == list(game.totals)
    r = run("sheet", f)
    assert r.exit_code == 0
    assert "revoke" in r.stdout and "-50" in r.stdout


def test_sheet_cut_row(tmp_path):
    game = played("russian-cut", 0)
    assert "cut" in [x.event for x in game.results]
    f = write(tmp_path, "cut.log", record("russian-cut", "sheet", seed=0))
    data = run_json("sheet", f)
    cut = next(row for row in data["rows"] if row["kind"] == "cut")
    zeroed = [s for s in cut["seats"] if s["reset"]]
    assert len(zeroed) == 1 and zeroed[0]["total"] == 0
    assert "total set to 0" in cut["note"]
    assert [s["total"] for s in data["rows"][-1]["seats"]] == list(game.totals)
    assert "cut" in run("sheet", f).stdout


def test_sheet_choose_game_and_unreadable(tmp_path):
    f = write(tmp_path, "two.log", record("odessa", "sheet") + "\n" + record("russian", "sheet"))
    assert run_json("sheet", f, "--game", "2")["variant"] == "russian"
    assert run_json("sheet", f)["variant"] == "odessa"
    r = run("sheet", f, "--game", "3")
    assert r.exit_code == 2
    assert "2 games" in r.stderr
    noise = write(tmp_path, "noise.bin", random.Random(4).randbytes(300))
    r = run("sheet", noise)
    assert r.exit_code == 3
    assert "error[T001]" in r.stderr and r.stdout == ""
    assert run("sheet", "-", input=record("odessa", "plays")).exit_code == 0


def test_sheet_rows_pure():
    game = played("russian-cut", 0)
    players = ["a", "b", "c", "d"]
    rows = sheet_rows(game, players)
    assert len(rows) == len(game.results)
    assert [s["total"] for s in rows[-1]["seats"]] == list(game.totals)
    assert {r["kind"] for r in rows} == {"deal", "cut"}
    assert [r["mark"] for r in rows if r["kind"] == "deal"][-4:] == ["NT6", "H6", "MIN6", "MAX6"]
    assert all(s["bid"] is None for s in rows[-1]["seats"])  # the maximum deal has no bids
    summary = sheet_summary(game, players)
    assert summary["winners"] == [players[s] for s in game.winners()]
    assert summary["last_deal"] == 18 and summary["finished"]


# --------------------------------------------------------------------------- convert


@pytest.mark.parametrize("level", LEVELS)
def test_convert_log_json_log_round_trip(tmp_path, level):
    original = record("georgian", level)
    log = write(tmp_path, "g.log", original)
    r = run("convert", log, "--to", "json")
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["format"] == "updown-transcript" and data["players"] == ["p1", "p2", "p3", "p4"]
    js = write(tmp_path, "g.json", r.stdout)
    r = run("convert", js, "--to", "log")
    assert r.exit_code == 0, r.stderr
    assert r.stdout == original  # byte-identical canonical text
    assert run("convert", js).stdout == original  # the other form by default


def test_convert_archive_gives_a_list(tmp_path):
    archive = record("odessa", "sheet") + "\n" + record("russian", "plays")
    f = write(tmp_path, "two.log", archive)
    data = json.loads(run("convert", f, "--to", "json").stdout)
    assert isinstance(data, list) and len(data) == 2
    js = write(tmp_path, "two.json", json.dumps(data))
    assert run("convert", js, "--to", "log").stdout == archive


def test_convert_output_file_never_overwritten_without_force(tmp_path):
    log = write(tmp_path, "g.log", record("odessa"))
    out = tmp_path / "g.json"
    r = run("convert", log, "--to", "json", "-o", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    first = out.read_bytes()
    assert json.loads(first)["format"] == "updown-transcript"
    keep = write(tmp_path, "mine.txt", "my notes\n")
    r = run("convert", log, "--to", "json", "-o", keep)
    assert r.exit_code == 2
    assert "--force" in r.stderr
    assert Path(keep).read_text(encoding="utf-8") == "my notes\n"  # nothing lost
    r = run("convert", log, "--to", "json", "-o", keep, "--force")
    assert r.exit_code == 0
    assert Path(keep).read_bytes() == first
    r = run("convert", str(out), "--to", "log", "-o", str(tmp_path / "back.log"))
    assert r.exit_code == 0
    assert (tmp_path / "back.log").read_text(encoding="utf-8") == record("odessa")


def test_convert_does_not_check_rules(tmp_path):
    text, _ = corrupt_score(record("odessa"))
    f = write(tmp_path, "bad.log", text)
    r = run("convert", f, "--to", "json")
    assert r.exit_code == 0
    assert r.stderr == ""


def test_convert_reader_errors_exit_3(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = lines_of(record("odessa"))
    i = next(k for k, line in enumerate(lines) if " bid " in line)
    lines[i] = lines[i].replace(" bid ", " bids ")
    write(tmp_path, "bad.log", joined(lines))
    r = run("convert", "bad.log", "--to", "json")
    assert r.exit_code == 3
    assert f"bad.log:{i + 1}:1: error[T005]" in r.stderr or f"bad.log:{i + 1}:1: error[T002]" in r.stderr
    assert r.stdout == ""
    noise = write(tmp_path, "noise.bin", random.Random(5).randbytes(300))
    r = run("convert", noise, "--to", "log")
    assert r.exit_code == 3 and "error[T001]" in r.stderr
    assert not (tmp_path / "out.json").exists()
    r = run("convert", noise, "--to", "json", "-o", str(tmp_path / "out.json"))
    assert r.exit_code == 3
    assert not (tmp_path / "out.json").exists()


def test_convert_warnings_do_not_stop_it(tmp_path):
    text = record("odessa").replace("level: full\n", "level: full\ncolour: red\n")
    f = write(tmp_path, "w.log", text)
    r = run("convert", f, "--to", "json")
    assert r.exit_code == 0
    assert "warning[T008]" in r.stderr
    assert {"key": "colour", "value": "red"} in [
        {k: v for k, v in h.items() if k != "line"} for h in json.loads(r.stdout)["headers"]]


def test_convert_bad_form_is_usage_error(tmp_path):
    f = write(tmp_path, "g.log", record("odessa"))
    assert run("convert", f, "--to", "yaml").exit_code == 2


def test_convert_stdin():
    r = run("convert", "-", "--to", "json", input=record("odessa", "sheet"))
    assert r.exit_code == 0
    r2 = run("convert", "-", input=r.stdout)
    assert r2.stdout == record("odessa", "sheet")


# --------------------------------------------------------------------------- report (pure renderers)


def test_check_summary():
    assert check_summary(3, 4, [2], 1) == "3 files, 5 games: 4 clean, 1 with 2 errors; 1 unfinished"
    assert check_summary(1, 1, []) == "1 file, 1 game: 1 clean"
    assert check_summary(1, 0, [], 0, 1) == "1 file, 0 games; 1 unreadable"
    assert check_summary(2, 0, [1, 3], 0, 1) == "2 files, 2 games: 0 clean, 2 with 4 errors; 1 unreadable"


def test_trump_and_deal_marks():
    from updown_dsl import Suit

    assert [trump_mark(s) for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert trump_mark(None) == "NT"
    assert trump_mark(None, known=False) == "?"
    assert [deal_mark(6, k) for k in ("normal", "blind", "no-trump", "minimum", "odd")] == [
        "6", "6B", "NT6", "MIN6", "odd:6"]


def test_sheet_cell():
    seat = {"bid": 2, "taken": 3, "points": 3, "bonus": 0, "penalty": 0, "reset": False}
    assert sheet_cell(seat, "deal") == "2/3 3"
    assert sheet_cell(seat | {"bonus": 100}, "deal") == "2/3 3 +100"
    assert sheet_cell(seat | {"bid": None, "taken": None}, "abandoned") == "–/? 3"
    assert sheet_cell(seat | {"penalty": -50}, "revoke") == "-50"
    assert sheet_cell(seat | {"reset": True}, "cut") == "→0"


def test_check_does_not_import_the_play_side(tmp_path):
    """`updown check` loads what checking needs: not the play screen, the bots or simulate."""
    import subprocess
    import sys

    log = write(tmp_path, "game.log", record("odessa"))
    code = ("import sys, runpy; sys.argv = ['updown', 'check', sys.argv[1]]\n"
            "try:\n    runpy.run_module('updown_dsl', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('updown_dsl.') and m.split('.')[1] in "
            "('session', 'screen', 'bots', 'simulate')), 'lark' in sys.modules, 'pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[] False False"


def test_check_imports_only_what_checking_needs(tmp_path):
    """`updown check` imports its own command module only (not those of the other commands),
    not the score keeper, and, once its variant files are in the cache, not PyYAML."""
    import subprocess
    import sys

    log = write(tmp_path, "game.log", record("odessa"))
    code = ("import sys, runpy; sys.argv = ['updown', 'check', sys.argv[1]]\n"
            "try:\n    runpy.run_module('updown_dsl', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('updown_dsl.cli.', 'updown_dsl.players.')) and "
            "m.split('.')[2] in ('variants', 'score', 'view', 'play', 'keep', 'share', 'simulate', 'keeper')), "
            "'yaml' in sys.modules)")
    env = {**os.environ, "UPDOWN_CACHE_DIR": str(tmp_path / "cache")}
    cold, warm = (subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True,
                                 check=True, env=env).stdout.strip().splitlines()[-1] for _ in range(2))
    assert (cold, warm) == ("['updown_dsl.players.share'] True", "['updown_dsl.players.share'] False")


def test_check_takes_a_folder_of_records(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    for i, name in enumerate(("russian", "odessa")):
        (tmp_path / "games" / f"g{i}.log").write_text(record(name), encoding="utf-8")
    (tmp_path / "games" / "notes.txt").write_text("not a record", encoding="utf-8")
    for folder in (str(tmp_path / "games"), str(tmp_path / "games") + "/"):
        result = run("check", folder)
        assert result.exit_code == 0 and "2 files, 2 games: 2 clean" in result.stdout


def test_a_missing_variant_file_says_how_to_resolve_it(tmp_path: Path) -> None:
    text = record("russian").replace("variant: russian", "variant: river.yaml")
    path = write(tmp_path, "moved.log", text)
    result = run("check", path)
    assert result.exit_code == 3 or result.exit_code == 1
    out = result.stdout + result.stderr
    assert "T010" in out and "--variant-path" in out and "--embed-rules" in out


# --------------------------------------------------------------------------- streams and hostile inputs


def _closed_stdin(*args: str) -> "subprocess.CompletedProcess[str]":
    import os
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": root}
    return subprocess.run([sys.executable, "-m", "updown_dsl", *args], capture_output=True, text=True,
                          env=env, timeout=120, preexec_fn=lambda: os.close(0))


@pytest.mark.parametrize("command", [["check", "-"], ["sheet", "-"], ["convert", "-"], ["view", "-", "-o", "-"]])
def test_closed_standard_input_is_a_diagnostic(command: list[str]) -> None:
    r = _closed_stdin(*command)
    assert r.returncode == 3, r.stderr
    assert "standard input is closed" in r.stderr and "internal error" not in r.stderr


def test_play_with_closed_standard_input_stops_at_the_end_of_input() -> None:
    r = _closed_stdin("play", "--variant", "oh-hell", "--watch", "--seed", "1")
    assert r.returncode == 0, r.stderr
    assert "internal error" not in r.stderr


@pytest.mark.parametrize("command", ["check", "sheet", "convert"])
def test_dev_zero_is_binary_at_once(command: str) -> None:
    r = run(command, "/dev/zero")
    assert r.exit_code == 3 and "T001" in r.stderr


def test_a_fifo_is_checked_like_a_file(tmp_path):
    import os
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    text = record("odessa")
    for command in ("check", "sheet", "convert"):
        writer = threading.Thread(target=lambda: fifo.write_text(text, encoding="utf-8"))
        writer.start()
        r = run(command, str(fifo))
        writer.join()
        assert r.exit_code == 0, (command, r.stderr)


def test_standard_input_is_read_as_a_stream_in_games():
    r = run("check", "-", input=b"y\n" * 60_000)
    assert r.exit_code == 3
    assert "T019" in r.stdout + r.stderr and "T017" in r.stdout + r.stderr


def test_a_long_line_is_quoted_as_an_excerpt(tmp_path):
    text = record("odessa").replace("\nplayers:", "\n# " + "x" * 5_000 + "Zed play 11X" + "y" * 5_000 + "\nplayers:", 1)
    lines = text.split("\n")
    lines.insert(20, "Zed play 11X " + "z" * 9_000)
    f = write(tmp_path, "long.log", "\n".join(lines))
    r = run("check", f)
    assert r.exit_code in (1, 3)
    quoted = [line for line in (r.stdout + r.stderr).splitlines() if line.startswith("21 | ")]
    assert quoted and all(len(line) < 200 for line in quoted) and quoted[0].endswith("…")
