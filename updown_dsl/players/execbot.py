"""A bot that is another program: it gets a seat's view as a JSON line and answers an action.

:class:`ExecBot` starts the program when first asked to act and keeps it for the game; each
decision is one line out (:func:`~updown_dsl.players.protocol.act_message`) and one line back
(``{"action": "AS"}``), within ``timeout`` seconds. When the program cannot be started,
answers late, dies, or answers something that is not a legal action, the seat forfeits that
decision to a fallback bot (``exec:`` bots of :func:`~updown_dsl.players.bots.make_bot`: the heuristic): the game goes on, and a
:class:`Forfeit` says what happened (kept in :attr:`ExecBot.forfeits`, passed to
``on_forfeit``). A program that timed out or died is started afresh at the next decision, up to
:data:`MAX_STARTS` times a game; after that the fallback plays on alone.

This is the edge of the players: the one module that runs a process (POSIX pipes and process
groups: Linux and macOS).
"""

from __future__ import annotations

import os
import selectors
import shlex
import shutil
import signal
import subprocess
import time
import weakref
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Callable, Sequence

from ..actions import Action
from ..engine.view import SeatView
from ..i18n import tr
from .protocol import ErrorCode, ProtocolError, act_message, decode_answer, dumps

if TYPE_CHECKING:  # pragma: no cover
    from .bots import Bot

__all__ = ["DEFAULT_TIMEOUT", "ExecBot", "Fault", "Forfeit", "MAX_STARTS", "command_problem", "split_command"]

#: Seconds a program has to answer one decision.
DEFAULT_TIMEOUT = 10.0
#: How many times a game a program is started (the first time and after each timeout or death).
MAX_STARTS = 3
#: The longest answer line read (bytes); a longer one is a bad answer.
MAX_ANSWER = 64 * 1024


class Fault(StrEnum):
    """Why a decision went to the fallback bot."""

    NO_START = "no-start"
    """The program could not be started (or was given up after :data:`MAX_STARTS` starts)."""
    TIMEOUT = "timeout"
    CRASH = "crash"
    """The program ended, or closed its output, before answering."""
    BAD_ANSWER = "bad-answer"
    """The answer is not JSON, or not an object with an ``action``, or not an action."""
    ILLEGAL = "illegal"
    """The answer is an action, but not a legal one now."""


@dataclass(frozen=True)
class Forfeit:
    """One decision the program did not make: the seat, the deal, why, and what the fallback
    played instead (``detail``: the error or the answer, for the log)."""

    seat: int
    deal: int
    fault: Fault
    detail: str
    played: Action

    def describe(self) -> str:
        """One line for a log, in the reader's language."""
        words = {Fault.NO_START: tr("could not be started"), Fault.TIMEOUT: tr("did not answer in time"),
                 Fault.CRASH: tr("ended without answering"), Fault.BAD_ANSWER: tr("answered no action"),
                 Fault.ILLEGAL: tr("answered an illegal action")}
        return tr("seat {seat}, deal {deal}: the program {what} ({detail}); the fallback played {action}",
                  seat=self.seat + 1, deal=self.deal, what=words[self.fault], detail=self.detail,
                  action=str(self.played))


def split_command(text: str) -> list[str]:
    """The words of a command as a shell would split them (``python3 bot.py --fast``).

    :raises ValueError: for an unclosed quote.
    """
    return shlex.split(text)


def command_problem(text: str) -> str | None:
    """Why ``text`` names no program that can be run (None when it does)."""
    try:
        words = split_command(text)
    except ValueError as exc:
        return tr("the command {command!r} cannot be read: {exc}", command=text, exc=exc)
    if not words:
        return tr("exec: needs a program, such as exec:./mybot or exec:'python3 bot.py'")
    program = words[0]
    if os.sep in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            return tr("{program!r} is not a program that can be run (a file with the execute permission)",
                      program=program)
    elif shutil.which(program) is None:
        return tr("no program {program!r} on the PATH", program=program)
    return None


class ExecBot:
    """An external program at a seat (see the module); the fallback plays what it does not."""

    def __init__(self, command: str | Sequence[str], fallback: Bot, *, timeout: float = DEFAULT_TIMEOUT,
                 on_forfeit: Callable[[Forfeit], None] | None = None,
                 cwd: str | None = None) -> None:
        self.command = split_command(command) if isinstance(command, str) else list(command)
        self.name = "exec:" + " ".join(shlex.quote(w) for w in self.command)
        self.timeout = timeout
        self.fallback = fallback
        self.on_forfeit = on_forfeit
        self.cwd = cwd
        self.forfeits: list[Forfeit] = []
        self.starts = 0
        """Times the program was started this game."""
        self.given_up = False
        """True once the program is no longer started (it could not be, or died too often)."""
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._finalizer: weakref.finalize[[subprocess.Popen[bytes]], ExecBot] | None = None

    @property
    def rng(self) -> object:
        """The fallback bot's random generator (a session seeds it before each decision)."""
        return getattr(self.fallback, "rng", None)

    @rng.setter
    def rng(self, value: object) -> None:
        if hasattr(self.fallback, "rng"):
            self.fallback.rng = value

    # -- the process ---------------------------------------------------------------------------
    def _start(self) -> subprocess.Popen[bytes] | str:
        """The running program, or why there is none."""
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self._stop()
        if self.given_up or self.starts >= MAX_STARTS:
            self.given_up = True
            return tr("given up after {n} starts", n=self.starts)
        self.starts += 1
        try:
            proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
                                    stderr=subprocess.DEVNULL, cwd=self.cwd, start_new_session=True)
            assert proc.stdin is not None
            os.set_blocking(proc.stdin.fileno(), False)
        except (OSError, ValueError) as exc:
            self.given_up = True  # a program that cannot start will not start next time either
            return str(exc)
        self._proc, self._buffer = proc, b""
        self._finalizer = weakref.finalize(self, _end, proc)
        return proc

    def _stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # ends the process (once)
        self._proc, self._finalizer, self._buffer = None, None, b""

    def close(self) -> None:
        """End the program (also done when the bot is collected)."""
        self._stop()

    def __enter__(self) -> ExecBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _exchange(self, proc: subprocess.Popen[bytes], line: str) -> tuple[bytes | None, Fault | None, str]:
        """Send one line, read one line back, both within the time: the answer, or the fault and
        its detail. The input is written without blocking: a program that never reads it
        cannot hang updown once the pipe is full."""
        assert proc.stdin is not None and proc.stdout is not None
        deadline = time.monotonic() + self.timeout
        late = tr("no answer within {seconds} s", seconds=self.timeout)
        self._buffer = b""  # (lines a program wrote beyond its answers are not answers to this)
        data = memoryview(line.encode("utf-8") + b"\n")
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE)
            while data:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return None, Fault.TIMEOUT, late
                try:
                    data = data[os.write(proc.stdin.fileno(), data):]
                except BlockingIOError:
                    continue
                except OSError as exc:  # (a broken pipe: the program has gone)
                    return None, Fault.CRASH, str(exc)
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_ANSWER:
                    return None, Fault.BAD_ANSWER, tr("an answer longer than {n} bytes", n=MAX_ANSWER)
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    return None, Fault.TIMEOUT, late
                chunk = os.read(fd, 65536)
                if not chunk:
                    code = proc.poll()
                    return None, Fault.CRASH, tr("exit status {code}", code=code) if code is not None \
                        else tr("the program closed its output")
                self._buffer += chunk
        answer, _, self._buffer = self._buffer.partition(b"\n")
        return answer, None, ""

    # -- the bot -------------------------------------------------------------------------------
    def act(self, view: SeatView) -> Action:
        """The program's action for ``view``, or the fallback's when it makes none."""
        proc = self._start()
        if isinstance(proc, str):
            return self._forfeit(view, Fault.NO_START, proc)
        answer, fault, detail = self._exchange(proc, dumps(act_message(view)))
        if fault is not None:
            self._stop()  # out of step with its answers: a fresh start next time
            return self._forfeit(view, fault, detail)
        assert answer is not None
        action = decode_answer(answer, view)
        if isinstance(action, ProtocolError):
            fault = Fault.ILLEGAL if action.code is ErrorCode.ILLEGAL_ACTION else Fault.BAD_ANSWER
            return self._forfeit(view, fault, f"{answer[:200].decode('utf-8', 'replace')!r}: {action.message}")
        return action

    def _forfeit(self, view: SeatView, fault: Fault, detail: str) -> Action:
        played = self.fallback.act(view)
        event = Forfeit(view.seat, view.deal.number, fault, detail, played)
        self.forfeits.append(event)
        if self.on_forfeit is not None:
            self.on_forfeit(event)
        return played


def _end(proc: subprocess.Popen[bytes]) -> None:
    """End a program: close its input (a well-behaved bot stops at the end of its input), then
    kill it if it is still there a moment later."""
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=0.5)
    except subprocess.TimeoutExpired:
        try:  # the program and whatever it started (it leads a process group of its own)
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()
