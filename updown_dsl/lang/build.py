"""Building the variant model from a checked tree: sections, the deal schedule, trump and wild cards."""

from __future__ import annotations

import difflib
from typing import Any

from ..i18n import tr
from ..cards import Card, CardError, Rank, Suit, build_deck
from ..diagnostics import Diagnostic
from .schema import SCHEMA
from .variant import (
    AuctionRules,
    BiddingRules,
    DealKind,
    DeckRules,
    EndRules,
    PlayRules,
    RevokeRules,
    ScheduleItem,
    ScheduleSet,
    ScoringRules,
    SettlementRules,
    TrumpRules,
    Variant,
    WildRules,
)
from .values import Values, child
from .yamltree import Node

_SUIT_LETTERS = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}


class Builder:
    """The variant model from a variant file's merged tree (after ``extends``): each value read
    by ``values``, whose problems this adds to (contradictions between keys, ``V012``)."""

    def __init__(self, values: Values) -> None:
        self.values = values
        self.problems = values.problems

    # -- schedule -----------------------------------------------------------------------
    def schedule(self, node: Node | None, kinds: set[str]) -> tuple[ScheduleSet, ...]:
        """The ``schedule`` list as sets of items (``kinds``: the deal kinds defined)."""
        from .schema import SCHEDULE_ITEM_FIELDS, SCHEDULE_NAMES

        if node is None:
            return ()
        if node.kind != "seq" or not node.children:
            self.values.err("V004", tr("`schedule` must be a non-empty list of deals and sets"), node)
            return ()
        sets: list[ScheduleSet] = []
        loose: list[ScheduleItem] = []

        def item(n: Node) -> ScheduleItem | None:
            if n.kind != "map":
                self.values.err("V004", tr("a schedule item must be a mapping such as {cards: 6, times: players}"), n)
                return None
            keys = n.keys()
            for k, _ in n.items:
                if k.value not in SCHEDULE_ITEM_FIELDS or k.value == "set":
                    close = difflib.get_close_matches(str(k.value), list(SCHEDULE_ITEM_FIELDS), n=1)
                    self.values.err("V003", tr("unknown key {value!r} in a schedule item", value=k.value), k,
                             hint=tr("did you mean {value!r}?", value=close[0]) if close else None)
            kind_node = n.get("kind")
            kind = "normal"
            if kind_node is not None:
                name = self.values.kind_name(kind_node)  # None: not a word (V007/V004 said so)
                kind = "normal" if name is None else name
                if name is not None and kind != "normal" and kind not in kinds:
                    close = difflib.get_close_matches(kind, sorted(kinds), n=1)
                    self.values.err("V005", tr("deal kind {kind!r} is not defined under `kinds`",
                                        kind=kind), kind_node,
                             hint=tr("did you mean {value!r}?", value=close[0]) if close else None)
            if "ramp" in keys:
                r = n.get("ramp")
                assert r is not None
                if r.kind != "seq" or len(r.children) != 2:
                    # A formula with a comma in a flow list is cut at the comma by YAML.
                    split = r.kind == "seq" and len(r.children) > 2 and any(
                        "(" in str(getattr(c, "value", "")) for c in r.children)
                    self.values.err("V004", tr("`ramp` must be [from, to]"), r,
                             hint=tr("a formula with a comma inside `[...]` must be quoted, e.g. `ramp: [\"min(10, max_cards)\", 1]`") if split else None)
                    return None
                a = self.values.formula(r.children[0], SCHEDULE_NAMES, "ramp")
                b = self.values.formula(r.children[1], SCHEDULE_NAMES, "ramp")
                if "cards" in keys or "times" in keys:
                    self.values.err("V012", tr("a `ramp` item takes no `cards` or `times`"), n)
                if a is None or b is None:
                    return None
                return ScheduleItem(cards=a, ramp_to=b, kind=kind)
            c = n.get("cards")
            if c is None:
                self.values.err("V006", tr("a schedule item needs `cards` (or `ramp`)"), n)
                return None
            cards = self.values.formula(c, SCHEDULE_NAMES, "cards")
            t = n.get("times")
            times = self.values.formula(t, SCHEDULE_NAMES, "times") if t is not None else None
            if cards is None or (t is not None and times is None):
                return None
            return ScheduleItem(cards=cards, times=times, kind=kind)

        for child in node.children:
            if child.kind == "map" and child.get("set") is not None:
                if loose:
                    sets.append(ScheduleSet(tuple(loose)))
                    loose = []
                s = child.get("set")
                assert s is not None
                if len(child.items) > 1:
                    self.values.err("V003", tr("a `set` item takes only the `set` key"), child)
                if s.kind != "seq" or not s.children:
                    self.values.err("V004", tr("`set` must be a non-empty list of schedule items"), s)
                    continue
                members = [item(x) for x in s.children]
                sets.append(ScheduleSet(tuple(m for m in members if m is not None)))
            else:
                it = item(child)
                if it is not None:
                    loose.append(it)
        if loose:
            sets.append(ScheduleSet(tuple(loose)))
        return tuple(sets)

    # -- building -----------------------------------------------------------------------
    def build(self, tree: Node, path: str) -> tuple[Variant | None, list[Diagnostic]]:
        """The variant of ``tree`` (read from ``path``), or None, with every problem of the load."""
        # Params first: formulas everywhere may use them.
        params: dict[str, int] = {}
        scoring_node = tree.get("scoring")
        if scoring_node is not None and scoring_node.kind == "map":
            pn = scoring_node.get("params")
            if pn is not None and pn.kind == "map":
                params = {str(k.value): v.value for k, v in pn.items
                          if v.kind == "scalar" and isinstance(v.value, int)
                          and not isinstance(v.value, bool) and str(k.value).isidentifier()}
        extra = tuple(params)
        top = self.values.section(tree, SCHEMA, "", extra)
        kinds_raw: dict[str, tuple[Node, dict[str, Any]]] = top["kinds"] or {}
        schedule = self.schedule(tree.get("schedule"), set(kinds_raw))

        players = top["players"]
        pmin, pmax = players["min"], players["max"]
        pdefault = players["default"] if players["default"] is not None else max(pmin, min(4, pmax))
        pnode = tree.get("players") or tree
        if pmin > pmax:
            self.values.err("V012", tr("players: min {pmin} is more than max {pmax}", pmin=pmin, pmax=pmax), pnode)
        elif not pmin <= pdefault <= pmax:
            self.values.err("V012", tr("players: default {pdefault} is outside {pmin}..{pmax}",
                                pdefault=pdefault, pmin=pmin, pmax=pmax), pnode)

        deck_sec = top["deck"] or self.values.section(None, SCHEMA["deck"].fields, "deck", extra)
        deck_node = tree.get("deck")
        remove = tuple(deck_sec["remove"])
        designated = tuple(deck_sec["designated_jokers"])
        deck = DeckRules(pack=deck_sec["pack"], jokers=deck_sec["jokers"], remove=remove,
                         designated_jokers=designated, per_player=deck_sec["per_player"],
                         packs=deck_sec["packs"], identical=deck_sec["identical"])
        full_deck = build_deck(deck.pack, jokers=deck.jokers, remove=deck.remove)
        pack = build_deck(deck.pack, jokers=deck.jokers)
        for key, cards in (("remove", remove), ("designated_jokers", designated)):
            for card in cards:
                if card not in pack:
                    self.values.err("V011", tr("`deck.{key}`: {card} is not in a {pack}-card pack",
                                        key=key, card=card, pack=deck.pack),
                             self.card_node(deck_node, key, card) or deck_node or tree)
        for card in designated:
            if card in remove:
                self.values.err("V012", tr("{card} is both removed and designated as joker",
                                    card=card), deck_node or tree)

        trump = self.trump(top["trump"], tree.get("trump"))
        kinds: dict[str, DealKind] = {}
        for name, (knode, k) in kinds_raw.items():
            if name == "normal":
                self.values.err("V012", tr("`normal` is the built-in kind; define other names"), knode)
                continue
            kinds[name] = DealKind(
                name=name,
                bidding=k["bidding"],
                trump=self.trump(k["trump"], child(child(child(tree, "kinds"), name), "trump")) if k["trump"] is not None else None,
                multiplier=k["multiplier"],
                score=k["score"],
                hook=k["hook"],
            )
        kinds["normal"] = DealKind(name="normal")

        b = top["bidding"] or self.values.section(None, SCHEMA["bidding"].fields, "bidding", extra)
        total = b["total"] or ("differ" if b["hook"] else "any")
        auction = self.auction(b["auction"], kinds, trump, tree)
        bidding = BiddingRules(min_bid=b["min"], max_bid=b["max"], hook=total != "any",
                               hook_exempt=b["hook_exempt"], first_bidder=b["first_bidder"], total=total,
                               dash_limit=b["dash_limit"], auction=auction)
        p = top["play"] or self.values.section(None, SCHEMA["play"].fields, "play", extra)
        play = PlayRules(must_follow=p["must_follow"], must_trump=p["must_trump"],
                         first_leader=p["first_leader"], lead_trump=p["lead_trump"],
                         must_overtrump=p["must_overtrump"])

        wild: list[WildRules] = []
        joker_cards = tuple(c for c in full_deck if c.is_joker) + designated
        jnode = tree.get("jokers")
        if top["jokers"] is not None:
            j = top["jokers"]
            if not joker_cards:
                self.values.err("V012", tr("`jokers` rules given but the deck has no joker"), jnode or tree,
                         hint=tr("add `deck.jokers` or `deck.designated_jokers`"))
            wild.append(self.wild(j, joker_cards, ordinary=False, node=jnode))
        elif joker_cards:
            defaults = self.values.section(None, SCHEMA["jokers"].fields, "jokers", extra)
            wild.append(self.wild(defaults, joker_cards, ordinary=False, node=None))
        if top["special_card"] is not None:
            s = top["special_card"]
            snode = tree.get("special_card")
            card = s["card"]
            at = (snode.get("card") if snode is not None and snode.kind == "map" else None) or snode or tree
            if card is not None:
                special = (card,) + tuple(c for c in s["also"] if c != card)
                for c in special:
                    where = at if c is card else (self.card_node(snode, "also", c) or at)
                    if c not in full_deck:
                        self.values.err("V011", tr("`special_card.card`: {card} is not in the deck", card=c), where)
                    elif c in designated or c.is_joker:
                        self.values.err("V012", tr("{card} cannot be both a joker and the special card", card=c),
                                        where)
                if len(set(special)) != len(special):
                    self.values.err("V012", tr("`special_card.also` names a card twice"), at)
                for name in s["kinds"]:
                    if name != "normal" and name not in kinds_raw:
                        self.values.err("V012", tr("`special_card.kinds`: no deal kind is named {name!r}", name=name),
                                        child(snode, "kinds") or at,
                                        hint=tr("name a key of `kinds`, or `normal`"))
                wild.append(self.wild(s, special, ordinary=True, node=snode))

        if deck.packs > 1 and (wild or deck.per_player):
            # A copy of a wild card, or of a pack cut to the table, is not defined by any source.
            self.values.err("V012", tr("`deck.packs: {packs}` cannot be played with jokers, a special card or "
                                       "`deck.per_player`", packs=deck.packs),
                            (deck_node.get("packs") if deck_node is not None and deck_node.kind == "map" else None)
                            or deck_node or tree,
                            hint=tr("use one pack, or leave out the jokers and the special card"))
        sc = top["scoring"] or {}
        deal_formula = sc.get("deal")
        if deal_formula is None:
            if not self.problems:
                self.values.err("V006", tr("missing required key 'deal' in `scoring`"), tree.get("scoring") or tree)
            return None, self.problems.found
        scoring = ScoringRules(deal=deal_formula, set_bonus=sc.get("set_bonus"), params=params)
        pen = top["penalties"] or {}
        r = pen.get("revoke")
        revoke = None
        if r is not None:
            then = r["then"] or ("replay" if r["replay"] else "play_on")
            revoke = RevokeRules(points=r["points"], replay=then == "replay", covers=tuple(r["covers"]),
                                 multiplied=r["multiplied"], then=then)
        e = top["end"] or self.values.section(None, SCHEMA["end"].fields, "end", extra)
        st = top["settlement"] or self.values.section(None, SCHEMA["settlement"].fields, "settlement", extra)
        dealing = top["dealing"] or self.values.section(None, SCHEMA["dealing"].fields, "dealing", extra)
        if st["method"] == "places" and len(st["places"] or ()) < pmax:
            section_node = tree.get("settlement")
            places_node = section_node.get("places") if section_node is not None and section_node.kind == "map" \
                else None
            misread = places_node is not None and (places_node.kind != "seq" or
                                                   len(places_node.children) != len(st["places"] or ()))
            if not misread:  # (a list that is not one of numbers was said already: V004)
                self.values.err("V012", tr("settlement by `places` needs an amount for each of {n} places (the most "
                                           "players the variant allows), not {count}", n=pmax,
                                           count=len(st["places"] or ())), places_node or section_node or tree,
                                hint=tr("e.g. `places: [3, 1, -1, -3]` for four players"))
        if self.problems:
            return None, self.problems.found
        variant = Variant(
            name=top["name"],
            description=top["description"] or "",
            source=top["source"] or "",
            min_players=pmin,
            max_players=pmax,
            default_players=pdefault,
            deck=deck,
            schedule=schedule,
            kinds=kinds,
            trump=trump,
            bidding=bidding,
            play=play,
            wild=tuple(wild),
            scoring=scoring,
            revoke=revoke,
            end=EndRules(stop_loss=e["stop_loss"], stop_on=e["stop_on"], stop_check=e["stop_check"],
                         target=e["target"], target_exact=e["target_exact"], tie_break=e["tie_break"],
                         max_deals=e["max_deals"]),
            settlement=SettlementRules(method=st["method"], stake=st["stake"],
                                       negative_doubles=st["negative_doubles"], cap=st["cap"],
                                       places=tuple(st["places"] or ())),
            cut_by=dealing["cut_by"],
            void_redeal=dealing["void_redeal"],
            path=path,
            options=tree.to_python(),  # type: ignore[arg-type]
        )
        # Every allowed player count must give a playable schedule (V009, naming every count that
        # cannot), and every deal must leave a bid to make and score every outcome.
        from .soundness import soundness_problems

        for problem in soundness_problems(variant):
            d = problem.diagnostic
            if d.line is None:
                node = tree.get(problem.section) or tree
                d = Diagnostic(d.code, d.message, d.severity, node.path, node.line, node.col, hint=d.hint)
            self.problems.add(d)
        if self.problems:
            return None, self.problems.found
        return variant, self.problems.found

    @staticmethod
    def card_node(section: Node | None, key: str, card: Card) -> Node | None:
        """The list item naming ``card`` under ``section[key]``, for positions."""
        if section is None or section.kind != "map":
            return None
        items = section.get(key)
        if items is None:
            return None
        for item in items.children if items.kind == "seq" else [items]:
            try:
                if Card.parse(str(item.value)) == card:
                    return item
            except CardError:
                continue
        return None

    def trump(self, t: dict[str, Any] | None, node: Node | None = None) -> TrumpRules:
        """The trump rules of a checked ``trump`` section (written at ``node``)."""
        if t is None:
            return TrumpRules()
        if t["rule"] == "fixed" and t["suit"] is None and child(node, "suit") is None:
            self.values.err("V006", tr("`trump.suit` is required with `rule: fixed`"), node or Node("map", 1, 1))
        if t["rule"] == "cycle" and not t["cycle"]:
            self.values.err("V006", tr("`trump.cycle` must list the trumps in turn with `rule: cycle`, e.g. `cycle: [S, H, C, D, none]`"), child(node, "cycle") or node or Node("map", 1, 1))
        cycle = tuple(None if w == "none" else _SUIT_LETTERS[w] for w in t["cycle"])
        if t["chooser"] == "highest_bidder" and not t["after_bidding"]:
            self.values.err("V012", tr("`trump.chooser: highest_bidder` needs `after_bidding: true`: the bids come first"), child(node, "chooser") or node or Node("map", 1, 1))
        return TrumpRules(rule=t["rule"], suit=t["suit"], when_exhausted=t["when_exhausted"],
                          joker_turned=t["joker_turned"], random_no_trump=t["random_no_trump"],
                          chooser=t["chooser"], choose_after=t["choose_after"],
                          choose_no_trump=t["choose_no_trump"], cycle=cycle, cycle_by=t["cycle_by"],
                          after_bidding=t["after_bidding"], super_trump=t["super_trump"],
                          cycle_from=t["cycle_from"], no_trump_on=tuple(Rank(r) for r in t["no_trump_on"]))

    def wild(self, w: dict[str, Any], cards: tuple[Card, ...], *, ordinary: bool,
             node: Node | None) -> WildRules:
        """The rules of jokers (``ordinary=False``) or of a special card, from a checked section."""
        lead, follow = tuple(w["lead"]), tuple(w["follow"])
        if not ordinary and not lead:
            self.values.err("V012", tr("a joker must have at least one `lead` declaration"), node or Node("map", 1, 1))
        if not ordinary and not follow:
            self.values.err("V012", tr("a joker must have at least one `follow` declaration"), node or Node("map", 1, 1))
        return WildRules(
            cards=cards,
            ordinary=ordinary,
            lead=lead,
            follow=follow,
            exempt=w["exempt"],
            lead_on=w["lead_on"],
            answer=w.get("answer", "highest_of_suit"),
            demand_void=w["demand_void"],
            beaten_by_trump=w["beaten_by_trump"],
            two_high=w["two_high"],
            turned_as_trump=w.get("turned_as_trump", "no_trump"),
            impersonate=w["impersonate"],
            cut_zeroes_total=w.get("cut_zeroes_total", False),
            cut_shows=w.get("cut_shows", "lifted_bottom"),
            kinds=tuple(w.get("kinds", ())),
            copy_wins=w.get("copy_wins", False),
        )

    def auction(self, a: dict[str, Any] | None, kinds: dict[str, DealKind], trump: TrumpRules,
                tree: Node) -> AuctionRules | None:
        """``bidding.auction``, and what the kinds that hold one need (V006, V012)."""
        auction = None
        if a is not None:
            auction = AuctionRules(min_call=a["min"], dash=a["dash"],
                                   order=tuple(None if w == "none" else _SUIT_LETTERS[w] for w in a["order"]))
            if not auction.order:
                self.values.err("V006", tr("`bidding.auction.order` must name at least one trump (or `none`)"),
                                child(child(tree.get("bidding"), "auction"), "order") or tree)
        for name, kind in kinds.items():
            if kind.bidding != "auction":
                continue
            knode = child(child(tree, "kinds"), name) or tree
            if auction is None:
                self.values.err("V006", tr("deal kind `{kind}` has `bidding: auction` but the variant has no "
                                           "`bidding.auction`", kind=name), knode, hint=tr("add `bidding: {auction: {min: 4}}`"))
            if (kind.trump or trump).rule != "none":
                self.values.err("V012", tr("deal kind `{kind}` has `bidding: auction`, where the highest call names "
                                           "trump, but also a trump rule", kind=name), knode,
                                hint=tr("give the kind `trump: {rule: none}`"))
        return auction
