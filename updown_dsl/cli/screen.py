"""Rich renderings for ``updown play``: a seat's screen, tricks, the score sheet.

Every function returns a Rich renderable and prints nothing. A seat's screen is
drawn from its :class:`~updown_dsl.engine.view.SeatView` only, so it never shows another
hand, the rest of the pack or a hidden bid.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..actions import Bid, Call, ChooseTrump, Play
from ..cards import Card, Suit
from ..engine import Game, Phase, Trick
from .rules import kind_label
from .sheet import (ROW_STYLES, fitted_sheet, reason_text, sheet_columns, sheet_frame, sheet_grid, sheet_summary,
                    sheet_table, sheet_width)
from ..engine.scoring import DealResult
from ..players.replies import Reply, action_text, display_order, legal_forms, shown_word
from ..players.session import HUMAN_NAME
from ..lang.variant import Deal, Variant
from ..engine.view import SeatView
from ..i18n import card_letters, mark, ntr, tr

_RED = {Suit.HEARTS, Suit.DIAMONDS}
_SUIT_NAMES = {Suit.SPADES: mark("spades"), Suit.HEARTS: mark("hearts"), Suit.DIAMONDS: mark("diamonds"),
               Suit.CLUBS: mark("clubs")}

_ROW_KINDS = (mark("revoke"), mark("cut"), mark("abandoned"), mark("redeal"))  # the sheet's rows that are not deals

#: What can be typed at the prompt (for ``?``/``help``).
INPUT_HELP = mark(
    "a bid: 2 (or 'pass' for 0) · a card: AS, 10h, 7♠, 🃏, or a rank or suit alone (K, H) when it is one "
    "card · a declaration: JK high, JK demand H · trump: H or none · sheet · table · ? · hint (or ? twice) "
    "· undo · quit"
)


def is_joker(card: Card, variant: Variant) -> bool:
    """A joker, or an ordinary card the variant makes a joker (a designated six of spades)."""
    return card.is_joker or card in variant.deck.designated_jokers


def _is_special(card: Card, variant: Variant) -> bool:
    return any(w.ordinary and card in w.cards for w in variant.wild)


def suit_text(suit: Suit | None) -> str:
    """``♥ hearts`` or ``no trump``."""
    return tr("no trump") if suit is None else f"{suit.symbol} {tr(_SUIT_NAMES[suit])}"


def card_text(card: Card, *, trump: Suit | None = None, variant: Variant | None = None) -> Text:
    """A card with its suit symbol: red suits red, trumps bold, jokers magenta."""
    if variant is not None and is_joker(card, variant):
        label = card.pretty() if card.is_joker else card.pretty(card_letters()) + tr("(joker)")
        return Text.assemble((label, "bold magenta"))
    style = "red" if card.suit in _RED else ""
    if trump is not None and card.suit == trump:
        style = (style + " bold").strip()
    if variant is not None and _is_special(card, variant):
        style = (style + " underline").strip()
    return Text.assemble((card.pretty(card_letters()), style))


def play_text(play: Play, *, trump: Suit | None = None, variant: Variant | None = None) -> Text:
    """A card as played, with its declaration: ``🃏 demand ♥``."""
    t = card_text(play.card, trump=trump, variant=variant)
    if play.declare:
        t.append(f" {shown_word(play.declare)}", style="magenta")
    if play.suit is not None:
        t.append(f" {play.suit.symbol}", style="red" if play.suit in _RED else "")
    if play.as_card is not None:
        t.append(" ")
        t.append_text(card_text(play.as_card, trump=trump))
    return t


def sorted_hand(hand: Sequence[Card], trump: Suit | None, variant: Variant) -> list[tuple[str, list[Card]]]:
    """The hand in groups (``jokers``, then a suit letter each): jokers, then trumps, then the
    other suits, each high to low (see :func:`~updown_dsl.players.replies.display_order`)."""
    groups: list[tuple[str, list[Card]]] = []
    for c in display_order(hand, trump, variant):
        label = "jokers" if is_joker(c, variant) or c.suit is None else c.suit.value
        if not groups or groups[-1][0] != label:
            groups.append((label, []))
        groups[-1][1].append(c)
    return groups


def hand_text(view: SeatView) -> Text:
    """``🃏 │ ♥ A♥ 10♥ (trump) │ ♠ K♠ 9♠``: the own hand by suit, the trump suit first and marked."""
    if not view.hand:
        if view.phase is Phase.BID and view.deal_kind_bidding == "before_deal":
            return Text(tr("not dealt yet: a blind deal, you bid before you see your cards"), style="italic")
        return Text(tr("no cards"), style="dim")
    out = Text()
    for i, (label, cards) in enumerate(sorted_hand(view.hand, view.trump, view.variant)):
        if i:
            out.append("  │  ", style="dim")
        for j, c in enumerate(cards):
            if j:
                out.append(" ")
            out.append_text(card_text(c, trump=view.trump, variant=view.variant))
        if view.trump is not None and label == view.trump.value:
            out.append(tr(" (trumps)"), style="bold yellow")
    return out


def trump_line(view: SeatView, names: Sequence[str]) -> Text:
    """What is known of trump: the suit and the turned card, or why it is not known yet."""
    t = Text()
    t.append(tr("Trump: "), style="bold")
    if view.phase is Phase.TRUMP:
        if view.my_turn:
            t.append(tr("you name it (you have seen {seen} of your {cards} cards)", seen=len(view.hand),
                        cards=view.deal.cards), style="yellow")
        else:
            t.append(tr("{name} names it", name=names[view.to_act]), style="yellow")
        return t
    if view.phase is Phase.AUCTION:
        t.append(tr("the highest call names it"), style="italic")
        return t
    if not view.trump_known:
        t.append(tr("not known yet"), style="italic")
        return t
    t.append(suit_text(view.trump), style="bold yellow")
    if view.declarer is not None and view.calls:
        call = view.calls[view.declarer]
        t.append(tr("  (the highest call: {player} {call})", player=names[view.declarer],
                    call=action_text(call) if call else ""))
    if view.turned is not None:
        t.append(tr("  (turned "))
        t.append_text(card_text(view.turned, variant=view.variant))
        t.append(")")
    return t


def _bid_cell(view: SeatView, seat: int) -> str:
    bid = view.bids[seat]
    if view.deal_kind_bidding == "none":
        return "—"
    call = view.calls[seat] if view.calls else None
    if call is not None and (view.phase is Phase.AUCTION or not call.tricks):
        return action_text(call)  # the auction's call (a dash stays one)
    if bid is None:
        if view.deal_kind_bidding == "hidden" and seat != view.seat:
            return tr("hidden")
        return ""
    return str(bid)


def players_table(view: SeatView, names: Sequence[str], humans: Sequence[int] = ()) -> Table:
    """Everyone's bid, tricks taken and total (hidden bids stay hidden)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("", no_wrap=True)
    table.add_column(tr("player"), no_wrap=True)
    table.add_column(tr("bid"), justify="right", no_wrap=True)
    table.add_column(tr("taken"), justify="right", no_wrap=True)
    table.add_column(tr("total"), justify="right", no_wrap=True)
    for s in range(view.players):
        name = Text.assemble((names[s], "bold" if s == view.seat else ""))
        notes = []
        if s == view.dealer:
            notes.append(tr("dealer"))
        if s == view.seat and names[s] != tr(HUMAN_NAME):
            notes.append(tr("you"))
        if notes:
            name.append(f" ({', '.join(notes)})", style="dim")
        marker = Text("▶", style="bold green") if s == view.to_act else Text("")
        table.add_row(marker, name, _bid_cell(view, s), str(view.taken[s]), str(view.totals[s]))
    return table


def trick_text(trick: Trick, number: int, names: Sequence[str], *, trump: Suit | None = None,
               variant: Variant | None = None, label: str | None = None) -> Text:
    """``Trick 3: Anna K♥, Boris 2♥, Vera A♥ → Vera`` (``label`` instead of ``Trick 3``)."""
    t = Text()
    t.append(f"{label or tr('Trick {number}', number=number)}: ", style="bold")
    for i, tp in enumerate(trick.plays):
        if i:
            t.append(", ")
        t.append(f"{names[tp.seat]} ")
        t.append_text(play_text(tp.play, trump=trump, variant=variant))
    t.append(f"  → {names[trick.winner]}", style="bold green")
    return t


def table_text(view: SeatView, names: Sequence[str]) -> Text:
    """The cards on the table now, and who leads."""
    if not view.trick:
        if view.phase is not Phase.PLAY:
            return Text("")
        leader = tr("You lead") if view.my_turn else tr("{name} leads", name=names[view.to_act])
        return Text(tr("Table: empty. {leader}.", leader=leader), style="italic")
    t = Text()
    t.append(tr("Table: "), style="bold")
    for i, tp in enumerate(view.trick):
        if i:
            t.append(", ")
        t.append(f"{names[tp.seat]} ")
        t.append_text(play_text(tp.play, trump=view.trump, variant=view.variant))
    t.append(tr("  ({name} led)", name=names[view.trick[0].seat]), style="dim")
    return t


def legal_text(view: SeatView) -> Text:
    """The legal actions as they are typed (declarations and suits grouped)."""
    if not view.legal:
        return Text("")
    t = Text()
    t.append(tr("Legal: "), style="bold")
    if isinstance(view.legal[0], Bid):
        t.append(" ".join(str(a.tricks) for a in view.legal if isinstance(a, Bid)), style="cyan")
    elif isinstance(view.legal[0], (ChooseTrump, Call)):
        t.append(" ".join(legal_forms(view.legal)), style="cyan")
    else:
        order = display_order(view.hand, view.trump, view.variant)
        t.append("  ".join(legal_forms(view.legal, order)), style="cyan")
    return t


def deal_title(deal: Deal, dealer: int, variant: Variant, names: Sequence[str],
               deals: int | None = None) -> str:
    """``Deal 5 of 24 · 5 cards each · dealer Boris · blind ×2`` (a game to a target score:
    ``Deal 5 · to 100 points · ...``)."""
    target = variant.end.target
    text = tr("Deal {number}", number=deal.number) + (
        tr(" · to {target} points", target=target) if target is not None else
        tr(" of {deals}", deals=deals) if deals else "")
    text += " · " + ntr("{n} card each", "{n} cards each", deal.cards) + " · " + tr(
        "dealer {name}", name=names[dealer])
    if deal.kind != "normal":
        text += f" · {kind_label(variant, deal.kind)}"
    return text


def seat_screen(view: SeatView, names: Sequence[str], *, deals: int | None = None,
                humans: Sequence[int] = ()) -> RenderableType:
    """The screen of the seat to act: deal, trump, everyone's bids and tricks, the table,
    the last trick, the own hand and the legal actions (all from ``view``)."""
    title = deal_title(view.deal, view.dealer, view.variant, names, deals)
    parts: list[RenderableType] = [trump_line(view, names), players_table(view, names, humans)]
    if view.tricks:
        parts.append(trick_text(view.tricks[-1], len(view.tricks), names, trump=view.trump,
                                variant=view.variant, label=tr("Last trick ({n})", n=len(view.tricks))))
    table = table_text(view, names)
    if table.plain:
        parts.append(table)
    hand = Text()
    hand.append(tr("Your hand: "), style="bold")
    if not view.hand and any(view.seen_hands):
        hand.append(tr("held to your forehead: you see the others' cards"), style="italic")
        parts.append(hand)
        seen = Text(tr("They hold: "), style="bold")
        for k, (s, h) in enumerate((s, h) for s, h in enumerate(view.seen_hands) if h):
            seen.append(("  ·  " if k else "") + f"{names[s]} ")
            for j, c in enumerate(h):
                seen.append(" " if j else "")
                seen.append_text(card_text(c, trump=view.trump, variant=view.variant))
        parts.append(seen)
    else:
        hand.append_text(hand_text(view))
        parts.append(hand)
    if view.forbidden_bid is not None:
        parts.append(Text(tr("You bid last: not {bid} (the bids may not add up to {cards}, the number of "
                             "cards)", bid=view.forbidden_bid, cards=view.deal.cards), style="yellow"))
    need = view.need
    if view.phase is Phase.PLAY and need is not None:
        parts.append(Text(tr("You bid {bid}, took {taken}: ", bid=view.bids[view.seat], taken=view.taken[view.seat])
                          + (tr("{n} more to make it", n=need) if need > 0 else
                             tr("made it: take no more") if need == 0 else tr("{n} over", n=-need)), style="dim"))
    legal = legal_text(view)
    if legal.plain:
        parts.append(legal)
    return Panel(Group(*parts), title=Text(title, style="bold"), title_align="left",
                 box=box.ROUNDED, expand=False)


def standing_text(game: Game, names: Sequence[str]) -> Text:
    """``bid/taken: Anna 2/1 · Boris 0/0`` for everyone (hidden bids as ?)."""
    t = Text()
    t.append(tr("bid/taken: "), style="dim")
    for s in range(game.players):
        if s:
            t.append(" · ", style="dim")
        bid = game.bids[s]
        if game.kind.bidding == "hidden" and not game.is_over:
            shown = "?"
        elif game.kind.bidding == "none" or bid is None:
            shown = "–"
        else:
            shown = str(bid)
        t.append(f"{names[s]} {shown}/{game.taken[s]}")
    return t


def deal_start_text(trump: Suit | None, bids: Sequence[int | str | None], names: Sequence[str],
                    trump_known: bool = True) -> Text:
    """``Trump: ♣ clubs · bids: Anna 1, Boris 0``: what a watcher needs before the tricks
    (a hidden bid as ``?``, no bid as ``–``)."""
    t = Text()
    t.append(tr("Trump: "), style="bold")
    t.append(suit_text(trump) if trump_known else tr("not known yet"), style="bold yellow")
    if any(b is not None for b in bids):
        t.append(" · " + tr("bids: "), style="dim")
        t.append(", ".join(f"{names[s]} {'–' if b is None else b}" for s, b in enumerate(bids)))
    return t


def deal_result_text(result: DealResult, names: Sequence[str], variant: Variant) -> Text:
    """``Deal 5 over (♥ hearts): Anna 2/2 +30, Boris 1/0 -10`` (bid/taken and points)."""
    d = result.deal
    t = Text()
    t.append(tr("Deal {number} over ", number=d.number), style="bold")
    t.append(f"({suit_text(result.trump)}): ")
    for s, r in enumerate(result.seats):
        if s:
            t.append(", ")
        bid = "–" if r.bid is None else str(r.bid)
        t.append(f"{names[s]} {bid}/{r.taken} ")
        points = r.points + r.bonus
        t.append(f"{points:+d}", style="green" if points > 0 else "red" if points < 0 else "")
    return t


def deal_tricks(result: DealResult, names: Sequence[str], variant: Variant) -> Group:
    """Every trick of a finished deal, one per line."""
    lines = [trick_text(tr, i, names, trump=result.trump, variant=variant)  # type: ignore[arg-type]
             for i, tr in enumerate(result.tricks, start=1)]
    return Group(*lines)


def final_text(game: Game, names: Sequence[str]) -> Group:
    """How the game ended: the reason, the settlement and the winner(s)."""
    summary = sheet_summary(game, list(names))
    lines: list[RenderableType] = []
    head = Text()
    head.append(tr("Game over after deal {number}", number=summary['last_deal']), style="bold")
    if summary["over_reason"]:
        head.append(f" ({reason_text(summary['over_reason'])})")
    lines.append(head)
    lines.append(Text(tr("Totals: ") + ", ".join(f"{p} {v}" for p, v in summary["totals"].items())))
    lines.append(Text(tr("Settlement: ") + ", ".join(f"{p} {v:+d}" for p, v in summary["settlement"].items())))
    winners = summary["winners"]
    lines.append(Text((tr("Winner: ") if len(winners) == 1 else tr("Winners: ")) + ", ".join(winners),
                      style="bold green"))
    return Group(*lines)


def forced_text(reply: Reply, name: str | None = None) -> Text:
    """``▸ 7♠: your only legal card, played`` (``name``'s when several play at the keyboard)."""
    t = Text("▸ ", style="bold cyan")
    if name is not None:
        t.append(f"{name}: ")
    if isinstance(reply.action, Play):
        t.append_text(play_text(reply.action))
    t.append(" " + tr("— the only legal card, played (--no-autoplay asks for it)"), style="dim")
    return t


def reply_text(reply: Reply) -> Text:
    """The answer to a line that was not an action: why, a question, or the legal actions."""
    if reply.kind == "help":
        t = Text()
        t.append(tr("Legal now: "), style="bold")
        t.append("  ".join(reply.options), style="cyan")
        t.append("\n" + tr("You can type {forms}", forms=tr(INPUT_HELP)), style="dim")
        return t
    if reply.kind == "ask":
        return Text(tr("  choices: ") + "  ".join(reply.options), style="dim")
    if reply.kind in ("hint", "undone", "redealt"):
        t = Text()
        t.append({"hint": "» ", "undone": "↶ "}.get(reply.kind, "⟳ "), style="bold cyan")
        t.append(reply.message)
        return t
    t = Text()
    t.append("✗ ", style="bold red")
    t.append(reply.message)
    if reply.code:
        t.append(f" [{reply.code}]", style="dim")
    if reply.hint:
        t.append("\n  " + tr("hint: {hint}", hint=reply.hint), style="cyan")
    t.append("\n  " + tr("? lists the legal moves"), style="dim")
    return t


__all__ = [
    "INPUT_HELP",
    "card_text",
    "deal_result_text",
    "deal_start_text",
    "deal_title",
    "deal_tricks",
    "final_text",
    "forced_text",
    "hand_text",
    "is_joker",
    "legal_text",
    "play_text",
    "players_table",
    "reply_text",
    "seat_screen",
    "fitted_sheet",
    "ROW_STYLES",
    "sheet_columns",
    "sheet_frame",
    "sheet_grid",
    "sheet_width",
    "sheet_table",
    "sorted_hand",
    "standing_text",
    "suit_text",
    "table_text",
    "trick_text",
    "trump_line",
]
