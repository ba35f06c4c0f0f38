"""Shared helper: a game kept with :class:`~updown_dsl.players.keeper.Keeper` at random (legal
entries), with the table's events and corrections typed at given deals, and the lines a table
types at ``updown keep`` to keep the same game (used by tests/test_tableevents.py and
tests/golden/table_logs.py)."""

from __future__ import annotations

import random
from typing import Mapping, Sequence

import updown_dsl as ud
from updown_dsl.cards import Suit
from updown_dsl.players.keeper import Keeper, Need
from updown_dsl.records.model import seat_of

NAMES = ("Anna", "Boris", "Vera", "Gleb")


def swapped(k: Keeper, number: int) -> str:
    """``edit N took …`` that swaps the tricks of the first two players of deal ``number`` (in
    bidding order) who took a different number: a correction the rules always allow."""
    order = k.order_of(number)
    took = list(k.deals[number - 1].took or ())
    given = [took[s] for s in order]
    i, j = next((i, j) for i in range(len(given)) for j in range(i + 1, len(given)) if given[i] != given[j])
    given[i], given[j] = given[j], given[i]
    return f"edit {number} took " + " ".join(map(str, given))


def command(k: Keeper, text: str) -> str:
    """Do to ``k`` what ``updown keep`` does for a typed table command or ``edit N took …``
    (``edit N swap``: :func:`swapped`); the line typed."""
    words = text.split()
    if words[0] == "edit" and words[2] == "swap":
        text = swapped(k, int(words[1]))
        words = text.split()
    first = words[0]
    if first == "cards":
        k.schedule(int(words[1]))
        return text
    if first == "edit":  # edit N took a b c d (in the order deal N was bid)
        number, order = int(words[1]), k.order_of(int(words[1]))
        by_seat = [0] * k.players
        for seat, n in zip(order, words[3:]):
            by_seat[seat] = int(n)
        k.edit(number, took=by_seat) if words[2] == "took" else k.edit(number, bids=by_seat)
        return text
    seat = seat_of(k.names, words[1])
    assert seat is not None
    if first == "adjust":
        k.adjust(seat, int(words[2]), " ".join(words[3:]))
    else:
        {"out": k.sit_out, "late": k.late, "join": k.join, "leave": k.leave}[first](seat)
    return text


def play_deal(k: Keeper, rng: random.Random, lines: list[str]) -> None:
    """Give the deal in hand at random, writing what the table types."""
    start = len(k.deals)
    while len(k.deals) == start and not k.is_over:
        step = k.step()
        if step.need is Need.TRUMP:
            suit = rng.choice([*Suit, None]) if step.no_trump else rng.choice(list(Suit))
            k.give_trump(suit)
            lines.append("none" if suit is None else suit.value)
        elif step.need is Need.CALL:
            call = rng.choice(k.calls())
            k.give_call(call)
            lines.append("dash" if not call.tricks else
                         f"{call.tricks} {'none' if call.suit is None else call.suit.value}")
        elif step.need is Need.BID:
            bid = rng.choice(step.choices)
            k.give_bid(bid)
            lines.append(str(bid))
        else:
            taken = [0] * k.players
            for _ in range(step.deal.cards):
                taken[rng.choice(step.order)] += 1
            k.give_tricks(taken)
            lines.append(" ".join(str(taken[s]) for s in step.order))


def kept_game(variant: str, seed: int, events: Mapping[int, Sequence[str]] = (),  # type: ignore[assignment]
              names: Sequence[str] = NAMES, stop: int | None = None) -> tuple[list[str], Keeper]:
    """What a table types to keep a random game of ``variant`` with ``events`` (deal number ->
    commands typed before its trump), and the keeper; ``stop``: keep only that many deals."""
    k = Keeper(ud.load_variant(variant), names, label=variant)  # type: ignore[arg-type]
    rng = random.Random(seed)
    lines: list[str] = []
    events = dict(events or {})
    while not k.is_over and (stop is None or len(k.deals) < stop):
        for text in events.get(len(k.deals) + 1, ()):
            lines.append(command(k, text))
        play_deal(k, rng, lines)
    return lines, k
