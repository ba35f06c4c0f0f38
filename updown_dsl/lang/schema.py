"""The variant file schema: every key, its type, default and meaning.

This table drives both the loader's validation and ``docs/dsl.md`` (see
``python -m updown_dsl.lang.schema``), so the documentation cannot drift from
what the loader accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Names a formula may use, by where the formula sits.
SCHEDULE_NAMES = ("players", "deck", "max_cards")
DEAL_NAMES = ("cards", "players", "deal", "deals", "set", "set_deal", "set_deals", "deck")
SCORE_NAMES = DEAL_NAMES + ("bid", "taken", "made", "total", "is_dealer", "made_count")
#: The bid range may also read the bidder's own history.
BID_NAMES = DEAL_NAMES + ("zeros_in_row",)
SET_BONUS_NAMES = DEAL_NAMES + (
    "set_best",
    "set_total",
    "set_made",
    "set_all_made",
    "total",
)


@dataclass(frozen=True)
class Field:
    """One key of a variant file."""

    type: str
    """``int``, ``bool``, ``word``, ``words``, ``str``, ``formula``, ``card``, ``cards``,
    ``suit``, ``section``, ``kinds``, ``schedule``, ``params`` or ``players``."""
    doc: str
    default: object = None
    choices: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    """Formulas: the variables they may use."""
    fields: dict[str, Field] = field(default_factory=dict)
    """Sections: their keys."""
    required: bool = False
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    example: str = ""


def _f(type: str, doc: str, default: object = None, **kw: object) -> Field:
    return Field(type, doc, default, **kw)  # type: ignore[arg-type]


TRUMP_FIELDS: dict[str, Field] = {
    "rule": _f(
        "word",
        "How trump is found: `turned` (the next card after the deal is turned up), `random` "
        "(a random suit each deal), `fixed` (always `suit`), `cycle` (deal by deal through the "
        "suits of `cycle`), `chosen` (a player names it after seeing `choose_after` cards), `none` "
        "(no trump), `last_dealt` (the suit of the dealer's last card, which stays in hand, even "
        "when cards are set aside).",
        "turned",
        choices=("turned", "random", "fixed", "cycle", "chosen", "none", "last_dealt"),
    ),
    "suit": _f("suit", "The trump suit for `rule: fixed`.", None, nullable=True),
    "cycle": _f("words", "With `rule: cycle`: the trumps of deals 1, 2, 3 ... in turn, starting "
                "again after the last (`S`, `H`, `D`, `C`, or `none` for a no-trump deal), e.g. "
                "`[S, H, C, D, none]`.", [], choices=("S", "H", "D", "C", "none")),
    "cycle_by": _f("word", "With `rule: cycle`, what the cycle follows: `deal`, the deal's number "
                   "(deal 1 takes the first trump of the cycle); `kind`, the deal's place among the "
                   "deals of its kind (the kind's first deal takes the first trump, wherever it "
                   "falls in the schedule: a kind of deals at the end that each have their own "
                   "trump, such as a game's last fast rounds, is one kind with a cycle).", "deal",
                   choices=("deal", "kind")),
    "cycle_from": _f("int", "With `rule: cycle`, the deal (by `cycle_by`: its number, or its place "
                     "among its kind's deals) that takes the cycle's first trump; the deals before it "
                     "take the cycle's last trumps, counting back.", 1, minimum=1,
                     example="cycle_from: 3"),
    "when_exhausted": _f(
        "word",
        "With `rule: turned`, when every card was dealt: `last_dealt` (the suit of the dealer's "
        "last card, which stays in hand), `no_trump`, `chosen` (as `rule: chosen`) or `forbid` "
        "(such deals are a variant error).",
        "last_dealt",
        choices=("last_dealt", "no_trump", "chosen", "forbid"),
    ),
    "joker_turned": _f(
        "word", "A joker turned up as trump card: the deal is played `no_trump`.", "no_trump",
        choices=("no_trump",),
    ),
    "random_no_trump": _f("bool", "`rule: random` may also give no trump (1 chance in 5).", False),
    "chooser": _f(
        "word", "Who names trump when it is chosen: `eldest`, `dealer`, `first_bidder`, or (with "
        "`after_bidding`) `highest_bidder` (the first of them in bidding order on a tie).", "eldest",
        choices=("eldest", "dealer", "first_bidder", "highest_bidder"),
    ),
    "after_bidding": _f("bool", "Trump is known only once everyone has bid: a chosen trump is named "
                        "after the bids (by `chooser`), any other is shown then (\"guess trumps\").",
                        False),
    "no_trump_on": _f("words", "Ranks of a turned card that make the deal one without trump, e.g. "
                      "`[J, Q, K]` (\"a picture card means no trumps\"); the card is still shown. Empty: "
                      "every turned card names its suit.", [],
                      choices=("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")),
    "super_trump": _f("word", "`same_colour`: the card of the turned card's rank in the other suit of its "
                      "colour (the five of clubs when the five of spades is turned) is a super trump: it "
                      "beats every trump, though it belongs to its own suit for following; `none`. No "
                      "card is turned, or a joker: no super trump.", "none",
                      choices=("none", "same_colour")),
    "choose_after": _f("int", "How many of their own cards the chooser sees first.", 3, minimum=0),
    "choose_no_trump": _f("bool", "The chooser may name no trump.", True),
}

KIND_FIELDS: dict[str, Field] = {
    "bidding": _f(
        "word",
        "`open` (bids after the deal, seen by all), `before_deal` (blind: bids before seeing the "
        "cards), `sealed` (bids after the deal, made at the same time: nobody sees another's bid "
        "before all have bid, so the hook cannot apply), `forehead` (bids after the deal, each "
        "player seeing every other player's cards but not his own, as held to the forehead), "
        "`hidden` (bids after the deal, not shown to the others until the deal is over), `auction` "
        "(bids after the deal in two rounds, as `bidding.auction` says: every player makes one call, "
        "a number of tricks with a trump or no trump, or a dash; the highest call names trump and is "
        "its caller's bid; then the others bid, at most the highest call's tricks) or `none` "
        "(no bids).",
        "open",
        choices=("open", "before_deal", "sealed", "forehead", "hidden", "auction", "none"),
    ),
    "trump": _f("section", "Trump rules for deals of this kind (same keys as `trump`).", None,
                fields=TRUMP_FIELDS, nullable=True),
    "multiplier": _f("int", "Deal scores are multiplied by this.", 1),
    "score": _f("formula", "A scoring formula replacing `scoring.deal` in these deals.", None,
                names=SCORE_NAMES, nullable=True),
    "hook": _f("bool", "Override `bidding.hook` in these deals.", None, nullable=True),
}

WILD_COMMON: dict[str, Field] = {
    "lead": _f(
        "words",
        "Declarations allowed when leading: `demand` (names a suit; the others must play their "
        "highest card of it; the card is high), `high` (names a suit to follow normally; the card "
        "is high), `takes` (names a suit; the card is the lowest of it), `highest` (no suit; the "
        "others must play their highest card as `answer` says; the leader takes the trick), "
        "`free` (no suit; anything may follow; the card is high), `open` (the next card played "
        "sets the suit; the card is high).",
        [],
        choices=("demand", "high", "takes", "highest", "free", "open"),
    ),
    "follow": _f(
        "words", "Declarations allowed when following: `high` (wins the trick) or `low` "
        "(cannot win).", [], choices=("high", "low"),
    ),
    "exempt": _f(
        "bool", "Declared plays may be made even when the player could follow suit or trump.", True,
    ),
    "lead_on": _f(
        "word",
        "When demanding leads (`demand`, `highest`) are allowed: `any_trick`, `first_trick` of "
        "the deal only, or `never`.",
        "any_trick",
        choices=("any_trick", "first_trick", "never"),
    ),
    "demand_void": _f(
        "word",
        "A player without the demanded suit may play `any` card, must play a trump if they can "
        "(`must_trump`), or must play their highest trump (`highest_trump`).",
        "any",
        choices=("any", "must_trump", "highest_trump"),
    ),
    "beaten_by_trump": _f(
        "bool", "A high card led with a non-trump suit loses to a trump played on it.", False,
    ),
    "two_high": _f(
        "word", "Two high wild cards in one trick: `later_wins`, `first_wins`, or `by_joker` (the "
        "first joker, `JK`, beats the second, `JK2`, whoever plays first).", "later_wins",
        choices=("later_wins", "first_wins", "by_joker"),
    ),
    "impersonate": _f(
        "bool", "The card may be played as any named ordinary card (`as QH`).", False,
    ),
    "answer": _f(
        "word",
        "What a `highest` lead asks of the others: `highest_rank` (their highest-ranked card, any "
        "suit), `highest_trump` (their highest trump, else highest rank), `highest_of_suit` "
        "(their highest card of the special card's suit, else any card).",
        "highest_rank",
        choices=("highest_rank", "highest_trump", "highest_of_suit"),
    ),
}

JOKER_FIELDS: dict[str, Field] = {
    **WILD_COMMON,
    "lead": _f(WILD_COMMON["lead"].type, WILD_COMMON["lead"].doc, ["demand", "high"],
               choices=WILD_COMMON["lead"].choices),
    "follow": _f(WILD_COMMON["follow"].type, WILD_COMMON["follow"].doc, ["high", "low"],
                 choices=WILD_COMMON["follow"].choices),
}

SPECIAL_FIELDS: dict[str, Field] = {
    "card": _f("card", "The ordinary card with special powers.", None, required=True),
    "also": _f("cards", "More ordinary cards with the same powers (four wild twos: `card: 2S`, "
               "`also: [2H, 2D, 2C]`).", []),
    "kinds": _f("words", "The deal kinds in which the cards have their powers (`normal` for the "
                "plain deals); in the others they are ordinary cards. Empty: every deal.", [],
                example="kinds: [twos-wild]"),
    "copy_wins": _f("bool", "A card played as another card (`as QH`, with `impersonate`) beats the "
                    "real card it copies when both fall in one trick; otherwise the first of the two "
                    "played wins.", False),
    **WILD_COMMON,
    "lead": _f(WILD_COMMON["lead"].type, WILD_COMMON["lead"].doc, ["highest"],
               choices=WILD_COMMON["lead"].choices),
    "exempt": _f("bool", WILD_COMMON["exempt"].doc, False),
    "turned_as_trump": _f(
        "word", "Turned up as trump card: its `suit` is trump, or the deal is `no_trump`.", "suit",
        choices=("suit", "no_trump"),
    ),
    "cut_zeroes_total": _f(
        "bool", "«Сдвиг колоды»: exposed at the cut before a deal, the cutter's total becomes 0.",
        False,
    ),
    "cut_shows": _f(
        "word", "Which card the cut exposes when the engine deals: the `lifted_bottom` card of the "
        "lifted packet, or the `remaining_top` card of the packet left on the table.",
        "lifted_bottom", choices=("lifted_bottom", "remaining_top"),
    ),
}

SCHEDULE_ITEM_FIELDS: dict[str, Field] = {
    "cards": _f("formula", "Cards per player (a number or a formula).", None, names=SCHEDULE_NAMES),
    "times": _f("formula", "How many deals of that size (e.g. `players`).", 1, names=SCHEDULE_NAMES),
    "ramp": _f("schedule", "`[from, to]`: one deal of each size from `from` to `to`, up or down.",
               None),
    "kind": _f("str", "The deal kind (a key of `kinds`, or `normal`).", "normal"),
    "set": _f("schedule", "A list of items forming one set («пулька»).", None),
}

SCHEMA: dict[str, Field] = {
    "name": _f("str", "The variant's name.", None, required=True, example="name: my-house-rules"),
    "description": _f("str", "One line describing the game.", ""),
    "source": _f("str", "Where the rules come from.", ""),
    "extends": _f("str", "A bundled variant name or a path: this file changes only some of its keys.",
                  None, nullable=True, example="extends: <bundled name>"),
    "players": _f("players", "`{min, max, default}` player counts.", {"min": 3, "max": 6, "default": 4}),
    "deck": _f("section", "The pack.", None, fields={
        "pack": _f("int", "32, 36 or 52 ordinary cards.", 52, choices=("32", "36", "52")),
        "jokers": _f("int", "Real jokers added (`JK`, `JK2`).", 0, minimum=0, maximum=2),
        "remove": _f("cards", "Ordinary cards taken out of the pack.", []),
        "designated_jokers": _f("cards", "Ordinary cards that act only as jokers (e.g. `[6S]`).", []),
        "per_player": _f("int", "The pack follows the player count: only its top ranks are played, "
                         "this many cards for each player (Romanian Whist: 8, so the 24 cards from nine "
                         "to ace for three players, 32 for four, 48 for six).", None, nullable=True,
                         minimum=1),
        "packs": _f("int", "Packs shuffled together: `2` plays every card twice (Oh Hell for a large "
                    "table on 104 cards). A record writes both copies alike (`QS`); a hand may hold "
                    "a card twice. Not with jokers, wild cards or `per_player`.", 1, minimum=1, maximum=2,
                    example="deck: {pack: 52, packs: 2, identical: first_wins}"),
        "identical": _f("word", "Two identical cards in one trick (two packs): the one played first "
                        "wins (`first_wins`) or the later one (`later_wins`).", "first_wins",
                        choices=("first_wins", "later_wins")),
    }),
    "schedule": _f("schedule", "The deals, in order: items and sets.", None, required=True),
    "kinds": _f("kinds", "Deal kinds other than `normal`, by name.", {}, fields=KIND_FIELDS),
    "trump": _f("section", "How trump is found.", None, fields=TRUMP_FIELDS),
    "dealing": _f("section", "Dealer, cut and rotation.", None, fields={
        "cut_by": _f("word", "Who cuts the pack.", "dealer_right",
                     choices=("dealer_left", "dealer_right")),
        "void_redeal": _f("bool", "A player with no card of some suit may ask for a redeal at their "
                          "first turn to bid or call in a deal, before making it: the same dealer deals "
                          "again and the deal does not count (a record writes `NAME redeal`).", False),
    }),
    "bidding": _f("section", "Bids and the dealer's hook.", None, fields={
        "min": _f("formula", "Lowest bid. It may read `zeros_in_row`, the bidder's own bids of 0 in a "
                  "row in the deals just before (deals it did not bid in left out): no more than five "
                  "zero bids in a row is `zeros_in_row >= 5 ? 1 : 0`.", 0, names=BID_NAMES),
        "max": _f("formula", "Highest bid (it may read `zeros_in_row` too).", "cards", names=BID_NAMES),
        "hook": _f("bool", "The last bidder may not make the bids total the hand size («не "
                   "сходимся»); `false` is «сходимся».", True),
        "total": _f("word", "What the bids may total, as the last bidder sees to it: `differ` from "
                    "the hand size (the hook), `over` it, `under` it, or `any`. With `over` or "
                    "`under`, a last bidder who cannot make it so may bid anything. Unset: as "
                    "`hook` says (`differ` or `any`).", None, nullable=True,
                    choices=("any", "differ", "over", "under")),
        "hook_exempt": _f("formula", "Deals where the hook does not apply (e.g. `cards < 4`).",
                          None, names=DEAL_NAMES, nullable=True),
        "first_bidder": _f("word", "Who bids first.", "eldest",
                           choices=("eldest", "dealer_right", "dealer")),
        "dash_limit": _f("int", "At most this many players may bid 0 (a dash) in a deal, dash calls "
                         "of an auction included; unset: any number.", None, nullable=True, minimum=0),
        "auction": _f("section", "The auction for trump of `bidding: auction` deals.", None,
                      nullable=True, fields={
            "min": _f("formula", "The fewest tricks a call may name (a dash aside).", 1, names=DEAL_NAMES),
            "order": _f("words", "The trumps a call may name, highest first (`S`, `H`, `D`, `C`, "
                        "`none` for no trump): of two calls of as many tricks the one with the higher "
                        "trump wins; of two equal calls, the first made.", ["none", "S", "H", "D", "C"],
                        choices=("S", "H", "D", "C", "none")),
            "dash": _f("bool", "A player may call a dash: no tricks and no trump; the dash is his bid. "
                       "The last caller may not dash when every other player did.", True),
        }),
    }),
    "play": _f("section", "Follow and trump obligations.", None, fields={
        "must_follow": _f("bool", "Follow the led suit when able (so a player holding it may "
                          "not trump).", True),
        "must_trump": _f("bool", "Void in the led suit and holding a trump: must trump. The default, "
                         "`true`, is the rule of most sources the bundled variants follow; most English-language rules "
                         "let a void player discard instead, so a variant written from them says "
                         "`must_trump: false`. Every bundled variant states it; `updown variant show` shows "
                         "it.", True),
        "first_leader": _f("word", "Who leads the first trick: `eldest`, `first_bidder`, "
                           "`first_bidder_left` (the player on the first bidder's left), `dealer`, "
                           "`dealer_right`, `highest_bidder` (who bid the most; of several, the first of "
                           "them in bidding order; eldest in a deal without bids), or "
                           "`last_trick_winner` (whoever won the last trick of the deal before; eldest in "
                           "the first deal).", "eldest",
                           choices=("eldest", "first_bidder", "first_bidder_left", "dealer", "dealer_right",
                                    "highest_bidder", "last_trick_winner")),
        "lead_trump": _f("word", "When a trump may be led: `any` time, `not_first_trick` (not to the "
                         "first trick of a deal), or `when_broken` (only once a trump was played to an "
                         "earlier trick); a leader holding only trumps leads one anyway.", "any",
                         choices=("any", "not_first_trick", "when_broken")),
        "must_overtrump": _f("bool", "A player who plays a trump to a trick a trump already wins must "
                             "play a higher one when able.", False),
    }),
    "jokers": _f("section", "How jokers (real or designated) play.", None, fields=JOKER_FIELDS,
                 nullable=True),
    "special_card": _f("section", "An ordinary card with joker-like powers (the seven of spades).",
                       None, fields=SPECIAL_FIELDS, nullable=True),
    "scoring": _f("section", "Points.", None, required=True, fields={
        "params": _f("params", "Named integer constants the formulas may use.", {}),
        "deal": _f("formula", "Points for one player in one deal.", None, names=SCORE_NAMES,
                   required=True),
        "set_bonus": _f("formula", "Points added to each player at the end of each set.", None,
                        names=SET_BONUS_NAMES, nullable=True),
    }),
    "penalties": _f("section", "Penalties for irregularities.", None, fields={
        "revoke": _f("section", "An illegal card caught at the table.", None, nullable=True, fields={
            "points": _f("int", "Points added to the offender (negative).", -50),
            "replay": _f("bool", "The deal is annulled and dealt again (`then: replay`; false: "
                         "`then: play_on`).", True),
            "then": _f("word", "What becomes of the deal: `replay` (annulled and dealt again), "
                       "`play_on` (the card is taken back and the deal goes on) or `abandon` (the "
                       "deal stops and is scored as the table decides). Unset: as `replay` says.",
                       None, nullable=True, choices=("replay", "play_on", "abandon")),
            "covers": _f("words", "Which refusals count as revoke.", ["R010", "R011", "R012"],
                         choices=("R010", "R011", "R012", "R014", "R016", "R017")),
            "multiplied": _f("bool", "The deal kind's multiplier applies to the penalty.", False),
        }),
    }),
    "end": _f("section", "Early end of the game.", None, fields={
        "stop_loss": _f("int", "«Просчет»: the game ends when a player's loss reaches this many "
                        "points.", None, nullable=True, minimum=1),
        "stop_on": _f("word", "What the stop-loss measures: pairwise `balance` or raw `total`.",
                      "balance", choices=("balance", "total")),
        "stop_check": _f("word", "When the stop-loss is looked at: after every `deal`, or only "
                         "at the end of each `set`.", "deal", choices=("deal", "set")),
        "target": _f("int", "The game ends after the deal in which a player's total reaches this "
                     "many points; the schedule is played again from its start until then.", None,
                     nullable=True, minimum=1),
        "target_exact": _f("bool", "With `target`: the total must reach it exactly (a total "
                           "beyond it does not end the game).", False),
        "tie_break": _f("word", "A tie for the highest total when the game would end: `none` "
                        "(shared), `most_made` (the most bids made among them wins), `most_tricks` "
                        "(the most tricks taken over the game among them wins), or "
                        "`extra_deals` (one more deal at the schedule's largest size, until the "
                        "tie is broken).", "none", choices=("none", "most_made", "most_tricks", "extra_deals")),
        "max_deals": _f("int", "The game ends after this many deals in any case (with `target` "
                        "or `extra_deals`).", 200, minimum=1),
    }),
    "settlement": _f("section", "Turning totals into results.", None, fields={
        "method": _f("word", "`highest` total wins, or `pairwise`: N·S − ΣS, or `places`: each player "
                     "gets the amount of `places` for the place it finishes in.", "highest",
                     choices=("highest", "pairwise", "places")),
        "places": _f("ints", "With `method: places`: the amount for each finishing place, first place "
                     "first, in stakes (a player who pays has a negative amount), one for every player "
                     "the variant allows, e.g. `[3, 1, -1, -3]`. Players tied on their totals share the "
                     "amounts of the places they cover, in equal parts (an odd point to the earlier "
                     "seats).", []),
        "stake": _f("int", "Money per point.", 1, minimum=0),
        "negative_doubles": _f("bool", "A player ending below zero pays double.", False),
        "cap": _f("int", "Largest loss a player pays, in points.", None, nullable=True, minimum=1),
    }),
}
