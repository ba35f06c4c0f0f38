"""``updown variants``, ``updown variant show`` and ``updown variant validate``: the rule sets."""

from typing import Annotated, Any

import typer

from ..i18n import ntr, tr

from .common import (
    PlayersOpt,
    app, complete_variant, _console, _echo_json, EXIT_INPUT, EXIT_PROBLEMS, _folders, _handle_errors, JsonOpt, _load,
    _players, _print_diagnostics, _set_lang, _usage_error, variant_app, VariantPathOpt, LangOpt,
)

# --------------------------------------------------------------------------- variants


@app.command("variants")
@_handle_errors
def variants_cmd(json_out: JsonOpt = False, lang: LangOpt = None) -> None:
    """List the bundled variants."""
    _set_lang(lang)
    from ..lang.loader import bundled_names, try_load_variant
    from .report import to_json
    from .rules import pack_text
    from ..lang.schedule import resolve_schedule

    rows: list[dict[str, Any]] = []
    failed: list[Any] = []
    for name in bundled_names():
        variant, diags = try_load_variant(name)
        if variant is None:
            failed.extend(diags)
            continue
        rows.append({
            "name": variant.name,
            "min_players": variant.min_players,
            "max_players": variant.max_players,
            "default_players": variant.default_players,
            "pack": pack_text(variant),
            "deals": len(resolve_schedule(variant, variant.default_players)),
            "target": variant.end.target,
            "description": variant.description,
        })
    if json_out:
        _echo_json(to_json(rows))
    else:
        from rich.table import Table

        from rich import box
        from rich.text import Text

        out = _console()
        wide = out.width >= 120
        table = Table(box=box.SIMPLE_HEAD, caption=tr("players: min–max (default); "
                                                      "deals: for the default player count"),
                      caption_justify="left", leading=0 if wide else 1)
        table.add_column(tr("name") if wide else tr("name / description"), no_wrap=wide, ratio=None if wide else 1)
        table.add_column(tr("players"), no_wrap=True)
        table.add_column(tr("pack"), no_wrap=wide)
        table.add_column(tr("deals"), no_wrap=True, justify="right")
        if wide:
            table.add_column(tr("description"))
        for r in rows:
            label = Text(r["name"], style="bold")
            cells = [
                f"{r['min_players']}–{r['max_players']} ({r['default_players']})",
                r["pack"],
                str(r["deals"]) if r["target"] is None else tr("to {target}", target=r["target"]),
            ]
            if wide:
                table.add_row(label, *cells, r["description"])
            else:
                if r["description"]:
                    label.append("\n" + r["description"], style="dim")
                table.add_row(label, *cells)
        out.print(table)
    if failed:
        _print_diagnostics(failed, stderr=True)
        raise typer.Exit(EXIT_INPUT)


# --------------------------------------------------------------------------- variant show


@variant_app.command("show")
@_handle_errors
def show_cmd(
    name: Annotated[str, typer.Argument(metavar="VARIANT", help="A bundled variant name or a variant file.",
                                        autocompletion=complete_variant)],
    players: PlayersOpt = None,
    json_out: JsonOpt = False,
    lang: LangOpt = None,
    variant_path: VariantPathOpt = None,
) -> None:
    """Show a variant's resolved rules and its deal schedule."""
    _set_lang(lang)
    from .report import to_json
    from .rules import deals_data, hand_sizes_text, kind_label, pack_text, rules_data, rules_sections
    from ..lang.schedule import deck_size, resolve_schedule

    variant = _load(name, variant_path)
    n = _players(variant, players)
    deals = resolve_schedule(variant, n)
    if json_out:
        data = {
            "name": variant.name,
            "description": variant.description,
            "source": variant.source,
            "path": variant.path,
            "players": n,
            "min_players": variant.min_players,
            "max_players": variant.max_players,
            "default_players": variant.default_players,
            "deck_size": deck_size(variant),
            "pack": pack_text(variant),
            "hand_sizes": hand_sizes_text(deals),
            "deals": deals_data(deals),
            "rules": dict(variant.options),
            "resolved": rules_data(variant),
        }
        _echo_json(to_json(data))
        return

    from rich.table import Table
    from rich.text import Text

    out = _console()
    title = Text(variant.name, style="bold")
    if variant.description:
        title.append(" — " + variant.description, style="")
    out.print(title)
    if variant.source:
        out.print(Text(tr("source: ") + variant.source, style="dim"))
    if variant.path:
        out.print(Text(tr("file: ") + str(variant.path), style="dim"))

    out.print(Text(tr("Rules"), style="bold"))
    rules = Table()
    rules.add_column(tr("section"), style="bold", no_wrap=True)
    rules.add_column(tr("rule"), no_wrap=True)
    rules.add_column(tr("value"))
    sections = rules_sections(variant)
    for i, (section, items) in enumerate(sections):
        for j, (key, value) in enumerate(items):
            rules.add_row(section if j == 0 else "", key, Text(value),
                          end_section=j == len(items) - 1 and i < len(sections) - 1)
    out.print(rules)
    play = variant.options.get("play")
    if not (isinstance(play, dict) and "must_trump" in play):  # the one default the sources split on
        out.print(Text(tr("play.must_trump is not written in this file: its default, yes, makes a player void in "
                          "the led suit trump; most English-language rules say no (write must_trump: false)"),
                       style="yellow"), soft_wrap=True)

    again = (tr(", played again until a total reaches {target}", target=variant.end.target)
             if variant.end.target is not None else "")
    out.print(Text(tr("Deal schedule for {players} players: {deals}", players=n,
                      deals=ntr("{n} deal", "{n} deals", len(deals))) + again, style="bold"))
    sched = Table()
    sched.add_column("#", justify="right")
    sched.add_column(tr("set"), justify="right")
    sched.add_column(tr("cards"), justify="right")
    sched.add_column(tr("kind"))
    for d in deals:
        sched.add_row(str(d.number), str(d.set), str(d.cards), kind_label(variant, d.kind))
    out.print(sched)
    out.print(Text(tr("hand sizes: ") + hand_sizes_text(deals)), soft_wrap=True)


# --------------------------------------------------------------------------- variant explain


@variant_app.command("explain")
@_handle_errors
def explain_cmd(
    name: Annotated[str, typer.Argument(metavar="VARIANT", help="A bundled variant name or a variant file.",
                                        autocompletion=complete_variant)],
    players: PlayersOpt = None,
    lang: LangOpt = None,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="FORMAT", help="text, md (Markdown) or html.")] = "text",
    variant_path: VariantPathOpt = None,
) -> None:
    """Write a variant's rules in words: the rule book, made from the variant file.

    A house rule (a file with `extends:`) gets a book that opens with what it changes.
    """
    from ..i18n import language
    from ..lang.bookrender import render
    from ..lang.rulebook import base_variant, rule_book

    if fmt not in ("text", "md", "html"):
        _usage_error(tr("--format is text, md or html, not {fmt!r}", fmt=fmt), "--format")
    _set_lang(lang)
    variant = _load(name, variant_path)
    n = _players(variant, players)
    book = rule_book(variant, n, base_variant(variant, tuple(variant_path or ())))
    from .safe import echo

    echo(render(book, fmt, language()), nl=False)


# --------------------------------------------------------------------------- variant validate


@variant_app.command("schema")
@_handle_errors
def schema_cmd(lang: LangOpt = None) -> None:
    """Print the JSON Schema of variant files, for editors.

    Save it (`updown variant schema > updown-variant.schema.json`) and put
    `# yaml-language-server: $schema=updown-variant.schema.json` on the first line of a
    variant file: VS Code's YAML extension, and other editors that read the modeline, then
    complete its keys and flag wrong keys, types and words as you type.
    """
    _set_lang(lang)
    from ..lang.editor_schema import schema_text

    typer.echo(schema_text(), nl=False)


@variant_app.command("validate")
@_handle_errors
def validate_cmd(
    files: Annotated[list[str], typer.Argument(metavar="FILE...",
                                               help="Variant files (or bundled names) to check.")],
    json_out: JsonOpt = False,
    variant_path: VariantPathOpt = None,
    lang: LangOpt = None,
) -> None:
    """Check variant files and report every problem with its line and column."""
    _set_lang(lang)
    from pathlib import Path

    from ..diagnostics import Diagnostic, Severity
    from ..lang.loader import resolve_variant_path, try_load_variant
    from .report import diagnostics_json, sort_diagnostics, validate_summary

    folders = _folders(variant_path)
    all_diags: list[Diagnostic] = []
    valid = 0
    problems: list[int] = []
    unreadable = 0
    for arg in files:
        path = Path(arg)
        unread: Diagnostic | None = None
        if path.exists() and not path.is_file():
            unread = Diagnostic("V001", tr("cannot read variant file: it is not a regular file"), path=arg)
        elif path.is_file():
            try:
                path.read_bytes().decode("utf-8")
            except OSError as exc:
                unread = Diagnostic("V001", tr("cannot read variant file: {value}",
                                               value=exc.strerror or exc),
                                    path=arg)
            except UnicodeDecodeError as exc:
                unread = Diagnostic("V001", tr("cannot read variant file: not UTF-8 text ({reason} at byte {start})",
                                               reason=exc.reason, start=exc.start), path=arg)
        elif resolve_variant_path(arg) is None:
            _, diags = try_load_variant(arg)
            hint = diags[0].hint if diags and diags[0].hint else None
            unread = Diagnostic(
                "V001", tr("cannot read variant file: no such file (or bundled variant)"), path=arg,
                hint=hint if hint and hint.startswith(tr("did you mean {value!r}?", value="").split("''")[0]) else None,
            )
        if unread is not None:
            unreadable += 1
            all_diags.append(unread)
            if not json_out:
                _print_diagnostics([unread], stderr=True)
            continue

        variant, diags = try_load_variant(arg, variant_path=folders)
        diags = sort_diagnostics(diags)
        all_diags.extend(diags)
        if variant is not None:
            valid += 1
        else:
            problems.append(sum(1 for d in diags if d.severity == Severity.ERROR) or len(diags))
        if not json_out:
            if diags:
                _print_diagnostics(diags, stderr=False)
                _console().print()
            if variant is not None:
                _console().print(_ok_text(arg), soft_wrap=True)

    if json_out:
        _echo_json(diagnostics_json(all_diags))
    else:
        from rich.text import Text

        style = "bold green" if not problems and not unreadable else "bold red"
        _console().print(Text(validate_summary(len(files), valid, problems, unreadable), style=style),
                         soft_wrap=True)
    if unreadable:
        raise typer.Exit(EXIT_INPUT)
    if problems:
        raise typer.Exit(EXIT_PROBLEMS)


def _ok_text(path: str) -> Any:
    from rich.text import Text

    t = Text(f"{path}: ")
    t.append(tr("ok"), style="green")
    return t
