"""`updown simulate`: bot games with a summary, reproducible, every saved game checks clean."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from updown_dsl.records.checker import check_games
from updown_dsl.cli import app


def _run(*args: str) -> object:
    return CliRunner().invoke(app, list(args))


def test_simulate_is_reproducible_and_saved_games_check_clean(tmp_path: Path) -> None:
    args = ["simulate", "--variant", "russian", "--players", "4", "--games", "8", "--seed", "1",
            "--bots", "heuristic,random,random,random", "--json"]
    first = _run(*args, "--out", str(tmp_path / "a"))
    second = _run(*args, "--out", str(tmp_path / "b"))
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout) == json.loads(second.stdout)
    files = sorted((tmp_path / "a").iterdir())
    assert len(files) == 8
    assert [f.read_text() for f in files] == [f.read_text() for f in sorted((tmp_path / "b").iterdir())]
    for f in files:
        (report,) = list(check_games(f))
        assert report.clean and report.finished, [str(d) for d in report.diagnostics]
    data = json.loads(first.stdout)
    assert data["variant"]["games"] == 8


def test_simulate_table_and_usage_errors(tmp_path: Path) -> None:
    result = _run("simulate", "--variant", "odessa", "--games", "4", "--seed", "2")
    assert result.exit_code == 0, result.output
    assert "by bot" in result.stdout and "heuristic" in result.stdout
    assert _run("simulate", "--variant", "odessa", "--bots", "genius").exit_code == 2
    assert _run("simulate", "--variant", "odessa", "--players", "9").exit_code == 2
    assert _run("simulate", "--variant", "no-such-game").exit_code == 3


def test_simulate_never_replaces_a_saved_game(tmp_path: Path) -> None:
    out = tmp_path / "d"
    assert _run("simulate", "--variant", "odessa", "--games", "2", "--out", str(out)).exit_code == 0
    again = _run("simulate", "--variant", "odessa", "--games", "2", "--out", str(out))
    assert again.exit_code != 0
    assert "Traceback" not in again.output
