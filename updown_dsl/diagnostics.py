"""Diagnostics: every problem updown reports is a value with a stable code.

Codes are grouped by stage: ``V`` variant files, ``F`` scoring formulas,
``C`` card notation, ``T`` transcripts that cannot be read as written, ``R`` rule
violations found while playing or checking.
The catalogue below is the single source of truth; ``docs/diagnostics.md``
is written from it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple


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
    "V013": "`extends` names a file outside the folders a variant may read",
    "V014": "a deal of the schedule leaves a player no bid",
    "V015": "the totals can grow past what a record holds",
    # scoring formulas
    "F001": "formula syntax error",
    "F002": "unknown name in a formula",
    "F003": "wrong number of arguments to a function",
    "F004": "unknown function in a formula",
    "F005": "formula evaluation failed (division by zero)",
    "F006": "a formula is too long or nested too deeply",
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
    "T013": "the rules differ from those the record was written with (hash)",
    "T014": "the record names a variant file outside the folders a record may read",
    "T015": "a line is too long to be a record's line",
    "T016": "the players line names too many players",
    "T017": "more problems in a game than a report keeps",
    "T018": "the JSON form is nested too deeply",
    "T019": "a game is longer than a record of real play (the rest of the input is not read)",
    "T020": "the game is unfinished",
    "T021": "a deal holds unknown cards (??): they are read as the cards that fit the record best, or not checked",
    "T022": "an `undo` line does not fit the lines before it: it takes nothing back",
    # rule violations (engine refusals; the checker reuses them)
    "R001": "not this player's turn",
    "R002": "action not allowed in this phase",
    "R010": "must follow the led suit",
    "R011": "must trump when void in the led suit",
    "R012": "may not trump while holding the led suit",
    "R013": "card not in hand",
    "R014": "must answer a demand with the highest card asked for",
    "R015": "declaration not allowed",
    "R016": "must over-trump: beat the trump already in the trick when able",
    "R017": "a trump may not be led yet",
    "R020": "bid out of range",
    "R021": "the last bidder's bid would make the bids total the hand size (hook)",
    "R022": "trump choice not allowed",
    "R023": "too many bids of 0 (dashes) in a deal, or a dash where none may be called",
    "R024": "a call of the auction the rules do not allow",
    "R025": "a redeal the rules do not allow",
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
    "R056": "a correction line does not match the deal it corrects",
    "R057": "the table's comings and goings do not fit the sheet (a player out of a deal has numbers in it)",
    "R058": "a changed number of cards the pack or the deal does not allow",
}


#: code -> an example of the message as updown prints it (for docs/diagnostics.md).
EXAMPLES: dict[str, str] = {
    "V001": "house.yaml:3:7: error[V001] not valid YAML: mapping values are not allowed here",
    "V002": "house.yaml:7:1: error[V002] duplicate key 'trump' (first defined at line 4)",
    "V003": "house.yaml:5:3: error[V003] unknown key 'rul' in `trump` (hint: did you mean 'rule'?)",
    "V004": "house.yaml:4:9: error[V004] `deck.pack` must be a whole number, not 'many'",
    "V005": "house.yaml:5:9: error[V005] `trump.rule` must be one of turned, random, fixed, chosen, none, not 'flipped'",
    "V006": "house.yaml:1:1: error[V006] missing required key 'schedule' in the file",
    "V007": "house.yaml:6:13: error[V007] `play.first_leader`: 'no' is read by YAML as a boolean (hint: quote it: 'no')",
    "V008": "house.yaml:4:11: error[V008] `deck.jokers` must be between 0 and 2, not 3",
    "V009": "house.yaml:4:3: error[V009] with 6 players: deal 6 needs 54 cards but the pack has 36",
    "V010": "house.yaml:1:10: error[V010] `extends` names no bundled variant or file: 'my-rules' (hint: bundled variants: ...)",
    "V011": "house.yaml:4:23: error[V011] `deck.designated_jokers`: 2S is not in a 36-card pack",
    "V012": "house.yaml:2:3: error[V012] players: min 5 is more than max 4",
    "V014": "house.yaml:4:1: error[V014] the hook leaves the last bidder no bid in deal 1 with 4 players (4 cards): every bid must be 1, and 4 bids of 1 total the 4 cards",
    "V015": "house.yaml:3:3: error[V015] the totals can grow past 1,000,000,000,000,000 by deal 9 with 4 players (9 cards): a record cannot hold them",
    "V013": "house.yaml:1:10: error[V013] `extends` may not read '../../etc/base.yaml': it is outside the folders a variant may be read from (hint: extend a bundled variant or a file in this file's folder; allow another folder with --variant-path)",
    "F001": "house.yaml:9:22: error[F001] formula ends too early: missing operand after '+'",
    "F002": "house.yaml:9:11: error[F002] unknown name 'bids' in formula (hint: did you mean 'bid'?)",
    "F003": "house.yaml:9:9: error[F003] abs() takes 1 argument, not 2",
    "F004": "house.yaml:9:9: error[F004] unknown function 'sqrt'",
    "F005": "error[F005] division by zero in formula 'taken // (bid - bid)'",
    "F006": "house.yaml:9:9: error[F006] formula is longer than 2,000 characters (2,417)",
    "C001": "error[C001] not a card: '11H' (hint: write rank then suit, e.g. AS, 10H, TH, 7♠; jokers are JK and JK2)",
    "T001": "game.log:1:1: error[T001] not a transcript: the file holds binary data",
    "T002": "game.log:12:1: error[T002] not a transcript line: 'Anna bets 2'",
    "T003": "game.log:14:12: error[T003] not a card: '11H'",
    "T004": "game.log:9:11: error[T004] not a whole number: 'two'",
    "T005": "game.log:10:1: error[T005] unknown player 'Zoe' (hint: players: Anna Boris Vera Gleb)",
    "T006": "game.log:1:1: error[T006] the header does not name the players",
    "T007": "game.log:3:1: error[T007] header key 'players' is given twice",
    "T008": "game.log:4:1: warning[T008] unknown header key 'table' (kept, not used)",
    "T009": "game.log:4:1: error[T009] level must be one of full, plays, sheet, not 'paper'",
    "T010": "game.log:1:1: error[T010] cannot load the variant 'house.yaml': no such variant file: 'house.yaml'",
    "T011": "game.log:2:1: error[T011] the option lines cannot be applied: `jokers.lead_on` must be one of any_trick, first_trick, never, not 'sometimes'",
    "T012": "game.log:3:1: error[T012] house is for 3 to 6 players, the record has 2",
    "T013": "game.log:8:1: warning[T013] the rules of 'house.yaml' differ from those the record was written with (rules: sha256:0123456789abcdef)",
    "T015": "game.log:40:1: error[T015] the line is 1,048,576 characters long, more than 10,000: it is not read",
    "T016": "game.log:2:1: error[T016] 'players' names 100,001 players; a record has at most 64",
    "T017": "game.log:212:1: error[T017] 22,900 more problems in this game (22,900 of them errors) are not shown: a report keeps the first 100",
    "T018": "game.json:1:1: error[T018] the JSON is nested too deeply to read (a record nests four levels)",
    "T019": "game.log:50001:1: error[T019] the game goes on past 50,000 lines or 4,000,000 characters, more than a record of real play holds: the rest of the input is not read",
    "T014": "game.log:1:1: error[T014] the record names the variant '../../etc/passwd', which may not be read: a variant file's name ends in .yaml or .yml (hint: a record may name a bundled variant or a .yaml file in its own folder; allow another folder with --variant-path)",
    "T020": "game.log:212:1: note[T020] the record stops after deal 7 of 24: the game is unfinished",
    "T021": "game.log:69:1: note[T021] deal 4 holds 1 unknown card (??): checked with it read as 8S, a reading that fits the record",
    "T022": "game.log:17:1: error[T022] Anna's 'undo 5' takes back more action lines than deal 1 holds before it (4): it takes nothing back",
    "R001": "game.log:31:1: error[R001] Vera cannot bid now in deal 3: it is Boris's turn",
    "R002": "error[R002] no card can be played in the bid phase",
    "R003": "game.log:44:1: error[R003] Gleb leads trick 2 of deal 3, but Anna won trick 1 and leads",
    "R010": "game.log:27:11: error[R010] Boris (deal 3, trick 1): QD does not follow the led suit, spades, which the player holds; the hand holds 9S (hint: if the table caught it, write 'penalty Boris -50 R010' on the next line, then 'replay', the totals, and deal 3 dealt again as a new 'deal' block)",
    "R011": "game.log:29:11: error[R011] Boris (deal 2, trick 1): AD: void in hearts and holding a trump, the player must trump",
    "R012": "game.log:29:11: error[R012] Vera (deal 4, trick 2): 7C trumps while holding hearts",
    "R013": "game.log:33:11: error[R013] Anna (deal 5, trick 3): KH is not in Anna's hand; Boris holds it",
    "R014": "game.log:35:12: error[R014] Boris (deal 3, trick 1): the joker demands the highest hearts: play KH, not 10H",
    "R015": "game.log:52:12: error[R015] Anna (deal 6, trick 2): a 'demand' lead is allowed only on the first trick of a deal",
    "R016": "game.log:41:11: error[R016] Vera (deal 3, trick 2): 7H does not beat the hearts already in the trick: the player must over-trump with QH (hint: play QH)",
    "R017": "game.log:30:11: error[R017] Anna (deal 2, trick 1): 9H: a trump may not be led to the first trick (hint: lead another suit)",
    "R020": "game.log:21:10: error[R020] Gleb (deal 2): bid 5 is out of range 0..2",
    "R021": "game.log:24:10: error[R021] Gleb (deal 5): the last bidder may not bid 2: the bids would total 5, the number of cards",
    "R022": "game.log:60:1: error[R022] Anna names trump in deal 4, where the rules do not let a player name it",
    "R023": "game.log:14:11: error[R023] Gleb (deal 2): no more bids of 0 in this deal: 2 players have already bid 0 (a dash) (hint: bid 1 or more)",
    "R024": "game.log:11:11: error[R024] Anna (deal 3): a call of 3 tricks is not allowed: calls run from 4 to 13 tricks, or a dash",
    "R025": "game.log:88:1: error[R025] Boris asks for a redeal in deal 2: a redeal needs a hand void in a suit; this hand holds every suit",
    "R030": "error[R030] the game is over",
    "R040": "game.log:58:1: error[R040] deal 5 is written where deal 4 comes next",
    "R041": "game.log:61:1: error[R041] Vera was dealt 3 cards; deal 4 has 4 each",
    "R042": "game.log:58:1: error[R042] Anna deals deal 4, not Vera",
    "R043": "game.log:62:1: error[R043] 8S appears twice in deal 4 (first at line 60)",
    "R044": "game.log:62:1: error[R044] 2S is not in the 36-card pack",
    "R045": "game.log:58:1: error[R045] Anna played 3 cards in deal 4, which has 4 each",
    "R046": "game.log:63:1: error[R046] trump in deal 4 is hearts by the rules, not spades",
    "R047": "game.log:80:1: error[R047] deal 5 is incomplete but the record goes on",
    "R050": "game.log:75:1: error[R050] Boris scores -10 in deal 4 (bid 1, took 0), not 10",
    "R051": "game.log:76:1: error[R051] Boris's total after deal 4 is 25, not 35",
    "R052": "game.log:70:1: error[R052] Vera took 2 tricks in deal 4, not 1",
    "R053": "game.log:74:1: error[R053] tricks taken 1 + 0 + 2 + 0 = 3 do not add up to the 4 cards of deal 4",
    "R056": "game.log:12:1: error[R056] deal 2 gives Anna's bid as 0, but its correction says 1 (hint: write the corrected number in the deal's row)",
    "R054": "game.log:300:1: error[R054] Anna settles -120, not -100",
    "R055": "game.log:30:1: error[R055] the penalty for R010 is -50, not -25",
    "R057": "game.log:9:75: error[R057] Gleb sits deal 2 out, but the deal gives Gleb's bid (hint: a player who sits a deal out has no bid, tricks or score in it ('-'))",
    "R058": "game.log:12:1: error[R058] deal 3 cannot be played with 10 cards each: 4 players need 40 and the pack has 36",
}


class Cause(NamedTuple):
    """Where a diagnostic's cause is: the line and code of the mistake it follows from."""

    line: int | None
    code: str


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
    caused_by: Cause | None = None
    """The mistake this diagnostic follows from (a note about its consequences), if any."""

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
            "caused_by": None if self.caused_by is None else {"line": self.caused_by.line,
                                                              "code": self.caused_by.code},
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
