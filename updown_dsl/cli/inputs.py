"""The game records named on the command line: files, glob patterns and standard input, read once;
and writing an output file without losing what was there."""

import os
from typing import TYPE_CHECKING, Any, Iterator, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from ..diagnostics import Diagnostic
    from ..records.checker import CheckReport
    from ..records.transcript import Transcript

from ..i18n import tr
from .common import _console, _styled, _usage_error

# --------------------------------------------------------------------------- game records: inputs

STDIN = "-"
STDIN_NAME = "<stdin>"


class _Inputs:
    """The files named on the command line: glob patterns expanded, standard input read once,
    each file's text kept for the source lines of diagnostics."""

    def __init__(self, variant_path: Sequence[str] = (), jobs: int = 1, scheduler: str | None = None) -> None:
        self._stdin: bytes | None = None
        self._texts: dict[str, str | None] = {}
        self.variant_path = list(variant_path)
        self.jobs = jobs
        self.scheduler = scheduler

    @staticmethod
    def expand(args: list[str]) -> list[str]:
        """Each argument as given, or the files a glob pattern the shell left alone matches."""
        import glob

        out: list[str] = []
        seen: set[str] = set()
        for arg in args:
            found = [arg]
            if arg != STDIN and not os.path.lexists(arg) and glob.has_magic(arg):
                matches = sorted(m for m in glob.glob(arg, recursive=True) if not os.path.isdir(m))
                found = matches or [arg]
            for f in found:
                if f not in seen:
                    seen.add(f)
                    out.append(f)
        return out

    def stdin(self) -> bytes:
        if self._stdin is None:
            import sys

            stream = getattr(sys.stdin, "buffer", None)
            self._stdin = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
        return self._stdin

    @staticmethod
    def name(arg: str) -> str:
        return STDIN_NAME if arg == STDIN else arg

    def reports(self, arg: str) -> "Iterator[CheckReport]":
        """Check every game of one input (a file or ``-``), one at a time."""
        from ..records.checker import check_games

        if self.jobs != 1 or self.scheduler is not None:
            yield from self._reports_by_jobs(arg)
        elif arg == STDIN:
            yield from _check_bytes(self.stdin(), STDIN_NAME, self.variant_path)
        else:
            yield from check_games(arg, variant_path=self.variant_path)

    def _reports_by_jobs(self, arg: str) -> "Iterator[CheckReport]":
        """The reports of one input, its games checked in several processes (JSON: here)."""
        import io

        from ..batch import check_games_jobs
        from ..records.checker import check_games

        if arg == STDIN:
            data = self.stdin()
            if _is_json(data):
                yield from _check_bytes(data, STDIN_NAME, self.variant_path)
                return
            lines: Any = io.BytesIO(data)
            name = STDIN_NAME
        else:
            try:
                with open(arg, "rb") as f:
                    json_form = _is_json(f.read(4096))
            except OSError:
                json_form = True  # check_games reports the unreadable file
            if json_form:
                yield from check_games(arg, variant_path=self.variant_path)
                return
            lines, name = open(arg, "rb"), arg
        with lines:
            yield from check_games_jobs(lines, name, jobs=self.jobs, scheduler=self.scheduler,
                                        variant_path=self.variant_path)

    def records(self, arg: str) -> "list[tuple[Transcript | None, list[Diagnostic]]]":
        """Read every game of one input (a file or ``-``) without checking it."""
        name = self.name(arg)
        if arg == STDIN:
            data = self.stdin()
        else:
            from ..diagnostics import Diagnostic

            try:
                with open(arg, "rb") as f:
                    data = f.read()
            except OSError as exc:
                return [(None, [Diagnostic("T001", tr("cannot read the file: {value}",
                                                      value=exc.strerror or exc),
                                           path=name)])]
        return list(_read_bytes(data, name))

    def source(self, path: str | None) -> str | None:
        """A file's text for the source line under a diagnostic (None: do not show one)."""
        from .report import read_source

        if path is None:
            return None
        if path not in self._texts:
            if path == STDIN_NAME:
                try:
                    text: str | None = self.stdin().decode("utf-8")
                except UnicodeDecodeError:
                    text = None
            else:
                text = read_source(path)
            # The JSON form is read through a rebuilt log: its line numbers are not the file's.
            if text is not None and text.lstrip("\ufeff \t\r\n")[:1] in ("{", "["):
                text = None
            self._texts[path] = text
        return self._texts[path]

    def render(self, diags: "list[Diagnostic]") -> str:
        from .report import render_diagnostics

        sources: dict[str, str] = {}
        for d in diags:
            if d.path and d.path not in sources and d.line is not None and d.code != "T001":
                text = self.source(d.path)
                if text is not None:
                    sources[d.path] = text
        return render_diagnostics(diags, sources)


def _is_json(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[")


def _read_bytes(data: bytes, name: str) -> "Iterator[tuple[Transcript | None, list[Diagnostic]]]":
    """The games of a log or of the JSON form (one game or a list), as the reader gives them."""
    import io

    from ..records.jsonform import load_json
    from ..records.transcript import iter_transcripts, transcript_from_json

    if _is_json(data):
        obj, problem = load_json(data, name)
        if problem is not None:
            yield None, [problem]
            return
        for item in obj if isinstance(obj, list) else [obj]:
            yield transcript_from_json(item, name)
        return
    yield from iter_transcripts(io.BytesIO(data), name)


def _check_bytes(data: bytes, name: str, variant_path: Sequence[str] = ()) -> "Iterator[CheckReport]":
    """:func:`~updown_dsl.records.checker.check_games` for text that is not in a file (standard input)."""
    from ..records.checker import CheckReport, check_lines, check_transcript

    if not _is_json(data):
        import io

        yield from check_lines(io.BytesIO(data), name, variant_path=variant_path)
        return
    for t, diags in _read_bytes(data, name):
        if t is None:
            yield CheckReport(name, tuple(diags), readable=False)
        else:
            yield check_transcript(t, diags, variant_path=variant_path)


def _print_rendered(text: str, *, stderr: bool) -> None:
    if text:
        _console(stderr).print(_styled(text), soft_wrap=True)




def _input_is_json(inputs: _Inputs, arg: str) -> bool:
    if arg == STDIN:
        return _is_json(inputs.stdin())
    with open(arg, "rb") as f:
        return _is_json(f.read(4096))


def _write_new(path: str, text: str, force: bool) -> None:
    """Write ``text`` to ``path``: a new file, or (``force``) replace a regular file there in
    one step (never a device, a FIFO, a folder or a symbolic link: that is refused, exit 3).
    The file gets the mode the umask says, with or without ``force``."""
    from ..outfiles import not_replaceable, refusal, umask_mode

    data = text.encode("utf-8")
    if not force:
        try:
            with open(path, "xb") as f:
                f.write(data)
        except FileExistsError:
            _usage_error(tr("{path} exists; add --force to overwrite it", path=path), "--output")
        return
    what = not_replaceable(path)
    if what is not None:
        raise FileExistsError(refusal(path, what))
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".updown-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, umask_mode())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
