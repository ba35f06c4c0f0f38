"""Fuzz targets for updown: the reader, the checker, the loader, the formula compiler, what
reaches the terminal, and the kinds of file read and written.

Each target takes one input (bytes or text) and must end in diagnostics: an exception
other than the documented ones, or more than ``SLOW_SECONDS`` of CPU, is a failure. The
``terminal`` target puts hostile control strings in records and variant files and fails when
one reaches the rendered diagnostics, the rule book (text, Markdown, HTML) or a console raw
(``escape:...``); the ``files`` target reads and writes (``--force``) a device, a FIFO, a folder,
a symbolic link, and fails when a writer replaces anything but a regular file. Inputs
are made by mutating a seed corpus of valid inputs (records of engine games, the bundled
variant files, the bundled formulas) with byte, line and token mutations, plus a few
structured attacks (deep nesting, huge counts, long names).

``benchmarks/fuzz.py`` runs the targets for minutes in a process pool; ``tests/test_fuzz.py``
runs them briefly with Hypothesis choosing the mutations, and replays ``tests/fuzz_corpus/``.
"""

from __future__ import annotations

import io
import json
import random
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: An input over this much CPU time is a failure ("slow").
SLOW_SECONDS = 2.0
#: The in-process guard stops an input after this long (the count is then "hang").
HANG_SECONDS = 10.0
TARGETS = ("reader", "checker", "loader", "formula", "terminal", "files")


@dataclass(frozen=True)
class Outcome:
    """What one input did: ``ok``, or a failure class (``exception:TypeName``, ``slow``, ``hang``,
    ``unsound:...``) with a short detail."""

    kind: str
    detail: str = ""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.kind != "ok"


class _Hang(BaseException):
    """Raised by the CPU-time guard (a BaseException, so no ``except Exception`` swallows it)."""


def _on_alarm(signum: int, frame: object) -> None:
    raise _Hang()


# --------------------------------------------------------------------------- seed corpus


def _games(count: int, seed: int, compact: bool = False) -> list[str]:
    from updown_dsl import Game, bundled_names, load_variant
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.transcript import format_transcript

    rng = random.Random(seed)
    names = bundled_names()
    out = []
    for i in range(count):
        v = load_variant(names[i % len(names)])
        n = rng.randint(v.min_players, v.max_players)
        g = Game(v, n, seed=rng.randrange(10**6))
        stop = rng.random() < 0.7  # most seeds are games cut short: small inputs, many tries
        limit = rng.randint(10, 150)
        steps = 0
        while not g.is_over and not (stop and steps > limit):
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
        level = "sheet" if compact else ("full", "plays", "sheet")[i % 3]
        out.append(format_transcript(game_transcript(g, level=level, compact=compact)))
    return out


def seed_corpus(target: str, seed: int = 1) -> list[bytes]:
    """Valid inputs of a target, to mutate."""
    if target in ("reader", "checker"):
        texts = _games(24, seed)
        out = [t.encode("utf-8") for t in texts]
        from updown_dsl.records.transcript import parse_transcript, transcript_to_json

        t, _ = parse_transcript(texts[0])
        if t is not None:
            out.append(json.dumps(transcript_to_json(t)).encode("utf-8"))
        out.append(("\n".join(texts[:3])).encode("utf-8"))  # an archive
        out += [text.encode("utf-8") for text in _games(4, seed + 1, compact=True)]  # score sheets, a row a deal
        return out
    if target == "loader":
        from updown_dsl.lang.loader import variants_dir

        return [p.read_bytes() for p in sorted(variants_dir().glob("*.yaml"))]
    if target == "formula":
        from updown_dsl.lang.formula_trees import bundled_formulas

        return [f.encode("utf-8") for f in bundled_formulas()]
    if target == "terminal":  # records (b"R" + text) and variant files (b"V" + text)
        return [b"R" + t for t in seed_corpus("checker", seed)[:8]] + [b"V" + t for t in seed_corpus("loader")]
    if target == "files":  # a kind of file and what is done with it: see _files
        return [bytes([kind, op]) + b"x" for kind in range(len(_KINDS)) for op in range(4)]
    raise ValueError(target)


#: Control strings that act on a terminal, and markup that acts in Markdown or HTML.
HOSTILE = [b"\x1b[2J\x1b[H", b"\x1b]0;owned\x07", b"\x1b[1A\x1b[2K", b"\xc2\x9b2J", b"\xe2\x80\xae", b"\r",
           b"\x08\x08", b"\x7f", b"\x1bP+q\x1b\\", b"\x1b[6n", b"<img src=x onerror=alert(1)>",
           b"<script>alert(2)</script>", b"[x](javascript:alert(3))", b"&lt;b&gt;", b"`", b"*_*", b"\\",
           b"[/b]", b"[bold]", b"[link=x]"]  # (the last are Rich markup: text, never tags)
#: The kinds of file the ``files`` target puts at the path it reads or writes.
_KINDS = ("missing", "regular", "symlink", "dangling", "fifo", "dir", "devnull", "devzero")


# --------------------------------------------------------------------------- mutations

_TOKENS = [b"0", b"-1", b"99999999999999999999", b"1e9", b"/", b"(", b")", b"?", b":", b"//", b"%",
           b"\x00", b"\xff", b"\t", b"\r", b"  ", b"JK", b"10H", b"AS", b"??", b"deal", b"bid", b"play",
           b"penalty", b"replay", b"score", b"total", b"option:", b"variant:", b"players:", b"level:",
           b"extends:", b"&a", b"*a", b"<<: *a", b"!!python/object", b"[", b"]", b"{", b"}", b"~",
           b"0 / 0", b"cards / (players - players)", b"max(", b"min(", b"if", b"==", b"not", b"and",
           b"yes", b"no", b"-", b"- ", b"\"", b"'", b"#", b"|", b" | "]


def _deep(kind: str, depth: int) -> bytes:
    if kind == "json":
        return b"[" * depth + b"]" * depth
    if kind == "yaml":
        return b"name: x\nschedule: " + b"[" * depth + b"]" * depth + b"\n"
    if kind == "yaml-map":
        return b"name: x\n" + b"".join(b"  " * i + b"k:\n" for i in range(depth))
    if kind == "formula":
        return b"(" * depth + b"1" + b")" * depth
    if kind == "formula-neg":
        return b"-" * depth + b"1"
    raise ValueError(kind)


def _attacks(target: str, rng: random.Random, base: bytes) -> bytes:
    """Structured attacks: nesting, counts and sizes at and beyond the limits."""
    depth = rng.choice([50, 200, 1000, 5000, 100_000])
    if target in ("reader", "checker"):
        choice = rng.randrange(7)
        if choice == 0:
            return _deep("json", depth)
        if choice == 1:
            names = " ".join(f"p{i}" for i in range(rng.choice([20, 1000, 100_001])))
            return b"variant: odessa\nplayers: " + names.encode() + b"\n\ndeal 1 cards 1 dealer p1\n"
        if choice == 2:
            return b"variant: " + b"x" * rng.choice([300, 5000, 100_000]) + b"\nplayers: a b c\n"
        if choice == 3:
            return base.replace(b"\n", b"\n" + b"x" * rng.choice([1000, 200_000]) + b"\n", 1)
        if choice == 4:  # an option line with a deep key or a division by zero
            key = ".".join(["k"] * rng.choice([10, 500, 5000]))
            extra = rng.choice([f"option: {key}=1".encode(), b"option: scoring.params.pass=0",
                                b"option: scoring.deal=cards / (bid - bid)",
                                b"option: bidding.max=cards / 0"])
            return base.replace(b"\nplayers:", b"\n" + extra + b"\nplayers:", 1)
        if choice == 5:  # many diagnostics: the body repeated with every line broken
            body = b"\n".join(b"Zed play 11X" for _ in range(rng.choice([1000, 30_000])))
            return base + b"\n" + body + b"\n"
        return b"".join(base.split(b"\n\n")[:1]) + b"\n\n" + b"deal 1 cards 99999 dealer p1\n" * 3
    if target == "loader":
        choice = rng.randrange(5)
        if choice == 0:
            return _deep("yaml", depth)
        if choice == 1:
            return _deep("yaml-map", min(depth, 5000))
        if choice == 2:  # alias expansion
            lines = [b"a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
            for i in range(1, 12):
                prev = f"*a{i - 1}".encode()
                lines.append(f"a{i}: &a{i} [".encode() + b", ".join([prev] * 10) + b"]")
            return b"\n".join(lines) + b"\nname: bomb\n"
        if choice == 3:
            return base + b"\nscoring:\n  deal: " + _deep("formula", depth) + b"\n"
        return base.replace(b"name:", b"extends: " + b"../" * 40 + b"etc/passwd\nname:", 1)
    if target == "formula":
        return _deep(rng.choice(["formula", "formula-neg"]), depth)
    return base


def _schema_values(f: object, rng: random.Random) -> object:
    """A plausible (or nearly plausible) value for one schema field."""
    kind = getattr(f, "type")
    choices = getattr(f, "choices")
    pool: list[object] = [0, 1, 2, 3, -1, 13, 52, 100, True, False, None, "x", [], {}]
    if choices:
        pool += list(choices) * 4
    if kind == "formula":
        pool += ["cards", "bid", "taken", "bid == taken ? 10 * bid : -taken", "cards // 2", "players - 1",
                 "taken // bid", "bid == 0 ? 5 : taken // bid", "max(bid, taken) % (cards - bid)", "deck // players"]
    if kind in ("card", "cards"):
        pool += ["6S", ["6S", "7S"], "JK", "10H", ["AS"]]
    if kind == "suit":
        pool += ["S", "H", "D", "C"]
    return rng.choice(pool)


def _schema_mutation(base: bytes, rng: random.Random) -> bytes | None:
    """Set one key of a variant file to another value of its type (or near it)."""
    import yaml

    from updown_dsl.lang.schema import SCHEMA

    try:
        tree = yaml.safe_load(base)
    except yaml.YAMLError:
        return None
    if not isinstance(tree, dict):
        return None
    for _ in range(rng.choice([1, 1, 2, 3])):
        fields = SCHEMA
        node = tree
        while True:
            key = rng.choice(sorted(fields))
            f = fields[key]
            if f.fields and rng.random() < 0.8:
                child = node.get(key)
                if not isinstance(child, dict):
                    child = node[key] = {}
                node, fields = child, f.fields
                continue
            node[key] = _schema_values(f, rng)
            break
    tree.setdefault("name", "fuzz")
    return yaml.safe_dump(tree, allow_unicode=True, sort_keys=False).encode("utf-8")


def mutate(target: str, base: bytes, rng: random.Random) -> bytes:
    """One mutant of ``base``: a few random edits, or now and then a structured attack."""
    if target == "terminal":  # hostile strings put in the text (a name, a comment, a line, a value)
        data = bytearray(base)
        for _ in range(rng.choice([1, 2, 3])):
            i = rng.randrange(1, len(data) + 1)
            data[i:i] = rng.choice(HOSTILE)
        return bytes(data)
    if target == "files":
        return bytes([rng.randrange(len(_KINDS)), rng.randrange(4)]) + bytes(rng.randrange(256) for _ in range(8))
    if rng.random() < 0.04:
        return _attacks(target, rng, base)
    if target == "loader" and rng.random() < 0.6:
        mutant = _schema_mutation(base, rng)
        if mutant is not None:
            return mutant
    data = bytearray(base)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        op = rng.randrange(9)
        if not data:
            data += rng.choice(_TOKENS)
            continue
        i = rng.randrange(len(data))
        if op == 0:  # flip a byte
            data[i] = rng.randrange(256)
        elif op == 1:  # delete a run
            del data[i:i + rng.randint(1, 8)]
        elif op == 2:  # insert a token
            data[i:i] = rng.choice(_TOKENS)
        elif op == 3:  # swap two lines
            lines = bytes(data).split(b"\n")
            if len(lines) > 2:
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
                data = bytearray(b"\n".join(lines))
        elif op == 4:  # duplicate a line
            lines = bytes(data).split(b"\n")
            j = rng.randrange(len(lines))
            lines.insert(j, lines[j])
            data = bytearray(b"\n".join(lines))
        elif op == 5:  # delete a line
            lines = bytes(data).split(b"\n")
            del lines[rng.randrange(len(lines))]
            data = bytearray(b"\n".join(lines))
        elif op == 6:  # replace a number with another
            j = i
            while j < len(data) and not chr(data[j]).isdigit():
                j += 1
            if j < len(data):
                data[j:j + 1] = str(rng.choice([0, 1, 2, 9, 13, 52, 99, -1, 10**6])).encode()
        elif op == 7:  # truncate
            del data[i:]
        else:  # a byte of a neighbouring value
            data[i] = (data[i] + rng.choice([-1, 1])) % 256
    return bytes(data)


# --------------------------------------------------------------------------- targets


def _reader(data: bytes) -> None:
    from updown_dsl.records.transcript import iter_transcripts, parse_transcript, transcript_from_json

    parse_transcript(data, "fuzz.log")
    for _ in iter_transcripts(io.BytesIO(data), "fuzz.log"):
        pass
    if data.lstrip()[:1] in (b"{", b"["):
        try:
            obj = json.loads(data)
        except (ValueError, UnicodeDecodeError, RecursionError):
            return
        for item in obj if isinstance(obj, list) else [obj]:
            transcript_from_json(item, "fuzz.json")


def _checker(data: bytes) -> None:
    from updown_dsl.records.checker import check_lines, check_text

    if data.lstrip()[:1] in (b"{", b"["):
        check_text(data, "fuzz.json")
        return
    for report in check_lines(io.BytesIO(data), "fuzz.log"):
        report.errors  # noqa: B018 - the report is read as a user would


def _loader(data: bytes) -> Outcome | None:
    from updown_dsl import Game
    from updown_dsl.lang.loader import VariantError, loads_variant
    from updown_dsl.records.checker import check_text
    from updown_dsl.records.record import game_transcript
    from updown_dsl.records.transcript import format_transcript

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    try:
        v = loads_variant(text, "fuzz.yaml")
    except VariantError:
        return None
    # What the loader accepts, the engine must play to the end, and its record check clean.
    rng = random.Random(len(data))
    g = Game(v, v.default_players, seed=rng.randrange(10**6))
    steps = 0
    while not g.is_over:
        legal = g.legal_actions()
        if not legal:
            return Outcome("unsound:no-legal-action", f"deal {g.deal.number}, phase {g.phase}")
        g.apply(rng.choice(legal))
        steps += 1
        if steps > 20_000:
            return Outcome("unsound:endless", f"{steps} actions")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.yaml"
        path.write_text(text, encoding="utf-8")
        record = format_transcript(game_transcript(g, level="full", variant="fuzz.yaml"))
        report = check_text(record, str(Path(folder) / "game.log"))
    if not report.clean:
        return Outcome("unsound:record-fails-check", ", ".join(d.code for d in report.errors)[:200])
    return None


def _formula(data: bytes) -> None:
    from updown_dsl.lang.formula import FormulaError, FormulaEvalError, compile_formula

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    names = ("bid", "taken", "cards", "players", "made", "total", "is_dealer", "deal", "pass")
    try:
        f = compile_formula(text, names)
    except FormulaError:
        return
    rng = random.Random(len(data))
    for _ in range(3):
        env = {n: rng.choice([0, 1, 2, 7, -3, 10**6]) for n in names}
        try:
            f(env)
        except FormulaEvalError:
            pass


def _terminal(data: bytes) -> Outcome | None:
    """Hostile text in a record or a variant file: nothing of it may reach a console raw."""
    from updown_dsl.cli.report import render_diagnostics
    from updown_dsl.cli.safe import safe_console
    from updown_dsl.safetext import UNSAFE

    out = io.StringIO()
    console = safe_console(file=out, width=100, force_terminal=False, color_system=None)
    kind, body = data[:1], data[1:]
    if kind != b"V":
        from updown_dsl.cli.sources import LineWindow
        from updown_dsl.records.archive import Peeked
        from updown_dsl.records.checker import check_lines

        window = LineWindow(Peeked(io.BytesIO(body)))
        for report in check_lines(window, "fuzz.log"):
            text = render_diagnostics(list(report.diagnostics), {"fuzz.log": window})
            if UNSAFE.search(text):
                return Outcome("escape:diagnostics", repr(UNSAFE.search(text).group()))  # type: ignore[union-attr]
            console.print(text, markup=False, soft_wrap=True)
            for d in report.diagnostics:  # the raw words too (a console is the last guard)
                console.print(d.message, d.hint or "", markup=False, soft_wrap=True)
    else:
        from updown_dsl.lang.bookrender import render
        from updown_dsl.lang.loader import VariantError, loads_variant
        from updown_dsl.lang.rulebook import rule_book

        try:
            variant = loads_variant(body.decode("utf-8"), "fuzz.yaml")
        except (VariantError, UnicodeDecodeError):
            return None
        book = rule_book(variant, variant.default_players)
        for fmt in ("text", "md", "html"):
            text = render(book, fmt)
            if UNSAFE.search(text):
                return Outcome(f"escape:rule-book-{fmt}", repr(UNSAFE.search(text).group()))  # type: ignore[union-attr]
        from markdown_it import MarkdownIt

        html = MarkdownIt("commonmark").render(render(book, "md"))
        for tag in ("<img", "<script", "<a "):
            if tag in html:
                return Outcome("escape:markdown-markup", tag)
        if "<img" in render(book, "html") or "<script>alert" in render(book, "html"):
            return Outcome("escape:html-markup", "")
        from rich.table import Table

        table = Table(variant.name)  # a table cell, as `variant show` and `variants` print the words
        table.add_row(variant.description)
        console.print(table)
    if UNSAFE.search(out.getvalue()):
        return Outcome("escape:console", repr(UNSAFE.search(out.getvalue()).group()))  # type: ignore[union-attr]
    return None


def _files(data: bytes) -> Outcome | None:
    """Read and write a path holding one kind of file: reading ends in a report, writing with
    ``--force`` replaces only a regular file (else it is refused), and nothing else changes."""
    import os
    import stat
    import tempfile
    import threading

    from updown_dsl.records.checker import check_games

    data = data + b"\0\0"  # (an edit may have cut it short)
    kind, op = _KINDS[data[0] % len(_KINDS)], data[1] % 4
    record = b"variant: odessa\nplayers: a b c d\n\ndeal 1 cards 1 dealer a\n"
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "target")
        writer = None
        if kind == "regular":
            Path(path).write_bytes(record)
        elif kind == "symlink":
            Path(folder, "real").write_bytes(record)
            os.symlink(os.path.join(folder, "real"), path)
        elif kind == "dangling":
            os.symlink(os.path.join(folder, "nowhere"), path)
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "dir":
            os.mkdir(path)
        elif kind in ("devnull", "devzero"):
            os.symlink("/dev/null" if kind == "devnull" else "/dev/zero", path)
        before = os.lstat(path) if os.path.lexists(path) else None
        if op == 0:  # read it, as `updown check` does
            if kind == "fifo":
                def feed() -> None:
                    with open(path, "wb") as f:
                        f.write(record)
                writer = threading.Thread(target=feed, daemon=True)
                writer.start()
            for report in check_games(path):
                report.errors  # noqa: B018
            if writer is not None:
                writer.join(5)
            return None
        if kind == "devzero" or (kind == "devnull" and op != 3):
            return None  # (writing through a link to a device: refused like any link, below)
        force = op != 1
        try:
            if op == 3:
                from updown_dsl.players.savefile import SaveError, SaveFile

                try:
                    SaveFile.create(path, "variant: odessa\n", force=force).close()
                except (SaveError, FileExistsError):
                    pass
            else:
                from updown_dsl.cli.inputs import _write_new

                try:
                    _write_new(path, "written\n", force)
                except FileExistsError:
                    pass
        except Exception as exc:  # noqa: BLE001
            if type(exc).__name__ not in ("BadParameter",):
                raise
        after = os.lstat(path) if os.path.lexists(path) else None
        if before is not None and not stat.S_ISREG(before.st_mode):
            if after is None or stat.S_IFMT(after.st_mode) != stat.S_IFMT(before.st_mode) \
                    or after.st_ino != before.st_ino:
                return Outcome(f"replaced:{kind}", f"op {op}")
    return None


_RUN: dict[str, Callable[[bytes], Outcome | None]] = {
    "reader": _reader, "checker": _checker, "loader": _loader, "formula": _formula,  # type: ignore[dict-item]
    "terminal": _terminal, "files": _files,
}


def run_one(target: str, data: bytes) -> Outcome:
    """Run one input through a target under the CPU-time guard."""
    old = signal.signal(signal.SIGPROF, _on_alarm) if hasattr(signal, "SIGPROF") else None
    start = time.process_time()
    try:
        if old is not None:
            signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
        result = _RUN[target](data)
        outcome = result if result is not None else Outcome("ok")
    except _Hang:
        outcome = Outcome("hang", f"over {HANG_SECONDS:g} s of CPU")
    except RecursionError:
        outcome = Outcome("exception:RecursionError", "")
    except Exception as exc:  # noqa: BLE001 - every exception is a finding
        tb = exc.__traceback__
        where = ""
        while tb is not None:
            if "updown_dsl" in tb.tb_frame.f_code.co_filename:
                where = f"{Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}"
            tb = tb.tb_next
        outcome = Outcome(f"exception:{type(exc).__name__}", f"{where} {str(exc)[:120]}")
    finally:
        if old is not None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)
    seconds = time.process_time() - start
    if outcome.kind == "ok" and seconds > SLOW_SECONDS:
        outcome = Outcome("slow", f"{seconds:.1f} s of CPU")
    return Outcome(outcome.kind, outcome.detail, seconds)


def inputs(target: str, seed: int) -> Iterator[bytes]:
    """An endless stream of mutants of the target's seed corpus."""
    rng = random.Random(seed)
    corpus = seed_corpus(target, seed)
    while True:
        yield mutate(target, rng.choice(corpus), rng)


def apply_edits(base: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    """``base`` with ``edits`` applied: (operation, position, token index) triples, each position
    taken modulo the length; the deterministic form of :func:`mutate` for Hypothesis to shrink."""
    data = bytearray(base)
    for op, pos, tok in edits:
        token = _TOKENS[tok % len(_TOKENS)]
        if not data:
            data += token
            continue
        i = pos % len(data)
        lines = bytes(data).split(b"\n")
        j = pos % len(lines)
        if op == 0:
            data[i] = pos % 256
        elif op == 1:
            del data[i:i + 1 + pos % 8]
        elif op == 2:
            data[i:i] = token
        elif op == 3:
            k = (pos // 7) % len(lines)
            lines[j], lines[k] = lines[k], lines[j]
            data = bytearray(b"\n".join(lines))
        elif op == 4:
            lines.insert(j, lines[j])
            data = bytearray(b"\n".join(lines))
        elif op == 5:
            del lines[j]
            data = bytearray(b"\n".join(lines))
        elif op == 6:
            lines[j] = token + b" " + lines[j]
            data = bytearray(b"\n".join(lines))
        else:
            del data[i:]
    return bytes(data)
