"""Text from a record, a variant file or a name never acts on the terminal, the Markdown or the HTML.

:mod:`updown_dsl.safetext` has one escaping function per medium; the command line shows every
such text through them (:mod:`updown_dsl.cli.safe` for the terminal). A corpus of hostile strings
(screen clears, cursor moves, window titles, 8-bit CSI, bidirectional overrides, raw HTML and
script) is put in records and variant files and run through every command and format.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from updown_dsl.safetext import UNSAFE, excerpt, for_html, for_markdown, for_markdown_spans, for_terminal

from clikit import make_runner

sys.path.insert(0, str(Path(__file__).resolve().parent / "fuzz_corpus"))

#: Strings an attacker or a careless editor puts in a record or a variant file.
HOSTILE = [
    "\x1b[2J\x1b[H1 file, 1 game: 1 clean",   # clear the screen, print a forged verdict
    "\x1b]0;owned\x07",                       # set the window title
    "\x1b[1A\x1b[2K",                         # move up and erase the line above
    "\x9b2J",                                 # the 8-bit CSI
    "\u202egnp.exe",                          # right-to-left override
    "ok\rforged",                             # carriage return over what was shown
    "\x08\x08\x08\x7f",                       # backspaces, DEL
    "<img src=x onerror=alert(1)>",           # raw HTML in Markdown
    "<script>alert(2)</script>",
    "[click](javascript:alert(3))",
    "&lt;script&gt;alert(4)&lt;/script&gt;",  # entities a renderer would decode
]


@pytest.mark.parametrize("text", HOSTILE)
def test_terminal_text_has_no_control_character(text: str) -> None:
    shown = for_terminal(text, one_line=True)
    assert UNSAFE.search(shown) is None and "\n" not in shown and "\r" not in shown
    # visible: every escaped character is named, nothing is dropped
    assert len(shown) >= len(text)


def test_terminal_keeps_tabs_and_line_ends_and_plain_text() -> None:
    assert for_terminal("Anna\tBoris\nВера ♠") == "Anna\tBoris\nВера ♠"
    assert for_terminal("a\x1bb\u202ec\x9bd\re") == "a\\x1bb\\u202ec\\x9bd\\re"


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_text_renders_as_the_same_words(text: str) -> None:
    md = MarkdownIt("commonmark")
    rendered = md.render("# " + for_markdown(text, one_line=True) + "\n\n" + for_markdown(text) + "\n")
    assert "<img" not in rendered and "<script" not in rendered and "<a " not in rendered
    assert "javascript:" not in rendered.replace("javascript:alert(3)", "") or "<a" not in rendered


def test_markdown_block_markers_are_text() -> None:
    md = MarkdownIt("commonmark")
    html = md.render(for_markdown("- a\n> b\n1. c\n# d\n***e***\n`f`\n====="))
    assert html.count("<p>") == 1 and "<li>" not in html and "<blockquote>" not in html
    assert "<h1>" not in html and "<em>" not in html and "<code>" not in html


def test_markdown_keeps_code_spans_as_code() -> None:
    html = MarkdownIt("commonmark").render(for_markdown_spans("score `10 * bid` if *x* <b>"))
    assert html == "<p>score <code>10 * bid</code> if *x* &lt;b&gt;</p>\n"


def test_html_text_is_escaped() -> None:
    assert for_html('<a href="x">\x1b') == "&lt;a href=&quot;x&quot;&gt;\\x1b"


def test_excerpt_is_bounded_around_the_column() -> None:
    line = "".join(chr(ord("a") + i % 26) for i in range(100_000))
    text, at = excerpt(line, 50_000, width=40)
    assert len(text) <= 42 and text[0] == text[-1] == "…"
    assert text[at] == line[50_000]
    assert excerpt("short", 2, width=40) == ("short", 2)
    text, at = excerpt(line, 3, width=40)
    assert text[at] == line[3] and not text.startswith("…")


# --------------------------------------------------------------------------- every command


def _hostile_record(tmp_path: Path) -> Path:
    """An Odessa record with hostile player names, a hostile comment and a hostile body line."""
    from make_corpus import record

    text = record()
    names = {"p1": "Anna\x1b[2J\x1b[H\u202eX", "p2": "Boris", "p3": "Vera", "p4": "Gleb"}
    for old, new in names.items():
        text = text.replace(old, new)
    lines = text.split("\n")
    lines[9] += "  # \x1b[2J\x1b[H"
    lines.insert(30, "\x1b[2J\x1b[H1 file, 1 game: 1 clean\x9b31m # \x1b]0;owned\x07")
    path = tmp_path / "evil.log"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _hostile_variant(tmp_path: Path) -> Path:
    path = tmp_path / "evil.yaml"
    path.write_text('extends: oh-hell\nname: "Ev\\e[2J\\e[Hil <img src=x onerror=alert(1)>"\n'
                    'description: "<script>alert(2)</script> \\e]0;owned\\a \\u202e fake"\n'
                    'source: "\\e[1A\\x9b2J [x](javascript:alert(3))"\n', encoding="utf-8")
    return path


def _no_control(text: str) -> None:
    # A console that is not a terminal writes no styles: any ESC left came from the input.
    assert UNSAFE.search(text) is None, repr(text[:2000])


@pytest.mark.parametrize("command", [
    ["check"], ["check", "--json"], ["sheet"], ["view", "-o", "-"], ["convert", "--to", "log"],
])
def test_record_text_never_reaches_the_terminal_raw(tmp_path: Path, command: list[str], monkeypatch) -> None:
    from updown_dsl.cli import app

    path = _hostile_record(tmp_path)
    # standard output is a terminal (what is written to a file or a pipe stays as written)
    monkeypatch.setattr("updown_dsl.cli.safe.stream_is_terminal", lambda err=False: True)
    r = make_runner().invoke(app, [*command, str(path)])
    assert r.exit_code in (0, 1, 3), r.output + r.stderr
    _no_control(r.stdout)
    _no_control(r.stderr)
    assert "internal error" not in r.stderr


def test_the_forged_verdict_is_shown_as_text(tmp_path: Path) -> None:
    from updown_dsl.cli import app

    r = make_runner().invoke(app, ["check", str(_hostile_record(tmp_path))])
    assert r.exit_code in (1, 3)  # the body line is not read (T002)
    assert "31 | \\x1b[2J\\x1b[H1 file, 1 game: 1 clean\\x9b31m # \\x1b]0;owned\\x07" in r.stdout + r.stderr
    # the caret stands under the escaped text: four carets for the four characters of \x1b
    assert re.search(r"(?m)^   \| \^\^\^\^$", r.stdout + r.stderr)


def test_convert_to_a_pipe_keeps_every_character(tmp_path: Path) -> None:
    from updown_dsl.cli import app

    path = _hostile_record(tmp_path)
    ok = tmp_path / "ok.log"
    ok.write_text(path.read_text(encoding="utf-8").replace("\x1b[2J\x1b[H1 file", "# \x1b[2J\x1b[H1 file"),
                  encoding="utf-8")
    r = make_runner().invoke(app, ["convert", "--to", "log", str(ok)])
    assert r.exit_code == 0, r.stderr
    assert "players: Anna\u202eX Boris" in r.stdout  # to a pipe the record is data: kept as it is


@pytest.mark.parametrize("command", [
    ["variant", "show"], ["variant", "show", "--json"], ["variant", "explain"],
    ["variant", "explain", "--format", "md"], ["variant", "explain", "--format", "html"],
    ["variant", "validate"],
])
def test_variant_text_never_reaches_the_terminal_raw(tmp_path: Path, command: list[str], monkeypatch) -> None:
    from updown_dsl.cli import app

    monkeypatch.setattr("updown_dsl.cli.safe.stream_is_terminal", lambda err=False: True)
    r = make_runner().invoke(app, [*command, str(_hostile_variant(tmp_path))])
    assert r.exit_code == 0, r.output + r.stderr
    _no_control(r.stdout)
    _no_control(r.stderr)


def test_variant_text_never_reaches_the_terminal_in_play(tmp_path: Path) -> None:
    from updown_dsl.cli import app

    r = make_runner().invoke(app, ["play", "--variant", str(_hostile_variant(tmp_path)), "--watch",
                                   "--seed", "1", "--name", "A\x1b[2Jx,B\u202ey,C\x9bz,D"], input="")
    assert r.exit_code == 0, r.output + r.stderr
    _no_control(r.stdout)
    _no_control(r.stderr)
    assert "A\\x1b[2Jx" in r.stdout


def test_markdown_rule_book_of_a_hostile_variant_has_no_markup(tmp_path: Path) -> None:
    from updown_dsl.cli import app

    r = make_runner().invoke(app, ["variant", "explain", "--format", "md", str(_hostile_variant(tmp_path))])
    html = MarkdownIt("commonmark").render(r.stdout)
    assert "<img" not in html and "<script" not in html and "<a " not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html  # shown, as text


def test_every_console_of_the_command_line_is_safe() -> None:
    """No CLI module makes a Rich console of its own: all come from cli.safe."""
    root = Path(__file__).resolve().parent.parent / "updown_dsl" / "cli"
    for path in root.glob("*.py"):
        if path.name == "safe.py":
            continue
        assert not re.search(r"(?<![\w.])Console\(", path.read_text(encoding="utf-8")), path.name


# --------------------------------------------------------------------------- Rich markup in names


@pytest.mark.parametrize("name", ["[/b]", "[bold]x", "[link=example.org]y"])
def test_a_name_that_reads_as_rich_markup_is_text(tmp_path: Path, name: str) -> None:
    """A player's or a variant's name such as ``[/b]`` was read as a Rich tag in a table cell or
    a progress bar: a MarkupError, exit 4. Every console reads no markup in what it prints."""
    from updown_dsl.cli import app

    record = tmp_path / "g.log"
    record.write_text(EXAMPLE_ODESSA.read_text(encoding="utf-8").replace("Anna", name), encoding="utf-8")
    r = make_runner().invoke(app, ["sheet", str(record)])
    assert r.exit_code == 0, r.stdout + r.stderr
    assert f"winner: {name}" in r.stdout
    r = make_runner().invoke(app, ["play", "--variant", "oh-hell", "--watch", "--seed", "1", "--name",
                                   f"{name},B,C,D"], input="")
    assert r.exit_code == 0, r.stdout + r.stderr
    assert name in r.stdout
    variant = tmp_path / "v.yaml"
    variant.write_text(f'extends: oh-hell\nname: "{name}"\n', encoding="utf-8")
    r = make_runner().invoke(app, ["simulate", "--variant", str(variant), "--games", "2"])
    assert r.exit_code == 0, r.stdout + r.stderr
    assert name in r.stdout


EXAMPLE_ODESSA = Path(__file__).resolve().parent.parent / "docs" / "examples" / "odessa-full.log"


def test_a_usage_error_shows_a_variants_name_escaped(tmp_path: Path) -> None:
    from updown_dsl.cli import app

    r = make_runner().invoke(app, ["play", "--variant", str(_hostile_variant(tmp_path)), "--players", "99"])
    assert r.exit_code == 2
    _no_control(r.stdout)
    _no_control(r.stderr)
    assert "Ev\\x1b[2J" in r.stderr
