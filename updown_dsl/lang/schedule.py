"""Resolve a variant's deal schedule for a number of players, and say why one cannot be dealt."""

from __future__ import annotations

from typing import Mapping, NamedTuple

from ..cards import build_deck
from ..diagnostics import UpdownError
from ..i18n import tr
from .formula import Formula
from .variant import Deal, ScheduleItem, Variant


#: The mark of a deal kind beside its hand size (a normal deal has none; another kind: its name).
KIND_MARK = {"blind": "B", "no-trump": "NT", "hidden": "H", "minimum": "MIN", "maximum": "MAX"}


def deal_mark(cards: int, kind: str) -> str:
    """A deal's hand size with its kind, as a score sheet writes it: ``6``, ``6B``, ``NT6``, ``dark:6``."""
    if kind == "normal":
        return str(cards)
    if kind == "blind":
        return f"{cards}B"
    mark = KIND_MARK.get(kind)
    return f"{mark}{cards}" if mark else f"{kind}:{cards}"


def deck_size(variant: Variant, players: int | None = None) -> int:
    """Number of cards in the variant's pack (jokers included); with ``deck.per_player``,
    the cards dealt from for ``players`` players."""
    d = variant.deck
    if d.per_player and players is not None:
        d = for_players(variant, players).deck  # (cards removed as well are not in it)
    return len(d.cards())


_FOR_PLAYERS: dict[tuple[int, int], tuple[Variant, Variant]] = {}


def for_players(variant: Variant, players: int) -> Variant:
    """The variant as ``players`` players play it: with ``deck.per_player`` its pack is the
    top ranks of the pack, ``per_player`` cards for each player (Romanian Whist: the 24 cards
    from nine to ace for three, 32 for four ...), the rest removed; any other variant is itself.

    :raises ValueError: when those cards are not whole ranks of the four suits.
    """
    per = variant.deck.per_player
    if not per:
        return variant
    key = (id(variant), players)
    hit = _FOR_PLAYERS.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    d = variant.deck
    pack = build_deck(d.pack, remove=d.remove)
    ranks = sorted({c.rank for c in pack if c.rank is not None}, key=lambda r: r.order, reverse=True)
    count = per * players
    if count % 4 or count // 4 > len(ranks):
        raise ValueError(f"{per} cards for each of {players} players are {count} cards, not whole "
                         f"ranks of the four suits of the {len(pack)}-card pack")
    top = set(ranks[:count // 4])
    low = tuple(c for c in pack if c.rank not in top)
    derived = variant._replace(deck=d._replace(remove=d.remove + low, per_player=None))
    if len(_FOR_PLAYERS) >= 256:
        del _FOR_PLAYERS[next(iter(_FOR_PLAYERS))]
    _FOR_PLAYERS[key] = (variant, derived)
    return derived


#: A schedule longer than this is a mistake, not a game (and would exhaust memory).
MAX_DEALS = 1000


def resolve_schedule(variant: Variant, players: int) -> tuple[Deal, ...]:
    """The deals of a whole game for ``players`` players, in order.

    :raises ValueError: when a formula gives an unusable number.
    """
    return _resolve(variant, players, None)


def _resolve(variant: Variant, players: int, items: list[ScheduleItem] | None) -> tuple[Deal, ...]:
    """The deals, and in ``items`` (when given) the schedule item each deal comes from."""
    size = deck_size(variant, players)  # (raises when a pack by the player count cannot be made)
    env = {"players": players, "deck": size, "max_cards": size // players}
    deals: list[Deal] = []
    of_kind: dict[str, int] = {}
    for set_number, group in enumerate(variant.schedule, start=1):
        in_set = 0
        for item in group.items:
            first = item.cards(env)
            if item.ramp_to is not None:
                last = item.ramp_to(env)
                if abs(last - first) >= MAX_DEALS:
                    raise ValueError(f"a ramp from {first} to {last} is longer than {MAX_DEALS} deals")
                step = 1 if last >= first else -1
                sizes = list(range(first, last + step, step))
            else:
                times = item.times(env) if item.times is not None else 1
                if times < 0:
                    raise ValueError(f"a schedule item repeats {times} times")
                if times > MAX_DEALS:
                    raise ValueError(f"a schedule item repeats {times} times (at most {MAX_DEALS})")
                sizes = [first] * times
            if len(deals) + len(sizes) > MAX_DEALS:
                raise ValueError(f"the schedule has more than {MAX_DEALS} deals")
            for cards in sizes:
                in_set += 1
                of_kind[item.kind] = of_kind.get(item.kind, 0) + 1
                deals.append(Deal(len(deals) + 1, cards, item.kind, set_number, in_set, of_kind[item.kind]))
            if items is not None:
                items.extend([item] * len(sizes))
    return tuple(deals)


def deal_names(variant: Variant, deals: tuple[Deal, ...], deal: Deal, players: int, deck: int,
               set_deals: int) -> dict[str, int]:
    """The names a deal's formulas read (bid range, hook exemption, scoring), besides a seat's."""
    return {
        "cards": deal.cards,
        "players": players,
        "deal": deal.number,
        "deals": len(deals),
        "set": deal.set,
        "set_deal": deal.set_deal,
        "set_deals": set_deals,
        "deck": deck,
        **variant.scoring.params,
    }


def bid_names(env: dict[str, int], zeros_in_row: int = 0) -> dict[str, int]:
    """The names the bid range reads: the deal's, and the bidder's own ``zeros_in_row`` (0 for
    the deal's range, which a seat's own replaces when the bidding starts)."""
    return {**env, "zeros_in_row": zeros_in_row}


class SizeProblem(NamedTuple):
    """A deal that cannot be dealt: ``few`` (under one card each), ``many`` (more cards than the
    pack has) or ``turn`` (no card left to turn for trump, with ``when_exhausted: forbid``)."""

    what: str
    deal: Deal
    players: int

    def text(self, size: int) -> str:
        d = self.deal
        if self.what == "few":
            return tr("deal {number} would give {cards} cards", number=d.number, cards=d.cards)
        if self.what == "many":
            return tr("deal {number} needs {needs} cards but the pack has {size}", number=d.number,
                      needs=d.cards * self.players, size=size)
        return tr("deal {number} leaves no card to turn for trump", number=d.number)


def size_problems(variant: Variant, players: int, deals: tuple[Deal, ...], size: int) -> list[SizeProblem]:
    """The deals of a resolved schedule that cannot be dealt, in order."""
    problems: list[SizeProblem] = []
    for deal in deals:
        if deal.cards < 1:
            problems.append(SizeProblem("few", deal, players))
        elif deal.cards * players > size:
            problems.append(SizeProblem("many", deal, players))
        elif deal.cards * players == size:
            kind = variant.kinds.get(deal.kind)
            trump = kind.trump if kind is not None and kind.trump is not None else variant.trump
            if trump.rule == "turned" and trump.when_exhausted == "forbid":
                problems.append(SizeProblem("turn", deal, players))
    return problems


def schedule_problems(variant: Variant, players: int) -> list[str]:
    """Plain-language reasons why the schedule cannot be played, if any."""
    try:
        deals = resolve_schedule(variant, players)
    except (ValueError, ArithmeticError, UpdownError) as exc:
        if isinstance(exc, UpdownError):
            return [exc.diagnostics[0].message]
        return [str(exc)]
    size = deck_size(variant, players)
    problems = [] if deals else [tr("the schedule has no deals")]
    return problems + [p.text(size) for p in size_problems(variant, players, deals, size)]


# ---------------------------------------------------------------- every player count at once
def _counts(ns: list[int]) -> str:
    """``6`` · ``6 or 7`` · ``5 to 12`` · ``2, 4 or 6`` (players)."""
    ns = sorted(ns)
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return tr("{lo} to {hi}", lo=ns[0], hi=ns[-1])
    return str(ns[0]) if len(ns) == 1 else tr("{words} or {last}", words=", ".join(map(str, ns[:-1])), last=ns[-1])


def _values(vs: list[int]) -> str:
    """The values of the counts in turn: ``60`` · ``60 or 70`` · ``55 to 132``."""
    vs = list(dict.fromkeys(vs))
    return str(vs[0]) if len(vs) == 1 else tr("{words} or {last}", words=vs[0], last=vs[1]) if len(vs) == 2 \
        else tr("{lo} to {hi}", lo=min(vs), hi=max(vs))


def unplayable(variant: Variant, outcomes: Mapping[int, tuple[Deal, ...] | str]) -> tuple[str, str | None] | None:
    """The V009 message and hint for every player count whose schedule cannot be dealt, given
    each count's resolved deals (or why they could not be resolved); None when all can be."""
    size = deck_size(variant)  # (for the words and the hint: a pack per player count has no such deals)
    failed: dict[int, list[SizeProblem] | str] = {}
    for n, deals in outcomes.items():
        found: list[SizeProblem] | str = deals if isinstance(deals, str) else \
            size_problems(variant, n, deals, deck_size(variant, n)) if deals else tr("the schedule has no deals")
        if found:
            failed[n] = found
    if not failed:
        return None
    lists = {n: p for n, p in failed.items() if not isinstance(p, str)}
    # One deal that fails with every such count names them all; else each count's first.
    common = [(p.what, p.deal.number) for p in next(iter(lists.values()), [])
              if all(any((q.what, q.deal.number) == (p.what, p.deal.number) for q in ps) for ps in lists.values())]
    groups: dict[tuple[str, int, str], list[int]] = {}  # (what, deal number, text) -> counts
    shown: dict[int, SizeProblem] = {}
    for n, found in failed.items():
        if isinstance(found, str):
            groups.setdefault(("text", 0, found), []).append(n)
            continue
        shown[n] = next((p for p in found if (p.what, p.deal.number) == common[0]), found[0]) if common \
            else found[0]
        groups.setdefault((shown[n].what, shown[n].deal.number, ""), []).append(n)
    clauses = []
    for (what, number, text), ns in groups.items():
        if what == "many":
            needs = _values([shown[n].deal.cards * n for n in ns])
            has = _values([deck_size(variant, n) for n in ns]) if variant.deck.per_player else size
            text = tr("deal {number} needs {needs} cards but the pack has {size}", number=number, needs=needs, size=has)
        elif what == "few":
            text = tr("deal {number} would give {cards} cards", number=number,
                      cards=_values([shown[n].deal.cards for n in ns]))
        elif what == "turn":
            text = tr("deal {number} leaves no card to turn for trump", number=number)
        clauses.append((ns, text))
    message = "; ".join(tr("with {counts} players: {text}", counts=_counts(ns), text=text) for ns, text in clauses)
    return message, None if variant.deck.per_player else _fit_hint(variant, lists, size)


def _fit_hint(variant: Variant, failed: dict[int, list[SizeProblem]], size: int) -> str | None:
    """How to make the deals that need too many cards fit: each item's size written with
    ``min(..., max_cards)`` (or ``(deck - 1) // players``, to leave a card to turn), checked
    for every failing count; or a lower ``players.max``."""
    if not failed or not all(p.what in ("many", "turn") for ps in failed.values() for p in ps):
        return None
    for limit, about in (("max_cards", tr("the largest hand the pack allows")),
                         ("(deck - 1) // players", tr("the largest hand that leaves a card to turn"))):
        snippets, trial = _fix_items(variant, failed, limit)
        try:
            if any(size_problems(trial, n, resolve_schedule(trial, n), size) for n in failed):
                continue
        except (ValueError, ArithmeticError, UpdownError):  # pragma: no cover - sizes only shrink
            continue
        ns = sorted(failed)
        sizes = [(n, _limit(limit, size, n)) for n in ns]
        each = (tr("{cards} cards each with {players} players", cards=sizes[0][1], players=sizes[0][0])
                + "".join(tr(", {cards} with {players}", cards=c, players=n) for n, c in sizes[1:3])
                + (", ..." if len(sizes) > 3 else ""))
        hint = tr("write {snippets}: `{limit}` is {about} ({each})", snippets=tr(" and ").join(snippets), limit=limit,
                  about=about, each=each)
        top = list(range(ns[0], variant.max_players + 1))
        if ns == top and ns[0] > variant.min_players:
            hint += tr("; or allow at most {n} players (`players.max`)", n=ns[0] - 1)
        return hint
    return None


def _limit(limit: str, size: int, players: int) -> int:
    return size // players if limit == "max_cards" else (size - 1) // players


def _capped(f: Formula, limit: str) -> Formula:
    """``min(f, limit)``, evaluated without compiling it."""
    fn = f.fn
    def cap(e: Mapping[str, int]) -> int:
        return e["max_cards"] if limit == "max_cards" else (e["deck"] - 1) // e["players"]

    return Formula(f"min({f.source}, {limit})", f.names_used | {"players", "deck", "max_cards"},
                   lambda e: min(fn(e), cap(e)), f.can_fail)


def _yaml(source: str, capped: bool, limit: str) -> str:
    text = f"min({source}, {limit})" if capped else source
    return text if text.isidentifier() or text.lstrip("-").isdigit() else f'"{text}"'


def _fix_items(variant: Variant, failed: dict[int, list[SizeProblem]], limit: str
               ) -> tuple[list[str], Variant]:
    """The schedule items whose deals are too large, each written with its size capped (as the
    file would say it), and the variant with them capped."""
    too_big: dict[ScheduleItem, tuple[bool, bool]] = {}  # item -> (cap its first end, its last end)
    for n, problems in failed.items():
        items: list[ScheduleItem] = []
        _resolve(variant, n, items)
        size = deck_size(variant, n)
        env = {"players": n, "deck": size, "max_cards": size // n}
        cap = _limit(limit, size, n)
        for p in problems:
            item = items[p.deal.number - 1]
            first, last = too_big.get(item, (False, False))
            too_big[item] = (first or item.cards(env) > cap,
                             last or (item.ramp_to is not None and item.ramp_to(env) > cap))
    snippets: list[str] = []
    replaced: dict[ScheduleItem, ScheduleItem] = {}
    for item, (first, last) in too_big.items():
        if item.ramp_to is None:
            snippets.append(tr("`cards: {was}` as `cards: {now}`", was=_yaml(item.cards.source, False, limit),
                               now=_yaml(item.cards.source, True, limit)))
            replaced[item] = item._replace(cards=_capped(item.cards, limit))
        else:
            was = (_yaml(item.cards.source, False, limit), _yaml(item.ramp_to.source, False, limit))
            ends = (_yaml(item.cards.source, first, limit), _yaml(item.ramp_to.source, last, limit))
            snippets.append(tr("`ramp: [{a}, {b}]` as `ramp: [{c}, {d}]`", a=was[0], b=was[1], c=ends[0], d=ends[1]))
            replaced[item] = item._replace(cards=_capped(item.cards, limit) if first else item.cards,
                                           ramp_to=_capped(item.ramp_to, limit) if last else item.ramp_to)
    schedule = tuple(s._replace(items=tuple(replaced.get(i, i) for i in s.items)) for s in variant.schedule)
    return list(dict.fromkeys(snippets)), variant._replace(schedule=schedule)
