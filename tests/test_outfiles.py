"""--force replaces a regular file and nothing else; written files get the umask's mode.

A rename over a device node, a FIFO or a symbolic link would leave a regular file where it
was (as root, ``play --save /dev/full --force`` deleted ``/dev/full``): every writer refuses.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from updown_dsl.outfiles import not_replaceable, umask_mode

from clikit import make_runner

EXAMPLE = str(Path(__file__).resolve().parent.parent / "docs" / "examples" / "odessa-full.log")


def _things(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "target").write_text("mine\n", encoding="utf-8")
    os.symlink(tmp_path / "target", tmp_path / "link")
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    return {"link": tmp_path / "link", "fifo": tmp_path / "fifo", "dir": tmp_path / "dir"}


def test_what_is_not_replaceable(tmp_path: Path) -> None:
    things = _things(tmp_path)
    assert not_replaceable(things["link"]) == "a symbolic link"
    assert not_replaceable(things["fifo"]) == "a FIFO (a named pipe)"
    assert not_replaceable(things["dir"]) == "a folder"
    assert not_replaceable("/dev/null") == "a device"
    assert not_replaceable(tmp_path / "target") is None
    assert not_replaceable(tmp_path / "nothing") is None


COMMANDS = [
    ["convert", EXAMPLE, "--to", "log", "-o"],
    ["view", EXAMPLE, "-o"],
    ["play", "--variant", "oh-hell", "--watch", "--seed", "1", "--save"],
    ["simulate", "--variant", "oh-hell", "--games", "2", "--report"],
]


@pytest.mark.parametrize("kind", ["link", "fifo", "dir"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_force_never_replaces_anything_but_a_regular_file(tmp_path: Path, command: list[str], kind: str) -> None:
    from updown_dsl.cli import app

    things = _things(tmp_path)
    target = things[kind]
    before = os.lstat(target)
    r = make_runner().invoke(app, [*command, str(target), "--force"], input="")
    assert r.exit_code in (2, 3), r.stdout + r.stderr
    assert "internal error" not in r.stderr
    after = os.lstat(target)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode) and after.st_ino == before.st_ino
    assert (tmp_path / "target").read_text(encoding="utf-8") == "mine\n"
    if kind != "dir" or command[0] in ("convert", "play"):
        assert "--force replaces only a regular file" in r.stderr


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_written_files_get_the_umasks_mode(tmp_path: Path, command: list[str], force: bool) -> None:
    from updown_dsl.cli import app

    out = tmp_path / "out.file"
    if force:
        out.write_text("old\n", encoding="utf-8")
        out.chmod(0o600)
    old = os.umask(0o027)
    try:
        r = make_runner().invoke(app, [*command, str(out), *(["--force"] if force else [])], input="")
    finally:
        os.umask(old)
    assert r.exit_code == 0, r.stdout + r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_umask_mode() -> None:
    old = os.umask(0o077)
    try:
        assert umask_mode() == 0o600
    finally:
        os.umask(old)
    assert os.umask(old) == old  # (left as it was)


@pytest.mark.parametrize("kind", ["fifo", "devzero"])
def test_resume_reads_only_a_regular_file(tmp_path: Path, kind: str) -> None:
    """``play --resume`` of a FIFO or a device (which it would read forever) is refused."""
    from updown_dsl.cli import app

    target = tmp_path / "game.log"
    if kind == "fifo":
        os.mkfifo(target)
    else:
        os.symlink("/dev/zero", target)
    r = make_runner().invoke(app, ["play", "--resume", str(target)], input="")
    assert r.exit_code == 3, r.stdout + r.stderr
    assert "not a saved game" in r.stderr
