"""``updown keep``: the score of a game played with real cards, kept at the terminal.

The keeping itself (what is asked next, every entry checked by the variant's rules, the
scores, corrections) is :class:`~updown_dsl.players.keeper.Keeper`; the file it is saved in
after every entry is :class:`~updown_dsl.players.keptfile.KeptFile`. This module asks, reads
what is typed and shows the deal and the sheet.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..i18n import mark, tr
from .keepscreen import bid_choices, deal_done, deal_header, invalid, refused, sheet_text, table_state
from .common import (EXIT_INPUT, LangOpt, VariantPathOpt, _console, _error, _folders, _handle_errors,
                     _load, _print_diagnostics, _set_lang, _usage_error, app, VariantOpt)

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ..players.keeper import Keeper, Step
    from ..players.keptfile import KeptFile

_NO_TRUMP = frozenset({"none", "nt", "no", "-", "бк", "без"})
_QUIT = frozenset({"quit", "q", "exit", "выход"})
_HELP = frozenset({"?", "help", "помощь"})
_FIELDS = {"bids": mark("bids"), "took": mark("tricks taken"), "bid": mark("bid")}


class _Stop(Exception):
    """The table stops keeping (quit or the end of input): the sheet is saved."""


@app.command("keep")
@_handle_errors
def keep_cmd(
    variant: VariantOpt = None,
    players: Annotated[Optional[str], typer.Option(
        "--players", "-p", metavar="NAMES",
        help='The players in seat order, each one\'s left-hand neighbour next: "Anna Boris Vera Gleb".')] = None,
    first_dealer: Annotated[Optional[str], typer.Option(
        "--first-dealer", metavar="NAME", help="Who deals the first deal (default: the last player named).")] = None,
    save: Annotated[Optional[str], typer.Option(
        "--save", metavar="FILE", help="The file the sheet is written to after every entry "
        "(default: VARIANT-DATE-TIME.log here).")] = None,
    force: Annotated[bool, typer.Option("--force", "-f", help="Let --save replace an existing FILE.")] = False,
    resume: Annotated[Optional[str], typer.Option(
        "--resume", metavar="FILE", help="Go on keeping the sheet saved in FILE.")] = None,
    lang: LangOpt = None,
    variant_path: VariantPathOpt = None,
) -> None:
    """Keep the score of a game played with real cards.

    Each deal: the trump (when the table turns it or a player names it), each bid in order
    (the forbidden bid struck out), then the tricks each player took, counted down to zero.
    A whole round of bids or of tricks may be typed as one line in the order shown (2 1 0 3).
    At any prompt: undo, edit N (correct deal N), sheet, ? for help, quit; the table's events:
    out NAME, late NAME, join NAME, leave NAME, adjust NAME POINTS REASON, cards K. The sheet is saved
    after every entry; --resume FILE goes on with it. Exit status: 0 kept to the end or
    stopped (quit, end of input); 3 the sheet cannot be read, resumed or written.
    """
    from ..players.keeper import Keeper
    from ..players.savefile import SaveError

    _set_lang(lang)
    out = _console()
    if resume is not None:
        from ..players.share import looks_shared

        shared = looks_shared(resume) and not os.path.lexists(resume)
        for given, option in ((variant, "--variant"), (players, "--players"), (first_dealer, "--first-dealer"),
                              (None if shared else save, "--save")):
            if given:
                _usage_error(tr("{option} comes from the saved sheet with --resume", option=option), option)
        if shared:
            keeper, file = _from_shared(resume, save, force, _folders(variant_path))
        else:
            keeper, file = _resume(resume, _folders(variant_path))
    else:
        if variant is None:
            _usage_error(tr("name the variant (or --resume a saved sheet)"), "--variant")
        names = (players or "").replace(",", " ").split()
        if not names:
            _usage_error(tr('name the players in seat order: --players "Anna Boris Vera Gleb"'), "--players")
        loaded = _load(variant, variant_path)
        if not loaded.min_players <= len(names) <= loaded.max_players:
            _usage_error(tr("{variant} is for {lo} to {hi} players, not {n}", variant=loaded.name,
                            lo=loaded.min_players, hi=loaded.max_players, n=len(names)), "--players")
        from ..records.record import check_names

        try:
            check_names(names)
        except ValueError as exc:
            _usage_error(str(exc), "--players")
        first = None
        if first_dealer is not None:
            low = [n.lower() for n in names]
            if first_dealer.lower() not in low:
                _usage_error(tr("{name} is not one of the players", name=first_dealer), "--first-dealer")
            first = low.index(first_dealer.lower())
        keeper = Keeper(loaded, names, first_dealer=first, label=variant)
        stamp = datetime.now().strftime("%Y-%m-%d")
        keeper.headers = _date_header(stamp)
        path = save or f"{loaded.name}-{datetime.now().strftime('%Y-%m-%d-%H%M')}.log"
        if os.path.isfile(variant):  # a variant file: named from the record's folder, as play --save does
            keeper.label = os.path.relpath(os.path.abspath(variant), os.path.dirname(os.path.abspath(path)))
        if os.path.lexists(path) and not force:
            _usage_error(tr("{save} exists; add --force to replace it (or --resume it)", save=path), "--save")
        from ..players.keptfile import KeptFile

        try:
            file = KeptFile.create(path, _text(keeper), force=force)
        except FileExistsError:
            _usage_error(tr("{save} exists; add --force to replace it (or --resume it)", save=path), "--save")
        except SaveError as exc:
            _error(str(exc))
            raise typer.Exit(EXIT_INPUT) from None
    out.print(tr("Keeping {variant} for {names}; the sheet is saved in {file} after every entry "
                 "(? for help).", variant=keeper.variant.name, names=", ".join(keeper.names), file=file.path),
              markup=False, highlight=False)
    try:
        _keep(out, keeper, file)
    except _Stop:
        pass
    except KeyboardInterrupt:
        out.print()
    except SaveError as exc:
        file.close()
        _error(tr("{error}: keeping stops here; what was written before is kept", error=exc))
        raise typer.Exit(EXIT_INPUT) from None
    file.close()
    if keeper.is_over:
        out.print(sheet_text(keeper), markup=False, highlight=False, soft_wrap=True)
        out.print(tr("The game is over. The sheet is saved in {file}; `updown check {file}` checks it.",
                     file=file.path), markup=False, highlight=False)
    else:
        out.print(tr("Stopped after deal {number}. `updown keep --resume {file}` goes on.",
                     number=len(keeper.deals), file=file.path), markup=False, highlight=False)


def _date_header(stamp: str) -> tuple[Any, ...]:
    from ..records.model import Header

    return (Header("date", stamp),)


def _text(keeper: "Keeper") -> str:
    from ..records.transcript import format_transcript

    return format_transcript(keeper.transcript())


def _from_shared(text: str, save: Optional[str], force: bool, folders: list[str]) -> "tuple[Keeper, KeptFile]":
    """The sheet of a shared string, to keep on in a new file (``--save``)."""
    from ..players.keptfile import KeptFile
    from ..players.savefile import SaveError
    from ..players.share import ShareError, read_share
    from .foreign import shared_variant

    if save is None:
        _usage_error(tr("a shared sheet goes on in a new file: add --save FILE"), "--save")
    if os.path.lexists(save) and not force:
        _usage_error(tr("{save} exists; add --force to replace it (or --resume it)", save=save), "--save")
    try:
        keeper = read_share(text, lambda label: shared_variant(label, folders))
    except ShareError as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_INPUT) from None
    try:
        return keeper, KeptFile.create(save, _text(keeper), force=force)
    except (SaveError, FileExistsError) as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_INPUT) from None


def _resume(path: str, folders: list[str]) -> "tuple[Keeper, KeptFile]":
    """The sheet in ``path``, checked, and its file locked; exit 3 when it cannot be kept on."""
    from ..diagnostics import Severity
    from ..players.keeper import Keeper, KeepError
    from ..players.keptfile import KeptFile
    from ..players.savefile import SaveError
    from ..records.checker import check_transcript, transcript_variant
    from ..records.transcript import parse_transcript

    try:
        file = KeptFile.open(path)
    except (SaveError, UnicodeDecodeError) as exc:
        _error(str(exc))
        raise typer.Exit(EXIT_INPUT) from None
    t, diags = parse_transcript(file.text, path)
    problems: list[Any] = []
    keeper = None
    if t is not None:
        report = check_transcript(t, diags, variant_path=folders)
        problems = [d for d in report.diagnostics if d.severity == Severity.ERROR]
        if report.readable and not problems and t.level == "sheet":
            variant, problems = transcript_variant(t, folders)
            if variant is not None:
                try:
                    keeper = Keeper.from_transcript(t, variant)
                except KeepError as exc:
                    problems = [exc.diagnostic]
    if keeper is None:
        file.close()
        if problems:
            _print_diagnostics(problems, stderr=True)
        _error(tr("{name} cannot be kept on: it is not a clean score sheet (level sheet)", name=path))
        raise typer.Exit(EXIT_INPUT)
    return keeper, file


# ---------------------------------------------------------------------------- the loop


def _keep(out: "Console", keeper: "Keeper", file: "KeptFile") -> None:
    from ..players.keeper import Need

    shown = -1
    while not keeper.is_over:
        done = len(keeper.deals)
        step = keeper.step()
        if step.deal.number != shown:
            shown = step.deal.number
            deal_header(out, keeper, step)
        if step.need is Need.TRUMP:
            _ask_trump(out, keeper, step)
        elif step.need is Need.BID:
            _ask_bid(out, keeper, step)
        elif step.need is Need.CALL:
            _ask_call(out, keeper, step)
        elif step.need is Need.TRICKS:
            _ask_tricks(out, keeper, step)
        file.save(_text(keeper))
        if len(keeper.deals) > done:
            deal_done(out, keeper)


def _read(out: "Console", prompt: str) -> str:
    out.print(prompt + " ", end="", markup=False, highlight=False)
    line = sys.stdin.readline()
    if not line:
        out.print()
        raise _Stop
    return line.strip()


def _command(out: "Console", keeper: "Keeper", text: str) -> bool:
    """Run a command typed at a prompt (True: it was one)."""
    words = text.split()
    if not words:
        return False
    first = words[0].lower()
    if first in _QUIT and len(words) == 1:
        raise _Stop
    if first in _HELP and len(words) == 1:
        out.print(tr("Type what is asked: a suit (S H D C, or none), a bid, the tricks a player took. "
                     "A whole round of bids or tricks can be one line, in the order shown: 2 1 0 3. "
                     "undo takes back the last entry of this deal; edit N corrects deal N "
                     "(edit N bids 2 1 0 3, edit N took 1 0 2 0, in the order the deal was bid); sheet shows "
                     "the sheet; quit stops (the sheet is saved: --resume goes on). The table's events, "
                     "before the deal's first bid: out NAME (sits this deal out), late NAME (not here yet), "
                     "join NAME (arrives), leave NAME, cards K (this deal with K cards each); at any time "
                     "adjust NAME POINTS REASON."),
                  markup=False, highlight=False)
        return True
    if first == "sheet" and len(words) == 1:
        out.print()
        out.print(sheet_text(keeper), markup=False, highlight=False, soft_wrap=True)
        return True
    if first == "undo" and len(words) == 1:
        if not keeper.undo():
            out.print(tr("nothing to take back in this deal (edit N corrects a finished deal)"),
                      markup=False, highlight=False)
        return True
    if first == "edit":
        _edit(out, keeper, words[1:])
        return True
    if first in _TABLE_COMMANDS:
        _table_command(out, keeper, first, words[1:])
        return True
    return False


#: The table's events typed at a prompt (docs/keep.md).
_TABLE_COMMANDS = frozenset({"out", "late", "join", "leave", "adjust", "cards", "schedule"})


def _table_command(out: "Console", keeper: "Keeper", first: str, words: list[str]) -> None:
    """``out NAME``, ``late NAME``, ``join NAME``, ``leave NAME``, ``adjust NAME POINTS REASON``,
    ``cards K``: the table's events, kept in the sheet (see
    :mod:`~updown_dsl.records.tableevents`)."""
    from ..players.keeper import KeepError
    from ..records.model import seat_of

    if first in ("cards", "schedule"):
        if words and words[0].lower() == "cards":
            words = words[1:]
        if len(words) != 1 or not words[0].isdigit():
            invalid(out, tr("cards K: this deal is played with K cards each"))
            return
        action: Any = lambda: keeper.schedule(int(words[0]))
    else:
        seat = seat_of(keeper.names, words[0]) if words else None
        if seat is None:
            invalid(out, tr("{command} NAME, one of {names}", command=first, names=" ".join(keeper.names)))
            return
        if first == "adjust":
            points = _numbers(words[1]) if len(words) > 2 else None
            if points is None or len(points) != 1:
                invalid(out, tr("adjust NAME POINTS REASON, e.g. adjust Gleb -50 left the table"))
                return
            reason = " ".join(words[2:])
            if reason.lower().startswith("reason "):
                reason = reason[len("reason "):]
            action = lambda: keeper.adjust(seat, points[0], reason)
        else:
            method = {"out": keeper.sit_out, "late": keeper.late, "join": keeper.join, "leave": keeper.leave}[first]
            action = lambda: method(seat)
    try:
        action()
    except KeepError as exc:
        refused(out, exc.diagnostic)
        return
    table_state(out, keeper)


def _numbers(text: str) -> list[int] | None:
    words = text.replace(",", " ").split()
    if not words or not all(w.lstrip("+-").isdigit() and w.count("-") <= 1 for w in words):
        return None
    return [int(w) for w in words]


def _ask_trump(out: "Console", keeper: "Keeper", step: "Step") -> None:
    from ..cards import CardError, Suit
    from ..players.keeper import KeepError

    who = tr("{name} names trump", name=keeper.names[step.seat]) if step.seat >= 0 else tr("Trump")
    options = "S H D C" + (" none" if step.no_trump else "")
    text = _read(out, f"{who} ({options})>")
    if _command(out, keeper, text):
        return
    word = text.strip()
    try:
        suit = None if word.lower() in _NO_TRUMP else Suit.parse(word)
    except CardError:
        invalid(out, tr("not a suit: {word!r}; type one of {options}", word=word, options=options))
        return
    try:
        keeper.give_trump(suit)
    except KeepError as exc:
        refused(out, exc.diagnostic)


def _ask_bid(out: "Console", keeper: "Keeper", step: "Step") -> None:
    from ..players.keeper import KeepError

    name = keeper.names[step.seat]
    text = _read(out, tr("{name} bids ({choices})>", name=name, choices=bid_choices(step)))
    if _command(out, keeper, text):
        return
    numbers = _numbers(text.replace("pass", "0"))
    if numbers is None:
        invalid(out, tr("a bid is a number (or a whole round of bids on one line)"))
        return
    try:
        if len(numbers) == 1:
            keeper.give_bid(numbers[0])
        else:
            keeper.give_bids(numbers)
    except KeepError as exc:
        refused(out, exc.diagnostic)


def _ask_call(out: "Console", keeper: "Keeper", step: "Step") -> None:
    from ..actions import Call
    from ..cards import CardError, Suit
    from ..players.keeper import KeepError

    name = keeper.names[step.seat]
    text = _read(out, tr("{name} calls (N SUIT, N none, or dash)>", name=name))
    if _command(out, keeper, text):
        return
    words = text.split()
    call = None
    if len(words) == 1 and words[0].lower() in ("dash", "0", "-"):
        call = Call(0)
    elif len(words) == 2 and words[0].isdigit():
        try:
            call = Call(int(words[0]), None if words[1].lower() in _NO_TRUMP else Suit.parse(words[1]))
        except CardError:
            pass
    if call is None:
        invalid(out, tr("a call is a number of tricks and a trump, e.g. '5 S' or '6 none', or 'dash'"))
        return
    try:
        keeper.give_call(call)
    except KeepError as exc:
        refused(out, exc.diagnostic)


def _ask_tricks(out: "Console", keeper: "Keeper", step: "Step") -> None:
    """The tricks, player by player in the bidding order, counted down to zero (or all on one line)."""
    from ..players.keeper import KeepError

    names, order = keeper.names, step.order
    given: list[int] = []
    while len(given) < len(order):
        seat = order[len(given)]
        left = keeper.tricks_left(given)
        bid = step.bids[seat]
        said = tr(", bid {bid}", bid=bid) if bid is not None else ""
        text = _read(out, tr("{name} took ({left} left{said})>", name=names[seat], left=left, said=said))
        if not given and _command(out, keeper, text):
            return
        if given and text.lower() == "undo":
            given.pop()
            continue
        numbers: list[int] | None = [left]  # Enter: the last player takes what is left
        if not text and len(given) == len(order) - 1:
            pass
        else:
            numbers = _numbers(text)
        if numbers is None or len(numbers) > len(order) - len(given):
            invalid(out, tr("the tricks a player took: a number (or the whole round on one line, "
                             "{count} numbers)", count=len(order)))
            continue
        try:
            keeper.check_took(given, numbers)
        except KeepError as exc:
            refused(out, exc.diagnostic)
            continue
        given += numbers
    by_seat = [0] * len(names)
    for seat, n in zip(order, given):
        by_seat[seat] = n
    try:
        keeper.give_tricks(by_seat)
    except KeepError as exc:
        refused(out, exc.diagnostic)


def _edit(out: "Console", keeper: "Keeper", words: list[str]) -> None:
    """``edit N`` (asks for the bids and the tricks, Enter keeps them), ``edit N bids …``,
    ``edit N took …``: in the order deal N was bid."""
    from ..players.keeper import KeepError

    if not words or not words[0].isdigit():
        invalid(out, tr("edit which deal? e.g. edit 3"))
        return
    number = int(words[0])
    if not 1 <= number <= len(keeper.deals):
        invalid(out, tr("deal {number} is not a finished deal (1 to {last})", number=number, last=len(keeper.deals)))
        return
    order = keeper.order_of(number)
    kept = keeper.deals[number - 1]
    names = " ".join(keeper.names[s] for s in order)
    bids: list[int | None] | None = None
    took: list[int] | None = None
    if len(words) > 2 and words[1].lower() in ("bids", "bid", "took", "tricks"):
        given = _numbers(" ".join(words[2:]))
        if given is None or len(given) != len(order):
            invalid(out, tr("give {count} numbers, in the order {names}", count=len(order), names=names))
            return
        by_seat = [0] * len(order)
        for seat, n in zip(order, given):
            by_seat[seat] = n
        if words[1].lower().startswith("bid"):
            bids = list(by_seat)
        else:
            took = by_seat
    elif len(words) == 1:
        now_bids = " ".join("-" if kept.bids[s] is None else str(kept.bids[s]) for s in order)
        now_took = " ".join(str((kept.took or ())[s]) for s in order)
        for what, now in (("bids", now_bids), ("took", now_took)):
            text = _read(out, tr("Deal {number} {what} ({names}) [{now}], Enter keeps>",
                                 number=number, what=tr(_FIELDS[what]), names=names, now=now))
            if not text:
                continue
            given = _numbers(text)
            if given is None or len(given) != len(order):
                invalid(out, tr("give {count} numbers, in the order {names}", count=len(order), names=names))
                return
            by_seat = [0] * len(order)
            for seat, n in zip(order, given):
                by_seat[seat] = n
            if what == "bids":
                bids = list(by_seat)
            else:
                took = by_seat
    else:
        invalid(out, tr("edit N, or edit N bids …, or edit N took …"))
        return
    if bids is None and took is None:
        return
    when = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
    try:
        made = keeper.edit(number, bids=bids, took=took, when=when)
    except KeepError as exc:
        refused(out, exc.diagnostic)
        return
    for c in made:
        out.print(tr("Deal {number}: {name}'s {field} {old} → {new}", number=c.deal, name=keeper.names[c.seat],
                     field=tr(_FIELDS[c.field]), old="-" if c.old is None else c.old, new=c.new),
                  markup=False, highlight=False)
    out.print(tr("Totals: {items}", items=" · ".join(f"{n} {t}" for n, t in zip(keeper.names, keeper.totals))),
              style="bold", markup=False, highlight=False)
