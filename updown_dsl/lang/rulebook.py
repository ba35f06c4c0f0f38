"""A variant's rule book: its rules in words, written from the loaded model.

:func:`rule_book` turns a :class:`~updown_dsl.lang.variant.Variant` into a
:class:`RuleBook`, a document of sections of paragraphs, lists and tables, in the language
:mod:`updown_dsl.i18n` speaks; :mod:`.bookrender` writes it as text, Markdown or HTML. Every
rule the engine and the checker enforce has a sentence, with the code the checker reports
when it is broken (``[R010]``); the scoring is told case by case from the formula and shown
in a table of points worked out with the variant's own formulas (:mod:`.rulescore`). A house
rule (``extends:``) gets a first section saying what it changes in the book of the variant it
extends. The same rules as plain data (:func:`rules_data`, the JSON of ``updown variant show``,
which :func:`.bookrender.rules_table` shows as a table) and the schedule (:func:`deals_data`,
:func:`hand_sizes`) are here too.

>>> from updown_dsl.lang.loader import load_variant
>>> book = rule_book(load_variant("odessa"), 4)
>>> [s.key for s in book.sections][:4]
['players', 'pack', 'schedule', 'kinds']
"""

from __future__ import annotations

from typing import Any, Sequence

from ..i18n import mark, ntr, tr
from .bookmodel import Block, Bullets, Item, RuleBook, Section, Table
from .rulescore import end_section, penalty_section, scoring_section, settlement_section
from .rulewild import wild_sections
from .rulewords import card_names, formula_tree, kind_title, pack_text, suit_name, Words
from .schedule import deal_mark, resolve_schedule
from .variant import AuctionRules, Deal, DealKind, TrumpRules, Variant, WildRules


def rule_book(variant: Variant, players: int | None = None, base: Variant | None = None, *,
              deal_table: bool = True) -> RuleBook:
    """The rule book of ``variant`` for ``players`` (default: its default count); with ``base``
    (the variant it extends) the book opens with what it changes; ``deal_table=False`` leaves
    out the table of every deal (the hand sizes stay)."""
    n = players or variant.default_players
    parts = [
        _players(variant, n), _pack(variant, n), _schedule(variant, n, deal_table), _kinds(variant),
        _trump(variant), _bidding(variant), _play(variant), *wild_sections(variant),
        scoring_section(variant, n), penalty_section(variant), end_section(variant),
        settlement_section(variant),
    ]
    sections = tuple(s for s in parts if s is not None and s.blocks)
    name = None
    if base is not None:
        changes = _changes(rule_book(base, n, deal_table=deal_table), sections)
        sections = (Section("changes", tr("What {name} changes in {base}", name=variant.name,
                                          base=base.name), changes),) + sections
        name = base.name
    return RuleBook(variant.name, variant.description, variant.source, n, sections, name)


def base_variant(variant: Variant, variant_path: tuple[str, ...] = ()) -> Variant | None:
    """The variant a variant file ``extends`` (None for one that extends none, or whose base
    cannot be loaded)."""
    from pathlib import Path

    from .yamltree import parse_yaml

    if not variant.path:
        return None
    try:
        tree, _ = parse_yaml(Path(variant.path).read_text(encoding="utf-8"), str(variant.path))
    except (OSError, ValueError):
        return None
    node = tree.get("extends") if tree is not None and tree.items else None
    ext = node.value if node is not None else None
    if not isinstance(ext, str):
        return None
    from .loader import resolve_variant_path, try_load_variant

    found = resolve_variant_path(ext, Path(variant.path).parent)
    base, _ = try_load_variant(str(found) if found else ext, variant_path=variant_path)
    return base


def _points(blocks: tuple[Block, ...]) -> list[tuple[str, ...]]:
    """Every paragraph and point of ``blocks``, each as its path from the top of its list."""
    out: list[tuple[str, ...]] = []

    def walk(items: tuple[Item, ...], above: tuple[str, ...]) -> None:
        for it in items:
            out.append(above + (it.text,))
            walk(it.items, above + (it.text,))

    for b in blocks:
        if isinstance(b, str):
            out.append((b,))
        elif isinstance(b, Bullets):
            walk(b.items, ())
    return out


def _cells(blocks: tuple[Block, ...]) -> dict[tuple[int, str, str], str]:
    """The cells of the tables of ``blocks`` by (table, row label, column)."""
    tables = [b for b in blocks if isinstance(b, Table)]
    return {(i, r[0], t.header[j]): c for i, t in enumerate(tables) for r in t.rows
            for j, c in enumerate(r) if j}


def _tree(paths: list[tuple[str, ...]]) -> tuple[Item, ...]:
    """Points given by their paths, nested again (a shared parent shown once)."""
    top: dict[str, list[tuple[str, ...]]] = {}
    for p in paths:
        top.setdefault(p[0], [])
        if len(p) > 1:
            top[p[0]].append(p[1:])
    return tuple(Item(k, _tree(v)) for k, v in top.items())


def _changes(before: RuleBook, after: tuple[Section, ...]) -> tuple[Block, ...]:
    """What ``after`` says that ``before`` does not, section by section: its new points,
    the points it no longer has, and the cells of its tables that differ."""
    old = {s.key: s.blocks for s in before.sections}
    items = []
    for s in after:
        was = old.get(s.key, ())
        then, now = _points(was), _points(s.blocks)
        paths = [p for p in now if p not in then]
        if s.key != "schedule":  # (a schedule's new lines say it all)
            paths += [p[:-1] + (tr("no longer: {point}", point=p[-1]),) for p in then
                      if p not in now and (len(p) == 1 or p[:-1] in now)]
        new = _tree(paths)
        cells, old_cells = _cells(s.blocks), _cells(was)
        for (i, row, col), c in cells.items():
            prev = old_cells.get((i, row, col))
            if prev and c and prev != c:
                new += (Item(tr("{row}, {col}: {new} (was {old})", row=row, col=col, new=c, old=prev)),)
        if new:
            items.append(Item(s.title, new))
    if not items:
        return (tr("Nothing: the rules are those of {base}.", base=before.name),)
    return (Bullets(tuple(items)),)


# ---------------------------------------------------------------- the sections


def _players(v: Variant, n: int) -> Section:
    text = tr("For {low} to {high} players ({default} by default). This book is for {n} players.",
              low=v.min_players, high=v.max_players, default=v.default_players, n=n)
    return Section("players", tr("Players"), (text,))


_PACKS = {52: mark("A pack of 52 cards: two to ace in each suit; the ace is high."),
          36: mark("A pack of 36 cards: six to ace in each suit; the ace is high."),
          32: mark("A pack of 32 cards: seven to ace in each suit; the ace is high.")}


def _pack(v: Variant, n: int) -> Section:
    from .schedule import deck_size

    d = v.deck
    items = [Item(tr(_PACKS[d.pack]))]
    if d.packs > 1:
        items.append(Item(tr("Two such packs are shuffled together: every card is there twice, and a hand may "
                             "hold both copies.")))
        items.append(Item(tr("Of two identical cards in one trick, the one played first ranks higher.")
                          if d.identical == "first_wins" else
                          tr("Of two identical cards in one trick, the one played later ranks higher.")))
    if d.per_player:
        try:
            size = tr("{size} cards for {n} players", size=deck_size(v, n), n=n)
        except ValueError:
            size = tr("not a whole number of ranks for {n} players", n=n)
        items.append(Item(tr("Only the top ranks are played: {per} cards for each player ({size}).",
                             per=d.per_player, size=size)))
    if d.remove:
        items.append(Item(tr("Taken out of the pack: {cards}.", cards=card_names(d.remove))))
    if d.jokers:
        items.append(Item(ntr("One joker is added.", "{n} jokers are added.", d.jokers)))
    if d.designated_jokers:
        items.append(Item(ntr("{cards} is a joker and only a joker: it never counts as a card of its suit.",
                              "{cards} are jokers and only jokers: they never count as cards of their suit.",
                              len(d.designated_jokers), cards=_cap(card_names(d.designated_jokers)))))
    try:
        items.append(Item(tr("{n} players play with {size} cards.", n=n, size=deck_size(v, n))))
    except ValueError:
        pass
    who = tr("the player on the dealer's right") if v.cut_by == "dealer_right" else tr(
        "the player on the dealer's left")
    items.append(Item(tr("The deal passes to the left; before each deal {who} cuts the pack.", who=who)))
    if v.void_redeal:
        items.append(Item(tr("A player with no card of some suit may, at their first turn to call or bid, ask "
                             "for the deal again: the same dealer deals again and the deal does not count. [R025]")))
    return Section("pack", tr("Pack and deal"), (Bullets(tuple(items)),))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def hand_sizes(deals: Sequence[Deal]) -> str:
    """The hand sizes in order, sets apart: ``1 2 3 | 3 3 | 3 2 1``."""
    out: list[str] = []
    for i, d in enumerate(deals):
        if i and d.set != deals[i - 1].set:
            out.append("|")
        out.append(deal_mark(d.cards, d.kind))
    return " ".join(out)


def _schedule(v: Variant, n: int, deal_table: bool = True) -> Section:
    from .schedule import resolve_schedule

    title = tr("Deals")
    try:
        deals = resolve_schedule(v, n)
    except ValueError as err:
        return Section("schedule", title, (tr("{n} players cannot play this schedule: {why}.", n=n, why=err),))
    blocks: list[Block] = []
    first = ntr("{n} deal for {players} players.", "{n} deals for {players} players.", len(deals), players=n)
    if v.end.target is not None:
        first += " " + tr("The schedule is played again from its start until the game ends (see the end of the game).")
    blocks.append(first)
    sets = deals[-1].set > 1 if deals else False
    def cycling(d: Deal) -> TrumpRules | None:  # (the deal's trump rules, where they go round a cycle)
        k = v.kinds.get(d.kind)
        t = k.trump if k is not None and k.trump is not None else v.trump
        return t if t.rule == "cycle" and t.cycle else None

    cycle = any(cycling(d) is not None for d in deals)
    header = [tr("deal")] + ([tr("set")] if sets else []) + [tr("cards"), tr("kind")] + ([tr("trump")] if cycle else [])
    rows = []
    for d in deals:
        row = [str(d.number)] + ([str(d.set)] if sets else []) + [str(d.cards), kind_title(v, d.kind)]
        if cycle:
            t = cycling(d)
            row.append(suit_name(t.cycle_trump(d)) if t is not None else "")
        rows.append(tuple(row))
    if deal_table:
        blocks.append(Table(tuple(header), tuple(rows)))
    blocks.append(tr("Hand sizes: {sizes}", sizes="`" + hand_sizes(deals) + "`"))
    others = []
    for k in range(v.min_players, v.max_players + 1):
        if k == n:
            continue
        try:
            ds = resolve_schedule(v, k)
        except ValueError:
            continue
        others.append(ntr("{players} players: {n} deal (`{sizes}`)", "{players} players: {n} deals (`{sizes}`)",
                          len(ds), players=k, sizes=hand_sizes(ds)))
    if others:
        blocks.append(Bullets((Item(tr("With other numbers of players:"), tuple(Item(o) for o in others)),)))
    return Section("schedule", title, tuple(blocks))


BIDDING_KINDS = {
    "open": mark("Bids are made in turn after the deal, each seen by all."),
    "before_deal": mark("Blind: the bids are made before the deal, without seeing the cards."),
    "sealed": mark("The bids are made at the same time after the deal: nobody sees another's bid before "
                   "all have bid, so the hook does not apply."),
    "forehead": mark("Each player bids seeing every other player's cards but not their own, as if held "
                     "to the forehead."),
    "hidden": mark("The bids are made in turn after the deal but are not shown to the others until the "
                   "deal is over."),
    "auction": mark("An auction for trump comes first: after the deal every player calls once, a number of "
                    "tricks with a trump or no trump, or a dash; the highest call names trump and is its "
                    "caller's bid, and the others then bid (see the bidding). [R024]"),
    "none": mark("There are no bids in these deals: the tricks taken score as the formula says."),
}


def _kinds(v: Variant) -> Section:
    items = []
    for name, k in v.kinds.items():
        if name == "normal":
            continue
        parts = []
        if k.bidding != v.kinds.get("normal", DealKind("normal")).bidding:
            parts.append(tr(BIDDING_KINDS[k.bidding]))
        if k.trump is not None and k.bidding != "auction":  # (an auction's calls name the trump)
            parts.extend(_trump_words(k.trump, v))
        if k.multiplier != 1:
            parts.append(tr("The points of these deals are multiplied by {m}.", m=k.multiplier))
        if k.score is not None:
            parts.append(tr("Scored by their own formula (see the scoring)."))
        if k.hook is not None:
            parts.append(tr("The hook applies.") if k.hook else tr("The hook does not apply."))
        wild = tuple(c for w in v.wild if name in w.kinds for c in w.cards)
        if wild:
            parts.append(tr("{cards} have their special powers in these deals (see the special cards).",
                            cards=_cap(card_names(wild))) if len(wild) > 1 else
                         tr("{card} has its special powers in these deals (see the special card).",
                            card=_cap(card_names(wild))))
        if not parts:
            parts.append(tr("Played as the other deals."))
        items.append(Item(tr("`{kind}` deals:", kind=kind_title(v, name).split(" ×")[0]),
                          tuple(Item(p) for p in parts)))
    return Section("kinds", tr("Special deals"), (Bullets(tuple(items)),) if items else ())


_CHOOSERS = {
    "eldest": mark("the eldest hand (on the dealer's left)"), "dealer": mark("the dealer"),
    "first_bidder": mark("the first bidder"),
    "highest_bidder": mark("the highest bidder (the first of them in bidding order on a tie)"),
}


def _chooser(t: TrumpRules) -> str:
    who = tr(_CHOOSERS[t.chooser])
    if t.after_bidding:
        text = tr("Once everyone has bid, {who} names trump", who=who)
    else:
        text = tr("{who} names trump after seeing {k} of their cards", who=_cap(who), k=t.choose_after)
    return text + (tr(", or no trump.") if t.choose_no_trump else tr("; no trump may not be named.")) + " [R022]"


def _trump_words(t: TrumpRules, v: Variant) -> list[str]:
    out: list[str] = []
    if t.rule == "turned":
        out.append(tr("After the deal the next card of the pack is turned up: its suit is trump."))
        if v.deck.jokers or v.deck.designated_jokers:
            out.append(tr("A joker turned up makes the deal one without trump."))
        exhausted = {
            "last_dealt": tr("the dealer's last card shows trump and stays in the dealer's hand."),
            "no_trump": tr("the deal is played without trump."),
            "chosen": _chooser(t)[:1].lower() + _chooser(t)[1:],
            "forbid": tr("such a deal is not allowed."),
        }[t.when_exhausted]
        out.append(tr("When the hands take the whole pack, {what}", what=exhausted))
    elif t.rule == "random":
        out.append(tr("Trump is a suit drawn at random for each deal, or no trump (one chance in five).")
                   if t.random_no_trump else tr("Trump is a suit drawn at random for each deal."))
    elif t.rule == "fixed":
        out.append(tr("Trump is always {suit}.", suit=suit_name(t.suit)))
    elif t.rule == "cycle" and t.cycle_by == "kind":
        out.append(tr("Trump goes round these deals one by one, from the first of them: {suits}; then again from the start.",
                      suits=", ".join(suit_name(s) for s in t.cycle)))
    elif t.rule == "cycle":
        out.append(tr("Trump goes round deal by deal: {suits}; then again from the start.",
                      suits=", ".join(suit_name(s) for s in t.cycle)))
    if t.rule == "cycle" and t.cycle_from != 1:
        out.append(tr("The cycle's first trump falls on deal {n} of them; the deals before it take its last "
                      "trumps, counting back.", n=t.cycle_from) if t.cycle_by == "kind" else
                   tr("The cycle's first trump falls on deal {n}; the deals before it take its last trumps, "
                      "counting back.", n=t.cycle_from))
    elif t.rule == "chosen":
        out.append(_chooser(t))
    elif t.rule == "last_dealt":
        out.append(tr("The dealer's last card shows trump and stays in the dealer's hand, "
                      "even when cards are left over."))
    else:
        out.append(tr("There is no trump."))
    if t.after_bidding and t.rule not in ("chosen", "none"):
        out.append(tr("The trump is shown only once everyone has bid."))
    if t.no_trump_on and t.rule in ("turned", "last_dealt"):
        out.append(tr("A turned card of rank {ranks} makes the deal one without trump.",
                      ranks=", ".join(r.value for r in t.no_trump_on)))
    if t.super_trump == "same_colour" and t.rule in ("turned", "last_dealt"):
        out.append(tr("The card of the turned card's rank in the other suit of its colour is a super trump: "
                      "it beats every trump, and belongs to its own suit for following (a spade turned: "
                      "the club of its rank; a heart: the diamond). No card turned, or a joker: none."))
    return out


def _trump(v: Variant) -> Section:
    used = _used_kinds(v)
    if used and all(k.trump is not None or k.bidding == "auction" for k in used):
        # Every deal of the game has its kind's own trump: the variant's is used by none, and
        # is not described as if it were.
        items = [Item(tr("The trump of each kind of deal is given with the kinds of deal above."))] \
            if any(k.trump is not None and k.bidding != "auction" for k in used) else []
    else:
        items = [Item(x) for x in _trump_words(v.trump, v)]
    if any(k.bidding == "auction" for k in v.kinds.values()):
        items.append(Item(tr("In deals with an auction the highest call names trump (see the bidding).")))
    items.append(Item(tr("The highest trump wins a trick; without a trump, the highest card of the suit led.")))
    return Section("trump", tr("Trump"), (Bullets(tuple(items)),))


def _used_kinds(v: Variant) -> list[DealKind]:
    """The kinds of the deals of a game at the default table (none when the schedule cannot
    be worked out there)."""
    try:
        deals = resolve_schedule(v, v.default_players)
    except ValueError:
        return []
    return [v.kinds[k] for k in sorted({d.kind for d in deals}) if k in v.kinds]


_FIRST_BIDDER = {
    "eldest": mark("The eldest hand (on the dealer's left) bids first, then the others in turn to the left; "
                   "the dealer bids last."),
    "dealer_right": mark("The player on the dealer's right bids first, then the others in turn to the left."),
    "dealer": mark("The dealer bids first, then the others in turn to the left."),
}


def _bound(f: object, words: Words) -> str:
    return words.expr(formula_tree(str(getattr(f, "source", f))))


def _bidding(v: Variant) -> Section:
    b = v.bidding
    words = Words(dict(v.scoring.params))
    normal = v.kinds.get("normal", DealKind("normal"))
    items = [Item(tr(BIDDING_KINDS[normal.bidding]))]
    if normal.bidding != "none":
        items.append(Item(tr(_FIRST_BIDDER[b.first_bidder])))
        lo, hi = str(b.min_bid.source), str(b.max_bid.source)
        if lo == "0" and hi == "cards":
            items.append(Item(tr("A bid is a number of tricks from 0 (a pass) to the cards in hand. [R020]")))
        else:
            items.append(Item(tr("A bid is a number of tricks from {lo} to {hi}. [R020]",
                                 lo=_bound(b.min_bid, words), hi=_bound(b.max_bid, words))))
    total = {
        "differ": mark("The hook: the last bidder may not make the bids total the number of cards in hand, "
                       "so that someone must fail. [R021]"),
        "over": mark("The last bidder must make the bids total more than the cards in hand (one who cannot "
                     "may bid anything). [R021]"),
        "under": mark("The last bidder must make the bids total less than the cards in hand (one who cannot "
                      "may bid anything). [R021]"),
        "any": mark("The bids may total anything, the number of cards in hand included (no hook)."),
    }[b.total if b.hook or b.total != "differ" else "any"]
    items.append(Item(tr(total)))
    if b.hook_exempt is not None and b.total != "any":
        items.append(Item(tr("The hook does not apply in deals where {cond}.",
                             cond=words.cond(formula_tree(str(b.hook_exempt.source))))))
    if b.auction is not None:
        items.append(_auction(b.auction, words))
    if b.dash_limit is not None:
        items.append(Item(tr("At most {count} players may bid 0 (a dash) in a deal, dash calls included. [R023]",
                             count=b.dash_limit)))
    return Section("bidding", tr("Bidding"), (Bullets(tuple(items)),))


def _auction(a: AuctionRules, words: Words) -> Item:
    """The auction for trump of ``bidding: auction`` deals, in words."""
    trumps = ", ".join(suit_name(s) for s in a.order)
    parts = [
        tr("Each player in turn, from the first bidder, makes one call: at least {min} tricks with a trump "
           "({trumps}, highest first). [R024]", min=_bound(a.min_call, words), trumps=trumps),
        tr("The highest call wins: the most tricks; on as many, the higher trump; on equal calls, the first "
           "made. Its trump is the deal's and its tricks are its caller's bid."),
        tr("Then the others bid in turn from the left of the highest caller, at most the tricks of the highest "
           "call. [R020]"),
    ]
    if a.dash:
        parts.insert(1, tr("A call may be a dash instead: no tricks and no trump, which is the caller's bid of 0; "
                           "the last caller may not dash when every other player did. [R023]"))
    return Item(tr("In deals with an auction for trump:"), tuple(Item(p) for p in parts))


_FIRST_LEADER = {
    "eldest": mark("The eldest hand leads to the first trick of a deal."),
    "first_bidder": mark("The first bidder leads to the first trick of a deal."),
    "dealer": mark("The dealer leads to the first trick of a deal."),
    "dealer_right": mark("The player on the dealer's right leads to the first trick of a deal."),
    "first_bidder_left": mark("The player on the first bidder's left leads to the first trick of a deal."),
    "highest_bidder": mark("The player who bid the most leads to the first trick of a deal (of several, the "
                           "first of them in bidding order; in a deal without bids, the eldest hand)."),
    "last_trick_winner": mark("The winner of the last trick of the deal before leads to the first trick "
                              "(the eldest hand in the first deal)."),
}


def _play(v: Variant) -> Section:
    p = v.play
    items = [Item(tr(_FIRST_LEADER[p.first_leader])), Item(tr("The winner of a trick leads to the next. [R003]"))]
    items.append(Item(tr("A player must follow the suit led when able, and so may not trump while holding it. "
                         "[R010, R012]") if p.must_follow else
                      tr("A player need not follow the suit led: any card may be played.")))
    items.append(Item(tr("A player who cannot follow suit and holds a trump must play a trump. [R011]")
                      if p.must_trump else
                      tr("A player who cannot follow suit may play a trump or any other card.")))
    if p.lead_trump == "not_first_trick":
        items.append(Item(tr("A trump may not be led to the first trick of a deal (a leader holding only "
                             "trumps leads one anyway). [R017]")))
    elif p.lead_trump == "when_broken":
        items.append(Item(tr("A trump may be led only once a trump has been played to an earlier trick of the "
                             "deal (a leader holding only trumps leads one anyway). [R017]")))
    if p.must_overtrump:
        items.append(Item(tr("A player who plays a trump to a trick that a trump already wins must play a "
                             "higher trump when able. [R016]")))
    items.append(Item(tr("A card must be in the player's hand, and each plays in turn. [R013, R001]")))
    return Section("play", tr("Play"), (Bullets(tuple(items)),))


# ---------------------------------------------------------------- the rules as data
def deals_data(deals: Sequence[Deal]) -> list[dict[str, Any]]:
    """The resolved schedule as plain data."""
    return [
        {"number": d.number, "cards": d.cards, "kind": d.kind, "set": d.set, "set_deal": d.set_deal}
        for d in deals
    ]


def _src(formula: object) -> str | None:
    return None if formula is None else str(getattr(formula, "source", formula))


def _trump_data(t: TrumpRules) -> dict[str, Any]:
    data: dict[str, Any] = {"rule": t.rule}
    if t.rule == "fixed":
        data["suit"] = None if t.suit is None else str(t.suit)
    if t.rule == "cycle":
        data["cycle"] = [str(x) if x is not None else "none" for x in t.cycle]
        data["cycle_by"] = t.cycle_by
        data["cycle_from"] = t.cycle_from
    if t.rule == "turned":
        data["when_exhausted"] = t.when_exhausted
        data["no_trump_on"] = [r.value for r in t.no_trump_on]
        data["joker_turned"] = t.joker_turned
    if t.rule == "random":
        data["random_no_trump"] = t.random_no_trump
    if t.rule == "chosen" or (t.rule == "turned" and t.when_exhausted == "chosen"):
        data["chooser"] = t.chooser
        data["choose_after"] = t.choose_after
        data["choose_no_trump"] = t.choose_no_trump
    return data


def _wild_data(w: WildRules) -> dict[str, Any]:
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
        "kinds": list(w.kinds),
        "copy_wins": w.copy_wins,
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
            "packs": v.deck.packs,
            "identical": v.deck.identical,
            "jokers": v.deck.jokers,
            "remove": [str(c) for c in v.deck.remove],
            "designated_jokers": [str(c) for c in v.deck.designated_jokers],
            "summary": pack_text(v),
        },
        "dealing": {"cut_by": v.cut_by, "void_redeal": v.void_redeal},
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
            **({"places": list(v.settlement.places)} if v.settlement.method == "places" else {}),
        },
    }
    return data


__all__ = ["Block", "Bullets", "Item", "RuleBook", "Section", "Table", "base_variant", "deal_mark",
           "deals_data", "hand_sizes", "rule_book", "rules_data"]
