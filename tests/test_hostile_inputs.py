"""The reproductions of a fuzz campaign on what had landed, each run as a user would run it.

Every one ends in a diagnostic (exit 1 or 3) or a correct result (exit 0), never an internal
error (exit 4) or a traceback; the ones that read endless input end on their own. The unit
tests of each fix are beside its module (test_safetext, test_outfiles, test_archive,
test_cli_check, test_infer, test_balance, test_bad_variants); this file is the list.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from updown_dsl.safetext import UNSAFE

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "fuzz_corpus"
EXAMPLE = ROOT / "docs" / "examples" / "odessa-full.log"


def updown(*args: str, stdin: object = subprocess.DEVNULL, shell_input: str | None = None,
           cwd: Path | None = None, close_stdin: bool = False) -> subprocess.CompletedProcess[str]:
    """``updown ARGS`` in a process of its own (standard input: ``stdin``, or the output of
    the shell command ``shell_input``, or closed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    command = [sys.executable, "-m", "updown_dsl", *args]
    if shell_input is not None:
        feeder = subprocess.Popen(shell_input, shell=True, stdout=subprocess.PIPE)
        try:
            return subprocess.run(command, stdin=feeder.stdout, capture_output=True, text=True, env=env,
                                  timeout=120, cwd=cwd)
        finally:
            feeder.kill()
            feeder.wait()
    return subprocess.run(command, stdin=None if close_stdin else stdin,  # type: ignore[arg-type]
                          capture_output=True, text=True, env=env, timeout=120, cwd=cwd,
                          preexec_fn=(lambda: os.close(0)) if close_stdin else None)


def ended_well(r: subprocess.CompletedProcess[str], *codes: int) -> None:
    assert r.returncode in codes, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr


def test_1_a_record_cannot_forge_the_verdict_on_screen(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "\ndeal 2 ", "\n\x1b[2J\x1b[H1 file, 1 game: 1 clean # " + "." * 60 + "\ndeal 2 ", 1)
    (tmp_path / "g.log").write_text(text, encoding="utf-8")
    for command in (["check"], ["sheet"], ["convert", "--to", "log"]):
        r = updown(*command, str(tmp_path / "g.log"))
        ended_well(r, 1, 3)
        assert not UNSAFE.search(r.stdout + r.stderr)  # (no terminal here: no styles either)


def test_2_the_markdown_rule_book_escapes_the_variants_words(tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text('extends: oh-hell\nname: "<img src=x onerror=alert(1)>"\n', encoding="utf-8")
    r = updown("variant", "explain", "--format", "md", str(tmp_path / "v.yaml"))
    ended_well(r, 0)
    assert "# \\<img src=x onerror=alert(1)\\>" in r.stdout


@pytest.mark.parametrize("command", [["convert", str(EXAMPLE), "--to", "log", "-o"], ["view", str(EXAMPLE), "-o"],
                                     ["play", "--variant", "oh-hell", "--watch", "--seed", "1", "--save"],
                                     ["simulate", "--variant", "oh-hell", "--games", "2", "--report"]],
                         ids=lambda c: c[0])
def test_3_force_never_replaces_a_fifo_or_a_link(tmp_path: Path, command: list[str]) -> None:
    os.mkfifo(tmp_path / "fifo")
    os.symlink(EXAMPLE, tmp_path / "link")
    for name in ("fifo", "link"):
        r = updown(*command, str(tmp_path / name), "--force")
        ended_well(r, 3)
        assert "--force replaces only a regular file" in r.stderr
    assert (tmp_path / "fifo").is_fifo() and (tmp_path / "link").is_symlink()


def test_4_a_file_written_with_force_gets_the_umasks_mode(tmp_path: Path) -> None:
    (tmp_path / "out.log").write_text("old\n", encoding="utf-8")
    ended_well(updown("convert", str(EXAMPLE), "--to", "log", "-o", str(tmp_path / "out.log"), "--force"), 0)
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "out.log").stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize("command", ["check", "sheet", "convert"])
def test_5_dev_zero_ends_at_once(command: str) -> None:
    r = updown(command, "/dev/zero")
    ended_well(r, 3)
    assert "T001" in r.stderr


@pytest.mark.parametrize("shell", ["yes", "cat /dev/urandom", "tr '\\0' a < /dev/zero"])
def test_6_endless_standard_input_is_streamed_and_ends(shell: str) -> None:
    r = updown("check", "-", shell_input=shell)
    ended_well(r, 3)
    assert any(code in r.stdout + r.stderr for code in ("T001", "T015", "T019"))


def test_7_a_huge_record_is_cut_at_a_games_limit(tmp_path: Path) -> None:
    head, body = EXAMPLE.read_text(encoding="utf-8").split("\n\n", 1)
    with open(tmp_path / "big.log", "w", encoding="utf-8") as f:
        f.write(head + "\n\n")
        while f.tell() < 6_000_000:
            f.write(body + "\n")
    r = updown("check", str(tmp_path / "big.log"))
    ended_well(r, 3)
    assert "T019" in r.stderr


def test_8_many_broken_games_are_reported_one_by_one(tmp_path: Path) -> None:
    broken = (ROOT / "docs" / "examples" / "invalid-revoke.log").read_text(encoding="utf-8")
    (tmp_path / "a.log").write_text((broken + "\n") * 50, encoding="utf-8")
    r = updown("check", str(tmp_path / "a.log"))
    ended_well(r, 1)
    # every game's diagnostics quote their own lines
    assert (r.stdout + r.stderr).count("| Anna play 10D") == 50


def test_9_a_long_line_is_quoted_as_an_excerpt(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace("\ndeal 2 ", "\nAnna play " + "Z" * 50_000 + "\ndeal 2 ", 1)
    (tmp_path / "g.log").write_text(text, encoding="utf-8")
    r = updown("check", str(tmp_path / "g.log"))
    ended_well(r, 1, 3)
    assert max(len(line) for line in (r.stdout + r.stderr).splitlines()) < 400


def test_10_unknown_cards_are_read_within_a_budget() -> None:
    r = updown("check", str(CORPUS / "checker" / "unknown-cards-budget.log"))
    ended_well(r, 1)
    assert "too many to try" in r.stdout + r.stderr


@pytest.mark.parametrize("command", [["play", "--variant", "oh-hell", "--watch", "--seed", "1"], ["check", "-"]])
def test_11_closed_standard_input(command: list[str]) -> None:
    ended_well(updown(*command, close_stdin=True), 0, 3)


@pytest.mark.parametrize("name", ["auction-min-above-cards", "score-squares-total"])
def test_12_13_unsound_variants_are_refused_at_load(name: str) -> None:
    r = updown("play", "--variant", str(CORPUS / "loader" / f"{name}.yaml"), "--watch", "--seed", "1")
    ended_well(r, 3)
    assert (CORPUS / "loader" / f"{name}.expected").read_text(encoding="utf-8").split()[0] in r.stderr


def test_14_a_report_with_a_seat_that_never_won(tmp_path: Path) -> None:
    ended_well(updown("simulate", "--variant", "oh-hell", "--games", "3", "--seed", "1",
                      "--report", str(tmp_path / "r.html")), 0)


def test_15_thirteen_digit_scores_are_read() -> None:
    r = updown("check", str(CORPUS / "checker" / "thirteen-digit-scores.log"))
    ended_well(r, 1)
    assert "R051" in r.stdout and "T004" not in r.stdout + r.stderr


def test_16_a_fifo_and_a_process_substitution_are_read_like_files(tmp_path: Path) -> None:
    r = updown("check", "/dev/stdin", stdin=open(EXAMPLE, "rb"))  # noqa: SIM115 - closed by the process
    ended_well(r, 0)
    r = subprocess.run(["bash", "-c", f'"{sys.executable}" -m updown_dsl check <(cat "{EXAMPLE}")'],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    ended_well(r, 0)
    assert "1 clean" in r.stdout
