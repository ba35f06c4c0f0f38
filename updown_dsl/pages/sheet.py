"""The score sheet of a game as rows of plain data, and the marks a paper sheet uses (no printing).

The rows come from the engine's results of a checked (or played) game, so ``updown sheet``,
the play screen and the web page of a record all show the checker's numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

import re

from ..i18n import ntr, tr, trc
from ..lang.schedule import KIND_MARK, deal_mark as deal_mark  # (also the sheet's: re-exported)

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Game
    from ..records.transcript import Transcript

_SUIT_MARK = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def reason_text(reason: str) -> str:
    """Why the game ended (the engine's words), in the reader's language."""
    if reason == "schedule complete":
        return tr("schedule complete")
    if reason.startswith("stop-loss reached"):
        return tr("stop-loss reached («просчет»)")
    m = re.fullmatch(r"a total reached (\d+)", reason)
    if m:
        return tr("a total reached {target}", target=m.group(1))
    m = re.fullmatch(r"tie broken after (\d+) extra deals?", reason)
    if m:
        n = int(m.group(1))
        return ntr("tie broken after {n} extra deal", "tie broken after {n} extra deals", n, n=n)
    m = re.fullmatch(r"(\d+) deals played", reason)
    return tr("{n} deals played", n=m.group(1)) if m else reason


def _mark_word(word: str) -> str:
    return {"NT": trc("sheet mark", "NT"), "B": trc("sheet mark", "B"), "H": trc("sheet mark", "H"),
            "MIN": trc("sheet mark", "MIN"), "MAX": trc("sheet mark", "MAX")}.get(word, word)


def shown_mark(mark: str) -> str:
    """A score sheet's mark of a deal or of trump (``6``, ``6B``, ``NT6``, ``MIN6``, ``NT``) as the
    reader's sheet writes it (``6Т``, ``БК6``, ``БК`` in Russian); the data keep the English."""
    m = re.fullmatch(r"([A-Z]*)(\d*)([A-Z]*)", mark)
    if m is None or not (m.group(1) or m.group(3)):
        return mark
    return _mark_word(m.group(1)) + m.group(2) + _mark_word(m.group(3))


def trump_mark(suit: object, known: bool = True) -> str:
    """``♠ ♥ ♦ ♣`` for a suit, ``NT`` for no trump (None), ``?`` when not known."""
    if not known:
        return "?"
    if suit is None:
        return "NT"
    return _SUIT_MARK.get(str(suit), str(suit))


def result_blocks(game: Game, transcript: Transcript) -> list[int | None]:
    """For each of ``game.results``, the index of the deal block of ``transcript`` it comes from.

    The checker replays one deal block into one result that ends the deal (a scored deal,
    an abandoned deal or a penalty that annuls it); cut records and penalties that do not
    annul the deal share the block of the deal they belong to. None: no block is left.
    """
    count = len(transcript.deals())
    out: list[int | None] = []
    b = 0
    for r in game.results:
        out.append(b if b < count else None)
        if not (r.event == "cut" or (r.event == "revoke" and not r.annulled)):
            b += 1
    return out


def _written_totals(game: Game, transcript: Transcript) -> dict[int, tuple[int | None, ...]]:
    """Result index -> the ``total`` line written in the deal block of an abandoned deal
    (for an abandoned deal the checker sets the totals to the ones written, so the sheet does too)."""
    blocks = transcript.deals()
    out: dict[int, tuple[int | None, ...]] = {}
    for i, (r, b) in enumerate(zip(game.results, result_blocks(game, transcript))):
        if r.event == "abandoned" and b is not None:
            total = next((e for e in blocks[b] if e.kind == "total"), None)
            if total is not None:
                out[i] = total.amounts
    return out


def sheet_rows(game: Game, players: Sequence[str],
               transcript: Transcript | None = None) -> list[dict[str, Any]]:
    """The paper score sheet of a game as rows of plain data, one per record of ``game.results``.

    Every row has ``kind`` (``deal``, ``revoke``, ``cut``, ``redeal`` or ``abandoned``), ``deal`` (number),
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
    table, block_of, blocks = _table_of(game, transcript)
    adjusted: set[int] = set()
    rows: list[dict[str, Any]] = []
    for i, r in enumerate(game.results):
        block = block_of.get(i)
        events: list[Any] = blocks[block] if block is not None else []
        if block is not None and block not in adjusted:  # an adjustment counts in its deal's total
            adjusted.add(block)
            for e in events:
                if e.kind == "adjust" and e.actor is not None and 0 <= e.actor < n:
                    totals[e.actor] += e.number or 0
        r.apply_to(totals)
        for s, amount in enumerate(written.get(i, ())):
            if amount is not None and s < n:
                totals[s] = amount
        event = r.event
        d = r.deal
        short = event == "abandoned" and block is not None and table.short(block)
        absent = set(table.absent(block)) if short else set()
        table_note = _table_note(events, names, absent)
        if short:
            event = "deal"
            trump = trump_mark(r.trump)
            note = ""
        elif event == "deal":
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
        elif event == "redeal":
            trump = ""
            who = names[r.actor] if r.actor is not None and 0 <= r.actor < len(names) else "?"
            note = tr("{who} asked for a redeal (void in a suit): dealt again", who=who)
        else:  # cut
            trump = ""
            who = ", ".join(names[s] for s in r.reset)
            card = "" if r.turned is None else f" {r.turned}"
            note = tr("cut{card}: {who}'s total set to 0", card=card, who=who)
        bids, took = _numbers(events, n) if short else ({}, {})
        rows.append({
            "kind": event,
            "deal": d.number,
            "table": table_note,
            "cards": next((e.size for e in events if e.kind == "schedule"), d.cards) if short else d.cards,
            "deal_kind": d.kind,
            "mark": deal_mark(d.cards, d.kind),
            "set": d.set,
            "dealer": names[r.dealer] if 0 <= r.dealer < len(names) else str(r.dealer),
            "trump": trump,
            "note": note,
            "seats": [
                {
                    "player": names[s],
                    "bid": bids.get(s) if short else x.bid,
                    "taken": took.get(s) if short else x.taken if event == "deal" else None,
                    "out": s in absent,
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


def _table_of(game: Game, transcript: Transcript | None) -> tuple[Any, dict[int, int], list[list[Any]]]:
    """The table's lines of a record (:class:`~updown_dsl.records.tableevents.TableLines`,
    None when it has none), the deal block of each result index and the blocks."""
    if transcript is None:
        return None, {}, []
    from ..records.tableevents import TableLines

    lines = TableLines.of(transcript)
    if lines is None:
        return None, {}, []
    blocks = transcript.deals()
    return lines, {i: b for i, b in enumerate(result_blocks(game, transcript)) if b is not None}, blocks


def _numbers(events: Sequence[Any], n: int) -> tuple[dict[int, int | None], dict[int, int | None]]:
    bids: dict[int, int | None] = {}
    took: dict[int, int | None] = {}
    for e in events:
        if e.kind in ("bid", "took") and e.actor is not None and 0 <= e.actor < n:
            (bids if e.kind == "bid" else took)[e.actor] = e.number
    return bids, took


def _table_note(events: Sequence[Any], names: Sequence[str], absent: set[int]) -> str:
    """The table's events of a deal in words (who sat out, arrived, left; a changed number
    of cards; an adjustment and its reason)."""
    parts: list[str] = []

    def who(s: int | None) -> str:
        return names[s] if s is not None and 0 <= s < len(names) else "?"

    for e in events:
        if e.kind == "late":
            parts.append(tr("{player} arrives", player=who(e.actor)))
        elif e.kind == "leave":
            parts.append(tr("{player} leaves", player=who(e.actor)))
        elif e.kind == "schedule":
            parts.append(tr("played with {cards} cards each", cards=e.size))
        elif e.kind == "adjust":
            parts.append(tr("{player} {points:+d}: {reason}", player=who(e.actor), points=e.number or 0,
                            reason=e.text))
    if absent:
        parts.insert(0, tr("sitting out: {names}", names=", ".join(who(s) for s in sorted(absent))))
    return "; ".join(parts)


def totals_series(rows: Sequence[Mapping[str, Any]], players: int) -> tuple[list[str], list[list[int]]]:
    """The series of a score chart from :func:`sheet_rows`: the x labels (``0`` before the first
    deal, then each row's deal number, ``3*`` for a penalty, cut or abandoned row) and each
    player's running total after each row, from 0."""
    labels = ["0"]
    series: list[list[int]] = [[0] for _ in range(players)]
    for row in rows:
        labels.append(str(row["deal"]) + ("" if row["kind"] == "deal" else "*"))
        for s, seat in enumerate(row["seats"]):
            series[s].append(seat["total"])
    return labels, series


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
    if kind == "redeal":
        return ""
    if seat.get("out"):
        return tr("out")
    bid = "–" if seat["bid"] is None else str(seat["bid"])
    taken = "?" if seat["taken"] is None else str(seat["taken"])
    text = f"{bid}/{taken} {seat['points']}"
    if seat["bonus"]:
        text += f" {seat['bonus']:+d}"
    return text
