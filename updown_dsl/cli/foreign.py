"""Sheets that are not record files: a shared sheet's string (``ud1.…``), a CSV or a JSON
of bids and tricks, and a deal another program exported as PBN (``.pbn``), given where a
record's file name goes (``check``, ``sheet``, ``view``, ``convert``).

Each is turned into the text of a record and read and checked as one; the diagnostics of a
CSV, a JSON sheet or a PBN deal are moved back to the place each came from.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from ..i18n import tr

if TYPE_CHECKING:  # pragma: no cover
    from ..diagnostics import Diagnostic
    from ..records.checker import CheckReport
    from ..records.csvsheet import CsvRecord
    from ..records.transcript import Transcript

SHARED_NAME = "<shared sheet>"


def is_foreign(arg: str) -> bool:
    """``arg`` names a shared sheet's string, a CSV or JSON sheet or a PBN deal, not a record."""
    from ..players.share import looks_shared

    if looks_shared(arg) and not os.path.lexists(arg):
        return True
    if arg.lower().endswith(".json"):
        from ..records.jsonsheet import looks_like_json_sheet

        try:
            with open(arg, "rb") as f:
                return looks_like_json_sheet(f.read(65536).decode("utf-8", "replace"))
        except OSError:
            return False  # the reader of records says what is wrong with it
    return arg.lower().endswith((".csv", ".pbn"))


def foreign_reports(arg: str, variant_path: Sequence[str]) -> "Iterator[CheckReport]":
    """The check of a shared sheet or a CSV sheet (one game)."""
    from ..records.checker import CheckReport, check_transcript

    t, diags, csv = _foreign(arg, variant_path)
    if t is None:
        yield CheckReport(_name(arg), tuple(diags), readable=False)
        return
    report = check_transcript(t, [] if csv is not None else diags, variant_path=[*variant_path, *_folder(arg)])
    if csv is not None:
        moved = (*diags, *(_moved(d, csv, arg) for d in report.diagnostics))
        report = CheckReport(arg, moved, report.readable, report.level, report.finished, report.game, t)
    yield report


def foreign_records(arg: str, variant_path: Sequence[str]) -> "list[tuple[Transcript | None, list[Diagnostic]]]":
    """The record of a shared sheet or a CSV sheet, read but not checked."""
    t, diags, _ = _foreign(arg, variant_path)
    return [(t, diags)]


def _name(arg: str) -> str:
    from ..players.share import looks_shared

    return SHARED_NAME if looks_shared(arg) and not os.path.lexists(arg) else arg


def _folder(arg: str) -> list[str]:
    return [] if _name(arg) == SHARED_NAME else [os.path.dirname(os.path.abspath(arg))]


def _foreign(arg: str, variant_path: Sequence[str]
             ) -> "tuple[Transcript | None, list[Diagnostic], CsvRecord | None]":
    """The record, what reading it found (at the CSV's cells) and the CSV read."""
    from ..diagnostics import Diagnostic
    from ..records.transcript import format_transcript, parse_transcript

    if _name(arg) == SHARED_NAME:
        from ..players.share import ShareError, read_share

        try:
            keeper = read_share(arg, lambda label: shared_variant(label, variant_path))
        except ShareError as exc:
            return None, [Diagnostic("T001", str(exc), path=SHARED_NAME, line=1, col=1)], None
        t, diags = parse_transcript(format_transcript(keeper.transcript()), SHARED_NAME)
        return t, diags, None
    from ..records.csvsheet import read_csv_sheet

    try:
        with open(arg, "rb") as f:
            text = f.read().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else tr("not UTF-8 text")
        return None, [Diagnostic("T001", tr("cannot read the file: {value}", value=reason or exc), path=arg)], None
    if arg.lower().endswith(".json"):
        from ..records.jsonsheet import read_json_sheet

        csv = read_json_sheet(text, arg)
    elif arg.lower().endswith(".pbn"):
        from ..records.pbn import read_pbn

        csv = read_pbn(text, arg)
    else:
        csv = read_csv_sheet(text, arg)
    if not csv.text:
        return None, csv.problems, csv
    t, diags = parse_transcript(csv.text, arg)
    return t, [*csv.problems, *(_moved(d, csv, arg) for d in diags)], csv


def shared_variant(label: str, variant_path: Sequence[str]) -> Any:
    """The variant a shared sheet names, found as a record's would be (bundled, or in an allowed folder)."""
    from ..players.share import ShareError
    from ..records.model import Header, Transcript
    from ..records.report import transcript_variant

    t = Transcript((Header("variant", label), Header("players", "a b")), ("a", "b"), ())
    variant, diags = transcript_variant(t, list(variant_path))
    if variant is None:
        raise ShareError(diags[0].message if diags else tr("cannot load the variant {name}", name=label))
    return variant


def _moved(d: "Diagnostic", csv: "CsvRecord", arg: str) -> "Diagnostic":
    """A diagnostic about the record made of a CSV, at the CSV's cell."""
    if d.path not in (arg, None) or d.line is None:
        return d
    place = csv.place(d.line, d.col, d.code)
    if place is None:
        return d
    line, col = place
    return dataclasses.replace(d, path=arg, line=line, col=col, end_col=None)
