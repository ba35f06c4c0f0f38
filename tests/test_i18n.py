"""Russian through the message catalogue: every message has its translation, the catalogue is
up to date with the sources and compiled, the fields of each message survive translation, the
language comes from --lang or the locale, and English loads no catalogue."""

from __future__ import annotations

import gettext
import os
import string
import subprocess
import sys
from pathlib import Path

import pytest

from updown_dsl import i18n

from clikit import make_runner

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "updown_dsl/locale/ru/LC_MESSAGES/updown.po"
MO = PO.with_suffix(".mo")

babel = pytest.importorskip("babel", reason="the catalogue checks need Babel (pip install '.[test]')")


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language(None)


def _po():
    from babel.messages.pofile import read_po

    with PO.open("rb") as fh:
        return read_po(fh, locale="ru")


def _extracted() -> set[tuple[str | None, object]]:
    """What `pybabel extract -F babel.cfg updown_dsl` finds, as (context, id)."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    return {(ctx, msg) for _, _, msg, _, ctx in extract_from_dir(str(ROOT / "updown_dsl"), method_map, options_map)}


@pytest.mark.slow
def test_the_catalogue_is_up_to_date_with_the_sources() -> None:
    in_po = {(m.context, m.id) for m in _po() if m.id}
    in_sources = _extracted()
    assert in_sources - in_po == set(), "messages missing from the .po: run the steps in docs/languages.md"
    assert in_po - in_sources == set(), "messages in the .po no longer in the sources: run pybabel update"


def test_every_message_has_a_russian_translation_with_the_same_fields() -> None:
    def fields(text: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}

    untranslated, fuzzy, wrong = [], [], []
    for m in _po():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(strings):
            untranslated.append(m.id)
        if m.fuzzy:
            fuzzy.append(m.id)
        want = fields(ids[-1]) | ({"n"} if isinstance(m.id, tuple) else set())
        wrong.extend((m.id, s) for s in strings if s and fields(s) - want)
    assert not untranslated, f"{len(untranslated)} messages have no translation: {untranslated[:5]}"
    assert not fuzzy, f"fuzzy translations to check: {fuzzy[:5]}"
    assert not wrong, f"translations with fields the message does not have: {wrong[:5]}"


def test_the_compiled_catalogue_is_the_po() -> None:
    with MO.open("rb") as fh:
        mo = gettext.GNUTranslations(fh)
    for m in _po():
        if not m.id or not m.string:
            continue
        if m.context:
            assert mo.pgettext(m.context, m.id) == m.string, "the .mo is stale: pybabel compile"
        elif isinstance(m.id, tuple):
            assert [mo.ngettext(*m.id, n) for n in (1, 3, 5)] == list(m.string), "the .mo is stale"
        else:
            assert mo.gettext(m.id) == m.string, f"the .mo is stale (pybabel compile): {m.id!r}"


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "ru_RU.UTF-8"}, "ru"), ({"LC_ALL": "ru_UA.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
    ({"LANGUAGE": "uk:ru", "LANG": "uk_UA.UTF-8"}, "ru"), ({"LANG": "C.UTF-8"}, "en"), ({}, "en"),
    ({"LANGUAGE": "de", "LANG": "de_DE.UTF-8"}, "en"), ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),
])
def test_the_locale_picks_the_language(env: dict[str, str], lang: str) -> None:
    assert i18n.language_from_environment(env) == lang


def test_english_loads_no_catalogue() -> None:
    i18n.set_language("en")
    assert i18n.tr("{n} over", n=2) == "2 over" and i18n._catalogue is None
    i18n.set_language("ru")
    assert i18n.tr("{n} over", n=2) == "перебор 2"
    assert [i18n.ntr("{n} deal", "{n} deals", n) for n in (1, 3, 5, 21)] == ["1 сдача", "3 сдачи", "5 сдач",
                                                                             "21 сдача"]
    with pytest.raises(ValueError):
        i18n.set_language("xx")


def test_explain_and_show_in_russian() -> None:
    from updown_dsl.cli import app

    runner = make_runner()
    r = runner.invoke(app, ["variant", "explain", "odessa", "--lang", "ru"])
    assert r.exit_code == 0
    for words in ("Колода из 36 карт", "«Не сходимся»", "Подсчёт очков", "тёмная ×2", "Шестёрка пик — джокер"):
        assert words in r.stdout
    en = runner.invoke(app, ["variant", "explain", "odessa", "--lang", "en"])
    assert "A pack of 36 cards" in en.stdout and "Колода" not in en.stdout
    r = runner.invoke(app, ["variant", "show", "odessa", "--lang", "ru"])
    assert r.exit_code == 0 and "Расписание сдач для 4 игроков: 15 сдач" in r.stdout


def test_a_whole_game_in_russian() -> None:
    from updown_dsl.cli import app

    r = make_runner().invoke(app, ["play", "--variant", "russian", "--lang", "ru", "--watch", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "Партия окончена после сдачи 18" in r.stdout and "Победител" in r.stdout
    for english in ("Deal ", "Trump:", "Totals:", "Winner", "Game over"):
        assert english not in r.stdout, english


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", **(env or {})}
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        full.pop(var, None)
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "updown_dsl", *args], capture_output=True, text=True,
                          env=full, timeout=120)


@pytest.mark.slow
def test_help_and_the_locale_in_a_fresh_process() -> None:
    r = _run("play", "--lang", "ru", "--help")
    assert r.returncode == 0 and "Сыграть партию в терминале" in r.stdout and "Писать партию в ФАЙЛ" in r.stdout
    r = _run("variant", "explain", "up-and-down", env={"LANG": "ru_RU.UTF-8"})
    assert r.returncode == 0 and "Колода из 52 карт" in r.stdout
    r = _run("variant", "explain", "up-and-down", env={"LANG": "ru_RU.UTF-8", "LC_ALL": "C"})
    assert "A pack of 52 cards" in r.stdout


#: The modules of what a player reads at the table, on the sheet and on the page.
TABLE_MODULES = ("cli/screen.py", "cli/play.py", "cli/sheet.py", "players/replies.py", "players/session.py",
                 "pages/sheet.py", "pages/game.py", "cli/report.py")
#: The Latin words a Russian table may keep: the program, keys, key names and bot names typed as they are.
KEPT = {"updown", "play", "Ctrl", "C", "heuristic", "search", "exec", "Enter", "q", "charts", "Home", "End"}


def test_every_message_a_player_reads_at_the_table_is_russian_in_russian() -> None:
    """Every message of the table's modules has a Russian translation with no English word
    (fields, `code` and --options aside): the catalogue walked message by message."""
    import re

    translated = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string for m in _po() if m.id}
    english = []
    for module in TABLE_MODULES:
        with (ROOT / "updown_dsl" / module).open("rb") as fh:
            found = list(i18n.babel_extract(fh, None, None, {}))
        for _, funcname, messages, _ in found:
            key = (messages[0], messages[1]) if funcname == "pgettext" else \
                (None, messages[0]) if funcname == "ngettext" else (None, messages)
            for text in translated[key] if isinstance(translated[key], tuple) else (translated[key],):
                plain = re.sub(r"--[\w-]+|\{[^}]*\}|`[^`]*`", "", text)
                words = set(re.findall(r"[A-Za-z]+", plain)) - KEPT
                if words:
                    english.append((module, key[1], sorted(words)))
    assert english == []
