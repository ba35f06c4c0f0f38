"""A game, a deal and a checked record drawn for a notebook (Jupyter), as python-chess draws boards.

Evaluating a :class:`~updown_dsl.engine.Game` in a notebook cell shows the table (each seat's
hand, bid, tricks and total, the trick on the table) and the score sheet so far; a deal's
result (``game.results[i]``) shows its hands, bids, tricks and points, and both have a picture
(``_repr_svg_``) of the hands; a :class:`~updown_dsl.records.report.CheckReport` shows the
checked game: how it stands, the problems, and the score sheet. The sheet and the problems are
the web page's own (:mod:`.game`), the cards the replay's (:mod:`.replay`). Plain text out, no
script and no style sheet (a notebook shows neither from an untrusted output), and nothing
beyond the standard library: charts are left to ``updown view``.

Importing this module registers the renderers with :mod:`updown_dsl.engine.display`;
``import updown_dsl`` does it with the first name it gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..engine.display import register
from ..i18n import tr
from .html import esc

if TYPE_CHECKING:  # pragma: no cover
    from ..cards import Card, Suit
    from ..engine import Game
    from ..engine.scoring import DealResult
    from ..lang.variant import Variant
    from ..records.report import CheckReport

__all__ = ["Picture", "deal_html", "deal_svg", "game_html", "game_svg", "picture", "report_html"]

_RED = "#c0392b"
#: The few rules the drawings need, scoped to their own class (a notebook has no page.css).
_STYLE = ("<style>.updown-nb table{border-collapse:collapse;margin:.3em 0}"
          ".updown-nb td,.updown-nb th{padding:.15em .6em;text-align:left;border-bottom:1px solid #ddd}"
          f".updown-nb .red{{color:{_RED}}}.updown-nb .trump{{font-weight:bold}}"
          ".updown-nb .card{white-space:nowrap}.updown-nb .caption{font-size:smaller}</style>")


def _frame(kind: str, body: str) -> str:
    return f'<div class="updown-nb updown-{kind}">{_STYLE}{body}</div>'


def _names(n: int) -> list[str]:
    from ..records.record import default_names

    return list(default_names(n))


def _card_span(card: Card, trump: Suit | None) -> str:
    from .replay import card_data

    return _shown(card_data(card, trump))


def _shown(d: dict[str, Any]) -> str:
    """A card of the replay's data (:func:`~.replay.card_data`, :func:`~.replay.play_data`)."""
    classes = "card" + (" red" if d["red"] else "") + (" trump" if d["trump"] else "")
    extra = f" {esc(d['declare'])}" if d.get("declare") else ""
    return f'<span class="{classes}">{esc(d["text"])}{extra}</span>'


def _play_span(play: Any, trump: Suit | None) -> str:
    from .replay import play_data

    return _shown(play_data(0, play, trump))


def _ordered(cards: Sequence[Card], trump: Suit | None, variant: Variant | None) -> list[Card]:
    """A hand as the play screen shows it (a deal's result knows no variant: as dealt)."""
    from ..players.replies import display_order

    return display_order(cards, trump, variant) if variant is not None else list(cards)


def _hand_html(cards: Sequence[Card], trump: Suit | None, variant: Variant | None) -> str:
    return " ".join(_card_span(c, trump) for c in _ordered(cards, trump, variant)) or "–"


def _trump_text(trump: Suit | None, known: bool) -> str:
    from .sheet import shown_mark, trump_mark

    return shown_mark(trump_mark(trump, known))


def _cards_text(n: int) -> str:
    """As the page's replay writes it (the same two messages)."""
    return tr("{n} card", n=n) if n == 1 else tr("{n} cards", n=n)


def _row(cells: Sequence[str], head: bool = False) -> str:
    tag = "th" if head else "td"
    return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


# --------------------------------------------------------------------------- a game
def _sheet_data(game: Game, names: Sequence[str]) -> dict[str, Any]:
    from .sheet import sheet_rows, sheet_summary

    rows = sheet_rows(game, names)
    return {"players": list(names), "rows": rows, "deals": [{"problems": []} for _ in rows],
            "summary": sheet_summary(game, names)}


def game_html(game: Game) -> str:
    """The table now and the score sheet so far (players are named ``p1`` … ``pN``)."""
    from ..engine import Phase
    from .game import sheet_html, standing_text

    names = _names(game.players)
    data = _sheet_data(game, names)
    out = [f'<p><b>{esc(game.variant.name)}</b> · {esc(standing_text(data))}</p>']
    if not game.is_over:
        d = game.deal
        known = game.phase in (Phase.BID, Phase.PLAY)
        trump = game.trump if known else None
        head = tr("Deal {number} of {deals}: {cards}", number=d.number, deals=len(game.deals), cards=_cards_text(d.cards))
        info = tr("dealer {dealer} · trump {trump}", dealer=names[game.dealer], trump=_trump_text(trump, known))
        turned = (tr(" · turned ") + _card_span(game.turned, trump)) if known and game.turned is not None else ""
        out.append(f"<p>{esc(head)}; {esc(info)}{turned}</p><table>")
        out.append(_row(["", esc(tr("player")), esc(tr("hand")), esc(tr("bid")), esc(tr("taken")), esc(tr("total"))],
                        head=True))
        bids, taken, totals = game.bids, game.taken, game.totals
        for s in range(game.players):
            mark = "▶" if s == game.to_act else ""
            bid = "–" if bids[s] is None else str(bids[s])
            out.append(_row([mark, esc(names[s]), _hand_html(game.hand(s), trump, game.variant), esc(bid),
                             esc(taken[s]), esc(totals[s])]))
        out.append("</table>")
        if game.trick:
            plays = " ".join(f"{esc(names[tp.seat])}: {_play_span(tp.play, trump)}" for tp in game.trick)
            out.append(f"<p>{esc(tr('on the table'))}: {plays}</p>")
    if data["rows"]:
        out.append(sheet_html(data))
    return _frame("game", "".join(out))


def game_svg(game: Game) -> str:
    """The deal in progress as a picture: each seat's cards, and the trick on the table."""
    from ..engine import Phase

    names = _names(game.players)
    known = game.phase in (Phase.BID, Phase.PLAY)
    trump = game.trump if known else None
    hands = [game.hand(s) for s in range(game.players)]
    trick = {tp.seat: tp.play.card for tp in game.trick}
    title = f"{game.variant.name} · " + tr("Deal {number} of {deals}: {cards}", number=game.deal.number,
                                           deals=len(game.deals), cards=_cards_text(game.deal.cards))
    return _hands_svg(title, names, hands, trump, game.variant, trick, game.to_act)


# --------------------------------------------------------------------------- a deal
def deal_html(result: DealResult) -> str:
    """One deal's result: dealer and trump, each seat's hand as dealt, bid, tricks and points,
    and the tricks card by card."""
    from .replay import tricks_data

    n = len(result.seats)
    names = _names(n)
    trump = result.trump
    d = result.deal
    head = tr("Deal {number}: {cards}", number=d.number, cards=_cards_text(d.cards))
    known = trump is not None or result.turned is not None
    info = tr("dealer {dealer} · trump {trump}", dealer=names[result.dealer], trump=_trump_text(trump, known))
    out = [f'<p><b>{esc(head)}</b>; {esc(info)}</p><table>',
           _row([esc(tr("player")), esc(tr("hand")), esc(tr("bid")), esc(tr("taken")), esc(tr("points"))], head=True)]
    hands = result.hands or [()] * n
    for s, seat in enumerate(result.seats):
        bid = "–" if seat.bid is None else str(seat.bid)
        points = seat.points + seat.bonus + seat.penalty
        hand = _hand_html(hands[s], trump, None) if hands[s] else "?"
        out.append(_row([esc(names[s]), hand, esc(bid), esc(seat.taken), esc(points)]))
    out.append("</table>")
    tricks = tricks_data(result, n)
    if tricks:
        out.append("<table>")
        out.append(_row(["#", esc(tr("leads")), esc(tr("card")), esc(tr("takes"))], head=True))
        for k, t in enumerate(tricks, 1):
            cards = " ".join(f"{esc(names[p['seat']])}: {_shown(p)}" for p in t["plays"])
            winner = "" if t["winner"] is None else names[t["winner"]]
            out.append(_row([str(k), esc(names[t["leader"]]), cards, esc(winner)]))
        out.append("</table>")
    return _frame("deal", "".join(out))


def deal_svg(result: DealResult) -> str:
    """The hands of a deal as dealt, as a picture."""
    names = _names(len(result.seats))
    hands = result.hands or [()] * len(result.seats)
    return _hands_svg(tr("Deal {number}: {cards}", number=result.deal.number, cards=_cards_text(result.deal.cards)),
                      names, hands, result.trump, None, {}, -1)


# --------------------------------------------------------------------------- a checked record
def report_html(report: CheckReport) -> str:
    """A checked record: how the game stands, the checker's problems and the score sheet (a
    record that could not be read: its diagnostics)."""
    from .game import annotation_notes, corrections_by_cell, problems_html, sheet_html, standing_text
    from .replay import diagnostic_data, replay_data

    if report.game is None or report.transcript is None:
        items = "".join(f"<li>{esc(p['code'])}: {esc(p['message'])}</li>"
                        for p in map(diagnostic_data, report.diagnostics))
        return _frame("report", f'<p>{esc(tr("The record cannot be read."))}</p><ol>{items}</ol>')
    data = replay_data(report)
    return _frame("report", f'<p><b>{esc(data["variant"])}</b> ({esc(", ".join(data["players"]))}) · '
                            f"{esc(standing_text(data))}</p>{problems_html(data)}"
                            f"{sheet_html(data, corrections_by_cell(report), annotation_notes(report))}")


# --------------------------------------------------------------------------- the picture
_W, _H, _GAP, _LEFT, _ROW = 30, 40, 4, 70, 50


def _hands_svg(title: str, names: Sequence[str], hands: Sequence[Sequence[Card]], trump: Suit | None,
               variant: Variant | None, trick: dict[int, Card], to_act: int) -> str:
    """Each seat's cards in a row of small cards (red suits red, trumps framed thick), the
    seat's card on the table at the right."""
    from .replay import card_data

    most = max((len(h) for h in hands), default=0)
    width = max(_LEFT + (most + 2) * (_W + _GAP) + 10, 8 * len(title) + 10)  # (a title's letters ≈ 8 px)
    height = 30 + _ROW * len(names)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
           f'<text x="4" y="18" font-weight="bold">{esc(title)}</text>']

    def card(x: int, y: int, c: Card) -> str:
        d = card_data(c, trump)
        fill = _RED if d["red"] else "#222"
        stroke = 2.5 if d["trump"] else 1
        return (f'<g><rect x="{x}" y="{y}" width="{_W}" height="{_H}" rx="4" fill="white" stroke="#555" '
                f'stroke-width="{stroke}"/><text x="{x + _W / 2}" y="{y + _H / 2 + 5}" text-anchor="middle" '
                f'fill="{fill}">{esc(d["text"])}</text></g>')

    for s, name in enumerate(names):
        y = 30 + s * _ROW
        weight = ' font-weight="bold"' if s == to_act else ""
        out.append(f'<text x="4" y="{y + _H / 2 + 5}"{weight}>{esc(name)}</text>')
        for k, c in enumerate(_ordered(hands[s], trump, variant)):
            out.append(card(_LEFT + k * (_W + _GAP), y, c))
        if s in trick:
            out.append(card(_LEFT + (most + 1) * (_W + _GAP), y, trick[s]))
    out.append("</svg>")
    return "".join(out)


register("game", "html", game_html)
register("game", "svg", game_svg)
register("deal", "html", deal_html)
register("deal", "svg", deal_svg)
register("report", "html", report_html)


class Picture:
    """A drawing for a notebook to show as a picture (Jupyter shows its ``_repr_svg_``)."""

    __slots__ = ("svg",)

    def __init__(self, svg: str) -> None:
        self.svg = svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Picture, {len(self.svg)} characters of SVG>"


def picture(value: Game | DealResult) -> Picture:
    """A game's deal in progress, or a deal's result, as a picture of the hands
    (``ud.picture(game)`` in a cell: the picture instead of the table)."""
    from ..engine import Game

    return Picture(game_svg(value) if isinstance(value, Game) else deal_svg(value))
