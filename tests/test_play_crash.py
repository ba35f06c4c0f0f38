"""Crash-safe play: a game saved with ``updown play --save`` survives its process dying.

* Killed at random points (SIGKILL, watched and typed games), ``--resume`` goes on, and the
  finished file is byte for byte the file of the same game played without a stop.
* Cut short at any byte (the process died while writing), it resumes from its last whole
  line; a file cut inside its header is refused, since no card of it was played.
* A second process is refused while one writes the file (exit 3), and the lock of a killed
  process does not stay.
* A full disk or a read-only path stops with a message (exit 3), and what was written stays.
"""

from __future__ import annotations

import errno
import os
import random
import subprocess
import sys
import threading
import time
from io import StringIO
from pathlib import Path
from typing import Any

import pytest

import updown_dsl as ud
from clikit import make_runner
from updown_dsl.players import savefile
from updown_dsl.players.savefile import InUseError, SaveError, SaveFile, whole_part
from updown_dsl.players.session import ResumeError, Session, action_text
from updown_dsl.records.checker import check_file

#: A short game with every kind of line: ten deals of 1 to 4 cards, one of them blind.
VARIANT = """\
name: crash-test
extends: oh-hell
schedule:
  - ramp: [1, 4]
  - {cards: 3, kind: blind}
  - ramp: [4, 1]
kinds:
  blind:
    bidding: before_deal
    multiplier: 2
"""
#: Three deals, for the tests that try many cuts.
SHORT = """\
name: crash-short
extends: oh-hell
schedule:
  - {cards: 1}
  - {cards: 2}
  - {cards: 2, kind: blind}
kinds:
  blind:
    bidding: before_deal
"""
LABEL = "crash.yaml"
ENV = {**os.environ, "COLUMNS": "100", "PYTHONDONTWRITEBYTECODE": "1"}
RUNNER = make_runner()
HUMAN = (b"You bid ", b"You play ")


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "updown_dsl", "play", *args]


def play(*args: str, input: str = ""):
    """``updown play`` in this process (for messages and exit codes)."""
    from updown_dsl.cli import app

    result = RUNNER.invoke(app, ["play", *args], input=input, env={"COLUMNS": "100"})
    assert "Traceback" not in result.stdout + result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def variant(tmp_path: Path, text: str = VARIANT) -> Path:
    path = tmp_path / LABEL
    path.write_text(text, encoding="utf-8")
    return path


class Typist:
    """A frontend that types ``lines`` (or, with ``rng``, a random legal action, kept in
    ``lines``); None at the end of the lines."""

    def __init__(self, lines: list[str] | None = None, rng: random.Random | None = None) -> None:
        self.lines = list(lines or [])
        self.rng = rng

    def turn(self, session: Session, seat: int) -> None:
        pass

    def read(self, session: Session, seat: int, prompt: str) -> str | None:
        if self.rng is not None:
            text = action_text(self.rng.choice(session.game.legal_actions()))
            self.lines.append(text)
            return text
        return self.lines.pop(0) if self.lines else None

    def reply(self, session: Session, seat: int, reply: object) -> None:
        raise AssertionError(f"refused: {reply}")

    def step(self, session: Session, step: object) -> None:
        pass


def library_game(path: Path, seed: int, typed: bool) -> tuple[bytes, list[str]]:
    """The record ``updown play`` writes for this game (made through the library), and the
    lines typed at seat 1 (random legal actions, seeded) when ``typed``."""
    buf = StringIO()
    buf.close = lambda: None  # type: ignore[method-assign]
    session = Session.start(ud.load_variant(str(path)), humans={0} if typed else (), seed=seed,
                            save=buf, variant_label=LABEL)
    typist = Typist(rng=random.Random(seed))
    assert session.run(typist) == "over"
    return buf.getvalue().encode("utf-8"), typist.lines


def waiting_after(path: Path, seed: int, lines: list[str]) -> bytes:
    """The record of the typed game of ``seed`` once ``lines`` are typed, at the next prompt."""
    buf = StringIO()
    buf.close = lambda: None  # type: ignore[method-assign]
    session = Session.start(ud.load_variant(str(path)), humans={0}, seed=seed, save=buf,
                            variant_label=LABEL)
    assert session.run(Typist(lines)) == "stopped"
    return buf.getvalue().encode("utf-8")


def typed_so_far(data: bytes | None) -> int:
    """How many of seat 1's actions the save holds (in its whole lines)."""
    if not data:
        return 0
    return sum(1 for x in data[: data.rfind(b"\n") + 1].split(b"\n") if x.startswith(HUMAN))


def resume_in_process(path: Path, lines: list[str]) -> None:
    """Resume ``path`` through the library, typing on from where it stopped, to the end."""
    session = Session.resume(path)
    try:
        typed = typed_so_far(path.read_bytes())
        assert session.run(Typist(lines[typed:])) == "over"
    finally:
        session.close()


def header_length(data: bytes) -> int:
    return data.index(b"\n\ndeal ") + 1


# --------------------------------------------------------------------------- killed at random


def _feed(stdin: Any, text: str, pause: float) -> None:
    """Type ``text`` into a child's standard input a line at a time (until it dies)."""
    try:
        for line in text.splitlines(keepends=True):
            stdin.write(line.encode("utf-8"))
            stdin.flush()
            time.sleep(pause)
        stdin.close()
    except (BrokenPipeError, OSError, ValueError):  # killed: nobody reads any more
        pass


def play_with_kills(cwd: Path, first: list[str], lines: list[str] | None, kills: int,
                    rng: random.Random, final: int, duration: float) -> int:
    """Play the game of ``first`` (the arguments of its first run) into ``g.log``, killing
    the process ``kills`` times at random points and resuming it each time; the kills
    that found the process running.

    Times are scaled by ``duration``, the wall time of the uninterrupted run, so that the
    kills land while the process runs on a fast machine as on a slow one; typed lines are
    fed one at a time at that pace, as a person types them."""
    save = cwd / "g.log"
    done = 0
    for cycle in range(4 * kills + 10):
        data = save.read_bytes() if save.exists() else None
        if data is not None and b"\nsettlement " in data:
            return done
        # a pause after each bot's move keeps the game going while the kill is on its way
        args = [*(first if data is None else ["--resume", "g.log"]), "--delay", "0.01"]
        typed = "" if lines is None else "".join(x + "\n" for x in lines[typed_so_far(data):])
        proc = subprocess.Popen(command(*args), cwd=cwd, env=ENV, stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert proc.stdin is not None and proc.stderr is not None
        feeder = None
        if lines is None or done >= kills:
            proc.stdin.write(typed.encode("utf-8"))
            proc.stdin.close()
        else:
            feeder = threading.Thread(target=_feed, args=(proc.stdin, typed, duration / max(1, len(lines))),
                                      daemon=True)
            feeder.start()
        killed = False
        if done < kills:
            size = len(data or b"")
            if cycle % 4 == 0 and final - size > final // 3:  # at any moment: starting up, reading
                time.sleep(rng.uniform(0.0, 0.6) * duration)  # the save, playing
            else:  # while it writes: once the file has grown past a random size short of the end
                target = size + rng.randint(1, max(1, 2 * (final - size) // (kills - done + 1)))
                target = min(target, final - max(1, final // 10))  # well before the end
                deadline = time.monotonic() + 30
                while proc.poll() is None and time.monotonic() < deadline and \
                        (save.stat().st_size if save.exists() else 0) < target:
                    time.sleep(0.0005)
            if proc.poll() is None:
                proc.kill()
                killed = True
                done += 1
        rc = proc.wait(timeout=60)
        if feeder is not None:
            feeder.join(timeout=5)
        err = proc.stderr.read().decode("utf-8", "replace")
        proc.stderr.close()
        assert "Traceback" not in err, err
        if not killed:
            assert rc == 0, err
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize("typed", [False, True], ids=["watched", "typed"])
def test_killed_and_resumed_the_file_is_the_uninterrupted_one(tmp_path: Path, typed: bool) -> None:
    variant(tmp_path)
    seed = 5 if typed else 8
    expected, lines = library_game(tmp_path / LABEL, seed, typed)
    start = ["--variant", LABEL, "--seed", str(seed), "--save"]
    who = [] if typed else ["--watch"]
    # Uninterrupted: the command line writes what the library writes.
    began = time.monotonic()
    whole = subprocess.run(command(*start, "whole.log", *who), cwd=tmp_path, env=ENV,
                           input="".join(x + "\n" for x in lines), capture_output=True, text=True,
                           timeout=60)
    duration = time.monotonic() - began
    assert whole.returncode == 0, whole.stderr
    assert (tmp_path / "whole.log").read_bytes() == expected
    # Killed 12 times on the way, and resumed each time.
    kills = play_with_kills(tmp_path, [*start, "g.log", *who], lines if typed else None, 12,
                            random.Random(100 + seed), len(expected), duration)
    assert kills >= 10, kills  # 20 or more in the two games
    assert (tmp_path / "g.log").read_bytes() == expected
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    report = check_file(tmp_path / "g.log")
    assert report.clean and report.finished


# --------------------------------------------------------------------------- cut short


def cuts(data: bytes) -> list[int]:
    """At every line's end, one byte before it (the newline missing) and in its middle."""
    out = set()
    start = 0
    for end in (i + 1 for i, b in enumerate(data) if b == 10):
        out.update({end, end - 1, (start + end) // 2})
        start = end
    return sorted(out)


@pytest.mark.slow
def test_cut_at_any_byte_it_goes_on_from_the_last_whole_line(tmp_path: Path) -> None:
    path = variant(tmp_path, SHORT)
    expected, _ = library_game(path, 4, typed=False)
    head = header_length(expected)
    save = tmp_path / "g.log"
    resumed = 0
    for k in cuts(expected):
        save.write_bytes(expected[:k])
        if k < head:  # cut inside the header: no game to go on with, the file is left alone
            with pytest.raises(ResumeError, match="stops inside its header"):
                Session.resume(save)
            assert save.read_bytes() == expected[:k]
            continue
        if k == len(expected):
            with pytest.raises(ResumeError, match="is over"):
                Session.resume(save)
            continue
        resume_in_process(save, [])
        assert save.read_bytes() == expected, f"cut at {k}: {expected[k - 20:k]!r}"
        resumed += 1
    assert resumed > 150


def test_a_typed_game_cut_mid_line_goes_on(tmp_path: Path) -> None:
    path = variant(tmp_path, SHORT)
    expected, lines = library_game(path, 6, typed=True)
    save = tmp_path / "g.log"
    ends = [i + 1 for i, b in enumerate(expected) if b == 10][10:-1]
    for k in ends[::3]:
        save.write_bytes(expected[: k - 4])  # the last line cut short
        resume_in_process(save, lines)
        assert save.read_bytes() == expected, f"cut at {k - 4}"


def test_whole_part() -> None:
    head = b"variant: x\nplayers: A B C\n_bot: heuristic\nrules: sha256:0\n"
    assert whole_part(head + b"\ndeal 1 cards 1 dealer C\nhand A 7").keep == len(head) + 25
    assert whole_part(head + b"\ndeal 1 ca").keep == len(head)  # the blank line goes too
    assert whole_part(head + b"\n").keep == len(head)
    assert whole_part(head).keep == len(head) and not whole_part(head).header_cut
    assert whole_part(head[:-3]).header_cut and whole_part(b"").header_cut
    noted = head + b"\ndeal 1 cards 1 dealer C\n# a note"  # someone wrote it: it stays
    assert whole_part(noted).keep == len(noted)
    foreign = head.replace(b"_bot: heuristic\n", b"") + b"\ndeal 1 cards 1 dealer C\nhand A 7H"
    part = whole_part(foreign)  # not written by updown play: kept as it is
    assert part.keep == len(foreign) and not part.by_play and not part.header_cut


def test_a_finished_game_cut_before_its_settlement_is_completed(tmp_path: Path) -> None:
    path = variant(tmp_path, SHORT)
    expected, _ = library_game(path, 3, typed=False)
    save = tmp_path / "g.log"
    last_card = expected.rindex(b"\nscore ") + 1
    for k in (last_card, expected.rindex(b"\nsettlement ") + 1, len(expected) - 5):
        save.write_bytes(expected[:k])
        r = play("--resume", str(save))
        assert r.exit_code == 0, r.stderr
        assert "Game over" in r.stdout
        assert save.read_bytes() == expected


def test_a_header_cut_short_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = variant(tmp_path, SHORT)
    expected, _ = library_game(path, 3, typed=False)
    save = tmp_path / "g.log"
    for k in (0, 30, header_length(expected) - 1):
        save.write_bytes(expected[:k])
        r = play("--resume", str(save))
        assert r.exit_code == 3
        assert "stops inside its header" in r.stderr and "--force" in r.stderr
        assert save.read_bytes() == expected[:k]
    # Its whole header and nothing more: the game starts.
    save.write_bytes(expected[: header_length(expected)])
    assert play("--resume", str(save), "--watch").exit_code == 0
    assert save.read_bytes() == expected


def test_a_record_from_elsewhere_keeps_its_last_line(tmp_path: Path) -> None:
    path = variant(tmp_path, SHORT)
    expected, _ = library_game(path, 0, typed=False)
    foreign = expected.replace(b"_bot: heuristic\n", b"")  # not a header updown play wrote
    stop = foreign.index(b"\n", foreign.index(b"play ")) + 1
    save = tmp_path / "g.log"
    save.write_bytes(foreign[: stop - 1])  # its last line whole, without the newline
    r = play("--resume", str(save), "--watch")
    assert r.exit_code == 0, r.stderr
    assert save.read_bytes() == foreign


# --------------------------------------------------------------------------- one process at a time


@pytest.mark.slow
def test_a_second_process_is_refused_and_a_killed_ones_lock_does_not_stay(tmp_path: Path) -> None:
    variant(tmp_path)
    expected, lines = library_game(tmp_path / LABEL, 3, typed=True)
    save = tmp_path / "g.log"
    first = subprocess.Popen(command("--variant", LABEL, "--seed", "3", "--save", "g.log"), cwd=tmp_path,
                             env=ENV, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    assert first.stdin is not None
    first.stdin.write(lines[0].encode() + b"\n")  # one bid, then it waits for the next line
    first.stdin.flush()
    waiting = waiting_after(tmp_path / LABEL, 3, lines[:1])
    try:
        deadline = time.monotonic() + 30
        while (save.read_bytes() if save.exists() else b"") != waiting:  # at the next prompt
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.01)
        before = waiting
        r = play("--resume", str(save))
        assert r.exit_code == 3
        assert "is in use: another `updown play` is writing this game" in r.stderr
        r = play("--variant", str(tmp_path / LABEL), "--save", str(save), "--force", "--watch")
        assert r.exit_code == 3 and "is in use" in r.stderr
        with pytest.raises(InUseError):
            SaveFile.open(save)
        assert save.read_bytes() == before
    finally:
        first.kill()  # SIGKILL: the lock dies with it
        first.wait(timeout=30)
        first.stdin.close()
    r = play("--resume", str(save), input="".join(x + "\n" for x in lines[1:]))
    assert r.exit_code == 0, r.stderr
    assert save.read_bytes() == expected


def test_the_lock_is_held_until_closed(tmp_path: Path) -> None:
    if savefile.LOCKING != "flock":  # pragma: no cover
        pytest.skip("no flock here")
    path = variant(tmp_path, SHORT)
    save = tmp_path / "g.log"
    session = Session.start(ud.load_variant(str(path)), humans={0}, seed=1, save=save)
    assert isinstance(session.record.stream, SaveFile) and session.record.stream.locked  # type: ignore[union-attr]
    with pytest.raises(ResumeError, match="in use"):
        Session.resume(save)
    with pytest.raises(InUseError):
        Session.start(ud.load_variant(str(path)), seed=1, save=save, force=True)
    session.close()
    Session.resume(save).close()


# --------------------------------------------------------------------------- a full disk, a read-only path


def full_disk(monkeypatch: pytest.MonkeyPatch, after: int) -> list[int]:
    """Writes fail with ENOSPC from the ``after``-th on (having written a few bytes)."""
    calls = [0]
    real = savefile._write_all

    def write(fd: int, data: bytes) -> None:
        calls[0] += 1
        if calls[0] > after:
            os.write(fd, data[:3])
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fd, data)

    monkeypatch.setattr(savefile, "_write_all", write)
    return calls


def test_a_full_disk_stops_the_game_and_keeps_what_was_written(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = variant(tmp_path)
    expected, _ = library_game(path, 7, typed=False)
    save = tmp_path / "g.log"
    full_disk(monkeypatch, 30)
    r = play("--variant", str(path), "--seed", "7", "--watch", "--save", str(save))
    assert r.exit_code == 3
    assert f"cannot write to {save}: No space left on device" in r.stderr
    assert "Game stopped in deal" in r.stdout and "--resume" in r.stdout
    kept = save.read_bytes()
    assert kept.endswith(b"\n") and expected.startswith(kept) and len(kept) > 300
    report = check_file(save)
    assert report.clean and not report.finished
    monkeypatch.undo()  # room again: it goes on
    assert play("--resume", str(save)).exit_code == 0
    assert save.read_bytes() == expected


def test_a_full_disk_when_resuming_leaves_the_file_as_it_was(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = variant(tmp_path, SHORT)
    expected, _ = library_game(path, 3, typed=False)
    save = tmp_path / "g.log"
    cut = expected[: expected.rindex(b"\nscore ") + 1]  # the last card on file, not the end
    save.write_bytes(cut)
    full_disk(monkeypatch, 0)
    r = play("--resume", str(save))
    assert r.exit_code == 3 and f"cannot write to {save}: No space left on device" in r.stderr
    assert f"`updown play --resume {save}` continues" in r.stderr
    assert save.read_bytes() == cut
    monkeypatch.undo()
    assert play("--resume", str(save)).exit_code == 0
    assert save.read_bytes() == expected


def test_a_full_disk_when_the_file_is_made_leaves_nothing(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = variant(tmp_path)
    full_disk(monkeypatch, 0)
    r = play("--variant", str(path), "--seed", "7", "--watch", "--save", str(tmp_path / "g.log"))
    assert r.exit_code == 3 and "cannot create" in r.stderr and "No space left" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [LABEL]


def test_a_failed_write_is_written_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = variant(tmp_path, SHORT)
    expected, _ = library_game(path, 2, typed=False)
    save = tmp_path / "g.log"
    session = Session.start(ud.load_variant(str(path)), seed=2, save=save, variant_label=LABEL)
    for _ in range(6):
        session.apply(session.bot_action())
    calls = full_disk(monkeypatch, 0)
    with pytest.raises(SaveError, match="No space left on device"):
        session.apply(session.bot_action())
    assert calls[0] == 1
    monkeypatch.undo()
    assert session.record is not None and session.record.sync(session.game) > 0
    while not session.over:
        session.apply(session.bot_action())
    session.close()
    assert save.read_bytes() == expected


def test_a_read_only_path_is_refused_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = variant(tmp_path)
    locked = tmp_path / "ro"
    locked.mkdir()
    real = os.open

    def read_only(name: object, flags: int, *args: object) -> int:
        if str(name).startswith(str(locked)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise PermissionError(errno.EACCES, "Permission denied", str(name))
        return real(name, flags, *args)  # type: ignore[arg-type]

    saved = locked / "g.log"
    expected, _ = library_game(path, 1, typed=False)
    saved.write_bytes(expected[: header_length(expected) + 40])
    monkeypatch.setattr(savefile.os, "open", read_only)  # as a read-only folder does, even for root
    r = play("--variant", str(path), "--watch", "--save", str(locked / "new.log"))
    assert r.exit_code == 3 and f"cannot create {locked / 'new.log'}: Permission denied" in r.stderr
    r = play("--resume", str(saved))
    assert r.exit_code == 3 and f"cannot write to {saved}: Permission denied" in r.stderr
    assert saved.read_bytes() == expected[: header_length(expected) + 40]
    assert sorted(p.name for p in locked.iterdir()) == ["g.log"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes in a read-only folder")
def test_a_chmod_read_only_folder_and_file(tmp_path: Path) -> None:
    path = variant(tmp_path)
    expected, _ = library_game(path, 1, typed=False)
    folder = tmp_path / "ro"
    folder.mkdir()
    saved = folder / "g.log"
    saved.write_bytes(expected[:500])
    saved.chmod(0o444)
    folder.chmod(0o555)
    try:
        r = play("--variant", str(path), "--watch", "--save", str(folder / "new.log"))
        assert r.exit_code == 3 and "cannot create" in r.stderr and "Permission denied" in r.stderr
        r = play("--resume", str(saved))
        assert r.exit_code == 3 and "cannot write to" in r.stderr
        assert saved.read_bytes() == expected[:500]
        assert sorted(p.name for p in folder.iterdir()) == ["g.log"]
    finally:
        folder.chmod(0o755)
        saved.chmod(0o644)


def test_a_hidden_file_left_by_a_killed_save_is_swept_by_the_next(tmp_path: Path) -> None:
    stale = tmp_path / ".g.log.0badf00d.tmp"
    stale.write_text("variant: x\n", encoding="utf-8")  # its maker died: nobody holds it locked
    other = tmp_path / ".other.log.0badf00d.tmp"
    other.write_text("variant: x\n", encoding="utf-8")
    save = SaveFile.create(tmp_path / "g.log", "variant: crash.yaml\n")
    save.close()
    assert other.exists()  # another save's: not this one's to sweep
    if savefile.LOCKING == "flock":
        assert not stale.exists()
        assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".g.log.")]
