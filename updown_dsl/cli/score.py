"""``updown score``: one seat's points for a bid and a take, worked out by the variant's formulas."""

from typing import Annotated, Optional

import typer

from ..i18n import tr
from .common import (
    LangOpt, _set_lang,
    PlayersOpt, app, _console, _echo_json, _handle_errors, JsonOpt, _load, _players, _plural, _usage_error,
    VariantPathOpt,
)

# --------------------------------------------------------------------------- score


@app.command("score")
@_handle_errors
def score_cmd(
    variant_name: Annotated[str, typer.Argument(metavar="VARIANT",
                                                help="A bundled variant name or a variant file.")],
    deal: Annotated[int, typer.Option("--deal", "-d", help="Deal number in the schedule (1-based).")],
    taken: Annotated[int, typer.Option("--taken", "-t", help="Tricks the player took.")],
    bid: Annotated[Optional[int], typer.Option(
        "--bid", "-b", help="The player's bid (optional in deals without bidding).")] = None,
    players: PlayersOpt = None,
    total: Annotated[int, typer.Option("--total", help="The player's running total before the deal.")] = 0,
    dealer: Annotated[bool, typer.Option("--dealer", help="The player is the dealer.")] = False,
    made_count: Annotated[Optional[int], typer.Option(
        "--made-count", help="How many players made their bid in the deal, this one included "
        "(for formulas that read made_count; default 1).")] = None,
    json_out: JsonOpt = False,
    variant_path: VariantPathOpt = None,
    lang: LangOpt = None,
) -> None:
    """One player's points for one deal of the schedule."""
    _set_lang(lang)
    from .report import to_json
    from .rules import kind_label
    from ..engine.plan import table_plan
    from ..lang.schedule import resolve_schedule
    from ..engine.scoring import seat_score

    variant = _load(variant_name, variant_path)
    n = _players(variant, players)
    deals = resolve_schedule(variant, n)
    if not 1 <= deal <= len(deals):
        _usage_error(tr("{name} with {n} players has deals 1 to {count}, not {deal}",
                        name=variant.name, n=n, count=len(deals), deal=deal),
                     "--deal")
    d = deals[deal - 1]
    kind = variant.kinds[d.kind]
    if not 0 <= taken <= d.cards:
        _usage_error(tr("deal {deal} has {plural}: tricks taken must be 0 to {cards}, not {taken}",
                        deal=deal, plural=_plural(d.cards, 'card'), cards=d.cards, taken=taken), "--taken")
    ignored_bid = False
    if kind.bidding == "none":
        if bid is not None:
            ignored_bid = True
        bid = None
    else:
        if bid is None:
            _usage_error(tr("missing: deal {deal} ({kind}) has bidding, so the bid is required",
                            deal=deal, kind=d.kind),
                         "--bid")
        if not 0 <= bid <= d.cards:
            _usage_error(tr("deal {deal} has {plural}: the bid must be 0 to {cards}, not {bid}",
                            deal=deal, plural=_plural(d.cards, 'card'), cards=d.cards, bid=bid), "--bid")

    env = dict(table_plan(variant, n).deal_plan(deal - 1).env)  # the engine's own names
    if made_count is not None:
        made = bid is None or bid == taken
        if not (1 if made else 0) <= made_count <= n - (0 if made else 1):
            lo, hi = (1, n) if made else (0, n - 1)
            _usage_error(tr("--made-count must be {lo} to {hi} when the player made the bid, not {count}",
                            lo=lo, hi=hi, count=made_count) if made else
                         tr("--made-count must be {lo} to {hi} when the player missed the bid, not {count}",
                            lo=lo, hi=hi, count=made_count), "--made-count")
    points = seat_score(variant, kind, env, bid=bid, taken=taken, total=total, is_dealer=dealer,
                        made_count=made_count)
    formula = kind.score if kind.score is not None else variant.scoring.deal
    if json_out:
        _echo_json(to_json({
            "variant": variant.name,
            "players": n,
            "deal": d.number,
            "cards": d.cards,
            "kind": d.kind,
            "set": d.set,
            "set_deal": d.set_deal,
            "multiplier": kind.multiplier,
            "bid": bid,
            "taken": taken,
            "total": total,
            "is_dealer": dealer,
            "made_count": 1 if made_count is None else made_count,
            "formula": formula.source,
            "score": points,
        }))
        return
    if ignored_bid:
        _console(True).print(tr("note: deal {deal} ({kind}) has no bidding; --bid is ignored", deal=deal, kind=d.kind),
                             soft_wrap=True, markup=False)
    where = f"{_plural(d.cards, 'card')}"
    if len(variant.schedule) > 1:
        where += f", set {d.set}"
    where += f", {kind_label(variant, d.kind)}"
    bid_text = "no bids" if bid is None else f"bid {bid}"
    extra = []
    if total:
        extra.append(f"total before {total}")
    if dealer:
        extra.append("dealer")
    extra_text = f" ({', '.join(extra)})" if extra else ""
    line = (f"{variant.name}, {n} players, deal {d.number} ({where}): {bid_text}, taken {taken}"
            f"{extra_text} → {points}")
    _console().print(line, soft_wrap=True, markup=False)
