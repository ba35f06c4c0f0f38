"""A checked game as the plain data of its replay: every deal, trick and problem where it belongs.

Nothing here plays a card or scores a deal: the deals, hands, bids, tricks, winners, points
and totals are the engine's, as the checker's replay (:func:`~updown_dsl.records.checker.check_transcript`)
left them in ``report.game.results``; the rows are :func:`~updown_dsl.pages.sheet.sheet_rows`.
What this module adds is where each of the checker's diagnostics belongs: the deal block of
the record its line is in, and there the bidding, the trick (counted from the ``play`` lines
before it) or the scores.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from ..cards import card_text
from ..i18n import card_letters
from ..players.replies import display_order, shown_word
from .sheet import result_blocks, sheet_rows, sheet_summary, totals_series, trump_mark

if TYPE_CHECKING:  # pragma: no cover
    from ..actions import Call, Play
    from ..cards import Card
    from ..diagnostics import Diagnostic
    from ..records.model import Event
    from ..records.report import CheckReport

_RED = {"H", "D"}
#: The lines of a deal block shown with its bidding; any other line is shown with the scores.
_BIDDING = {"deal", "hand", "turned", "cut", "trump", "call", "bid"}


def card_data(card: Card, trump: object = None) -> dict[str, Any]:
    """A card for the page: ``text`` (``10♥``, ``🃏``), ``code`` (``10H``), ``red``, ``trump``."""
    suit = None if card.is_joker else str(card.suit)
    code = str(card)
    letters = card_letters()
    return {"text": card_text(card, letters) if card.is_joker else card.pretty(letters), "code": code, "red": suit in _RED,
            "trump": suit is not None and trump is not None and suit == str(trump), "joker": card.is_joker}


def play_data(seat: int, play: Play, trump: object = None) -> dict[str, Any]:
    """One card as played, with its declaration (``high``, ``demand ♥``, ``as 7S``) written out."""
    out = card_data(play.card, trump)
    extra = []
    if play.declare:
        extra.append(shown_word(str(play.declare)))
    if play.suit is not None:
        extra.append(play.suit.symbol)
    if play.as_card is not None:
        extra.append(shown_word("as") + " " + play.as_card.pretty(card_letters()))
    out.update(seat=seat, declare=" ".join(extra), written=str(play))
    return out


def call_text(call: Call) -> str:
    """An auction's call as the page shows it: ``5 ♥``, ``6 NT``, ``dash``."""
    if not call.tricks:
        return "dash"
    return f"{call.tricks} {call.suit.symbol if call.suit is not None else 'NT'}"


def diagnostic_data(d: Diagnostic) -> dict[str, Any]:
    """A diagnostic as the page shows it."""
    return {"code": d.code, "severity": str(d.severity), "message": d.message, "hint": d.hint,
            "line": d.line, "col": d.col}


def _place(d: Diagnostic, blocks: list[list[Event]], starts: list[int], players: int
           ) -> tuple[int, str, int, int | None] | None:
    """(block, ``bids``/``trick``/``score``, trick number, the seat of the line) of a diagnostic,
    or None (it concerns the whole game)."""
    if d.line is None or not blocks:
        return None
    b = bisect_right(starts, d.line) - 1
    if b < 0:
        return None
    block = blocks[b]
    plays = 0
    for e in block:
        if e.line >= d.line:
            if e.line == d.line:
                if e.kind == "play":
                    return b, "trick", plays // players + 1, e.actor
                if e.kind in _BIDDING:
                    return b, "bids", 0, e.actor
            break
        if e.kind == "play":
            plays += 1
    if b == len(blocks) - 1 and block[-1].line < d.line:  # after the last deal: the game's
        return None
    return b, "score", 0, None


def tricks_data(r: Any, players: int) -> list[dict[str, Any]]:
    """The tricks of a result: finished tricks with their winner, or (a penalty) the cards up
    to the illegal one, the last trick (the one it stopped in) without a winner."""
    trump = r.trump
    if r.tricks:
        return [{"leader": t.leader, "winner": t.winner,
                 "plays": [play_data(p.seat, p.play, trump) for p in t.plays]} for t in r.tricks]
    out: list[dict[str, Any]] = []
    for i, (seat, play) in enumerate(r.played):
        if i % players == 0:
            out.append({"leader": seat, "winner": None, "plays": []})
        out[-1]["plays"].append(play_data(seat, play, trump))
    for done, after in zip(out, out[1:]):
        done["winner"] = after["leader"]  # the winner of a trick leads the next
    return out


def replay_data(report: CheckReport) -> dict[str, Any]:
    """The replay of a checked game as plain data (for JSON).

    ``players``, ``variant``, ``level``, ``deals`` (one per sheet row, in order: ``kind``,
    ``number``, ``cards``, ``mark``, ``dealer`` (seat), ``trump`` (mark), ``turned``, ``hands``
    (the cards dealt, a record at the full level only), ``bids``, ``tricks`` (``leader``,
    ``winner``, ``plays``), ``points``, ``totals_before``, ``totals``, ``note``, ``problems``),
    ``problems`` (those of the whole game), ``summary`` (:func:`sheet_summary`) and ``rows``.
    A deal's problems carry ``at`` (``bids``, ``trick`` or ``score``), ``trick`` and ``seat``
    (the player of the line at fault, None for a line of the whole table).
    """
    game = report.game
    t = report.transcript
    if game is None or t is None:
        raise ValueError("the record could not be read: there is no game to show")
    names = list(t.players)
    n = game.players
    rows = sheet_rows(game, names, t)
    blocks = t.deals()
    which = result_blocks(game, t)
    ending = {}  # block -> the result shown for it (the one that ends the deal)
    for i, b in enumerate(which):
        if b is not None:
            ending[b] = i
    deals: list[dict[str, Any]] = []
    before = [0] * n
    for i, (r, row) in enumerate(zip(game.results, rows)):
        trump = r.trump
        full = report.level == "full"
        deals.append({
            "kind": r.event,
            "number": r.deal.number,
            "cards": r.deal.cards,
            "mark": row["mark"],
            "set": r.deal.set,
            "dealer": r.dealer,
            "trump": row["trump"] or (trump_mark(trump, known=trump is not None or r.turned is not None)
                                      if r.event == "revoke" else ""),
            "turned": None if r.turned is None else card_data(r.turned, trump),
            "hands": [[card_data(c, trump) for c in display_order(h, trump, game.variant)] for h in r.hands]
            if full and any(r.hands) else None,
            "bids": [x.bid for x in r.seats],
            "calls": [None if c is None else call_text(c) for c in r.calls] if r.calls else None,
            "tricks": tricks_data(r, n),
            "taken": [x.taken for x in r.seats] if r.event == "deal" else None,
            "points": [x.points + x.bonus + x.penalty for x in r.seats],
            "bonus": [x.bonus for x in r.seats],
            "totals_before": list(before),
            "totals": [s["total"] for s in row["seats"]],
            "note": row["note"],
            "block": which[i],
            "problems": [],
        })
        before = [s["total"] for s in row["seats"]]
    starts = [block[0].line for block in blocks]
    loose: list[dict[str, Any]] = []
    for d in report.diagnostics:
        place = _place(d, blocks, starts, n)
        item = diagnostic_data(d)
        if place is None or place[0] not in ending:
            loose.append(item)
            continue
        b, at, trick, seat = place
        deal = deals[ending[b]]
        if at == "trick" and trick > len(deal["tricks"]):
            at = "score"  # a card the engine did not take (the deal was left there)
        item.update(at=at, trick=trick, seat=seat)
        deal["problems"].append(item)
    return {
        "players": names,
        "variant": t.variant or game.variant.name,
        "level": report.level,
        "path": shared_path(report.path),
        "deals": deals,
        "problems": loose,
        "summary": sheet_summary(game, names),
        "rows": rows,
    }


def shared_path(path: str | None) -> str | None:
    """A record's path as a page meant to be shared shows it: as given when relative, only the
    file's name when absolute (a page names no folder of the machine it was made on)."""
    import os.path

    return os.path.basename(path) if path and os.path.isabs(path) else path


def totals_by_deal(data: dict[str, Any]) -> tuple[list[str], list[list[int]]]:
    """The series of the score chart of :func:`replay_data`'s game (see :func:`totals_series`)."""
    return totals_series(data["rows"], len(data["players"]))


def attach_analysis(data: dict[str, Any], analysis: dict[str, Any]) -> None:
    """Put an analysis (:func:`~updown_dsl.players.analysis.to_data`) on the replay's deals:
    each scored deal it covers gets ``analysis``, its decisions by where they are shown:
    ``bids`` (seat → the bid's ``loss``, ``mark``, ``best`` and ``tricks``, the chance of each
    number of tricks) and ``plays`` (``"trick:seat"`` → the card's ``loss``, ``mark``, ``best``);
    a trump choice is shown with the bids. The replay's data also get the analysis's
    ``settings`` and ``summary``."""
    judged = list(analysis.get("deals", ()))
    k = 0
    for deal in data["deals"]:
        if deal["kind"] != "deal" or k >= len(judged) or judged[k]["deal"] != deal["number"]:
            continue
        bids: dict[str, Any] = {}
        plays: dict[str, Any] = {}
        for d in judged[k]["decisions"]:
            item = {"loss": d["loss"], "mark": d["mark"], "best": _shown_action(d["best"], d["kind"]),
                    "taken": _shown_action(d["taken"], d["kind"]), "kind": d["kind"]}
            if d["kind"] == "play":
                plays[f"{d['trick']}:{d['seat']}"] = item
            else:
                if "tricks" in d:
                    item["tricks"] = d["tricks"]
                bids[f"{d['kind']}:{d['seat']}"] = item
        deal["analysis"] = {"bids": bids, "plays": plays}
        k += 1
    data["analysis"] = {"settings": analysis.get("settings"), "summary": analysis.get("summary"),
                        "stopped": analysis.get("stopped")}


def _shown_action(action: Any, kind: str) -> str:
    """An action of the analysis's data as the page writes it: a bid's number, a card with its
    suit symbol (``10♥``, ``JK high ♥``), a trump's suit symbol."""
    from ..actions import Play
    from ..cards import Suit

    if kind == "bid":
        return str(action)
    if kind == "trump":
        return "–" if action == "none" else Suit(action).symbol
    play = play_data(0, Play.parse(str(action)))
    return f"{play['text']} {play['declare']}".strip()
