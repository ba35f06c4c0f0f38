"""The rule book's sections on scoring, penalties, the end of the game and the settlement
(:mod:`.rulebook`): the formulas told case by case, and tables of points worked out by
evaluating them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..i18n import mark, tr
from .rulewords import Case, formula_cases, kind_name, NAME_MEANINGS, name_word, number

if TYPE_CHECKING:  # pragma: no cover
    from .formula import Formula
    from .bookmodel import Item, Section
    from .variant import Deal, DealKind, Variant

#: (bid, taken) pairs shown, as docs/variants.md's tables have them
PAIRS = ((0, 0), (0, 1), (1, 1), (2, 2), (3, 3), (3, 1), (3, 0), (2, 3))


def _case_items(cases: tuple[Case, ...], unit: str) -> tuple[Item, ...]:
    from .bookmodel import Item

    out = []
    for i, c in enumerate(cases):
        value = tr("{value} {unit}", value=c.value, unit=unit) if c.value else ""
        if c.when is None:
            text = tr("otherwise: {value}", value=value) if i else value
        elif i == 0:
            text = tr("if {when}: {value}", when=c.when, value=value)
        else:
            text = tr("else if {when}: {value}", when=c.when, value=value)
        out.append(Item(text.rstrip(": ") if not c.value else text, _case_items(c.cases, unit)))
    return tuple(out)


def _names_used(formulas: list[Formula]) -> list[str]:
    used = set().union(*(f.names_used for f in formulas)) if formulas else set()
    return [n for n in NAME_MEANINGS if n in used]


def _env(v: Variant, deals: tuple[Deal, ...], deal: Deal, n: int) -> dict[str, int]:
    from .schedule import deal_names, deck_size

    set_deals = sum(1 for d in deals if d.set == deal.set)
    return deal_names(v, deals, deal, n, deck_size(v, n), set_deals)


def _points(v: Variant, kind: DealKind, env: dict[str, int], bid: int | None, taken: int) -> str:
    formula = kind.score if kind.score is not None else v.scoring.deal
    b = 0 if bid is None else bid
    # (one player scored alone: somebody made a bid, this one or another: made_count 1)
    full = dict(env, bid=b, taken=taken, made=int(bid is None or b == taken), total=0, is_dealer=0, made_count=1)
    try:
        return number(formula(full) * kind.multiplier)
    except Exception:  # a formula that fails here (F005) fails at the table too; the book says so
        return "—"


def _add_row(rows: list[tuple[str, ...]], label: str, cells: list[str]) -> None:
    """A row of points; the deals that score alike share one (``normal, no-trump``; ``normal,
    set 1, 3``)."""
    for i, r in enumerate(rows):
        if list(r[1:]) == cells:
            head, _, tail = label.rpartition(", ")
            if head and r[0].startswith(head + ", ") and tail.split()[-1].isdigit():
                rows[i] = (r[0] + ", " + tail.split()[-1], *r[1:])
            else:
                rows[i] = (r[0] + ", " + label, *r[1:])
            return
    rows.append((label, *cells))


def _examples(v: Variant, n: int) -> list[object]:
    """Tables of points: a row for each kind of deal that scores its own way."""
    from .bookmodel import Table
    from .rulewords import kind_title
    from .schedule import bid_names, resolve_schedule

    try:
        deals = resolve_schedule(v, n)
    except ValueError:
        return []
    bidding: list[tuple[str, DealKind, Deal]] = []
    plain: list[tuple[str, DealKind, Deal]] = []
    for name in dict.fromkeys(d.kind for d in deals):
        kind = v.kinds[name]
        formula = kind.score if kind.score is not None else v.scoring.deal
        of_kind = [d for d in deals if d.kind == name]
        groups = ([[d for d in of_kind if d.set == s] for s in dict.fromkeys(d.set for d in of_kind)]
                  if "set" in formula.names_used else [of_kind])
        for group in groups:
            deal = max(group, key=lambda d: (d.cards, -d.number))
            label = kind_title(v, name) if len(groups) == 1 else tr("{kind}, set {set}", kind=kind_title(v, name),
                                                                   set=deal.set)
            (plain if kind.bidding == "none" else bidding).append((label, kind, deal))
    out: list[object] = []
    if bidding:
        cards = max(d.cards for _, _, d in bidding)
        pairs = [p for p in PAIRS if max(p) <= cards] + ([(cards, cards)] if cards > 3 else [])
        rows: list[Any] = []
        for name, kind, deal in bidding:
            env = _env(v, deals, deal, n)
            lo, hi = v.bidding.min_bid(bid_names(env)), v.bidding.max_bid(bid_names(env))
            cells = [_points(v, kind, env, b, t) if lo <= b <= hi and max(b, t) <= deal.cards else ""
                     for b, t in pairs]
            _add_row(rows, name, cells)
        out.append(Table((tr("bid / taken"), *(f"{b}/{t}" for b, t in pairs)), tuple(rows),
                         tr("Points worked out with the formulas above, in the largest deal of each kind.")))
    if plain:
        cards = min(3, max(d.cards for _, _, d in plain))
        rows = []
        for name, kind, deal in plain:
            env = _env(v, deals, deal, n)
            _add_row(rows, name, [_points(v, kind, env, None, t) for t in range(cards + 1)])
        out.append(Table((tr("taken"), *(str(t) for t in range(cards + 1))), tuple(rows)))
    return out


def scoring_section(v: Variant, n: int) -> Section:
    from .bookmodel import Bullets, Item, Section

    params = dict(v.scoring.params)
    points = tr("points")
    blocks: list[object] = [tr("Each player scores in each deal:"),
                            Bullets(_case_items(formula_cases(v.scoring.deal.source, params), points))]
    formulas = [v.scoring.deal]
    for name, kind in v.kinds.items():
        if kind.score is not None:
            formulas.append(kind.score)
            blocks.append(tr("In `{kind}` deals instead:", kind=kind_name(name)))
            blocks.append(Bullets(_case_items(formula_cases(kind.score.source, params), points)))
    mult = [(name, k.multiplier) for name, k in v.kinds.items() if k.multiplier != 1]
    for name, m in mult:
        blocks.append(tr("The points of `{kind}` deals are multiplied by {m}.", kind=kind_name(name), m=m))
    if v.scoring.set_bonus is not None:
        formulas.append(v.scoring.set_bonus)
        blocks.append(tr("At the end of each set, each player also gets:"))
        blocks.append(Bullets(_case_items(formula_cases(v.scoring.set_bonus.source, params), points)))
    names = _names_used(formulas)
    if names:
        blocks.append(Bullets(tuple(Item(tr("`{word}`: {meaning}", word=name_word(x), meaning=tr(NAME_MEANINGS[x])))
                                    for x in names)))
    blocks.extend(_examples(v, n))
    blocks.append(tr("A written score, total or count of tricks that differs from these is reported. "
                     "[R050, R051, R052, R053]"))
    return Section("scoring", tr("Scoring"), tuple(blocks))  # type: ignore[arg-type]


_COVERS = {
    "R010": mark("not following suit"), "R011": mark("not trumping when void"),
    "R012": mark("trumping while holding the suit led"),
    "R014": mark("not answering a demand with the card asked for"), "R016": mark("not over-trumping"),
    "R017": mark("leading a trump too early"),
}
_THEN = {
    "replay": mark("the deal is annulled for everybody and dealt again by the same dealer."),
    "play_on": mark("the card is taken back and the deal goes on."),
    "abandon": mark("the deal stops and is scored as the table decides."),
}


def penalty_section(v: Variant) -> Section:
    from .bookmodel import Section

    r = v.revoke
    if r is None:
        return Section("penalties", tr("Penalties"), (tr("None are defined: an illegal card is refused."),))
    covers = ", ".join(f"{tr(_COVERS[c])} [{c}]" for c in r.covers if c in _COVERS)
    text = tr("A revoke caught at the table ({covers}) costs the offender {points} points", covers=covers,
              points=number(r.points))
    text += tr(", times the deal's multiplier") if r.multiplied else tr(", not multiplied in a doubled deal")
    text += "; " + tr(_THEN[r.then]) + " [R055]"
    return Section("penalties", tr("Penalties"), (text,))


_TIES = {
    "none": mark("A tie for the highest total is shared."),
    "most_made": mark("A tie for the highest total is won by whoever of them made the most bids."),
    "most_tricks": mark("A tie for the highest total is won by whoever of them took the most tricks over the "
                        "game."),
    "extra_deals": mark("A tie for the highest total is played off: one more deal at the schedule's largest "
                        "size, until the tie is broken."),
}


def end_section(v: Variant) -> Section:
    from .bookmodel import Bullets, Item, Section

    e = v.end
    items = []
    if e.target is None:
        items.append(Item(tr("The game ends after the last deal of the schedule.")))
    else:
        items.append(Item(tr("The game ends after the deal in which a player's total reaches exactly {target} "
                             "(a total beyond it does not end the game).", target=e.target) if e.target_exact
                          else tr("The game ends after the deal in which a player's total reaches {target}.",
                                  target=e.target)))
    if e.stop_loss is not None:
        what = tr("pairwise balance") if e.stop_on == "balance" else tr("total")
        when = tr("after every deal") if e.stop_check == "deal" else tr("at the end of each set")
        items.append(Item(tr("It ends early when a player's {what} falls to −{loss} or below, looked at {when}.",
                             what=what, loss=e.stop_loss, when=when)))
    items.append(Item(tr(_TIES[e.tie_break])))
    if e.target is not None or e.tie_break == "extra_deals":
        items.append(Item(tr("In any case the game ends after {n} deals.", n=e.max_deals)))
    return Section("end", tr("End of the game"), (Bullets(tuple(items)),))


def settlement_section(v: Variant) -> Section:
    from .bookmodel import Bullets, Item, Section

    s = v.settlement
    if s.method == "places":
        items = [Item(tr("By finishing place: the players get, from the highest total down, {amounts} "
                         "(a negative amount is paid); players with the same total share the amounts of "
                         "the places they cover in equal parts.",
                         amounts=", ".join(f"{a:+d}" for a in s.places)))]
    else:
        items = [Item(tr("The highest total wins.") if s.method == "highest" else
                      tr("Pairwise: every two players settle the difference of their totals, so a player with "
                         "total S gets N·S − ΣS (N players, ΣS the sum of all totals)."))]
    if s.stake != 1:
        items.append(Item(tr("Each amount is {stake} times that.", stake=s.stake) if s.method == "places" else
                          tr("A point is worth {stake}.", stake=s.stake)))
    if s.negative_doubles:
        items.append(Item(tr("A player ending below zero pays double.")))
    if s.cap is not None:
        items.append(Item(tr("A player pays at most {cap} points.", cap=s.cap)))
    items.append(Item(tr("A written settlement that differs is reported. [R054]")))
    return Section("settlement", tr("Settlement"), (Bullets(tuple(items)),))
