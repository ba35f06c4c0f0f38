"""Tests for the ``updown`` command line (updown_dsl.cli) and its renderers (updown_dsl.cli.report)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clikit import make_runner
from updown_dsl import bundled_names
from updown_dsl.cli import app
from updown_dsl.diagnostics import Diagnostic
from updown_dsl.cli.report import (
    diagnostics_json,
    render_diagnostic,
    render_diagnostics,
    validate_summary,
)

ROOT = Path(__file__).resolve().parent.parent




RUNNER = make_runner()


def run(*args: str):
    result = RUNNER.invoke(app, list(args), env={"COLUMNS": "100"})
    # never a traceback, whatever the input
    assert "Traceback" not in result.stdout
    assert "Traceback" not in result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def run_json(*args: str):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # nothing but JSON on stdout


# --------------------------------------------------------------------------- root


def test_version():
    r = run("--version")
    assert r.exit_code == 0
    assert r.stdout.strip() == "updown 0.1.0"


def test_help_lists_commands():
    r = run("--help")
    assert r.exit_code == 0
    for word in ("variants", "variant", "score"):
        assert word in r.stdout


def test_no_arguments_shows_help_and_usage_exit():
    r = run()
    assert r.exit_code in (0, 2)
    assert "Usage" in r.stdout + r.stderr


def test_unknown_command_is_usage_error():
    r = run("frobnicate")
    assert r.exit_code == 2


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_python_m_updown_dsl(args):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-m", "updown_dsl", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert ("Usage" in proc.stdout) if args == ["--help"] else ("updown" in proc.stdout)


# --------------------------------------------------------------------------- variants


def test_variants_table():
    r = run("variants")
    assert r.exit_code == 0
    for name in bundled_names():
        assert name in r.stdout
    assert "36, 6S is joker" in r.stdout


def test_variants_json():
    data = run_json("variants")
    assert [d["name"] for d in data] == bundled_names()
    by_name = {d["name"]: d for d in data}
    for d in data:
        assert {"name", "min_players", "max_players", "pack", "description"} <= set(d)
    assert by_name["odessa"]["pack"] == "36, 6S is joker"
    assert by_name["up-and-down"]["pack"] == "52"
    assert by_name["georgian"]["pack"].startswith("36 (+2 jokers")
    assert (by_name["odessa"]["min_players"], by_name["odessa"]["max_players"]) == (2, 6)
    assert by_name["georgian"]["deals"] == 24


# --------------------------------------------------------------------------- variant show


def sizes(name: str, players: int) -> list[int]:
    data = run_json("variant", "show", name, "--players", str(players))
    assert data["players"] == players
    return [d["cards"] for d in data["deals"]]


def test_show_georgian_json_acceptance():
    data = run_json("variant", "show", "georgian", "--players", "4")
    assert data["name"] == "georgian"
    assert data["players"] == 4
    assert data["description"]
    deals = data["deals"]
    assert len(deals) == 24
    assert [d["cards"] for d in deals] == (
        list(range(1, 9)) + [9] * 4 + list(range(8, 0, -1)) + [9] * 4
    )
    assert [d["number"] for d in deals] == list(range(1, 25))
    assert [d["set"] for d in deals] == [1] * 8 + [2] * 4 + [3] * 8 + [4] * 4
    assert all(d["kind"] == "normal" for d in deals)
    assert data["rules"]["deck"]["jokers"] == 2
    assert data["rules"]["name"] == "georgian"


def _updown(m: int) -> list[int]:
    return list(range(1, m + 1)) + list(range(m - 1, 0, -1))


@pytest.mark.parametrize(("players", "top", "count"), [(3, 17, 33), (4, 13, 25), (5, 10, 19), (6, 8, 15)])
def test_tc01_up_and_down(players, top, count):
    got = sizes("up-and-down", players)
    assert got == _updown(top)
    assert len(got) == count


@pytest.mark.parametrize(("players", "top"), [(3, 17), (4, 13), (6, 8)])
def test_tc01_up_and_down_ascending(players, top):
    data = run_json("variant", "show", "up-and-down-ascending", "--players", str(players))
    assert [d["cards"] for d in data["deals"]] == list(range(1, top + 1))
    assert data["deals"][-1]["kind"] == "no-trump"
    assert all(d["kind"] == "normal" for d in data["deals"][:-1])


def test_tc01_odessa():
    data = run_json("variant", "show", "odessa", "--players", "3")
    assert [d["cards"] for d in data["deals"]] == [1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1, 6]
    assert data["deals"][-1]["kind"] == "blind"
    data = run_json("variant", "show", "odessa", "--players", "4")
    assert [d["cards"] for d in data["deals"]] == [1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 4, 3, 2, 1, 6]
    assert [d["kind"] for d in data["deals"]] == ["normal"] * 14 + ["blind"]
    assert data["hand_sizes"] == "1 2 3 4 5 6 6 6 6 5 4 3 2 1 6B"


def test_tc01_russian():
    data = run_json("variant", "show", "russian", "--players", "4")
    assert [d["cards"] for d in data["deals"]] == [1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 4, 3, 2, 1, 6, 6, 6, 6]
    assert [d["kind"] for d in data["deals"]] == ["normal"] * 14 + ["no-trump", "hidden", "minimum", "maximum"]
    assert data["hand_sizes"] == "1 2 3 4 5 6 6 6 6 5 4 3 2 1 NT6 H6 MIN6 MAX6"


def test_show_default_players():
    data = run_json("variant", "show", "odessa")
    assert data["players"] == 4
    assert len(data["deals"]) == 15


def test_show_text_georgian():
    r = run("variant", "show", "georgian", "--players", "4")
    assert r.exit_code == 0, r.stderr
    assert "georgian" in r.stdout
    assert "24 deals" in r.stdout
    assert "1 2 3 4 5 6 7 8 | 9 9 9 9 | 8 7 6 5 4 3 2 1 | 9 9 9 9" in r.stdout
    assert "50 * bid + 50" in r.stdout  # the scoring formula as source text


def test_show_text_odessa_blind_kind():
    r = run("variant", "show", "odessa")
    assert r.exit_code == 0
    assert "blind ×2" in r.stdout


@pytest.mark.parametrize("name", bundled_names())
def test_show_every_bundled_variant(name):
    r = run("variant", "show", name)
    assert r.exit_code == 0, r.stderr
    assert name in r.stdout
    assert r.stderr == ""
    data = run_json("variant", "show", name)
    lo, hi = data["min_players"], data["max_players"]
    for n in {lo, hi}:
        d = run_json("variant", "show", name, "--players", str(n))
        assert d["players"] == n
        assert d["deals"] and all(x["cards"] >= 1 for x in d["deals"])
        assert d["rules"]["name"] == name
        assert d["resolved"]["scoring"]["deal"]


@pytest.mark.parametrize("players", ["1", "7", "0", "-3"])
def test_show_players_out_of_range(players):
    r = run("variant", "show", "odessa", "--players", players)
    assert r.exit_code == 2
    assert "2 to 6 players" in r.stderr
    assert r.stdout == ""


def test_show_players_not_a_number():
    r = run("variant", "show", "odessa", "--players", "four")
    assert r.exit_code == 2


def test_show_unknown_variant_hint():
    r = run("variant", "show", "georgain")
    assert r.exit_code == 3
    assert "error[V010]" in r.stderr
    assert "did you mean 'georgian'?" in r.stderr
    assert r.stdout == ""


def test_show_broken_file_exit_3(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("broken.yaml").write_text("name: x\ncolour: red\n", encoding="utf-8")
    r = run("variant", "show", "broken.yaml")
    assert r.exit_code == 3
    assert "broken.yaml:2:1: error[V003]" in r.stderr
    r = run("score", "broken.yaml", "--deal", "1", "--bid", "0", "--taken", "0")
    assert r.exit_code == 3


# --------------------------------------------------------------------------- extends


EXTENDS = """\
name: my-odessa
extends: odessa
description: "Odessa with «сходимся» and a hard pass"
bidding:
  hook: false
scoring:
  params:
    pass: 0
"""


def test_extends_file_validates_and_shows(tmp_path):
    f = tmp_path / "my-odessa.yaml"
    f.write_text(EXTENDS, encoding="utf-8")
    r = run("variant", "validate", str(f))
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "1 valid" in r.stdout
    assert run_json("variant", "validate", str(f)) == []
    data = run_json("variant", "show", str(f), "--players", "3")
    assert data["name"] == "my-odessa"
    assert [d["cards"] for d in data["deals"]] == [1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1, 6]
    assert data["resolved"]["bidding"]["hook"] is False
    assert data["resolved"]["scoring"]["params"] == {"pass": 0}
    r = run("variant", "show", str(f))
    assert r.exit_code == 0
    assert "my-odessa" in r.stdout
    # the changed pass value reaches the scoring
    assert run_json("score", str(f), "--deal", "4", "--bid", "0", "--taken", "0")["score"] == 0


# --------------------------------------------------------------------------- variant validate


BAD = """\
name: bad
extends: odessa
colour: red
scoring:
  deal: "taken == bid ? 10 * bd : 0"
"""


def test_validate_bundled_files_ok():
    files = [str(ROOT / "variants" / f"{n}.yaml") for n in ("odessa", "georgian", "russian")]
    r = run("variant", "validate", *files)
    assert r.exit_code == 0
    assert "3 files checked: 3 valid" in r.stdout


def test_validate_broken_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.yaml").write_text(BAD, encoding="utf-8")
    r = run("variant", "validate", "bad.yaml")
    assert r.exit_code == 1
    out = r.stdout
    assert "bad.yaml:3:1: error[V003] unknown key 'colour'" in out
    assert "3 | colour: red" in out
    assert "  | ^^^^^^" in out
    assert "bad.yaml:5:30: error[F002] unknown name 'bd'" in out
    assert '5 |   deal: "taken == bid ? 10 * bd : 0"' in out
    assert "|" + " " * 30 + "^^" in out  # caret under `bd`
    assert "  = hint: did you mean 'bid'?" in out
    assert "1 file checked: 0 valid, 1 with 2 problems" in out
    # file order: line 3 before line 5
    assert out.index(":3:1:") < out.index(":5:30:")


def test_validate_broken_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.yaml").write_text(BAD, encoding="utf-8")
    r = run("variant", "validate", "bad.yaml", "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    codes = sorted(d["code"] for d in data)
    assert codes == ["F002", "V003"]
    v003 = next(d for d in data if d["code"] == "V003")
    assert (v003["path"], v003["line"], v003["col"], v003["severity"]) == ("bad.yaml", 3, 1, "error")


def test_validate_mixed_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.yaml").write_text(BAD, encoding="utf-8")
    Path("good.yaml").write_text(EXTENDS, encoding="utf-8")
    r = run("variant", "validate", "good.yaml", "bad.yaml")
    assert r.exit_code == 1
    assert "2 files checked: 1 valid, 1 with 2 problems" in r.stdout


def test_validate_invalid_yaml(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("broken.yaml").write_text("name: x\n  bad: [\n", encoding="utf-8")
    r = run("variant", "validate", "broken.yaml")
    assert r.exit_code == 1
    assert "broken.yaml:2:" in r.stdout
    assert "error[V001]" in r.stdout


def test_validate_missing_file_exit_3(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("good.yaml").write_text(EXTENDS, encoding="utf-8")
    Path("bad.yaml").write_text(BAD, encoding="utf-8")
    r = run("variant", "validate", "good.yaml", "missing.yaml", "bad.yaml")
    assert r.exit_code == 3
    assert "missing.yaml" in r.stderr
    # the other files are still reported
    assert "good.yaml: ok" in r.stdout
    assert "error[V003]" in r.stdout
    assert "3 files checked: 1 valid, 1 with 2 problems, 1 unreadable" in r.stdout
    r = run("variant", "validate", "missing.yaml", "--json")
    assert r.exit_code == 3
    data = json.loads(r.stdout)
    assert len(data) == 1 and data[0]["path"] == "missing.yaml"


def test_validate_directory_exit_3(tmp_path):
    r = run("variant", "validate", str(tmp_path))
    assert r.exit_code == 3


def test_validate_not_utf8_exit_3(tmp_path):
    f = tmp_path / "latin1.yaml"
    f.write_bytes("name: caf\xe9\n".encode("latin-1"))
    r = run("variant", "validate", str(f))
    assert r.exit_code == 3


def test_validate_needs_a_file():
    r = run("variant", "validate")
    assert r.exit_code == 2


def test_validate_extends_base_error_points_at_base(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("base.yaml").write_text("name: base\ncolour: red\n", encoding="utf-8")
    Path("child.yaml").write_text("name: child\nextends: base.yaml\n", encoding="utf-8")
    r = run("variant", "validate", "child.yaml")
    assert r.exit_code == 1
    assert "base.yaml:2:1: error[V003]" in r.stdout
    assert "2 | colour: red" in r.stdout


# --------------------------------------------------------------------------- score

# (variant, players, deal, bid, taken, expected) from the worked cases, docs/worked-cases.md
SCORES = [
    # TC-03: Up and Down, 4 players, deal 13
    *[("up-and-down", 4, 13, b, t, s) for b, t, s in [(4, 4, 14), (3, 2, 2), (2, 3, 3), (5, 4, 4)]],
    *[("up-and-down-ascending", 4, 13, b, t, s) for b, t, s in [(4, 4, 14), (3, 2, 0), (2, 3, 0), (5, 4, 0)]],
    *[("up-and-down-online", 4, 13, b, t, s) for b, t, s in [(4, 4, 40), (3, 2, -30), (2, 3, 3), (5, 4, -50)]],
    *[("up-and-down-online-partial", 4, 13, b, t, s)
      for b, t, s in [(4, 4, 40), (3, 2, -10), (2, 3, 3), (5, 4, -10)]],
    # TC-09: Odessa blind deal (deal 15), doubled
    *[("odessa", 4, 15, b, t, s) for b, t, s in [(1, 1, 20), (2, 3, 6), (0, 0, 10), (2, 2, 30)]],
    # TC-10: n = 4 (deal 4 with 4 players)
    *[("odessa", 4, 4, b, t, s) for b, t, s in [(0, 0, 5), (0, 1, 1), (3, 0, -30), (2, 3, 3)]],
    ("odessa-hard-pass", 4, 4, 0, 0, 0),
    *[("georgian", 4, 4, b, t, s) for b, t, s in [(0, 0, 50), (0, 1, 10), (3, 0, 0), (2, 3, 30)]],
    *[("georgian-khishti", 4, 4, b, t, s) for b, t, s in [(0, 0, 50), (0, 1, 10), (3, 0, -200), (2, 3, 30)]],
    *[("russian", 4, 4, b, t, s) for b, t, s in [(0, 0, 5), (0, 1, 1), (3, 0, -30), (2, 3, 3)]],
    *[("up-and-down-online", 4, 4, b, t, s) for b, t, s in [(0, 0, 5), (0, 1, 1), (3, 0, -30), (2, 3, 3)]],
    *[("up-and-down-online-partial", 4, 4, b, t, s)
      for b, t, s in [(0, 0, 5), (0, 1, 1), (3, 0, -30), (2, 3, 3)]],
    *[("up-and-down", 4, 4, b, t, s) for b, t, s in [(0, 0, 10), (0, 1, 1), (3, 0, 0), (2, 3, 3)]],
    *[("up-and-down-ascending", 4, 4, b, t, s) for b, t, s in [(0, 0, 10), (0, 1, 0), (3, 0, 0), (2, 3, 0)]],
    # TC-11: [S001] 4 players, n = 5 (deal 5)
    *[("up-and-down-online", 4, 5, b, t, s) for b, t, s in [(2, 2, 20), (0, 0, 5), (2, 1, -20), (3, 2, -30)]],
    *[("up-and-down-online-partial", 4, 5, b, t, s)
      for b, t, s in [(2, 2, 20), (0, 0, 5), (2, 1, -10), (3, 2, -10)]],
    # TC-13: Georgian, set 2 (deal 9, 9 cards)
    *[("georgian", 4, 9, b, t, s)
      for b, t, s in [(3, 3, 200), (0, 0, 50), (2, 4, 40), (3, 2, 20), (2, 0, 0), (9, 9, 500)]],
    *[("georgian-khishti", 4, 9, b, t, s) for b, t, s in [(2, 0, -500), (0, 0, 50), (9, 9, 900)]],
    # TC-15: Russian poker normal deal over (b = 1, t = 3)
    ("russian", 4, 5, 1, 3, 3),
]


@pytest.mark.parametrize(("variant", "players", "deal", "bid", "taken", "expected"), SCORES)
def test_score_worked_cases(variant, players, deal, bid, taken, expected):
    data = run_json("score", variant, "--players", str(players), "--deal", str(deal),
                    "--bid", str(bid), "--taken", str(taken))
    assert data["score"] == expected
    assert (data["variant"], data["players"], data["deal"], data["bid"], data["taken"]) == (
        variant, players, deal, bid, taken)


@pytest.mark.parametrize(("deal", "kind", "taken", "expected"), [
    (17, "minimum", 2, -20), (17, "minimum", 1, -10), (17, "minimum", 3, -30), (17, "minimum", 0, 0),
    (18, "maximum", 1, 10), (18, "maximum", 2, 20), (18, "maximum", 0, 0), (18, "maximum", 3, 30),
])
def test_score_tc15_russian_minimum_maximum(deal, kind, taken, expected):
    data = run_json("score", "russian", "--players", "4", "--deal", str(deal), "--taken", str(taken))
    assert data["score"] == expected
    assert data["kind"] == kind
    assert data["cards"] == 6
    assert data["bid"] is None


def test_score_no_bidding_ignores_bid():
    r = run("score", "russian", "--players", "4", "--deal", "17", "--bid", "3", "--taken", "2")
    assert r.exit_code == 0
    assert r.stdout.strip().endswith("→ -20")
    assert "ignored" in r.stderr


def test_score_text_output():
    r = run("score", "odessa", "--players", "4", "--deal", "15", "--bid", "2", "--taken", "2")
    assert r.exit_code == 0
    assert r.stdout.strip() == "odessa, 4 players, deal 15 (6 cards, blind ×2): bid 2, taken 2 → 30"
    assert r.stderr == ""


@pytest.mark.parametrize("players, deck", [(3, 24), (4, 32), (6, 48)])
def test_score_reads_the_deal_names_the_engine_scores_with(tmp_path, players, deck):
    """`score` once built its own names with the whole 52-card pack as `deck`; Romanian Whist
    deals from 8 cards a player, and the engine scores with that pack."""
    import random

    import updown_dsl as ud

    path = tmp_path / "rw-deck.yaml"
    path.write_text("name: rw-deck\nextends: romanian-whist\nscoring:\n  deal: \"deck + taken\"\n")
    data = run_json("score", str(path), "--players", str(players), "--deal", "1", "--bid", "0", "--taken", "1")
    assert data["score"] == deck + 1
    game = ud.Game(ud.load_variant(str(path)), players, seed=1)
    rng = random.Random(1)
    while not game.results:
        game.apply(rng.choice(game.legal_actions()))
    assert {r.points - r.taken for r in game.results[0].seats} == {deck}


def test_score_json_fields():
    data = run_json("score", "georgian", "--players", "4", "--deal", "9", "--bid", "3", "--taken", "3")
    assert data == data | {"variant": "georgian", "players": 4, "deal": 9, "cards": 9, "kind": "normal",
                           "set": 2, "bid": 3, "taken": 3, "score": 200}


def test_score_total_and_dealer_options():
    data = run_json("score", "odessa", "--deal", "4", "--bid", "0", "--taken", "0", "--total", "85",
                    "--dealer")
    assert data["score"] == 5
    assert data["total"] == 85 and data["is_dealer"] is True
    assert data["players"] == 4  # the variant's default


@pytest.mark.parametrize("args", [
    ["--deal", "0", "--bid", "0", "--taken", "0"],
    ["--deal", "16", "--bid", "0", "--taken", "0"],
    ["--deal", "4", "--bid", "5", "--taken", "0"],
    ["--deal", "4", "--bid", "-1", "--taken", "0"],
    ["--deal", "4", "--bid", "1", "--taken", "5"],
    ["--deal", "4", "--bid", "1", "--taken", "-1"],
    ["--deal", "4", "--taken", "1"],  # --bid missing in a deal with bidding
    ["--deal", "4", "--bid", "1"],  # --taken missing
    ["--deal", "4", "--bid", "1", "--taken", "1", "--players", "9"],
    ["--deal", "x", "--bid", "1", "--taken", "1"],
])
def test_score_usage_errors(args):
    r = run("score", "odessa", "--players", "4", *args) if "--players" not in args else run(
        "score", "odessa", *args)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert r.stderr.strip()


def test_score_unknown_variant():
    r = run("score", "odesa", "--deal", "1", "--bid", "0", "--taken", "0")
    assert r.exit_code == 3
    assert "did you mean 'odessa'?" in r.stderr


# --------------------------------------------------------------------------- report (pure renderers)


def test_render_diagnostic_with_source_and_hint():
    d = Diagnostic("F002", "unknown name 'bd' in formula", path="x.yaml", line=2, col=13, end_col=15,
                   hint="did you mean 'bid'?")
    text = render_diagnostic(d, "name: x\ndeal: \"10 * bd\"\n")
    assert text.splitlines() == [
        "x.yaml:2:13: error[F002] unknown name 'bd' in formula",
        "  |",
        '2 | deal: "10 * bd"',
        "  |             ^^",
        "  = hint: did you mean 'bid'?",
    ]


def test_render_diagnostic_without_place():
    d = Diagnostic("V010", "no variant or file named 'georgain'", hint="did you mean 'georgian'?")
    assert render_diagnostic(d) == ("error[V010] no variant or file named 'georgain'\n"
                                    "  = hint: did you mean 'georgian'?")


def test_render_diagnostic_line_past_end_and_wide_gutter():
    d = Diagnostic("V003", "x", path="f.yaml", line=99, col=1)
    assert render_diagnostic(d, "a: 1\n") == "f.yaml:99:1: error[V003] x"
    src = "\n" * 11 + "colour: red\n"
    lines = render_diagnostic(Diagnostic("V003", "x", path="f.yaml", line=12, col=1, hint="h"), src).splitlines()
    assert lines[1:] == ["   |", "12 | colour: red", "   | ^^^^^^", "   = hint: h"]


def test_render_diagnostics_sorted_and_json():
    a = Diagnostic("V003", "a", path="f.yaml", line=5, col=1)
    b = Diagnostic("V003", "b", path="f.yaml", line=2, col=1)
    text = render_diagnostics([a, b], {"f.yaml": "1\n2\n3\n4\n5\n"})
    assert text.index("f.yaml:2:1") < text.index("f.yaml:5:1")
    assert json.loads(diagnostics_json([a])) == [a.to_dict()]
    assert diagnostics_json([]) == "[]"


def test_validate_summary():
    assert validate_summary(2, 1, [3]) == "2 files checked: 1 valid, 1 with 3 problems"
    assert validate_summary(1, 1, []) == "1 file checked: 1 valid"
    assert validate_summary(3, 0, [1, 1], 1) == "3 files checked: 0 valid, 2 with 2 problems, 1 unreadable"


def test_shell_completion_offers_the_bundled_variant_names():
    from updown_dsl.cli import app
    from clikit import make_runner

    env = {"_UPDOWN_COMPLETE": "complete_bash", "COMP_WORDS": "updown play --variant od", "COMP_CWORD": "3"}
    result = make_runner().invoke(app, [], env=env, prog_name="updown")
    assert result.exit_code == 0
    assert result.stdout.split() == ["odessa", "odessa-converge", "odessa-first-trick-demand",
                                     "odessa-hard-pass", "odessa-two-blind"]
    env["COMP_WORDS"], env["COMP_CWORD"] = "updown variant show nom", "3"
    assert make_runner().invoke(app, [], env=env, prog_name="updown").stdout.split() == ["nomination-whist"]
    shown = make_runner().invoke(app, ["--show-completion", "bash"], prog_name="updown")
    assert shown.exit_code == 0, (shown.output, repr(shown.exception))
    assert "_UPDOWN_COMPLETE" in shown.stdout


def test_a_short_flag_means_the_same_in_every_command():
    """-f is --force wherever it is, -g --game: a short flag never means two things."""
    import typer.main

    from updown_dsl.cli import app

    meanings: dict[str, set[str]] = {}

    def walk(command) -> None:
        for param in command.params:
            names = [*param.opts, *param.secondary_opts]
            longs = sorted(n for n in names if n.startswith("--"))
            for short in (n for n in names if not n.startswith("--")):
                meanings.setdefault(short, set()).add(longs[0] if longs else short)
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(typer.main.get_command(app))
    assert {s: m for s, m in meanings.items() if len(m) > 1} == {}
    assert meanings["-f"] == {"--force"} and meanings["-g"] == {"--game"}


def test_help_paragraphs_are_wrapped_by_the_terminal_not_by_the_docstring():
    from updown_dsl.cli.common import _unwrapped

    assert _unwrapped("one\ntwo\n\nthree\n- a\n- b\n  indented") == "one two\n\nthree\n- a\n- b\n  indented"


def test_variant_show_says_when_must_trump_is_left_to_its_default(tmp_path):
    from updown_dsl.cli import app
    from clikit import make_runner

    plain = tmp_path / "plain.yaml"
    plain.write_text("name: plain\nplayers: {min: 3, max: 5, default: 4}\ndeck: {pack: 52}\n"
                     "trump: {rule: turned}\nschedule:\n  - {cards: 1}\nscoring:\n  deal: taken\n", encoding="utf-8")
    shown = make_runner().invoke(app, ["variant", "show", str(plain), "--lang", "en"])
    assert shown.exit_code == 0 and "play.must_trump is not written in this file" in shown.stdout
    for name in bundled_names():  # every bundled variant writes it out (or extends one that does)
        shown = make_runner().invoke(app, ["variant", "show", name, "--lang", "en"])
        assert "must_trump is not written" not in shown.stdout, name


# --------------------------------------------------------------------------- one command's module only


def test_command_map_matches_the_app():
    """``updown CMD`` imports only the module ``COMMANDS`` names for CMD: the map must say
    where every registered command lives, and name no command the app lacks."""
    from updown_dsl import cli

    registered = {c.name: c.callback.__module__ for c in app.registered_commands}
    registered.update({g.name: g.typer_instance.registered_commands[0].callback.__module__
                       for g in app.registered_groups})
    assert {name: f"updown_dsl.cli.{module}" for name, module in cli.COMMANDS.items()} == registered
    assert set(cli.COMMANDS.values()) == set(cli.MODULES)


@pytest.mark.parametrize("argv, command", [
    (["check", "x.log"], "check"), (["--lang", "ru", "check"], "check"), (["--lang=ru", "sheet"], "sheet"),
    (["-V"], None), (["--help"], None), ([], None), (["--", "check"], None), (["variant", "show", "odessa"], "variant"),
])
def test_command_of(argv, command):
    from updown_dsl.cli import command_of

    assert command_of(argv) == command


def test_a_command_alone_imports_only_its_module():
    """``updown check`` registers the record commands only; ``--help`` and an unknown command all."""
    code = ("import sys; from updown_dsl.cli import load_commands; app = load_commands(sys.argv[1:]); "
            "print(sorted(c.name for c in app.registered_commands))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env = {k: v for k, v in env.items() if not (k.startswith("_") and k.endswith("_COMPLETE"))}

    def names(*argv: str) -> str:
        return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                              env=env, check=True).stdout.strip()

    assert names("--lang", "ru", "check", "x.log") == "['check', 'convert', 'sheet']"
    assert names("--help") == names("chek") == str(sorted(c.name for c in app.registered_commands))
