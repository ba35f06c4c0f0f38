"""Which files a record's ``variant:`` line and a variant's ``extends:`` may make updown read.

A record or a variant file may come from anyone (an uploaded game, a file sent by mail), so
neither may make the checker open, or quote, a file outside the folders the user allowed:
the bundled variants, the record's (or the variant file's) own folder and ``--variant-path``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from updown_dsl import Game, load_variant, try_load_variant
from updown_dsl.cli import app
from updown_dsl.lang.loader import variants_dir
from updown_dsl.records.checker import check_file, check_text
from updown_dsl.records.record import game_transcript
from updown_dsl.records.transcript import format_transcript

SECRET = "PASSWORD-7f3a9c"
runner = CliRunner()


def _record(variant_line: str, players: int = 4) -> str:
    """A whole seeded game of odessa, its variant line replaced."""
    game = Game(load_variant("odessa"), players, seed=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    text = format_transcript(game_transcript(game, level="full"))
    assert text.startswith("variant: odessa\n")
    return text.replace("variant: odessa\n", f"variant: {variant_line}\n", 1)


@pytest.fixture()
def table(tmp_path: Path) -> Path:
    """``secret/`` beside ``games/``; the secrets look enough like YAML to be quoted if read."""
    (tmp_path / "secret").mkdir()
    (tmp_path / "games").mkdir()
    for name in ("passwd", "secret.txt", "base.yaml"):
        (tmp_path / "secret" / name).write_text(f"first: line\nsecond-line: {SECRET}: x\n", encoding="utf-8")
    (tmp_path / "games" / "secret.txt").write_text(f"second-line: {SECRET}: x\n", encoding="utf-8")
    return tmp_path


def _check_cli(path: Path, *extra: str) -> tuple[int, str]:
    r = runner.invoke(app, ["check", *extra, str(path)])
    return r.exit_code, r.stdout + (r.stderr or "")


@pytest.mark.parametrize("line, code", [
    ("../secret/passwd", "T014"),
    ("../secret/base.yaml", "T014"),
    ("../secret/secret.txt", "T014"),
    ("/etc/passwd", "T014"),
    ("SECRET_ABS", "T014"),  # the absolute path of secret/base.yaml
    ("./secret.txt", "T014"),  # in the record's own folder, but not a variant file's name
    ("secret.txt", "T010"),  # a bare name: no bundled variant is called that
    ("../" * 12 + "etc/passwd", "T014"),
])
def test_a_record_cannot_name_a_file_outside_its_folder(table: Path, line: str, code: str) -> None:
    line = line.replace("SECRET_ABS", str(table / "secret" / "base.yaml"))
    log = table / "games" / "game.log"
    log.write_text(_record(line), encoding="utf-8")
    report = check_file(log)
    assert not report.readable
    assert [d.code for d in report.diagnostics] == [code]
    exit_code, out = _check_cli(log)
    assert exit_code == 3
    assert code in out and SECRET not in out and "second-line" not in out


def test_a_link_out_of_the_folder_is_refused(table: Path) -> None:
    link = table / "games" / "rules.yaml"
    try:
        link.symlink_to(table / "secret" / "base.yaml")
    except OSError:  # pragma: no cover - no symbolic links here
        pytest.skip("no symbolic links on this file system")
    log = table / "games" / "game.log"
    log.write_text(_record("rules.yaml"), encoding="utf-8")
    assert [d.code for d in check_file(log).diagnostics] == ["T014"]
    code, out = _check_cli(log)
    assert code == 3 and SECRET not in out


def test_a_variant_file_beside_the_record_or_in_an_allowed_folder_is_read(table: Path) -> None:
    house = "extends: odessa\nname: odessa-house\n"
    (table / "games" / "rules").mkdir()
    (table / "games" / "rules" / "house.yaml").write_text(house, encoding="utf-8")
    (table / "common").mkdir()
    (table / "common" / "house.yaml").write_text(house, encoding="utf-8")
    log = table / "games" / "game.log"

    log.write_text(_record("rules/house.yaml"), encoding="utf-8")
    assert check_file(log).clean
    assert _check_cli(log)[0] == 0

    log.write_text(_record("../common/house.yaml"), encoding="utf-8")
    assert [d.code for d in check_file(log).diagnostics] == ["T014"]
    report = check_file(log, variant_path=[table / "common"])
    assert report.clean, [str(d) for d in report.diagnostics]
    assert _check_cli(log, "--variant-path", str(table / "common"))[0] == 0
    assert _check_cli(log, "--variant-path", str(table / "nowhere"))[0] == 2  # not a folder: usage


def test_a_record_without_a_file_names_bundled_variants_only(table: Path) -> None:
    (table / "games" / "house.yaml").write_text("extends: odessa\nname: h\n", encoding="utf-8")
    text = _record(str(table / "games" / "house.yaml"))
    assert [d.code for d in check_text(text).diagnostics] == ["T014"]
    assert check_text(text, variant_path=[table / "games"]).clean
    assert check_text(_record("odessa")).clean
    r = runner.invoke(app, ["check", "-"], input=text)
    assert r.exit_code == 3 and "T014" in r.stdout + (r.stderr or "")


def test_a_bare_name_is_a_bundled_variant_never_a_file(table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(table / "secret")
    (table / "secret" / "odessa").write_text(f"x: {SECRET}\n", encoding="utf-8")
    log = table / "games" / "game.log"
    (table / "games" / "odessa").write_text(f"x: {SECRET}\n", encoding="utf-8")
    log.write_text(_record("odessa"), encoding="utf-8")
    assert check_file(log).clean
    log.write_text(_record("passwd"), encoding="utf-8")  # no bundled variant of that name
    report = check_file(log)
    assert [d.code for d in report.diagnostics] == ["T010"]
    assert SECRET not in "".join(str(d) for d in report.diagnostics)


def test_hostile_names_end_in_a_diagnostic(table: Path) -> None:
    log = table / "games" / "game.log"
    for line in ["x" * 5000 + ".yaml", "a/" * 3000 + "b.yaml", "con.yaml/../../x.yaml"]:
        log.write_text(_record(line), encoding="utf-8")
        codes = [d.code for d in check_file(log).diagnostics]
        assert codes in (["T010"], ["T014"]), (line[:40], codes)


# --------------------------------------------------------------------------- extends


def test_extends_stays_in_the_folder_of_the_file_loaded(table: Path) -> None:
    house = table / "games" / "house.yaml"
    for target in ["../secret/base.yaml", str(table / "secret" / "base.yaml"), "../secret/passwd",
                   "../../" * 8 + "etc/passwd"]:
        house.write_text(f"name: h\nextends: {target}\n", encoding="utf-8")
        variant, diags = try_load_variant(house)
        assert variant is None and [d.code for d in diags] == ["V013"], (target, [str(d) for d in diags])
        r = runner.invoke(app, ["variant", "validate", str(house)])
        assert r.exit_code == 1 and "V013" in r.stdout and SECRET not in r.stdout + (r.stderr or "")


def test_extends_reaches_an_allowed_folder_and_the_bundled_set(table: Path) -> None:
    (table / "common").mkdir()
    (table / "common" / "base.yaml").write_text("extends: odessa\nname: base\nbidding: {hook: false}\n",
                                                encoding="utf-8")
    house = table / "games" / "house.yaml"
    house.write_text("name: h\nextends: ../common/base.yaml\n", encoding="utf-8")
    assert try_load_variant(house)[0] is None
    v = load_variant(house, variant_path=[table / "common"])
    assert v.name == "h" and v.bidding.hook is False
    r = runner.invoke(app, ["variant", "validate", "--variant-path", str(table / "common"), str(house)])
    assert r.exit_code == 0, r.stdout
    # bundled by name, and the bundled files by path too
    house.write_text(f"name: h\nextends: {variants_dir() / 'georgian.yaml'}\n", encoding="utf-8")
    assert load_variant(house).name == "h"


def test_a_record_s_variant_may_extend_within_the_record_s_folder(table: Path) -> None:
    rules = table / "games" / "rules"
    rules.mkdir()
    (table / "games" / "base.yaml").write_text("extends: odessa\nname: base\n", encoding="utf-8")
    (rules / "house.yaml").write_text("extends: ../base.yaml\nname: house\n", encoding="utf-8")
    log = table / "games" / "game.log"
    log.write_text(_record("rules/house.yaml"), encoding="utf-8")
    report = check_file(log)
    assert report.clean, [str(d) for d in report.diagnostics]


def test_play_says_which_folder_resuming_needs(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "games").mkdir()
    short = "extends: oh-hell\nname: short\nschedule: [{cards: 1}, {cards: 2}]\n"
    (tmp_path / "rules" / "short.yaml").write_text(short, encoding="utf-8")
    save = tmp_path / "games" / "g.log"
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = runner.invoke(app, ["play", "--variant", "rules/short.yaml", "--seed", "1", "--save",
                                "games/g.log"], input="quit\n")
        assert r.exit_code == 0, r.stdout
        assert "--variant-path rules" in r.stdout
        assert save.read_text(encoding="utf-8").startswith("variant: ../rules/short.yaml\n")
        assert runner.invoke(app, ["play", "--resume", "games/g.log"], input="quit\n").exit_code == 3
        r = runner.invoke(app, ["play", "--resume", "games/g.log", "--variant-path", "rules"], input="quit\n")
        assert r.exit_code == 0, r.stdout
    finally:
        os.chdir(cwd)


# --------------------------------------------------------------------------- records that carry their rules


def test_a_record_with_its_rules_embedded_is_checked_without_the_file(tmp_path: Path) -> None:
    from updown_dsl.lang.variant import rules_text

    (tmp_path / "rules").mkdir()
    house = tmp_path / "rules" / "house.yaml"
    house.write_text('extends: odessa\nname: house\nbidding: {hook: false}\ndescription: "with a # in it"\n',
                     encoding="utf-8")
    v = load_variant(house)
    game = Game(v, 4, seed=6)
    while not game.is_over:
        game.apply(game.rng.choice(game.legal_actions()))
    text = format_transcript(game_transcript(game, level="full", variant="house.yaml", embed_rules=True))
    assert f"rules-text: {rules_text(v)}\n" in text and "#" not in text.split("rules-text: ")[1].split("\n")[0]
    log = tmp_path / "elsewhere.log"
    log.write_text(text, encoding="utf-8")
    house.unlink()  # the file is gone: the record carries the rules
    report = check_file(log)
    assert report.clean and report.finished, [str(d) for d in report.diagnostics]
    assert report.game is not None and report.game.variant.bidding.hook is False
    # rules changed by hand: the hash says the record was written under others
    changed = text.replace('"hook":false', '"hook":true')
    assert [d.code for d in check_text(changed, str(log)).diagnostics][:1] == ["T013"]
    # what the line holds is only read as rules: extends stays among the bundled variants
    hostile = text.replace("rules-text: {", 'rules-text: {"extends":"../../etc/passwd.yaml",', 1)
    codes = [d.code for d in check_text(hostile, str(log)).diagnostics]
    assert codes == ["T010"] and SECRET not in str(check_text(hostile, str(log)).diagnostics)
    broken = text.replace("rules-text: {", "rules-text: [", 1)
    assert [d.code for d in check_text(broken, str(log)).diagnostics] == ["T010"]


def test_play_and_simulate_embed_the_rules(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "h.yaml").write_text("extends: oh-hell\nname: h\nschedule: [{cards: 1}, {cards: 2}]\n",
                                             encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        r = runner.invoke(app, ["play", "--variant", "rules/h.yaml", "--watch", "--seed", "2", "--save", "g.log",
                                "--embed-rules"])
        assert r.exit_code == 0, r.stdout
        r = runner.invoke(app, ["simulate", "--variant", "rules/h.yaml", "--games", "2", "--out", "sim",
                                "--embed-rules", "--json"])
        assert r.exit_code == 0, r.stdout
        (tmp_path / "rules" / "h.yaml").unlink()
        r = runner.invoke(app, ["check", "g.log", "sim/h-1.log", "sim/h-2.log"])
        assert r.exit_code == 0 and "3 files, 3 games: 3 clean" in r.stdout, r.stdout
    finally:
        os.chdir(cwd)


def test_convert_embeds_the_rules_of_a_record(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    house = tmp_path / "rules" / "h.yaml"
    house.write_text("extends: oh-hell\nname: h\nschedule: [{cards: 1}, {cards: 2}]\n", encoding="utf-8")
    game = Game(load_variant(house), 4, seed=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    text = format_transcript(game_transcript(game, level="plays", variant="rules/h.yaml"))
    text = text.replace("\nplayers:", "\noption: bidding.hook=false\nplayers:", 1)
    log = tmp_path / "g.log"
    log.write_text(text, encoding="utf-8")
    out = tmp_path / "carried.log"
    r = runner.invoke(app, ["convert", str(log), "--to", "log", "--embed-rules", "-o", str(out)])
    assert r.exit_code == 0, r.stdout + (r.stderr or "")
    carried = out.read_text(encoding="utf-8")
    assert "\noption: bidding.hook=false\n" in carried and "\nrules-text: {" in carried  # nothing lost
    house.unlink()
    report = check_file(out)
    assert report.readable and report.game is not None and report.game.variant.bidding.hook is False
    assert [d.code for d in report.errors] == []
    # a variant that cannot be found: not converted, nothing written
    r = runner.invoke(app, ["convert", str(log), "--to", "log", "--embed-rules", "-o", str(tmp_path / "x.log")])
    assert r.exit_code == 3 and not (tmp_path / "x.log").exists()
