"""``updown analyse`` (updown_dsl/cli/analyse.py): the sheet, --json, the options and bad input."""

from __future__ import annotations

import json
from pathlib import Path

from clikit import make_runner
from updown_dsl.cli import app
from updown_dsl.players.analysis import Settings, analyse_game, to_data
from updown_dsl.records.checker import check_games

ROOT = Path(__file__).resolve().parents[1]
SMALL = str(ROOT / "tests" / "golden" / "analyse" / "oh-hell-4.log")
EXAMPLES = ROOT / "docs" / "examples"
RUNNER = make_runner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return RUNNER.invoke(app, ["analyse", *args], env={"COLUMNS": "80", "NO_COLOR": "1"})


def test_the_sheet_of_a_small_record() -> None:
    result = run(SMALL, "--seed", "7", "--level", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    lines = out.splitlines()
    assert lines[0].startswith("oh-hell")
    assert "search level 1 (flat), seed 7; ? loses 5 points or more, ?? 10" in out
    assert [line.split(" ·")[0] for line in lines if line.startswith("deal ")] == [f"deal {n}" for n in (1, 2, 3, 4)]
    assert "deal 1 · 1 card each · dealer Gleb · bid/took 0/0 0/0 0/1 0/0" in out
    assert any(line.split()[:5] == ["Vera", "bid", "0", "best", "bid"] for line in lines)
    assert "expected points lost" in out and "bids made" in out
    assert max(len(line) for line in lines) <= 80


def test_all_shows_every_card() -> None:
    quiet = run(SMALL, "--seed", "7", "--level", "1").stdout
    every = run(SMALL, "--seed", "7", "--level", "1", "--all").stdout
    assert "other cards: no mark" in quiet and "other cards" not in every
    assert len(every.splitlines()) > len(quiet.splitlines())


def test_json_is_the_library_s_analysis() -> None:
    result = run(SMALL, "--seed", "7", "--level", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    game = next(iter(check_games(SMALL))).game
    expected = to_data(analyse_game(game, Settings(seed=7, level=1)), ["Anna", "Boris", "Vera", "Gleb"])
    assert {k: v for k, v in data.items() if k not in ("path", "game", "diagnostics")} == json.loads(json.dumps(expected))
    assert data["game"] == 1 and data["diagnostics"] == []


def test_jobs_give_the_same_json() -> None:
    one = run(SMALL, "--level", "1", "--json").stdout
    two = run(SMALL, "--level", "1", "--json", "--jobs", "2").stdout
    assert one == two


def test_the_georgian_example_and_its_json() -> None:
    path = str(EXAMPLES / "georgian-full.log")
    text = run(path, "--level", "1")
    assert text.exit_code == 0, text.output
    assert text.stdout.count("\ndeal ") == 24
    data = json.loads(run(path, "--level", "1", "--json").stdout)
    assert data["variant"] == "georgian" and len(data["deals"]) == 24 and data["stopped"] is None
    bids = [d for deal in data["deals"] for d in deal["decisions"] if d["kind"] == "bid"]
    assert bids and all(abs(sum(d["tricks"]) - 1) < 1e-3 for d in bids)


def test_a_score_sheet_cannot_be_analysed() -> None:
    result = run(str(EXAMPLES / "georgian-sheet.log"))
    assert result.exit_code == 3
    assert "a score sheet has no cards to analyse" in result.stderr
    assert "Traceback" not in result.output


def test_unreadable_and_missing_inputs_exit_3() -> None:
    for name in ("invalid-binary.log", "no-such-file.log"):
        result = run(str(EXAMPLES / name))
        assert result.exit_code == 3, result.output
        assert "T001" in result.stderr and "Traceback" not in result.output


def test_a_record_that_breaks_a_rule_is_analysed_up_to_it_and_exits_1() -> None:
    result = run(str(EXAMPLES / "odessa-revoke-penalty.log"), "--level", "1")
    assert result.exit_code == 0  # a revoke with its penalty is a clean record
    assert "the analysis stops at deal 3: a penalty" in result.stdout
    broken = run(str(EXAMPLES / "invalid-hook.log"), "--level", "1")
    assert broken.exit_code == 1
    assert "the analysis stops at deal" in broken.stdout


def test_usage_errors_exit_2() -> None:
    for args in (["--level", "9"], ["--method", "deep"], ["--threshold", "0"], ["--game", "2"], ["--jobs", "-1"]):
        result = run(SMALL, *args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_the_example_in_docs_analyse_md_is_what_the_command_prints(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)  # (the example names the record from the checkout's root)
    text = (ROOT / "docs" / "analyse.md").read_text(encoding="utf-8")
    marker = "<!-- analyse-example: updown "
    start = text.index(marker) + len(marker)
    command = text[start:text.index(" -->", start)].split()
    block = text[text.index("```text\n", start) + len("```text\n"):]
    block = block[:block.index("```")]
    assert command[0] == "analyse"
    result = RUNNER.invoke(app, command, env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    got = "\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n"
    assert got == block
