"""Diagnostics: every problem updown reports is a value with a stable code.

Codes are grouped by stage: ``V`` variant files, ``F`` scoring formulas,
``C`` card notation, ``R`` rule violations found while playing or checking.
The catalogue below is the single source of truth; ``docs/diagnostics.md``
is written from it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.StrEnum):
    """How bad a diagnostic is."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


#: code -> one-line summary. Codes are stable: never renumber, only add.
CATALOGUE: dict[str, str] = {
    # variant files
    "V001": "the file cannot be read or is not valid YAML",
    "V002": "duplicate key in a mapping",
    "V003": "unknown key",
    "V004": "a value has the wrong type",
    "V005": "a value is not one of the allowed words",
    "V006": "a required key is missing",
    "V007": "a YAML 1.1 boolean (yes/no/on/off) where a word is expected",
    "V008": "a number is out of its allowed range",
    "V009": "the deal schedule cannot be built",
    "V010": "`extends` names an unknown variant or forms a cycle",
    "V011": "a card in the variant is not in its deck",
    "V012": "the rules contradict each other",
    # scoring formulas
    "F001": "formula syntax error",
    "F002": "unknown name in a formula",
    "F003": "wrong number of arguments to a function",
    "F004": "unknown function in a formula",
    "F005": "formula evaluation failed (division by zero)",
    # card notation
    "C001": "not a card",
    # transcripts
    "T001": "the input is not a transcript at all (binary, not UTF-8, not the JSON form)",
    "T002": "a line is not a transcript line",
    "T003": "not a card, suit or declaration",
    "T004": "not a whole number",
    "T005": "unknown player name",
    "T006": "the header lacks the variant or the players",
    "T007": "a header key is given twice",
    "T008": "unknown header key (kept, not used)",
    "T009": "a header value is not valid",
    "T010": "the transcript's variant cannot be loaded",
    "T011": "an `option` header line cannot be applied",
    "T012": "the number of players is not allowed by the variant",
    "T020": "the game is unfinished",
    "T021": "a deal holds unknown cards: its plays are not checked",
    # rule violations (engine refusals; the checker reuses them)
    "R001": "not this player's turn",
    "R002": "action not allowed in this phase",
    "R010": "must follow the led suit",
    "R011": "must trump when void in the led suit",
    "R012": "may not trump while holding the led suit",
    "R013": "card not in hand",
    "R014": "must answer a demand with the highest card asked for",
    "R015": "declaration not allowed",
    "R020": "bid out of range",
    "R021": "the last bidder's bid would make the bids total the hand size (hook)",
    "R022": "trump choice not allowed",
    "R030": "game is over",
    "R003": "the wrong player leads: the previous trick was won by another player",
    "R040": "wrong deal number",
    "R041": "wrong hand size",
    "R042": "wrong dealer",
    "R043": "a card appears twice in a deal",
    "R044": "a card that is not in the pack",
    "R045": "a player played a wrong number of cards",
    "R046": "trump not as the rules give it",
    "R047": "a deal is incomplete but the record goes on",
    "R050": "a written deal score is wrong",
    "R051": "a written running total is wrong",
    "R052": "a written number of tricks taken is wrong",
    "R053": "the tricks taken do not add up to the hand size",
    "R054": "a written settlement is wrong",
    "R055": "a penalty or replay not as the variant says",
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem, with where it is and what to do about it."""

    code: str
    message: str
    severity: Severity = Severity.ERROR
    path: str | None = None
    line: int | None = None
    col: int | None = None
    end_col: int | None = None
    hint: str | None = None

    def format(self) -> str:
        """Render in the compiler form ``path:line:col: error[CODE] message``."""
        where = []
        if self.path is not None:
            where.append(self.path)
        if self.line is not None:
            where.append(str(self.line))
            if self.col is not None:
                where.append(str(self.col))
        prefix = ":".join(where) + ": " if where else ""
        text = f"{prefix}{self.severity}[{self.code}] {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    def to_dict(self) -> dict[str, object]:
        """Plain data for ``--json`` output."""
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "end_col": self.end_col,
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "hint": self.hint,
        }

    def __str__(self) -> str:
        return self.format()


class UpdownError(Exception):
    """An error carrying one or more diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))
