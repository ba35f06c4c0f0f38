"""Charts in the terminal: ``updown sheet --chart``, ``updown play --chart`` and ``--step``."""

from __future__ import annotations

from pathlib import Path

import pytest

from updown_dsl.cli import app
from updown_dsl.records.checker import check_file

from clikit import make_runner

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
pytest.importorskip("plotext", reason='the terminal charts need plotext: pip install "updown-dsl[charts]"')


def test_score_chart_draws_every_player_by_its_letter():
    from updown_dsl.cli.chart import score_chart

    text = score_chart(["0", "1", "2", "3"], [[0, 10, 20, 30], [0, -10, -20, -30]], ["Anna", "Boris"],
                       width=50, height=12, colour=False)
    assert "\x1b[" not in text  # no colour codes without colour
    assert "Anna (A)" in text and "Boris (B)" in text
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if "A" in line.split("┤")[-1].replace("Anna (A)", ""))
    low = max(i for i, line in enumerate(lines) if "B" in line.split("┤")[-1].replace("Boris (B)", ""))
    assert top < low  # Anna's line climbs, Boris's falls
    assert "30" in text and "-30" in text


def test_sheet_chart(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    result = make_runner().invoke(app, ["sheet", str(EXAMPLES / "odessa-full.log"), "--chart"])
    assert result.exit_code == 0, result.output
    assert "Running totals by deal" in result.stdout
    game = check_file(EXAMPLES / "odessa-full.log").game
    # the axis reaches the lowest final total (Vera's -171)
    assert str(min(game.totals)) in result.stdout.split("Running totals by deal")[1]
    plain = make_runner().invoke(app, ["sheet", str(EXAMPLES / "odessa-full.log")])
    assert "Running totals" not in plain.stdout


def test_play_watch_step_and_chart():
    runner = make_runner()
    result = runner.invoke(app, ["play", "--variant", "oh-hell", "--watch", "--seed", "2", "--step", "--chart"],
                           input="\n\n\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count("Enter: on, q: stop>") == 4
    assert out.count("Running totals by deal") >= 2  # after each deal
    assert "Game stopped in deal" in out
    # at the end of input the game goes on without waiting, to its end
    whole = runner.invoke(app, ["play", "--variant", "oh-hell", "--watch", "--seed", "2", "--step"], input="")
    assert whole.exit_code == 0 and "Game over" in whole.stdout
    assert runner.invoke(app, ["play", "--variant", "oh-hell", "--step"]).exit_code == 2
