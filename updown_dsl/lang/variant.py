"""The variant model: immutable values (named tuples) describing one game's rules.

Pure data with compiled formulas; no YAML here. :mod:`updown_dsl.lang.loader` is
the only producer of :class:`Variant` values, and the engine reads nothing
else. Field meanings are documented key by key in ``docs/dsl.md``.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple

from ..cards import Card, Rank, Suit, build_deck

if TYPE_CHECKING:  # formulas are compiled by the loader; no parser needed here
    from .formula import Formula

# Named tuples rather than dataclasses: the fourteen classes of the model are made at
# every start-up, and a dataclass costs ten times as much to make (about 10 ms of a 150 ms
# `updown check`). Values are compared and shown the same way.
_EMPTY: Mapping[str, Any] = MappingProxyType({})


class DeckRules(NamedTuple):
    """Which cards are in play and which of them act as jokers."""

    pack: int
    jokers: int = 0
    remove: tuple[Card, ...] = ()
    designated_jokers: tuple[Card, ...] = ()
    per_player: int | None = None
    """Only the top ranks are dealt from: this many cards for each player
    (:func:`~updown_dsl.lang.schedule.for_players`)."""
    packs: int = 1
    """Packs shuffled together: with 2, every card of the pack is there twice."""
    identical: str = "first_wins"
    """Two identical cards in one trick (two packs): ``first_wins`` or ``later_wins``."""

    def cards(self) -> tuple[Card, ...]:
        """Every card of the pack as dealt from, each copy once (jokers included)."""
        return build_deck(self.pack, jokers=self.jokers, remove=self.remove, packs=self.packs)


class ScheduleItem(NamedTuple):
    """One line of the deal schedule before it is resolved for a player count.

    ``ramp`` items run from ``cards`` to ``ramp_to`` by steps of one; plain
    items deal ``cards`` cards ``times`` times.
    """

    cards: Formula
    times: Formula | None = None
    ramp_to: Formula | None = None
    kind: str = "normal"


class ScheduleSet(NamedTuple):
    """A named group of schedule items (a «пулька»)."""

    items: tuple[ScheduleItem, ...]


class Deal(NamedTuple):
    """One deal of a resolved schedule."""

    number: int
    """1-based position in the game."""
    cards: int
    """Cards dealt to each player (the number of tricks)."""
    kind: str
    """Name of the deal kind (``normal``, ``blind``, ``no-trump`` ...)."""
    set: int = 1
    """1-based set number."""
    set_deal: int = 1
    """1-based position inside the set."""
    kind_deal: int = 1
    """1-based position among the deals of its kind."""


class TrumpRules(NamedTuple):
    """How the trump suit of a deal is found."""

    rule: str = "turned"
    """``turned``, ``random``, ``fixed``, ``cycle``, ``chosen`` or ``none``."""
    suit: Suit | None = None
    """The suit for ``fixed``."""
    when_exhausted: str = "last_dealt"
    """With ``turned`` and no card left: ``last_dealt``, ``no_trump``, ``chosen`` or ``forbid``."""
    joker_turned: str = "no_trump"
    """A joker turned up: ``no_trump`` (only reading in the sources)."""
    random_no_trump: bool = False
    """``random`` may also draw no-trump (a fifth outcome)."""
    chooser: str = "eldest"
    """Who names trump for ``chosen``: ``eldest``, ``dealer`` or ``first_bidder``."""
    choose_after: int = 3
    """How many of their cards the chooser sees first."""
    choose_no_trump: bool = True
    """The chooser may name no-trump."""
    cycle: tuple[Suit | None, ...] = ()
    """``cycle``: the trumps of deals 1, 2, 3 ... in turn (None: no trump)."""
    cycle_by: str = "deal"
    """What ``cycle`` follows: the deal's number (``deal``) or its place among the deals of
    its kind (``kind``: the cycle starts at the kind's first deal)."""

    def cycle_trump(self, deal: Deal) -> Suit | None:
        """The trump of ``deal`` under ``cycle`` (None: no trump), by :attr:`cycle_by`, the
        cycle's first trump at :attr:`cycle_from`."""
        place = deal.kind_deal if self.cycle_by == "kind" else deal.number
        return self.cycle[(place - self.cycle_from) % len(self.cycle)]
    after_bidding: bool = False
    """Trump is known only once everyone has bid (a chosen one is named then)."""
    no_trump_on: tuple[Rank, ...] = ()
    """Ranks of a turned card that make the deal one without trump (picture cards: J, Q, K)."""
    cycle_from: int = 1
    """``cycle``: the deal (number, or place in its kind) that takes the cycle's first trump."""
    super_trump: str = "none"
    """``same_colour``: the card of the turned card's rank in the other suit of its colour beats
    every trump (it still belongs to its suit); ``none``."""


class DealKind(NamedTuple):
    """Rules that differ in some deals (blind, no-trump, minimum ...)."""

    name: str
    bidding: str = "open"
    """``open``, ``before_deal`` (blind), ``sealed``, ``forehead``, ``hidden``, ``auction`` or
    ``none``."""
    trump: TrumpRules | None = None
    """Trump rules for this kind, ``None`` to use the variant's."""
    multiplier: int = 1
    score: Formula | None = None
    hook: bool | None = None


class AuctionRules(NamedTuple):
    """An auction for trump (``bidding: auction`` deals): every player calls once, a number of
    tricks with a trump suit or no trump, or a dash; the highest call names trump and is its
    caller's bid; the others then bid at most the highest call's tricks."""

    min_call: Formula
    """The fewest tricks a call may name (a dash aside)."""
    order: tuple[Suit | None, ...] = (None,)
    """The trumps a call may name, highest first (None: no trump): of two calls of as many
    tricks the one with the higher trump wins; of two equal calls, the first made."""
    dash: bool = True
    """A player may call a dash: no tricks, and no trump named."""


class BiddingRules(NamedTuple):
    """Bid range, order and the dealer's hook («не сходимся»)."""

    min_bid: Formula
    max_bid: Formula
    hook: bool = True
    hook_exempt: Formula | None = None
    """Condition on the deal under which the hook does not apply."""
    first_bidder: str = "eldest"
    """``eldest`` (left of dealer), ``dealer_right`` or ``dealer``."""
    total: str = "differ"
    """What the bids may total, as the last bidder sees to it: ``differ`` from the hand size
    (the hook), ``over``, ``under`` or ``any``; ``hook`` is ``total != "any"``."""
    dash_limit: int | None = None
    """At most this many players may bid (or call) 0 in a deal; None: any number."""
    auction: AuctionRules | None = None
    """The auction of ``bidding: auction`` deals."""


class PlayRules(NamedTuple):
    """Follow and trump obligations."""

    must_follow: bool = True
    must_trump: bool = True
    first_leader: str = "eldest"
    """``eldest``, ``first_bidder``, ``dealer``, ``dealer_right`` or ``last_trick_winner``."""
    lead_trump: str = "any"
    """When a trump may be led: ``any``, ``not_first_trick`` or ``when_broken``."""
    must_overtrump: bool = False


class WildRules(NamedTuple):
    """A joker or a card with joker-like powers (the seven of spades)."""

    cards: tuple[Card, ...]
    ordinary: bool
    """The card may also be played as the ordinary card it is."""
    lead: tuple[str, ...]
    follow: tuple[str, ...]
    exempt: bool
    """Declared plays are exempt from follow and trump obligations."""
    lead_on: str = "any_trick"
    """Declarations that make a demand (``demand``, ``highest``): ``any_trick``,
    ``first_trick`` of the deal, or ``never``."""
    answer: str = "highest_of_suit"
    """What a ``highest`` lead demands: ``highest_rank``, ``highest_trump`` or ``highest_of_suit``."""
    demand_void: str = "any"
    """A player void in a demanded suit: ``any`` card, ``must_trump`` or ``highest_trump``."""
    beaten_by_trump: bool = False
    """A high joker led with a non-trump suit loses to a trump."""
    two_high: str = "later_wins"
    """Two high wild cards in a trick: ``later_wins``, ``first_wins``, or ``by_joker`` (the
    first joker, ``JK``, above the second, whoever plays first)."""
    turned_as_trump: str = "no_trump"
    """Turned up for trump: ``no_trump``, or ``suit`` (its own suit is trump)."""
    impersonate: bool = False
    """The card may be played as any named ordinary card."""
    cut_zeroes_total: bool = False
    """Exposed when the pack is cut: the cutter's total becomes 0."""
    cut_shows: str = "lifted_bottom"
    """Which card the cut exposes: ``lifted_bottom`` or ``remaining_top``."""
    kinds: tuple[str, ...] = ()
    """The deal kinds in which the cards are wild (empty: every deal); in other deals they
    are ordinary cards."""
    copy_wins: bool = False
    """A card played as another (``as``) beats the real card it copies in a trick."""


class RevokeRules(NamedTuple):
    """Penalty for an illegal card caught at the table."""

    points: int
    replay: bool = True
    """The deal is annulled and dealt again (``then == "replay"``)."""
    covers: tuple[str, ...] = ("R010", "R011", "R012")
    multiplied: bool = False
    """Whether the deal kind's multiplier applies to the penalty."""
    then: str = "replay"
    """What becomes of the deal: ``replay``, ``play_on`` (the card is taken back) or
    ``abandon`` (the deal stops and is scored as the table decides)."""


class ScoringRules(NamedTuple):
    """Deal scoring formulas and the set premium."""

    deal: Formula
    set_bonus: Formula | None = None
    params: Mapping[str, int] = _EMPTY


class EndRules(NamedTuple):
    """When the game ends: early («просчет»), at a target score, or after a tie-break."""

    stop_loss: int | None = None
    stop_on: str = "balance"
    """``balance`` (pairwise settlement) or ``total``."""
    stop_check: str = "deal"
    """Look at the stop-loss after every ``deal`` or only at the end of each ``set``."""
    target: int | None = None
    """The game ends after the deal in which a total reaches this (the schedule repeats)."""
    target_exact: bool = False
    tie_break: str = "none"
    """A tie for the highest total at the end: ``none``, ``most_made``, ``most_tricks`` or
    ``extra_deals``."""
    max_deals: int = 200


class SettlementRules(NamedTuple):
    """How final totals turn into results."""

    method: str = "highest"
    """``highest`` total wins, ``pairwise`` (N·S − ΣS), or ``places`` (an amount by finishing place)."""
    stake: int = 1
    negative_doubles: bool = False
    cap: int | None = None
    """Largest loss a player pays, in points (before the stake)."""
    places: tuple[int, ...] = ()
    """``places``: the amount, in stakes, for each finishing place, first place first."""


class Variant(NamedTuple):
    """A complete, validated rule set."""

    name: str
    description: str
    source: str
    min_players: int
    max_players: int
    default_players: int
    deck: DeckRules
    schedule: tuple[ScheduleSet, ...]
    kinds: Mapping[str, DealKind]
    trump: TrumpRules
    bidding: BiddingRules
    play: PlayRules
    wild: tuple[WildRules, ...]
    scoring: ScoringRules
    revoke: RevokeRules | None
    end: EndRules
    settlement: SettlementRules
    cut_by: str = "dealer_right"
    void_redeal: bool = False
    """A player void in a suit may ask for a redeal before their first bid or call."""
    path: str | None = None
    options: Mapping[str, object] = _EMPTY
    """The resolved option tree (for display and hashing)."""


def rules_text(variant: object) -> str:
    """The variant's resolved rules (its option tree, ``extends`` merged) as one line of JSON,
    for a record's ``rules-text`` header: the record can then be checked without the file.
    (``#`` is written escaped, since a record's line ends at a ``#``.)"""
    import json

    variant = getattr(variant, "variant", variant)
    options = dict(getattr(variant, "options", {}))
    options.pop("extends", None)
    text = json.dumps(options, ensure_ascii=False, separators=(",", ":"), sort_keys=True, default=str)
    return text.replace("#", "\\u0023")


def rules_hash(variant: object) -> str:
    """A short hash of the resolved rules (the variant's option tree without its name,
    description and source), written in a record's ``rules`` header.

    Two files that say the same rules in other words (another name, ``extends`` or the keys
    spelled out) have the same hash. A game may be given for its variant.
    """
    import hashlib
    import json

    variant = getattr(variant, "variant", variant)
    options = dict(getattr(variant, "options", {}))
    for label in ("name", "description", "source", "extends"):  # words about the rules, not rules
        options.pop(label, None)
    text = json.dumps(options, sort_keys=True, ensure_ascii=False, default=str)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
