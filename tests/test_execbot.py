"""ExecBot: another program at a seat over the engine protocol; every failure is a forfeit to
the fallback bot, never a crash (players/execbot.py, docs/protocol.md)."""

from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import updown_dsl as ud
from updown_dsl.cli import app
from updown_dsl.players.bots import HeuristicBot, RandomBot, bot_problem, make_bot
from updown_dsl.players.execbot import MAX_STARTS, ExecBot, Fault, Forfeit
from updown_dsl.records.checker import check_games

ROOT = Path(__file__).resolve().parent.parent
RANDOM_BOT = ROOT / "examples" / "bots" / "random_bot.py"
DUCKER = ROOT / "examples" / "bots" / "ducker.sh"
NODE_BOT = ROOT / "examples" / "bots" / "first_bot.js"
PY_BOT = f"{shlex.quote(sys.executable)} {shlex.quote(str(RANDOM_BOT))}"
#: Set by .ci/run, which installs jq and Node: there the reference bots in those languages must run.
REQUIRED = os.environ.get("UPDOWN_BOT_TESTS") == "required"
needs_jq = pytest.mark.skipif(shutil.which("jq") is None and not REQUIRED, reason="the shell bot needs jq")


def test_the_other_languages_are_here_where_required() -> None:
    """Where CI says the reference bots must run, jq and Node are installed (else a skip)."""
    if not REQUIRED:
        pytest.skip("UPDOWN_BOT_TESTS is not 'required'")
    assert shutil.which("jq") and shutil.which("node")


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def _play(bots: list[object], variant: str = "oh-hell", seed: int = 3) -> ud.Game:
    game = ud.Game(ud.load_variant(variant), len(bots), seed=seed)
    while not game.is_over:
        seat = game.to_act
        game.apply(bots[seat].act(game.view(seat)))  # type: ignore[attr-defined]
    return game


def test_the_python_reference_bot_plays_a_whole_game_without_a_forfeit() -> None:
    log: list[Forfeit] = []
    with ExecBot(PY_BOT + " 1", HeuristicBot(random.Random(0)), on_forfeit=log.append) as bot:
        game = _play([bot, RandomBot(random.Random(1)), RandomBot(random.Random(2)), RandomBot(random.Random(3))],
                     "georgian")
        assert bot.forfeits == [] and log == [] and bot.starts == 1
    assert game.is_over


@needs_jq
def test_the_shell_and_jq_reference_bot_ducks_and_never_forfeits() -> None:
    with ExecBot(str(DUCKER), HeuristicBot()) as bot:
        game = _play([bot, RandomBot(random.Random(1)), RandomBot(random.Random(2))])
        assert bot.forfeits == []
    # the ducker bids the lowest legal bid every deal
    bids = [r.seats[0].bid for r in game.results]
    assert bids.count(0) >= len(bids) - 3  # (0 is refused only when the hook forbids it)


@pytest.mark.parametrize("body, fault", [
    ("while read line; do echo 'hello'; done", Fault.BAD_ANSWER),
    ("while read line; do echo '{\"move\": \"AS\"}'; done", Fault.BAD_ANSWER),
    ("while read line; do echo '{\"action\": \"XX\"}'; done", Fault.BAD_ANSWER),
    ("while read line; do echo '{\"action\": \"bid 99\"}'; done", Fault.ILLEGAL),
    ("read line; exit 3", Fault.CRASH),
    ("exec sleep 30", Fault.TIMEOUT),
])
def test_a_broken_bot_forfeits_each_decision_to_the_fallback(tmp_path: Path, body: str, fault: Fault) -> None:
    command = _script(tmp_path, "broken", body)
    log: list[Forfeit] = []
    fallback = HeuristicBot(random.Random(5))
    bot = ExecBot(command, fallback, timeout=0.3, on_forfeit=log.append)
    game = ud.Game(ud.load_variant("oh-hell"), 4, seed=1)
    for _ in range(3):  # three of its decisions, each forfeited, the game going on
        while game.to_act != 0:
            game.apply(game.legal_actions()[0])
        view = game.view(0)
        action = bot.act(view)
        assert action in view.legal
        game.apply(action)
    bot.close()
    assert [f.fault for f in log] == [fault] * 3 or (
        fault in (Fault.CRASH, Fault.TIMEOUT) and [f.fault for f in log] == [fault] * MAX_STARTS)
    assert log == bot.forfeits and all(f.seat == 0 for f in log)
    assert bot.starts <= MAX_STARTS
    assert "seat 1, deal" in log[0].describe() and "the fallback played" in log[0].describe()


def test_a_bot_that_keeps_dying_is_given_up_after_max_starts(tmp_path: Path) -> None:
    command = _script(tmp_path, "dies", "exit 1")
    bot = ExecBot(command, RandomBot(random.Random(0)))
    _play([bot, RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    faults = [f.fault for f in bot.forfeits]
    assert bot.starts == MAX_STARTS
    assert faults[:MAX_STARTS] == [Fault.CRASH] * MAX_STARTS and set(faults[MAX_STARTS:]) == {Fault.NO_START}


def test_a_program_that_cannot_start_forfeits_without_retrying(tmp_path: Path) -> None:
    bot = ExecBot([str(tmp_path / "missing")], RandomBot(random.Random(0)))
    _play([bot, RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    assert bot.starts == 1 and {f.fault for f in bot.forfeits} == {Fault.NO_START}


def test_a_too_long_answer_is_a_bad_answer(tmp_path: Path) -> None:
    command = _script(tmp_path, "long", "read line; head -c 200000 /dev/zero | tr '\\0' 'x'; sleep 30")
    bot = ExecBot(command, RandomBot(random.Random(0)), timeout=5)
    game = ud.Game(ud.load_variant("oh-hell"), 3, seed=1)
    while game.to_act != 0:
        game.apply(game.legal_actions()[0])
    bot.act(game.view(0))
    bot.close()
    assert [f.fault for f in bot.forfeits] == [Fault.BAD_ANSWER]


def test_exec_bot_names(tmp_path: Path) -> None:
    assert bot_problem(f"exec:{PY_BOT}") is None
    assert "exec:" in (bot_problem("exec:") or "")
    assert "PATH" in (bot_problem("exec:no-such-program-here") or "")
    plain = tmp_path / "plain"
    plain.write_text("not a program")
    assert "execute" in (bot_problem(f"exec:{plain}") or "")
    assert "cannot be read" in (bot_problem("exec:'unclosed") or "")
    assert "exec:COMMAND" in (bot_problem("genius") or "")
    bot = make_bot(f"exec:{PY_BOT}")
    assert isinstance(bot, ExecBot) and isinstance(bot.fallback, HeuristicBot) and bot.name.startswith("exec:")


def test_simulate_seats_the_reference_bots_and_their_games_check_clean(tmp_path: Path) -> None:
    kinds = [f"exec:{PY_BOT}", "heuristic"]
    kinds.append(f"exec:{DUCKER}" if shutil.which("jq") or REQUIRED else "random")
    kinds.append(f"exec:node {shlex.quote(str(NODE_BOT))}" if shutil.which("node") or REQUIRED else "random")
    result = CliRunner().invoke(app, ["simulate", "--variant", "oh-hell", "--players", "4", "--games", "2",
                                      "--seed", "1", "--bots", ",".join(kinds), "--json", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["variant"]["games"] == 2 and data["variant"]["forfeits"] == 0
    assert {k["bot"] for k in data["kinds"]} >= {f"exec:{PY_BOT}"}
    for f in sorted(tmp_path.iterdir()):
        (report,) = list(check_games(f))
        assert report.clean and report.finished


def test_simulate_counts_the_forfeits_of_a_broken_bot(tmp_path: Path) -> None:
    broken = _script(tmp_path, "broken", "while read line; do echo nonsense; done")
    result = CliRunner().invoke(app, ["simulate", "--variant", "oh-hell", "--players", "3", "--games", "1",
                                      "--seed", "1", "--bots", f"exec:{broken},random,random"])
    assert result.exit_code == 0, result.output
    assert "played by the fallback bot" in result.stdout


def test_simulate_refuses_an_exec_bot_that_is_no_program() -> None:
    result = CliRunner().invoke(app, ["simulate", "--variant", "oh-hell", "--bots", "exec:no-such-program-here"])
    assert result.exit_code == 2


def test_play_watches_an_external_program_and_shows_each_forfeit(tmp_path: Path) -> None:
    broken = _script(tmp_path, "broken", "while read line; do echo nonsense; done")
    args = ["play", "--variant", "oh-hell", "--players", "3", "--watch", "--seed", "3"]
    result = CliRunner().invoke(app, [*args, "--bot", f"exec:{broken}"])
    assert result.exit_code == 0, result.output
    assert "seat 1, deal 1: the program answered no action" in result.stdout
    clean = CliRunner().invoke(app, [*args, "--bot", f"exec:{PY_BOT}", "--save", str(tmp_path / "g.log")])
    assert clean.exit_code == 0, clean.output
    assert "fallback" not in clean.stdout
    (report,) = list(check_games(tmp_path / "g.log"))
    assert report.clean and report.finished
    assert "exec:" in (CliRunner().invoke(app, [*args, "--bot", "exec:"]).output)


def test_a_program_that_never_reads_cannot_hang_the_game(tmp_path: Path) -> None:
    # It answers at once, forever, and never reads: once the pipe to it is full, a blocking
    # write would wait for ever; the write is bounded by the same time as the answer.
    chatter = _script(tmp_path, "chatter", "exec yes '{\"action\": \"nonsense\"}'")
    bot = ExecBot(chatter, RandomBot(random.Random(0)), timeout=0.3)
    game = _play([bot, RandomBot(random.Random(1)), RandomBot(random.Random(2))])
    bot.close()
    faults = {f.fault for f in bot.forfeits}
    assert game.is_over and Fault.TIMEOUT in faults and faults <= {Fault.BAD_ANSWER, Fault.TIMEOUT, Fault.NO_START}
