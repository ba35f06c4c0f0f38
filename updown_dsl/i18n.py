"""Messages in the reader's language: gettext catalogues, English without one.

Every sentence updown shows is written in English in the code as a template with named
fields, ``tr("{name} must bid", name=...)``; :func:`tr` looks it up in the catalogue of the
chosen language (``updown_dsl/locale/<lang>/LC_MESSAGES/updown.mo``) and fills the fields in.
English needs no catalogue and loads nothing: the template is the message.

The language is the one :func:`set_language` names (``updown --lang ru``), else the first
of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that names one with a catalogue,
else English. ``docs/languages.md`` tells how to add a language.

>>> set_language("en"); tr("{n} cards", n=3)
'3 cards'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

DOMAIN = "updown"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_chosen: str | None = None  # set_language's choice; None: from the environment
_catalogue: Any = False  # False: not looked up yet; None: English (no catalogue)
_from_env: str | None = None  # the environment's language, once looked up


def languages() -> list[str]:
    """The languages updown speaks: English and every language with a compiled catalogue."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return ["en"] + [x for x in found if x != "en"]


def _code(value: str) -> str:
    """``ru_RU.UTF-8`` → ``ru``; ``C``/``POSIX`` → ``en``."""
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    return "en" if code in ("", "c", "posix") else code


def language_from_environment(environ: Any = None) -> str:
    """The language the locale variables name (``LANGUAGE`` may list several: ``uk:ru``)."""
    env = os.environ if environ is None else environ
    known = None
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if not value:
            continue
        for part in value.split(":"):
            code = _code(part)
            if code == "en":
                return "en"
            known = languages() if known is None else known
            if code in known:
                return code
        if var != "LANGUAGE":  # the first locale variable set is the one in force
            break
    return "en"


def set_language(code: str | None) -> None:
    """Speak ``code`` from now on (``None``: as the environment says).

    :raises ValueError: when there is no catalogue for ``code``.
    """
    global _chosen, _catalogue, _from_env
    if code is not None:
        code = _code(code)
        if code not in languages():
            raise ValueError(f"no messages in {code!r}: the languages are {', '.join(languages())}")
    _chosen, _catalogue, _from_env = code, False, None


def language() -> str:
    """The language messages are in now."""
    global _from_env
    if _chosen is not None:
        return _chosen
    if _from_env is None:
        _from_env = language_from_environment()
    return _from_env


_letters: str | None = None  # set_card_letters' choice; None: the language's


def set_card_letters(notation: str | None) -> None:
    """Show cards in the letters of ``notation`` (``en``: A K Q J, ``ru``: Т К Д В) whatever the
    language (``None``: the language's own, :func:`card_letters`)."""
    global _letters
    _letters = notation


def card_letters() -> str:
    """The letters cards are shown in: those :func:`set_card_letters` chose, else ``ru`` when
    the messages are in Russian (or Ukrainian), else ``en``."""
    if _letters is not None:
        return _letters
    return "ru" if language() in ("ru", "uk") else "en"


def _translations() -> Any:
    global _catalogue
    if _catalogue is False:
        code = language()
        if code == "en":
            _catalogue = None
        else:
            import gettext  # only for another language: English loads nothing

            _catalogue = gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[code], fallback=True)
    return _catalogue


def _fill(text: str, fields: dict[str, Any]) -> str:
    """``text`` with its fields filled in; ``{card:ru}`` (a translation's way to show a card in
    the table's letters, ``К♣``) falls back to ``{card}`` for a field that is not a card."""
    if not fields:
        return text
    try:
        return text.format(**fields)
    except ValueError:
        import re

        return re.sub(r"\{(\w+):ru\}", r"{\1}", text).format(**fields)


def tr(message: str, /, **fields: Any) -> str:
    """``message`` in the current language, its ``{fields}`` filled in."""
    cat = _catalogue if _catalogue is not False else _translations()
    text = message if cat is None else cat.gettext(message)
    return _fill(text, fields)


def trc(context: str, message: str, /, **fields: Any) -> str:
    """``message`` as it is meant in ``context`` (one English word, two Russian ones)."""
    cat = _catalogue if _catalogue is not False else _translations()
    text = message if cat is None else cat.pgettext(context, message)
    return _fill(text, fields)


def ntr(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of a message for the number ``n`` (``{n}`` is filled in too): Russian has three."""
    cat = _catalogue if _catalogue is not False else _translations()
    if cat is None:
        text = singular if n == 1 else plural
    else:
        text = cat.ngettext(singular, plural, n)
    return _fill(text, {"n": n, **fields})


def mark(message: str) -> str:
    """Marks a message for the catalogue where it is translated later (``tr(name)``)."""
    return message


def babel_extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Any:
    """Babel's extraction method for updown (named in ``babel.cfg``): the messages of
    ``tr``, ``trc``, ``ntr`` and ``mark`` calls, the ``help=`` and ``epilog=`` texts of the command
    line, and the docstrings of its commands (Typer shows them as their help)."""
    import ast

    tree = ast.parse(fileobj.read().decode("utf-8"))

    def text(node: ast.AST) -> str | None:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    def name(node: ast.AST) -> str | None:
        return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None

    found: list[Any] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called, args = name(node.func), [text(a) for a in node.args]
            if called in ("tr", "mark") and args and args[0]:
                found.append((node.lineno, "gettext", args[0], []))
            elif called == "ntr" and len(args) >= 2 and args[0] and args[1]:
                found.append((node.lineno, "ngettext", (args[0], args[1]), []))
            elif called == "trc" and len(args) >= 2 and args[0] and args[1]:
                found.append((node.lineno, "pgettext", (args[0], args[1]), []))
            for kw in node.keywords:
                if kw.arg in ("help", "epilog") and text(kw.value):
                    found.append((kw.value.lineno, "gettext", text(kw.value), []))
        elif isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Call) and name(d.func) in ("command", "callback") for d in node.decorator_list):
            doc = ast.get_docstring(node)
            if doc:
                found.append((node.lineno, "gettext", doc, []))
    yield from sorted(found, key=lambda f: f[0])


_ENGLISH: dict[tuple[int, str], Any] = {}


def localize_help(app: Any) -> None:
    """Put a Typer app's help texts (its own, its commands' and their options') in the current
    language; English texts are kept, so calling it again after :func:`set_language` works."""
    import inspect
    import typing

    def say(obj: Any, attr: str, default: str | None = None) -> None:
        # (the English text is kept here, not on the object: Typer copies its attributes)
        english = _ENGLISH.setdefault((id(obj), attr), getattr(obj, attr, None) or default)
        if isinstance(english, str):
            setattr(obj, attr, tr(english))

    def params(callback: Any) -> None:
        if callback is None:
            return
        for p in inspect.signature(callback).parameters.values():
            for meta in typing.get_args(p.annotation)[1:]:
                if getattr(meta, "help", None):
                    say(meta, "help")

    say(app.info, "help")
    say(app.info, "epilog")
    cb = app.registered_callback
    if cb is not None:
        say(cb, "help", inspect.getdoc(cb.callback) if cb.callback else None)
        params(cb.callback)
    for cmd in app.registered_commands:
        say(cmd, "help", inspect.getdoc(cmd.callback) if cmd.callback else None)
        params(cmd.callback)
    for group in app.registered_groups:
        say(group, "help")
        if group.typer_instance is not None:
            localize_help(group.typer_instance)
