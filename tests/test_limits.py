"""Every input ends in diagnostics within bounds: the documented limits and what is past them.

Each limit has its own code: F006 (formula length and depth), T015 (line length), T016
(players), T017 (diagnostics kept per game), T018 (JSON depth), and the option key's parts
(T011). What the loader accepts can be played: V014 (no bid possible) and F005 at load (a
formula that divides by zero for some bid and take).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from updown_dsl import Game, load_variant, loads_variant
from updown_dsl.cli import app
from updown_dsl.lang.formula import MAX_DEPTH, MAX_LENGTH, FormulaError, compile_formula
from updown_dsl.lang.loader import VariantError
from updown_dsl.records.checker import check_file, check_text
from updown_dsl.records.reader import MAX_LINE, MAX_PLAYERS
from updown_dsl.records.record import game_transcript
from updown_dsl.records.report import MAX_DIAGNOSTICS
from updown_dsl.records.transcript import format_transcript

runner = CliRunner()


def _record(name: str = "odessa", players: int = 4, seed: int = 3) -> str:
    game = Game(load_variant(name), players, seed=seed)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return format_transcript(game_transcript(game, level="full"))


def _codes(text: str) -> list[str]:
    return [d.code for d in check_text(text, "game.log").diagnostics]


def _load_codes(text: str) -> list[str]:
    with pytest.raises(VariantError) as info:
        loads_variant(text, "house.yaml")
    return [d.code for d in info.value.diagnostics]


# --------------------------------------------------------------------------- formulas


def test_a_formula_too_long_is_f006_before_it_is_parsed() -> None:
    text = " + ".join(["taken"] * (MAX_LENGTH // 8 + 1))
    start = time.process_time()
    with pytest.raises(FormulaError) as info:
        compile_formula("(" * 100_000 + text, ["taken"])
    assert [d.code for d in info.value.diagnostics] == ["F006"]
    assert time.process_time() - start < 0.5
    assert compile_formula(" + ".join(["taken"] * 100), ["taken"])({"taken": 1}) == 100


def test_a_formula_too_deep_is_f006() -> None:
    with pytest.raises(FormulaError) as info:
        compile_formula("(1 + " * (MAX_DEPTH + 5) + "1" + ")" * (MAX_DEPTH + 5), [])
    assert [d.code for d in info.value.diagnostics] == ["F006"]


# --------------------------------------------------------------------------- sound variants


@pytest.mark.parametrize("body, code", [
    ("bidding: {max: cards // 0}", "F005"),
    ("scoring: {deal: taken // (bid - taken)}", "F005"),
    ("scoring: {deal: 100 % total}", "F005"),
    ("bidding: {min: 3, max: 2}", "V014"),
])
def test_what_cannot_be_played_is_refused_at_load(body: str, code: str) -> None:
    assert _load_codes(f"extends: odessa\nname: house\n{body}\n") == [code]


def test_the_hook_that_leaves_no_bid_is_v014() -> None:
    text = ("extends: oh-hell\nname: house\nplayers: {min: 4, max: 4, default: 4}\n"
            "schedule: [{cards: 4}]\nbidding: {min: 1, max: 1}\n")
    assert _load_codes(text) == ["V014"]
    # with the hook lifted, the same deal can be bid
    lifted = text.replace("{min: 1, max: 1}", "{min: 1, max: 1, hook: false}")
    assert loads_variant(lifted, "house.yaml").name == "house"


def test_a_guarded_division_loads_and_plays(tmp_path: Path) -> None:
    text = 'extends: odessa\nname: house\nscoring: {deal: "bid == 0 ? 5 : 10 * taken // bid"}\n'
    (tmp_path / "house.yaml").write_text(text, encoding="utf-8")
    v = load_variant(tmp_path / "house.yaml")
    game = Game(v, 4, seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    record = format_transcript(game_transcript(game, level="full", variant="house.yaml"))
    report = check_text(record, str(tmp_path / "g.log"))
    assert report.clean and report.finished, [str(d) for d in report.diagnostics]


def test_every_bundled_variant_is_sound() -> None:
    from updown_dsl import bundled_names
    from updown_dsl.lang.soundness import soundness_problems

    for name in bundled_names():
        assert soundness_problems(load_variant(name)) == [], name


def test_a_total_outside_the_tried_values_is_reported_not_raised(tmp_path: Path) -> None:
    """`100 // (total - 7)` passes the load (7 is not among the values tried); the checker
    reports F005 at the line where the total makes it fail, and stops there."""
    (tmp_path / "house.yaml").write_text(
        'extends: oh-hell\nname: house\nplayers: {min: 2, max: 2, default: 2}\n'
        'schedule: [{cards: 1}, {cards: 1}, {cards: 1}]\nbidding: {hook: false}\n'
        'scoring: {deal: "bid == taken ? 7 : 100 // (total - 7)"}\n', encoding="utf-8")
    log = tmp_path / "g.log"
    log.write_text(
        "variant: house.yaml\nplayers: Anna Boris\nfirst-dealer: Boris\nlevel: sheet\n\n"
        "deal 1 cards 1 dealer Boris\ntrump H\nAnna bid 1\nBoris bid 0\nAnna took 1\nBoris took 0\n"
        "score Anna 7 Boris 7\ntotal Anna 7 Boris 7\n\n"
        "deal 2 cards 1 dealer Anna\ntrump S\nBoris bid 1\nAnna bid 1\nBoris took 0\nAnna took 1\n"
        "score Anna 7 Boris 0\ntotal Anna 14 Boris 7\n", encoding="utf-8")
    report = check_file(log)
    assert [d.code for d in report.errors] == ["F005"]
    assert report.errors[0].line is not None and report.errors[0].line >= 16
    r = runner.invoke(app, ["check", str(log)])
    assert r.exit_code == 1 and "F005" in r.stdout


# --------------------------------------------------------------------------- records


def test_a_line_too_long_is_t015_and_kept() -> None:
    base = _record()
    long_line = "x" * (MAX_LINE + 1)
    text = base.replace("\n\ndeal 2 ", f"\n{long_line}\n\ndeal 2 ", 1)
    report = check_text(text, "game.log")
    assert [d.code for d in report.errors][:1] == ["T015"]
    assert report.transcript is not None
    assert any(e.kind == "raw" and e.text == long_line for e in report.transcript.events)


def test_too_many_players_is_t016() -> None:
    names = " ".join(f"p{i}" for i in range(MAX_PLAYERS + 1))
    codes = _codes(f"variant: odessa\nplayers: {names}\n\ndeal 1 cards 1 dealer p1\n")
    assert "T016" in codes


def test_a_report_keeps_at_most_max_diagnostics_then_a_t017() -> None:
    text = _record() + "\n" + "\n".join("Zed play 11X" for _ in range(5000)) + "\n"
    start = time.process_time()
    report = check_text(text, "game.log")
    assert time.process_time() - start < 5
    assert len(report.diagnostics) == MAX_DIAGNOSTICS + 1
    assert report.diagnostics[-1].code == "T017" and "4,900 more" in report.diagnostics[-1].message
    assert not report.clean


def test_deep_json_is_t018(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    report = check_file(path)
    assert not report.readable and [d.code for d in report.diagnostics] == ["T018"]
    r = runner.invoke(app, ["check", str(path)])
    assert r.exit_code == 3 and "T018" in r.stdout + (r.stderr or "")


@pytest.mark.parametrize("option, code", [
    ("option: " + ".".join(["k"] * 500) + "=1", "T011"),
    ("option: scoring.deal=taken // (bid - taken)", "T011"),
    ("option: bidding.max=cards // 0", "T011"),
])
def test_hostile_option_lines_are_t011(option: str, code: str) -> None:
    text = _record().replace("\nplayers:", f"\n{option}\nplayers:", 1)
    assert _codes(text) == [code]


def test_a_variant_name_too_long_for_the_file_system() -> None:
    for name in ("x" * 5000, "x" * 5000 + ".yaml", "a/" * 3000 + "b.yaml"):
        text = _record().replace("variant: odessa\n", f"variant: {name}\n", 1)
        assert _codes(text) in (["T010"], ["T014"])
