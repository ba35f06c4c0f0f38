"""The rule book's sections on jokers and special cards (:mod:`.rulebook`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..i18n import mark, ntr, tr
from .rulewords import card_name, card_names, suit_name

if TYPE_CHECKING:  # pragma: no cover
    from .bookmodel import Section
    from .variant import Variant, WildRules

_LEADS = {
    "demand": mark("lead it as `demand` and a suit: every other player must play their highest card of "
                   "that suit; the card is high. [R014]"),
    "high": mark("lead it as `high` and a suit: the others follow that suit as usual; the card is high."),
    "takes": mark("lead it as `takes` and a suit: it is the lowest card of that suit; the highest card of "
                  "the suit, or a trump, wins; if nobody plays the suit or a trump, it wins."),
    "highest": mark("lead it as `highest`: every other player must play {answer}, and the leader takes "
                    "the trick. [R014]"),
    "free": mark("lead it as `free`: any card may follow; the card is high."),
    "open": mark("lead it as `open`: the next card played sets the suit; the card is high."),
}
_ANSWERS = {
    "highest_rank": mark("a card of the highest rank they hold, in any suit"),
    "highest_trump": mark("their highest trump, or without one a card of their highest rank"),
    "highest_of_suit": mark("their highest card of {suit}, or without one any card"),
}
_VOID = {
    "any": mark("A player without the demanded suit may play any card."),
    "must_trump": mark("A player without the demanded suit must play a trump if they can, else any card."),
    "highest_trump": mark("A player without the demanded suit must play their highest trump if they can, "
                          "else any card."),
}
_FOLLOWS = {
    "high": mark("follow with it as `high`: it wins the trick"),
    "low": mark("follow with it as `low`: it cannot win the trick"),
}


def _wild(v: Variant, w: WildRules) -> Section:
    from .bookmodel import Bullets, Item, Section

    one = card_name(w.cards[0]) if len(w.cards) == 1 else card_names(w.cards)
    items: list[Item] = []
    if w.ordinary:
        title = tr("The special card: {card}", card=one) if len(w.cards) == 1 else tr("The special cards: {cards}",
                                                                                      cards=one)
        items.append(Item(tr("Played plainly, {card} is an ordinary card; with a declaration it has the powers "
                             "below.", card=one) if len(w.cards) == 1 else
                          tr("Played plainly, {cards} are ordinary cards; with a declaration each has the powers "
                             "below.", cards=one)))
        if w.kinds:
            items.append(Item(tr("These powers hold only in the deals of kind {kinds}; in every other deal the "
                                 "cards are ordinary cards.", kinds=", ".join(f"`{k}`" for k in w.kinds))))
    else:
        title = tr("Jokers")
        if all(c.is_joker for c in w.cards):
            one = ntr("the joker", "the {n} jokers", len(w.cards))
        items.append(Item(ntr("{cards} is the joker: it has no suit of its own and is always played with a "
                              "declaration.", "{cards} are the jokers: they have no suit of their own and are "
                              "always played with a declaration.", len(w.cards), cards=_cap(one))))
    ways: list[Item] = []
    for lead in w.lead:
        suit = w.cards[0].suit if w.ordinary else None
        answer = tr(_ANSWERS[w.answer], suit=suit_name(suit)) if lead == "highest" else ""
        ways.append(Item(tr(_LEADS[lead], answer=answer) if lead == "highest" else tr(_LEADS[lead])))
    ways.extend(Item(tr(_FOLLOWS[f])) for f in w.follow)
    if w.impersonate:
        ways.append(Item(tr("play it as any ordinary card named (`as QH`).")))
    named: list[Item] = []
    if w.impersonate:
        if not w.exempt:
            named.append(Item(tr("Named as a card, it follows suit and trumps as that card would. [R010, R011]")))
        named.append(Item(tr("Named as a card that is played to the same trick, the copy beats the real card.")
                          if w.copy_wins else
                          tr("Named as a card that is played to the same trick, the first of the two played wins.")))
    if ways:
        items.append(Item(tr("The holder may:"), tuple(ways)))
    if "demand" in w.lead:
        items.append(Item(tr(_VOID[w.demand_void])))
    if {"demand", "highest"} & set(w.lead):
        if w.lead_on == "first_trick":
            items.append(Item(tr("A demanding lead (`demand`, `highest`) is allowed only on the first trick of "
                                 "a deal. [R015]")))
        elif w.lead_on == "never":
            items.append(Item(tr("A demanding lead (`demand`, `highest`) is never allowed. [R015]")))
        else:
            items.append(Item(tr("A demanding lead may open any trick.")))
    if w.lead or w.follow:
        items.append(Item(tr("A declared play is exempt from following suit and trumping: it may be made even "
                             "when the player could follow or trump.") if w.exempt else
                          tr("A declared play obeys following suit and trumping like any other card. [R010, R011]")))
    if any(x in ("demand", "high", "free", "open") for x in w.lead) or "high" in w.follow:
        items.append(Item(tr("A high card led with a suit that is not trump loses to a trump played on it.")
                          if w.beaten_by_trump else tr("A high card wins the trick, even against trumps.")))
    items.extend(named)
    if len(w.cards) > 1 and (any(x in ("demand", "high", "free", "open") for x in w.lead) or "high" in w.follow):
        items.append(Item(tr("Of two high ones in a trick, the later wins.") if w.two_high == "later_wins"
                          else tr("Of two high ones in a trick, the first joker (JK) beats the second (JK2), "
                                  "whoever plays first.") if w.two_high == "by_joker"
                          else tr("Of two high ones in a trick, the first wins.")))
    if w.ordinary:
        items.append(Item(tr("Turned up for trump, it makes its suit trump.") if w.turned_as_trump == "suit"
                          else tr("Turned up for trump, it makes the deal one without trump.")))
        if w.cut_zeroes_total:
            where = (tr("the bottom card of the lifted packet") if w.cut_shows == "lifted_bottom"
                     else tr("the top card of the packet left on the table"))
            items.append(Item(tr("Before each deal the pack is cut: if the card the cut shows ({where}) is "
                                 "{card}, the cutter's total becomes 0.", where=where, card=one)))
    items.append(Item(tr("Only the declarations above may be made. [R015]")))
    return Section("special" if w.ordinary else "jokers", title, (Bullets(tuple(items)),))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def wild_sections(v: Variant) -> list[Section]:
    """A section for the jokers and one for each special card (none without them)."""
    return [_wild(v, w) for w in v.wild]
