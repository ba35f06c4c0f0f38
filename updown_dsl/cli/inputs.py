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
    """The files named on the command line: glob patterns expanded, each input (a file, standard
    input, a FIFO) read once as a stream, never whole, the lines just read kept to quote under
    diagnostics (:class:`~updown_dsl.cli.sources.LineWindow`)."""

    def __init__(self, variant_path: Sequence[str] = (), jobs: int = 1, scheduler: str | None = None) -> None:
        self._windows: dict[str, Any] = {}
        self._json: dict[str, bool] = {}
        self.variant_path = list(variant_path)
        self.jobs = jobs
        self.scheduler = scheduler

    @staticmethod
    def expand(args: list[str]) -> list[str]:
        """Each argument as given, the files a glob pattern the shell left alone matches, or the
        records in a folder (its ``*.log`` and ``*.json`` files, sorted; the folder itself when
        it holds none, which is then reported)."""
        out: list[str] = []
        seen: set[str] = set()
        for arg in args:
            found = [arg]
            if arg != STDIN and os.path.isdir(arg):
                found = sorted(os.path.join(arg, f) for f in os.listdir(arg)
                               if f.endswith((".log", ".json")) and os.path.isfile(os.path.join(arg, f))) or [arg]
            elif arg != STDIN and not os.path.lexists(arg):
                import glob  # (only for a name that is no file: most are one)

                if glob.has_magic(arg):
                    matches = sorted(m for m in glob.glob(arg, recursive=True) if not os.path.isdir(m))
                    found = matches or [arg]
            for f in found:
                if f not in seen:
                    seen.add(f)
                    out.append(f)
        return out

    @staticmethod
    def name(arg: str) -> str:
        return STDIN_NAME if arg == STDIN else arg

    def _open(self, arg: str) -> "tuple[Any, Diagnostic | None]":
        """The input as a peeked, windowed binary stream, or None and the ``T001`` that says
        why it cannot be read (a missing file, a folder, standard input closed)."""
        import sys

        from ..diagnostics import Diagnostic
        from ..records.archive import Peeked
        from .sources import LineWindow

        name = self.name(arg)
        if arg == STDIN:
            stdin = sys.stdin
            if stdin is None or getattr(stdin, "closed", False):
                return None, Diagnostic("T001", tr("standard input is closed: there is nothing to read"),
                                        path=name)
            raw: Any = getattr(stdin, "buffer", None) or _Encoded(stdin)
            closer = None
        else:
            try:
                raw = closer = open(arg, "rb")
            except OSError as exc:
                return None, Diagnostic("T001", tr("cannot read the file: {value}", value=exc.strerror or exc),
                                        path=name)
        try:
            window = LineWindow(Peeked(raw, 64), owner=closer)
        except (OSError, ValueError) as exc:  # a folder opens, and fails on the first read
            if closer is not None:
                closer.close()
            return None, Diagnostic("T001", tr("cannot read the file: {value}",
                                               value=getattr(exc, "strerror", None) or exc), path=name)
        self._json[arg] = _is_json(window.head)
        if not self._json[arg]:  # the JSON form's lines are not the file's: never quoted
            self._windows[name] = window
        return window, None

    def reports(self, arg: str) -> "Iterator[CheckReport]":
        """Check every game of one input (a file or ``-``), one at a time, as it is read."""
        from ..records.checker import CheckReport, check_lines
        from ..records.jsonform import read_json_bytes
        from .foreign import foreign_reports, is_foreign

        if is_foreign(arg):  # a shared sheet's string, a CSV or JSON sheet of bids and tricks
            self._keep_lines(arg)
            yield from foreign_reports(arg, self.variant_path)
            return
        stream, problem = self._open(arg)
        name = self.name(arg)
        if problem is not None:
            yield CheckReport(name, (problem,), readable=False)
            return
        try:
            if self._json[arg]:
                yield from _check_bytes(read_json_bytes(stream), name, self.variant_path)
            elif self.jobs != 1 or self.scheduler is not None:
                from ..batch import check_games_jobs

                yield from check_games_jobs(stream, name, jobs=self.jobs, scheduler=self.scheduler,
                                            variant_path=self.variant_path)
            else:
                yield from check_lines(stream, name, variant_path=self.variant_path)
        finally:
            stream.close()

    def records(self, arg: str) -> "list[tuple[Transcript | None, list[Diagnostic]]]":
        """Read every game of one input (a file or ``-``) without checking it."""
        from ..records.jsonform import read_json_bytes
        from ..records.transcript import iter_transcripts
        from .foreign import foreign_records, is_foreign

        if is_foreign(arg):
            self._keep_lines(arg)
            return foreign_records(arg, self.variant_path)
        stream, problem = self._open(arg)
        name = self.name(arg)
        if problem is not None:
            return [(None, [problem])]
        try:
            if self._json[arg]:
                return list(_read_bytes(read_json_bytes(stream), name))
            return list(iter_transcripts(stream, name))
        finally:
            stream.close()

    def _keep_lines(self, arg: str) -> None:
        """Keep the first lines of a sheet another app wrote (a file, not a shared string) to
        quote under its diagnostics: they point at its own cells."""
        from .sources import WINDOW_BYTES, LineWindow

        if arg == STDIN or not os.path.isfile(arg):
            return
        try:
            with open(arg, "rb") as f:
                window = LineWindow(f)
                window.read(WINDOW_BYTES)
        except OSError:
            return
        self._windows[self.name(arg)] = window

    def is_json(self, arg: str) -> bool:
        """Whether an input read so far is in the JSON form."""
        return self._json.get(arg, False)

    def source(self, path: str | None) -> Any:
        """Where the lines of an input are quoted from (None: do not show them)."""
        return self._windows.get(path) if path is not None else None

    def render(self, diags: "list[Diagnostic]") -> str:
        from .report import render_diagnostics

        sources: dict[str, Any] = {}
        for d in diags:
            if d.path and d.path not in sources and d.line is not None and d.code != "T001":
                source = self.source(d.path)
                if source is not None:
                    sources[d.path] = source
        return render_diagnostics(diags, sources)


class _Encoded:
    """A text stream read as UTF-8 bytes (a standard input without a binary buffer)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def read(self, size: int = -1) -> bytes:
        return str(self._stream.read(size)).encode("utf-8")


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
    return inputs.is_json(arg)


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
