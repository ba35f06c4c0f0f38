"""The score sheet and the play screen fit 80 columns for up to six players (names cut, the
narrow layout chosen by width), and a wide terminal keeps the full sheet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from clikit import make_runner
from updown_dsl import i18n
from updown_dsl.cli import app

RUNNER = make_runner()
NAMES = "Alexandra,Bartholomew,Veronika,Gleb,Dasha,Evgeniya"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)  # short file names in the sheet's title
    yield
    i18n.set_language(None)


def _record(tmp_path: Path, variant: str, players: int, seed: int = 2) -> Path:
    log = tmp_path / f"{variant}-{players}.log"
    names = ",".join(NAMES.split(",")[:players])
    done = RUNNER.invoke(app, ["play", "--variant", variant, "-n", str(players), "--watch", "--seed", str(seed),
                               "--name", names, "--save", str(log)])
    assert done.exit_code == 0, done.stderr
    return log


def _widest(text: str) -> int:
    return max(len(line.rstrip("\n")) for line in ANSI.sub("", text).splitlines())


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), [("georgian", 4), ("oh-hell", 5), ("oh-hell", 6),
                                                  ("georgian", 6)])
def test_the_sheet_fits_80_columns_and_keeps_its_full_form_at_120(tmp_path: Path, variant: str,
                                                                   players: int) -> None:
    log = _record(tmp_path, variant, players)
    for lang in ("en", "ru"):
        narrow = RUNNER.invoke(app, ["sheet", str(log), "--lang", lang], env={"COLUMNS": "80"})
        assert narrow.exit_code == 0
        assert _widest(narrow.stdout) <= 80, narrow.stdout
    narrow = RUNNER.invoke(app, ["sheet", str(log), "--lang", "en"], env={"COLUMNS": "80"}).stdout
    assert "dealer" not in narrow and "bid/taken, then Σ" in narrow
    assert "Alexandra" in narrow or "Alexan…" in narrow or "Alexa…" in narrow
    wide = RUNNER.invoke(app, ["sheet", str(log)], env={"COLUMNS": "120"}).stdout
    if players == 4:  # the full sheet, with the dealer and each deal's points, fits 120
        assert "dealer" in wide and "bid/taken points" in wide and _widest(wide) <= 120
    piped = RUNNER.invoke(app, ["sheet", str(log)], env={"COLUMNS": None}).stdout  # no width known: the full sheet
    assert "dealer" in piped


@pytest.mark.slow
def test_the_narrow_sheet_has_the_same_totals(tmp_path: Path) -> None:
    log = _record(tmp_path, "georgian", 4)
    wide = RUNNER.invoke(app, ["sheet", str(log)], env={"COLUMNS": "200"}).stdout
    narrow = RUNNER.invoke(app, ["sheet", str(log)], env={"COLUMNS": "80"}).stdout
    last = [line.split() for line in wide.splitlines() if line.strip().startswith("24 ")][0]
    last_narrow = [line.split() for line in narrow.splitlines() if line.strip().startswith("24 ")][0]
    assert last[-1] == last_narrow[-1] and last[6] == last_narrow[4]  # Σ of the last and first player
    assert wide.splitlines()[-3:] == narrow.splitlines()[-3:]  # the end, the settlement, the winner


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_watching_and_playing_six_players_fits_80_columns(lang: str) -> None:
    env = {"COLUMNS": "80", "FORCE_COLOR": "1"}  # a terminal of 80 columns
    watched = RUNNER.invoke(app, ["play", "--variant", "georgian", "-n", "6", "--watch", "--seed", "2",
                                  "--name", NAMES, "--lang", lang], env=env)
    assert watched.exit_code == 0 and _widest(watched.stdout) <= 80
    played = RUNNER.invoke(app, ["play", "--variant", "oh-hell", "-n", "6", "--seed", "2", "--name", NAMES,
                                 "--lang", lang], input="0\n?\nsheet\n", env=env)
    assert played.exit_code == 0 and _widest(played.stdout) <= 80
