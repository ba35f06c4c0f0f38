"""What ``updown keep`` shows: the deal's header, the bids allowed with the forbidden one struck
out, a deal's result, the kept sheet in 80 columns, and a refused entry with its rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..i18n import tr

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

    from ..players.keeper import Keeper, Step


def refused(out: "Console", diagnostic: Any) -> None:
    text = f"error[{diagnostic.code}] {diagnostic.message}"
    if diagnostic.hint:
        text += f"\n  = hint: {diagnostic.hint}"
    out.print(text, style="red", markup=False, highlight=False, soft_wrap=True)


def invalid(out: "Console", message: str) -> None:
    out.print(message, style="red", markup=False, highlight=False, soft_wrap=True)


def deal_header(out: "Console", keeper: "Keeper", step: "Step") -> None:
    from rich.text import Text

    from .screen import deal_title

    names = keeper.names
    out.print()
    out.print(Text(deal_title(step.deal, step.dealer, keeper.variant, names, len(keeper.game.deals)),
                   style="bold"))
    order = " ".join(names[s] for s in step.order)
    rule = {"turned": tr("the card turned up"), "last_dealt": tr("the dealer's last card"),
            "random": tr("drawn at random"), "none": tr("no trump"), "fixed": tr("fixed by the rules"),
            "chosen": tr("named by a player")}.get(step.trump_rule, step.trump_rule)
    line = tr("Bidding order: {order} · trump: {rule}", order=order, rule=rule)
    if step.trump_rule == "fixed" and step.trump_known:
        line += f" ({suit_name(step.trump)})"
    if step.blind:
        line += " · " + tr("blind: the bids come before the cards")
    out.print(line, markup=False, highlight=False)


def suit_name(suit: Any) -> str:
    return tr("no trump") if suit is None else f"{suit.symbol} {suit.word}"


def bid_choices(step: "Step") -> str:
    """The bids allowed, the forbidden one struck out (a combining stroke, which a terminal draws
    over the digit and a copy of the screen keeps) and named."""
    lo, hi = step.low, step.high
    if step.forbidden is None:
        allowed = set(step.choices)
        if allowed == set(range(lo, hi + 1)):
            return f"{lo}-{hi}"
        return " ".join(str(b) for b in sorted(allowed))
    struck = " ".join(strike(str(b)) if b == step.forbidden else str(b) for b in range(lo, hi + 1))
    return tr("{choices}; not {bid}", choices=struck, bid=step.forbidden)


def strike(text: str) -> str:
    return "".join(c + "\u0336" for c in text)


def table_state(out: "Console", keeper: "Keeper") -> None:
    """Who plays the deal in hand, after a table's event was typed (who sits out, the cards)."""
    names = keeper.names
    d = keeper.current
    step = keeper.step()
    line = tr("Deal {number} · cards each: {cards} · bidding order: {order}", number=step.deal.number,
              cards=keeper.cards(), order=" ".join(names[s] for s in step.order))
    if d.out:
        line += " · " + tr("sitting out: {names}", names=", ".join(names[s] for s in sorted(d.out)))
    adjust = [e for e in d.table if e.kind == "adjust" and e.actor is not None]
    if adjust:
        line += " · " + ", ".join(f"{names[e.actor or 0]} {e.number or 0:+d} ({e.text})" for e in adjust)
    out.print(line, markup=False, highlight=False, soft_wrap=True)
    out.print(tr("Totals: {items}", items=" · ".join(f"{n} {t}" for n, t in zip(names, keeper.totals))),
              style="bold", markup=False, highlight=False)


def deal_done(out: "Console", keeper: "Keeper") -> None:
    r = keeper.game.results[-1]
    names = keeper.names
    kept = keeper.deals[-1] if keeper.deals else None
    if kept is not None and kept.short:
        parts = [tr("{name} out", name=names[s]) if s in kept.out else
                 f"{names[s]} {kept.bids[s] if kept.bids[s] is not None else '-'}/{(kept.took or ())[s]} "
                 f"{seat.points:+d}" for s, seat in enumerate(r.seats)]
        out.print(tr("Deal {number}: {items}", number=r.deal.number, items=" · ".join(parts)),
                  markup=False, highlight=False)
        out.print(tr("Totals: {items}", items=" · ".join(f"{n} {t}" for n, t in zip(names, keeper.totals))),
                  style="bold", markup=False, highlight=False)
        return
    parts = [f"{names[s]} {seat.bid if seat.bid is not None else '-'}/{seat.taken} "
             f"{seat.points + seat.bonus:+d}" for s, seat in enumerate(r.seats)]
    out.print(tr("Deal {number}: {items}", number=r.deal.number, items=" · ".join(parts)),
              markup=False, highlight=False)
    out.print(tr("Totals: {items}", items=" · ".join(f"{n} {t}" for n, t in zip(names, keeper.totals))),
              style="bold", markup=False, highlight=False)


def sheet_text(keeper: "Keeper") -> str:
    """The sheet so far as text, one line per deal: per player ``bid/took points total``, a
    corrected number marked ``*`` (4 players fit in 80 columns)."""
    names = keeper.names
    marks = keeper.corrected()
    width = 15
    head = f"{'#':>3} {tr('cards'):>5} {tr('tr'):>2} |" + "|".join(f" {n[:width - 1]:<{width - 1}}" for n in names)
    lines = [head, "-" * len(head)]
    totals = [0] * len(names)
    kept = keeper.deals
    table = any(d.table or d.short for d in kept)
    if table:
        from ..players.keeper import deal_totals

        after = deal_totals(keeper)
    for r in keeper.game.results:
        cells = []
        r.apply_to(totals)
        k = r.deal.number - 1
        if table and r.event in ("deal", "abandoned") and k < len(after):
            totals = list(after[k])
        d = kept[k] if table and k < len(kept) and kept[k].short else None
        for s, seat in enumerate(r.seats):
            if d is not None:
                if s in d.out:
                    cells.append(f"{tr('out'):>10}{totals[s]:>5}")
                    continue
                bid = "-" if d.bids[s] is None else str(d.bids[s])
                bid += "*" if (r.deal.number, s, "bid") in marks else ""
                took = str((d.took or ())[s]) + ("*" if (r.deal.number, s, "took") in marks else "")
                cells.append(f"{bid + '/' + took:>5}{seat.points:>5}{totals[s]:>5}")
                continue
            points = seat.points + seat.bonus
            bid = "-" if seat.bid is None else str(seat.bid)
            bid += "*" if (r.deal.number, s, "bid") in marks else ""
            took = str(seat.taken) + ("*" if (r.deal.number, s, "took") in marks else "")
            cells.append(f"{bid + '/' + took:>5}{points:>5}{totals[s]:>5}")
        trump = "-" if r.trump is None else r.trump.symbol
        cards = d.cards if d is not None and d.cards is not None else r.deal.cards
        lines.append(f"{r.deal.number:>3} {cards:>5} {trump:>2} |" + "|".join(cells))
    lines.append(tr("each player: bid/took, the deal's points, the running total; * a corrected number"))
    return "\n".join(lines)
