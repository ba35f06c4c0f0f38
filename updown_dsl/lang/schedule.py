"""Resolve a variant's deal schedule for a number of players."""

from __future__ import annotations

from ..cards import build_deck
from ..diagnostics import UpdownError
from .variant import Deal, Variant


def deck_size(variant: Variant) -> int:
    """Number of cards in the variant's pack (jokers included)."""
    d = variant.deck
    return len(build_deck(d.pack, jokers=d.jokers, remove=d.remove))


#: A schedule longer than this is a mistake, not a game (and would exhaust memory).
MAX_DEALS = 1000


def resolve_schedule(variant: Variant, players: int) -> tuple[Deal, ...]:
    """The deals of a whole game for ``players`` players, in order.

    :raises ValueError: when a formula gives an unusable number.
    """
    size = deck_size(variant)
    env = {"players": players, "deck": size, "max_cards": size // players}
    deals: list[Deal] = []
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
                deals.append(Deal(len(deals) + 1, cards, item.kind, set_number, in_set))
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


def schedule_problems(variant: Variant, players: int) -> list[str]:
    """Plain-language reasons why the schedule cannot be played, if any."""
    try:
        deals = resolve_schedule(variant, players)
    except (ValueError, ArithmeticError, UpdownError) as exc:
        if isinstance(exc, UpdownError):
            return [exc.diagnostics[0].message]
        return [str(exc)]
    size = deck_size(variant)
    problems: list[str] = []
    if not deals:
        problems.append("the schedule has no deals")
    for deal in deals:
        if deal.cards < 1:
            problems.append(f"deal {deal.number} would give {deal.cards} cards")
        elif deal.cards * players > size:
            problems.append(
                f"deal {deal.number} needs {deal.cards * players} cards but the pack has {size}"
            )
        else:
            kind = variant.kinds.get(deal.kind)
            trump = kind.trump if kind is not None and kind.trump is not None else variant.trump
            if (
                trump.rule == "turned"
                and trump.when_exhausted == "forbid"
                and deal.cards * players == size
            ):
                problems.append(f"deal {deal.number} leaves no card to turn for trump")
    return problems
