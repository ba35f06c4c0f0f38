"""The web page of a recorded game, and of an archive of games (an index, then each game).

:func:`game_page` turns one :class:`~updown_dsl.records.report.CheckReport` into a page: the
score sheet laid out like the paper one, the chart of the running totals, the replay
stepped trick by trick (``assets/replay.js`` draws it from the data of
:func:`~updown_dsl.pages.replay.replay_data`), and the checker's diagnostics at the deal and
trick they concern. :func:`archive_page` does the same for many games, with an index first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..i18n import ntr, tr, trc
from .html import esc, json_script, page
from .replay import attach_analysis, diagnostic_data, replay_data, totals_by_deal
from .sheet import reason_text, sheet_cell, shown_mark

if TYPE_CHECKING:  # pragma: no cover
    from ..records.report import CheckReport

__all__ = ["archive_page", "game_page", "game_section"]


def corrections_by_cell(report: CheckReport) -> dict[tuple[int, int], list[str]]:
    """The corrections a kept record holds (its ``correction`` lines), as words per
    (deal number, seat): ``bid 0 → 1 at deal 5, 2024-05-18T21:03``."""
    from ..records.tablelines import Correction

    out: dict[tuple[int, int], list[str]] = {}
    t = report.transcript
    if t is None:
        return out
    for block in t.deals():
        for e in block[1:]:
            if e.kind == "correction":
                c = Correction.of_event(e, block[0].number or 0)
                old = "-" if c.old is None else str(c.old)
                words = f"{c.field} {old} → {c.new} at deal {c.at}" + (f", {c.when}" if c.when else "")
                out.setdefault((c.deal, c.seat), []).append(words)
    return out


def annotation_notes(report: CheckReport) -> list[str]:
    """The hints shown and the decisions taken back at the table (``hint`` and ``undo`` lines),
    in words: ``deal 3, Anna was shown: play QS`` and ``deal 3, Anna took back: bid 1, bid 0``."""
    from ..records.writer import format_event, hint_action

    t = report.transcript
    if t is None:
        return []
    out = []
    blocks = t.deals_as_written()
    for k, e, back in t.annotations():
        deal = blocks[k][0].number
        name = t.players[e.actor or 0]
        if e.kind == "hint":
            shown = hint_action(e, t.players)
            out.append(tr("deal {number}, {player} was shown: {action}", number=deal, player=name, action=shown))
        elif back:
            taken = ", ".join(format_event(x._replace(comment=None), t.players) for x in back)
            out.append(tr("deal {number}, {player} took back: {lines}", number=deal, player=name, lines=taken))
    return out


def sheet_html(data: dict[str, Any], corrected: dict[tuple[int, int], list[str]] | None = None,
               annotations: Sequence[str] = ()) -> str:
    """The score sheet as an HTML table: ``data`` holds ``players``, ``rows``
    (:func:`~updown_dsl.pages.sheet.sheet_rows`), ``deals`` (each with its ``problems``) and
    ``summary``; ``corrected`` marks the cells a score keeper corrected; ``annotations`` lists
    the hints and take-backs of the table (:func:`annotation_notes`)."""
    players = data["players"]
    corrected = corrected or {}
    out = [f'<table class="sheet"><thead><tr><th>#</th><th>{esc(tr("cards"))}</th><th>{esc(tr("trump"))}</th>'
           f'<th>{esc(tr("dealer"))}</th>']
    for name in players:
        out.append(f'<th class="player" colspan="2">{esc(name)}</th>')
    out.append("</tr></thead><tbody>")
    last_set = None
    for i, (row, deal) in enumerate(zip(data["rows"], data["deals"])):
        kind = row["kind"]
        classes = [f"row-{kind}"]
        if last_set is not None and row["set"] != last_set:
            classes.append("set-start")
        last_set = row["set"]
        if deal["problems"]:
            classes.append("has-problem")
        number = str(row["deal"]) + ("" if kind == "deal" else "*")
        dealer = row["dealer"] if kind in ("deal", "abandoned") else tr(kind)
        cells = [number, shown_mark(row["mark"]) if kind in ("deal", "abandoned") else "", shown_mark(row["trump"]),
                 dealer]
        tds = "".join(f"<td>{esc(c)}</td>" for c in cells)
        for s, seat in enumerate(row["seats"]):
            fixes = corrected.get((row["deal"], s)) if kind == "deal" else None
            if fixes:
                note = esc("corrected: " + "; ".join(fixes))
                tds += (f'<td class="cell corrected" title="{note}">{esc(sheet_cell(seat, kind))}'
                        f'<sup class="fix">✎</sup></td>')
            else:
                tds += f'<td class="cell">{esc(sheet_cell(seat, kind))}</td>'
            tds += f'<td class="sum">{esc(seat["total"])}</td>'
        title = f' title="{esc(row["note"])}"' if row["note"] else ""
        out.append(f'<tr class="{" ".join(classes)}" data-row="{i}"{title}>{tds}</tr>')
    out.append("</tbody>")
    summary = data["summary"]
    span = 4
    if summary["finished"]:
        out.append(f'<tfoot><tr class="settlement"><td colspan="{span}">{esc(tr("settlement"))}</td>')
        for name in players:
            out.append(f'<td colspan="2">{summary["settlement"][name]:+d}</td>')
        out.append("</tr></tfoot>")
    out.append("</table>")
    notes = [f"<li>{esc(str(r['deal']) + '*')} {esc(r['note'])}</li>" for r in data["rows"]
             if r["note"] and r["kind"] != "deal"]
    notes += [f'<li class="table-event">{esc(str(r["deal"]))}: {esc(r["table"])}</li>' for r in data["rows"]
              if r.get("table")]
    notes += [f'<li class="correction">✎ deal {deal}, {esc(players[seat])}: {esc("; ".join(fixes))}</li>'
              for (deal, seat), fixes in sorted(corrected.items()) if 0 <= seat < len(players)]
    notes += [f'<li class="annotation">{esc(a)}</li>' for a in annotations]
    if notes:
        out.append('<ul class="notes">' + "".join(notes) + "</ul>")
    sets = (" " + tr("A thick line starts a new set.")) if any(r["set"] != data["rows"][0]["set"]
                                                            for r in data["rows"]) else ""
    marks = (" " + tr("✎ marks a number corrected after the deal, as the list says.")) if corrected else ""
    out.append('<p class="caption">' + esc(tr("each player: bid/taken points (a set premium after it), then the "
                                              "running total; * a penalty, a cut or a deal abandoned.") + marks
                                           + sets) + "</p>")
    return "".join(out)


def standing_text(data: dict[str, Any]) -> str:
    """How the game stands, in words: over (why, and who won) or where it stopped."""
    s = data["summary"]
    if s["finished"]:
        winners = s["winners"]
        who = (tr("winner: ") if len(winners) == 1 else tr("winners: ")) + ", ".join(winners)
        reason = f" ({reason_text(s['over_reason'])})" if s["over_reason"] else ""
        return tr("game over after deal {number}", number=s["last_deal"]) + f"{reason}; {who}"
    return tr("unfinished after deal {number} of {deals}", number=s["last_deal"], deals=s["deals"])


def problems_html(data: dict[str, Any]) -> str:
    """The checker's problems as a list, each at its deal, or the sentence that there is none."""
    items = []
    for p in data["problems"]:
        items.append(_problem_li(p, None))
    for i, deal in enumerate(data["deals"]):
        for p in deal["problems"]:
            items.append(_problem_li(p, (i, deal)))
    if not items:
        return f'<p class="clean">{esc(tr("The checker found no problem in this record."))}</p>'
    return (f'<section class="problems"><h2>{esc(tr("Problems the checker found"))}</h2><ol>'
            + "".join(items) + "</ol></section>")


def _problem_li(p: dict[str, Any], where: tuple[int, dict[str, Any]] | None) -> str:
    line = tr("line {number}: ", number=p["line"]) if p["line"] else ""
    text = (f'<span class="sev sev-{esc(p["severity"])}">{esc(p["severity"])}[{esc(p["code"])}]</span> '
            f"{esc(line)}{esc(p['message'])}")
    if p["hint"]:
        text += f'<br><span class="hint">{esc(tr("hint: {hint}", hint=p["hint"]))}</span>'
    if where is None:
        return f'<li class="problem" data-code="{esc(p["code"])}">{text}</li>'
    i, deal = where
    at = {"bids": tr("the bidding"), "score": tr("the scores")}.get(p["at"]) or tr("trick {number}",
                                                                                   number=p["trick"])
    link = (f'<a href="#" class="goto" data-deal="{i}" data-at="{esc(p["at"])}" data-trick="{p["trick"]}">'
            + esc(tr("deal {number}, {at}", number=deal["number"], at=at)) + "</a>")
    return f'<li class="problem" data-code="{esc(p["code"])}">{link}: {text}</li>'


def game_section(report: CheckReport, index: int = 0, *, title: str | None = None, back: bool = False,
                 analysis: dict[str, Any] | None = None) -> str:
    """One game as a ``<section>`` of a page: heading, problems, replay, chart and sheet; with
    an ``analysis`` (:func:`~updown_dsl.players.analysis.to_data`), each player's expected loss
    and, on the replay, the loss of every bid and card and the trick distribution of each bid."""
    from .charts import progression_svg

    data = replay_data(report)
    if analysis is not None:
        attach_analysis(data, analysis)
    labels, series = totals_by_deal(data)
    chart = progression_svg(labels, series, data["players"], title=tr("Running totals by deal"))
    for deal in data["deals"]:  # the marks as the reader's sheet writes them (the data keep the English)
        deal["mark_text"], deal["trump_text"] = shown_mark(deal["mark"]), shown_mark(deal["trump"] or "")
    head = title or data["variant"]
    where = f' <span class="path">{esc(data["path"])}</span>' if data["path"] else ""
    level = {"full": trc("record level", "full"), "plays": trc("record level", "plays"),
             "sheet": trc("record level", "sheet")}.get(data["level"], data["level"])
    players = ntr("{n} player", "{n} players", len(data["players"]))
    buttons = "".join(
        f'<button type="button" data-go="{go}" title="{esc(hint)}">{esc(label)}</button>'
        for go, hint, label in (("first", tr("the first deal (Home)"), tr("first")),
                                ("prev-deal", tr("previous deal (↑)"), tr("« deal")),
                                ("prev", tr("back (←)"), tr("◀ back")), ("next", tr("on (→)"), tr("on ▶")),
                                ("next-deal", tr("next deal (↓)"), tr("deal »")),
                                ("last", tr("the end (End)"), tr("last"))))
    return (
        f'<section class="game" id="game-{index + 1}" data-game="{index}">'
        + (f'<p><a href="#index">{esc(tr("← all games"))}</a></p>' if back else "") +
        f"<h1>{esc(head)}{where}</h1>"
        f'<p class="standing">{esc(tr("{level} record, {players}", level=level, players=players))} '
        f"({esc(', '.join(data['players']))}); {esc(standing_text(data))}</p>"
        f"{problems_html(data)}"
        f"{_analysis_html(data)}"
        f'<section class="replay"><h2>{esc(tr("Replay"))}</h2>'
        f'<div class="controls">{buttons}'
        '<span class="position"></span></div>'
        '<div class="board" aria-live="polite"></div></section>'
        f'<section class="chart"><h2>{esc(tr("Score progression"))}</h2>{chart}</section>'
        f'<section class="score-sheet"><h2>{esc(tr("Score sheet"))}</h2>{sheet_html(data, corrections_by_cell(report), annotation_notes(report))}</section>'
        f"{json_script(f'game-data-{index + 1}', data)}"
        "</section>"
    )


def _analysis_html(data: dict[str, Any]) -> str:
    """Each player's figures of the analysis on the page (empty without one)."""
    found = data.get("analysis")
    if not found:
        return ""
    st = found["settings"]
    heads = "".join(f"<th>{esc(h)}</th>" for h in (tr("player"), tr("loss"), tr("per deal"), "?", "??",
                                                    tr("bids made"), tr("as the search")))
    rows = "".join(
        f'<tr><td>{esc(p["player"])}</td><td class="num">{p["loss"]:.1f}</td><td class="num">{p["loss_per_deal"]:.1f}</td>'
        f'<td class="num">{p["mistakes"]}</td><td class="num">{p["big"]}</td>'
        f'<td class="num">{p["made"]}/{p["bids"]}</td><td class="num">{p["agreed"]}/{p["bids"]}</td></tr>'
        for p in found["summary"])
    words = tr("search level {level} ({method}), seed {seed}; ? loses {half:g} points or more, ?? {big:g}",
               level=st["level"], method=st["method"], seed=st["seed"], half=st["threshold"] / 2, big=st["threshold"])
    return (f'<section class="analysis"><h2>{esc(tr("expected points lost"))}</h2><p>{esc(words)}</p>'
            f'<table class="analysis-summary"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table></section>')


def replay_words() -> dict[str, str]:
    """The words the replay script writes, in the reader's language (``{fields}`` it fills in)."""
    return {
        "none": tr("The record has no deal to replay."),
        "step": tr("step {n} of {of}"),
        "title": tr("Deal {number} of {deals}: {cards}"),
        "card": tr("{n} card"), "cards": tr("{n} cards"),
        "info": tr("dealer {dealer} · trump {trump}"), "turned": tr(" · turned "),
        "bidding": tr("The bidding"), "scores": tr("The scores"),
        "trick": tr("Trick {number} of {tricks}: {leader} leads"),
        "stops": tr(", and the deal stops at {name}'s card (the penalty)"),
        "wins": tr(", {name} wins"),
        "player": tr("player"), "bid": tr("bid"), "taken": tr("taken"), "card_head": tr("card"),
        "hand": tr("hand"), "points": tr("points"), "total": tr("total"),
        "dealer": tr("dealer"), "leads": tr("leads"), "call": tr(" (call {call})"),
        "best": tr("best"), "loss": tr("loss"),
    }


def game_page(report: CheckReport, *, title: str | None = None, analysis: dict[str, Any] | None = None) -> str:
    """The self-contained page of one checked game (with an ``analysis``: see :func:`game_section`).

    :raises ValueError: for a record that could not be read (there is no game to show).
    :raises MissingExtra: without matplotlib (see :mod:`~updown_dsl.pages.charts`).
    """
    body = game_section(report, 0, title=title, analysis=analysis)
    name = title or (report.transcript.variant if report.transcript else None) or "game"
    return page(f"{name}: updown", f'<main class="single">{body}{json_script("replay-words", replay_words())}</main>',
                script="replay.js")


def _index_row(i: int, report: CheckReport) -> str:
    t = report.transcript
    if not report.readable or report.game is None or t is None:
        first = report.diagnostics[0] if report.diagnostics else None
        why = diagnostic_data(first)["message"] if first else "cannot be read"
        return (f'<tr class="unreadable"><td>{i + 1}</td><td colspan="4">{esc(tr("not readable: {why}", why=why))}'
                f"</td><td>{len(report.errors)}</td></tr>")
    game = report.game
    names = list(t.players)
    winners = ", ".join(names[s] for s in game.winners()) if game.is_over else tr("unfinished")
    totals = " · ".join(f"{n} {v}" for n, v in zip(names, game.totals))
    return (f'<tr><td><a href="#game-{i + 1}">{i + 1}</a></td><td>{esc(t.variant)}</td><td>{esc(report.level)}</td>'
            f"<td>{esc(totals)}</td><td>{esc(winners)}</td><td>{len(report.errors)}</td></tr>")


def archive_page(reports: Sequence[CheckReport], *, title: str = "games",
                 analyses: Sequence[dict[str, Any] | None] | None = None) -> str:
    """One page for the games of an archive: an index (variant, totals, winner, problems per
    game, each a link), then every readable game as :func:`game_section` draws it.

    :raises MissingExtra: without matplotlib.
    """
    rows = "".join(_index_row(i, r) for i, r in enumerate(reports))
    heads = "".join(f"<th>{esc(h)}</th>" for h in (tr("game"), tr("variant"), tr("level"), tr("totals"),
                                                   tr("winner"), tr("errors")))
    index = ('<section class="index" id="index"><h1>' + esc(title) + "</h1><p>"
             + esc(ntr("{n} game", "{n} games", len(reports))) + "</p>"
             f'<table class="games"><thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table></section>')
    games = "".join(game_section(r, i, title=tr("Game {number}: {variant}", number=i + 1,
                                                variant=r.transcript.variant if r.transcript else ""),
                                 back=True, analysis=analyses[i] if analyses is not None else None)
                    for i, r in enumerate(reports) if r.readable and r.game is not None)
    return page(f"{title}: updown",
                f'<main class="archive">{index}{games}{json_script("replay-words", replay_words())}</main>',
                script="replay.js")
