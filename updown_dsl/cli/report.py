"""Plain-text and JSON rendering for the command line (no printing here).

Every function returns a string or plain data, so ``updown variant validate``,
``updown check`` and tests can share them:

>>> from updown_dsl.diagnostics import Diagnostic
>>> d = Diagnostic("V003", "unknown key 'colour' in the file", path="x.yaml", line=2, col=1,
...                hint="did you mean 'players'?")
>>> print(render_diagnostic(d, "name: x\\ncolour: red\\n"))
x.yaml:2:1: error[V003] unknown key 'colour' in the file
  |
2 | colour: red
  | ^^^^^^
  = hint: did you mean 'players'?

This module imports nothing heavy at import time (no YAML, no Lark).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from ..diagnostics import Diagnostic
    from ..engine import Game
    from ..records.transcript import Transcript
    from ..lang.variant import Deal, Variant

__all__ = [
    "check_summary",
    "deal_mark",
    "deals_data",
    "diagnostic_header",
    "diagnostics_json",
    "hand_sizes_text",
    "kind_label",
    "load_sources",
    "pack_text",
    "read_source",
    "render_diagnostic",
    "render_diagnostics",
    "rules_data",
    "rules_sections",
    "sheet_cell",
    "sheet_rows",
    "sheet_summary",
    "sort_diagnostics",
    "to_json",
    "trump_mark",
    "validate_summary",
]

# --------------------------------------------------------------------------- JSON


def to_json(data: Any) -> str:
    """Machine output: ``json.dumps(indent=2, ensure_ascii=False)``; odd values become text."""
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)


def diagnostics_json(diags: Iterable[Diagnostic]) -> str:
    """A list of :meth:`Diagnostic.to_dict` objects as JSON (``[]`` when clean)."""
    return to_json([d.to_dict() for d in diags])


# --------------------------------------------------------------------------- diagnostics


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file order (path, line, column); ones without a place first, stable."""
    return sorted(
        diags,
        key=lambda d: (d.path is not None, d.path or "", d.line or 0, d.col or 0),
    )


def diagnostic_header(diag: Diagnostic) -> str:
    """``path:line:col: error[CODE] message`` (without the hint)."""
    where = []
    if diag.path is not None:
        where.append(str(diag.path))
    if diag.line is not None:
        where.append(str(diag.line))
        if diag.col is not None:
            where.append(str(diag.col))
    prefix = ":".join(where) + ": " if where else ""
    return f"{prefix}{diag.severity}[{diag.code}] {diag.message}"


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\']|\'\')*\'|[^\s:,\[\]{}#]+')


def _caret_span(text: str, col0: int, end_col: int | None) -> int:
    """How many carets to draw from 0-based ``col0``: up to ``end_col`` or over one token."""
    if end_col is not None and end_col - 1 > col0:
        return min(end_col - 1, max(len(text), col0 + 1)) - col0
    m = _TOKEN.match(text, col0)
    if m and m.end() > col0:
        return m.end() - col0
    return 1


def render_diagnostic(diag: Diagnostic, source: str | None = None) -> str:
    """One diagnostic in the compiler form, with the source line and a caret.

    ``source`` is the text of the file ``diag.path`` names (None: no snippet).
    The hint, if any, ends the block as ``  = hint: ...``.
    """
    lines = [diagnostic_header(diag)]
    gutter = 1
    if source is not None and diag.line is not None and diag.line >= 1:
        src_lines = source.splitlines()
        if diag.line <= len(src_lines):
            text = src_lines[diag.line - 1].rstrip("\r\n")
            num = str(diag.line)
            gutter = len(num)
            pad = " " * gutter
            lines.append(f"{pad} |")
            lines.append(f"{num} | {text}")
            if diag.col is not None and diag.col >= 1:
                col0 = min(diag.col - 1, len(text))
                # keep tabs so the caret lines up under tab-indented text
                lead = "".join("\t" if ch == "\t" else " " for ch in text[:col0])
                lines.append(f"{pad} | {lead}{'^' * _caret_span(text, col0, diag.end_col)}")
    if diag.hint:
        lines.append(f"{' ' * (gutter + 1)}= hint: {diag.hint}")
    return "\n".join(lines)


def read_source(path: str | None) -> str | None:
    """The text of a file a diagnostic names, or None if it cannot be read."""
    if not path or path.startswith("<"):
        return None
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def load_sources(diags: Iterable[Diagnostic],
                 reader: Callable[[str | None], str | None] = read_source) -> dict[str, str]:
    """Read each file named by ``diags`` once: path -> text (unreadable files left out)."""
    out: dict[str, str] = {}
    for d in diags:
        if d.path and d.path not in out and d.line is not None:
            text = reader(d.path)
            if text is not None:
                out[d.path] = text
    return out


def render_diagnostics(diags: Sequence[Diagnostic],
                       sources: Mapping[str, str] | None = None) -> str:
    """Several diagnostics, in file order, separated by blank lines.

    ``sources`` maps a diagnostic's path to its file text (see :func:`load_sources`).
    """
    sources = sources or {}
    blocks = [render_diagnostic(d, sources.get(d.path) if d.path else None)
              for d in sort_diagnostics(diags)]
    return "\n\n".join(blocks)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def validate_summary(checked: int, valid: int, problems: Sequence[int], unreadable: int = 0) -> str:
    """``2 files checked: 1 valid, 1 with 3 problems`` (``problems``: count per bad file)."""
    parts = [f"{valid} valid"]
    if problems:
        total = sum(problems)
        parts.append(f"{len(problems)} with {_plural(total, 'problem')}")
    if unreadable:
        parts.append(f"{unreadable} unreadable")
    return f"{_plural(checked, 'file')} checked: " + ", ".join(parts)


# --------------------------------------------------------------------------- variants


def _cards(cards: Iterable[object]) -> str:
    return " ".join(str(c) for c in cards)


def pack_text(variant: Variant) -> str:
    """A short description of the pack: ``52``, ``36, 6S is joker``, ``36 (+2 jokers, −6S 6C)``."""
    d = variant.deck
    extra = []
    if d.jokers:
        extra.append(f"+{d.jokers} joker" + ("s" if d.jokers > 1 else ""))
    if d.remove:
        extra.append("−" + _cards(d.remove))
    text = str(d.pack) + (f" ({', '.join(extra)})" if extra else "")
    if d.designated_jokers:
        verb = "is joker" if len(d.designated_jokers) == 1 else "are jokers"
        text += f", {_cards(d.designated_jokers)} {verb}"
    for w in variant.wild:
        if w.ordinary:
            text += f", {_cards(w.cards)} special"
    return text


def kind_label(variant: Variant, kind: str) -> str:
    """``normal``, ``blind ×2``, ``minimum`` ..."""
    k = variant.kinds.get(kind)
    if k is not None and k.multiplier != 1:
        return f"{kind} ×{k.multiplier}"
    return kind


def deals_data(deals: Sequence[Deal]) -> list[dict[str, Any]]:
    """The resolved schedule as plain data."""
    return [
        {"number": d.number, "cards": d.cards, "kind": d.kind, "set": d.set, "set_deal": d.set_deal}
        for d in deals
    ]


_KIND_MARK = {"blind": "B", "no-trump": "NT", "hidden": "H", "minimum": "MIN", "maximum": "MAX"}


def hand_sizes_text(deals: Sequence[Deal]) -> str:
    """Hand sizes in order as in RULES.md TC-01: ``1 2 … 6 6B``, sets separated by ``|``."""
    out: list[str] = []
    last_set = None
    for d in deals:
        if last_set is not None and d.set != last_set:
            out.append("|")
        last_set = d.set
        if d.kind == "normal":
            out.append(str(d.cards))
        else:
            mark = _KIND_MARK.get(d.kind)
            if d.kind == "blind":
                out.append(f"{d.cards}B")
            else:
                out.append(f"{mark}{d.cards}" if mark else f"{d.kind}:{d.cards}")
    return " ".join(out)


def _src(formula: object) -> str | None:
    return None if formula is None else str(getattr(formula, "source", formula))


def _trump_data(t: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"rule": t.rule}
    if t.rule == "fixed":
        data["suit"] = None if t.suit is None else str(t.suit)
    if t.rule == "turned":
        data["when_exhausted"] = t.when_exhausted
        data["joker_turned"] = t.joker_turned
    if t.rule == "random":
        data["random_no_trump"] = t.random_no_trump
    if t.rule == "chosen" or (t.rule == "turned" and t.when_exhausted == "chosen"):
        data["chooser"] = t.chooser
        data["choose_after"] = t.choose_after
        data["choose_no_trump"] = t.choose_no_trump
    return data


def _wild_data(w: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "cards": [str(c) for c in w.cards],
        "lead": list(w.lead),
        "follow": list(w.follow),
        "exempt": w.exempt,
        "lead_on": w.lead_on,
        "demand_void": w.demand_void,
        "beaten_by_trump": w.beaten_by_trump,
        "two_high": w.two_high,
        "impersonate": w.impersonate,
    }
    if w.ordinary:
        data["answer"] = w.answer
        data["turned_as_trump"] = w.turned_as_trump
        data["cut_zeroes_total"] = w.cut_zeroes_total
    return data


def rules_data(variant: Variant) -> dict[str, Any]:
    """The resolved rules (defaults filled in) as plain data; formulas as source text."""
    v = variant
    b = v.bidding
    kinds: dict[str, Any] = {}
    for name, k in v.kinds.items():
        if name == "normal":
            continue
        kd: dict[str, Any] = {"bidding": k.bidding, "multiplier": k.multiplier}
        if k.trump is not None:
            kd["trump"] = _trump_data(k.trump)
        if k.score is not None:
            kd["score"] = _src(k.score)
        if k.hook is not None:
            kd["hook"] = k.hook
        kinds[name] = kd
    jokers = [_wild_data(w) for w in v.wild if not w.ordinary]
    special = [_wild_data(w) for w in v.wild if w.ordinary]
    data: dict[str, Any] = {
        "players": {"min": v.min_players, "max": v.max_players, "default": v.default_players},
        "deck": {
            "pack": v.deck.pack,
            "jokers": v.deck.jokers,
            "remove": [str(c) for c in v.deck.remove],
            "designated_jokers": [str(c) for c in v.deck.designated_jokers],
            "summary": pack_text(v),
        },
        "dealing": {"cut_by": v.cut_by},
        "trump": _trump_data(v.trump),
        "bidding": {
            "min": _src(b.min_bid),
            "max": _src(b.max_bid),
            "hook": b.hook,
            "hook_exempt": _src(b.hook_exempt),
            "first_bidder": b.first_bidder,
        },
        "play": {
            "must_follow": v.play.must_follow,
            "must_trump": v.play.must_trump,
            "first_leader": v.play.first_leader,
        },
        "jokers": jokers[0] if jokers else None,
        "special_card": special[0] if special else None,
        "kinds": kinds,
        "scoring": {
            "deal": _src(v.scoring.deal),
            "set_bonus": _src(v.scoring.set_bonus),
            "params": dict(v.scoring.params),
        },
        "penalties": {
            "revoke": None if v.revoke is None else {
                "points": v.revoke.points,
                "replay": v.revoke.replay,
                "covers": list(v.revoke.covers),
                "multiplied": v.revoke.multiplied,
            }
        },
        "end": {"stop_loss": v.end.stop_loss, "stop_on": v.end.stop_on},
        "settlement": {
            "method": v.settlement.method,
            "stake": v.settlement.stake,
            "negative_doubles": v.settlement.negative_doubles,
            "cap": v.settlement.cap,
        },
    }
    return data


def _value_text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(x) for x in value) if value else "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} = {_value_text(x)}" for k, x in value.items()) if value else "—"
    return str(value)


def rules_sections(variant: Variant) -> list[tuple[str, list[tuple[str, str]]]]:
    """The resolved rules as ``[(section, [(key, text), ...]), ...]`` for a two-column table."""
    data = rules_data(variant)
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    for section, body in data.items():
        if section == "players":
            p = body
            sections.append(("players", [("count", f"{p['min']}–{p['max']} (default {p['default']})")]))
            continue
        if section == "deck":
            rows = [("pack", body["summary"])]
            sections.append(("deck", rows))
            continue
        if section == "kinds":
            rows = []
            for name, k in body.items():
                parts = [f"bidding {k['bidding']}"]
                if k["multiplier"] != 1:
                    parts.append(f"×{k['multiplier']}")
                if "trump" in k:
                    parts.append("trump " + _value_text(k["trump"]))
                if "score" in k:
                    parts.append(f"score: {k['score']}")
                if "hook" in k:
                    parts.append(f"hook {_value_text(k['hook'])}")
                rows.append((name, "; ".join(parts)))
            if rows:
                sections.append(("kinds", rows))
            continue
        if section == "penalties":
            rev = body["revoke"]
            sections.append(("penalties", [("revoke", _value_text(rev) if rev else "—")]))
            continue
        if body is None:
            continue
        sections.append((section, [(k, _value_text(x)) for k, x in body.items()]))
    return sections


# --------------------------------------------------------------------------- check and sheet


def check_summary(files: int, clean: int, errors: Sequence[int], unfinished: int = 0,
                  unreadable: int = 0) -> str:
    """``3 files, 5 games: 4 clean, 1 with 2 errors; 1 unfinished`` (one line per ``check`` run).

    ``errors``: the number of errors of each game that has some. Unreadable inputs are not
    counted as games: ``1 file, 0 games; 1 unreadable``.
    """
    games = clean + len(errors)
    text = f"{_plural(files, 'file')}, {_plural(games, 'game')}"
    if games:
        parts = [f"{clean} clean"]
        if errors:
            parts.append(f"{len(errors)} with {_plural(sum(errors), 'error')}")
        text += ": " + ", ".join(parts)
    if unfinished:
        text += f"; {unfinished} unfinished"
    if unreadable:
        text += f"; {unreadable} unreadable"
    return text


_SUIT_MARK = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def trump_mark(suit: object, known: bool = True) -> str:
    """``♠ ♥ ♦ ♣`` for a suit, ``NT`` for no trump (None), ``?`` when not known."""
    if not known:
        return "?"
    if suit is None:
        return "NT"
    return _SUIT_MARK.get(str(suit), str(suit))


def _written_totals(game: Game, transcript: Transcript) -> dict[int, tuple[int | None, ...]]:
    """Result index -> the ``total`` line written in the deal block of an abandoned deal.

    The checker replays one deal block into one result that ends the deal (a scored deal,
    an abandoned deal or a penalty that annuls it); cut records and penalties that do not
    annul the deal share the block of the deal they belong to. For an abandoned deal it
    sets the totals to the ones written, so the sheet does too.
    """
    blocks = transcript.deals()
    out: dict[int, tuple[int | None, ...]] = {}
    b = 0
    for i, r in enumerate(game.results):
        if b >= len(blocks):
            break
        if r.event == "cut" or (r.event == "revoke" and not r.annulled):
            continue
        block = blocks[b]
        b += 1
        if r.event == "abandoned":
            total = next((e for e in block if e.kind == "total"), None)
            if total is not None:
                out[i] = total.amounts
    return out


def deal_mark(cards: int, kind: str) -> str:
    """A deal's hand size with its kind, as in :func:`hand_sizes_text`: ``6``, ``6B``, ``NT6``."""
    if kind == "normal":
        return str(cards)
    if kind == "blind":
        return f"{cards}B"
    mark = _KIND_MARK.get(kind)
    return f"{mark}{cards}" if mark else f"{kind}:{cards}"


def sheet_rows(game: Game, players: Sequence[str],
               transcript: Transcript | None = None) -> list[dict[str, Any]]:
    """The paper score sheet of a game as rows of plain data, one per record of ``game.results``.

    Every row has ``kind`` (``deal``, ``revoke``, ``cut`` or ``abandoned``), ``deal`` (number),
    ``cards``, ``deal_kind``, ``mark`` (see :func:`deal_mark`), ``set``, ``dealer`` (name),
    ``trump`` (``♠♥♦♣``, ``NT``, ``?`` or ``""`` for a row without a deal of its own),
    ``note`` and ``seats``: per player
    ``player``, ``bid``, ``taken``, ``points`` (deal points), ``bonus`` (set premium),
    ``penalty``, ``reset`` (total set to 0 by the cut) and ``total`` (running total after
    the row). Points come from ``game`` (the engine), not from what a record says, except
    for abandoned deals, which keep the points written (and, given ``transcript``, the
    total written, as the checker does).
    """
    names = list(players)
    n = game.players
    totals = [0] * n
    written = _written_totals(game, transcript) if transcript is not None else {}
    rows: list[dict[str, Any]] = []
    for i, r in enumerate(game.results):
        r.apply_to(totals)
        for s, amount in enumerate(written.get(i, ())):
            if amount is not None and s < n:
                totals[s] = amount
        event = r.event
        d = r.deal
        if event == "deal":
            trump = trump_mark(r.trump)
            note = ""
            if any(x.bonus for x in r.seats):
                note = "set premium"
        elif event == "abandoned":
            trump = trump_mark(r.trump, known=r.trump is not None)
            note = "abandoned: points as written"
        elif event == "revoke":
            trump = ""
            seat = next((s for s, x in enumerate(r.seats) if x.penalty), None)
            who = names[seat] if seat is not None else "?"
            points = r.seats[seat].penalty if seat is not None else 0
            note = f"revoke {r.offence or ''}".rstrip() + f": {who} {points}"
            note += ", deal replayed" if r.annulled else ""
        else:  # cut
            trump = ""
            who = ", ".join(names[s] for s in r.reset)
            card = "" if r.turned is None else f" {r.turned}"
            note = f"cut{card}: {who}'s total set to 0"
        rows.append({
            "kind": event,
            "deal": d.number,
            "cards": d.cards,
            "deal_kind": d.kind,
            "mark": deal_mark(d.cards, d.kind),
            "set": d.set,
            "dealer": names[r.dealer] if 0 <= r.dealer < len(names) else str(r.dealer),
            "trump": trump,
            "note": note,
            "seats": [
                {
                    "player": names[s],
                    "bid": x.bid,
                    "taken": x.taken if event == "deal" else None,
                    "points": x.points,
                    "bonus": x.bonus,
                    "penalty": x.penalty,
                    "reset": s in r.reset,
                    "total": totals[s],
                }
                for s, x in enumerate(r.seats)
            ],
        })
    return rows


def sheet_summary(game: Game, players: Sequence[str]) -> dict[str, Any]:
    """How the game stands: ``finished``, ``over_reason``, ``last_deal`` (the last deal
    scored or abandoned, 0 before any), ``totals`` and, when it is over, ``settlement``
    and ``winners`` (names; several on a tie)."""
    names = list(players)
    last = 0
    for r in game.results:
        if r.event in ("deal", "abandoned"):
            last = r.deal.number
    over = game.is_over
    return {
        "finished": over,
        "over_reason": game.over_reason,
        "last_deal": last,
        "deals": len(game.deals),
        "totals": dict(zip(names, game.totals)),
        "settlement": dict(zip(names, game.settlement())) if over else None,
        "winners": [names[s] for s in game.winners()] if over else [],
    }


def sheet_cell(seat: Mapping[str, Any], kind: str) -> str:
    """One player's cell in a sheet row: ``bid/taken points`` (``2/2 30``; ``–`` for no bid,
    ``+100`` after the points for a set premium), the penalty, or ``→0`` for a cut."""
    if kind == "revoke":
        return str(seat["penalty"]) if seat["penalty"] else ""
    if kind == "cut":
        return "→0" if seat["reset"] else ""
    bid = "–" if seat["bid"] is None else str(seat["bid"])
    taken = "?" if seat["taken"] is None else str(seat["taken"])
    text = f"{bid}/{taken} {seat['points']}"
    if seat["bonus"]:
        text += f" {seat['bonus']:+d}"
    return text
