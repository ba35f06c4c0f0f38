"""A variant's rules as plain text and data, for ``updown variant show`` and the play screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ..lang.schedule import KIND_MARK as _KIND_MARK, deal_mark  # noqa: F401  (the sheet's marks)

if TYPE_CHECKING:  # pragma: no cover
    from ..lang.variant import Deal, Variant

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
    if d.per_player:
        text += f", the top {d.per_player} a player"
    if d.designated_jokers:
        verb = "is joker" if len(d.designated_jokers) == 1 else "are jokers"
        text += f", {_cards(d.designated_jokers)} {verb}"
    for w in variant.wild:
        if w.ordinary:
            text += f", {_cards(w.cards)} special"
    return text


def kind_label(variant: Variant, kind: str) -> str:
    """``normal``, ``blind ×2``, ``minimum`` ..."""
    from ..lang.rulewords import kind_title

    return kind_title(variant, kind)


def deals_data(deals: Sequence[Deal]) -> list[dict[str, Any]]:
    """The resolved schedule as plain data."""
    return [
        {"number": d.number, "cards": d.cards, "kind": d.kind, "set": d.set, "set_deal": d.set_deal}
        for d in deals
    ]


def hand_sizes_text(deals: Sequence[Deal]) -> str:
    """Hand sizes in order as in docs/worked-cases.md TC-01: ``1 2 … 6 6B``, sets separated by ``|``."""
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
    if t.rule == "cycle":
        data["cycle"] = [str(x) if x is not None else "none" for x in t.cycle]
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
            "total": b.total,
            "hook_exempt": _src(b.hook_exempt),
            "first_bidder": b.first_bidder,
        },
        "play": {
            "must_follow": v.play.must_follow,
            "must_trump": v.play.must_trump,
            "first_leader": v.play.first_leader,
            "lead_trump": v.play.lead_trump,
            "must_overtrump": v.play.must_overtrump,
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
                "then": v.revoke.then,
            }
        },
        "end": {"stop_loss": v.end.stop_loss, "stop_on": v.end.stop_on, "target": v.end.target,
                "target_exact": v.end.target_exact, "tie_break": v.end.tie_break},
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
        from ..i18n import tr

        return tr("yes") if value else tr("no")
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
