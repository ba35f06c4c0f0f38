"""Dominated decisions (updown_dsl/players/dominance.py) and the bots that never make them.

A decision is dominated when it misses the bid in every world the seat's view allows while
another legal one keeps a chance. The positions are the one of the issue and ones modelled on
public complaints about the Oh Hell bots of another program (Trickster Cards, whose customers'
reports are filed at https://github.com/TricksterCards/TricksterBots/issues); each names its
source. Every bot at every level is asked the position and must not make the dominated choice.
"""

from __future__ import annotations

import random

import pytest

import updown_dsl as ud
from updown_dsl.engine.worlds import Worlds
from updown_dsl.players.bots import make_bot
from updown_dsl.players.dominance import (Kind, all_worlds, can_make, check, dominated_actions,
                                          keeping_chances, trick_bounds)

BOTS = ["heuristic", "search:1", "search:3"]


def _small(cards: int) -> ud.Variant:
    return ud.loads_variant(f"name: oh-hell-{cards}\nextends: oh-hell\nschedule: [{{cards: {cards}}}]\n",
                            path=f"oh-hell-{cards}.yaml")


OH2, OH3 = _small(2), _small(3)
#: Four players, the twelve cards queen to ace, all dealt: no card to turn, so no trump.
FULL = ud.loads_variant("name: oh-hell-12\nextends: oh-hell\nplayers: {min: 4, max: 4, default: 4}\n"
                        "deck: {pack: 52, per_player: 3}\ntrump: {rule: turned, when_exhausted: no_trump}\n"
                        "schedule: [{cards: 3}]\n", path="oh-hell-12.yaml")


def position(variant: ud.Variant, hands: list[str], actions: list[str], *, turned: str | None = None,
             dealer: int = 3) -> ud.Game:
    """A 4-player deal of ``variant`` with ``hands`` (seat 0 first), after ``actions``."""
    game = ud.Game(variant, 4, auto_deal=False, first_dealer=dealer)
    game.deal_cards([ud.parse_cards(h) for h in hands], turned=ud.Card.parse(turned) if turned else None)
    for a in actions:
        game.apply(a)
    return game


def _choices(view: ud.SeatView, kind: str, times: int = 3) -> set[ud.Action]:
    return {make_bot(kind, random.Random(k)).act(view) for k in range(times)}


# -- the issue: the hooked dealer bids 0 holding the ace of trumps --------------------------

def hooked_dealer() -> ud.Game:
    """The issue's case, and https://github.com/TricksterCards/TricksterBots/issues/59 ("Oh Hell:
    Don't Bid Zero When Holding Ace of Trump": hooked off its bid, the dealer bids zero holding
    the ace of trump; "a human bidder would bid 2"). Three cards, hearts trump (7H turned); the
    dealer (seat 3) holds 3S 5S AH and nobody else a spade; bids 0, 1, 1: the hook forbids 1."""
    return position(OH3, ["KD QD 2C", "JD 9C 4H", "10C 8D 6C", "3S 5S AH"],
                    ["bid 0", "bid 1", "bid 1"], turned="7H")


def test_hooked_dealer_worked():
    game = hooked_dealer()
    view = game.view(3)
    assert view.legal == (ud.Bid(0), ud.Bid(2), ud.Bid(3))
    # the ace of trumps takes a trick whatever anyone plays: 1 to 3 tricks
    assert trick_bounds(view) == (1, 3)
    found = check(view, ud.Bid(0), random.Random(1))
    assert found is not None
    assert (found.action, found.better, found.kind, found.exact) == (ud.Bid(0), ud.Bid(2), Kind.MISSED_BID, False)
    # the witness is a world (the others' hands) in which bidding 2 can be made
    world = Worlds(view).world(found.witness, view.bids)
    world.apply(ud.Bid(2))
    assert can_make(world, 3, 2)
    # in the real deal: after bid 0 the dealer cannot take 0 tricks; 2 it can (throw a spade on
    # a club lead, then the ace and the last spade win); 3 it cannot (seat 1 keeps its 4H, a
    # trump, for one of the spades)
    for bid, target, possible in ((0, 0, False), (2, 2, True), (3, 3, False)):
        g = game.clone()
        g.apply(ud.Bid(bid))
        assert can_make(g, 3, target) is possible
    assert [d.action for d in dominated_actions(view, random.Random(1))] == [ud.Bid(0)]
    assert keeping_chances(view, list(view.legal)) == [ud.Bid(2), ud.Bid(3)]


def test_hooked_dealer_heuristic_bids_two():
    assert _choices(hooked_dealer().view(3), "heuristic") == {ud.Bid(2)}


@pytest.mark.parametrize("kind", BOTS)
def test_hooked_dealer_never_bids_zero(kind):
    assert ud.Bid(0) not in _choices(hooked_dealer().view(3), kind)


def test_top_trumps_are_sure_tricks():
    """Holding the ace and king of trumps, a bid of 1 is a certain miss (found by
    benchmarks/dominated.py: the heuristic bid 1 with KS AS 5H, spades trump)."""
    game = position(OH3, ["KD QD 2C", "JD 9C 4H", "10C 8D 6C", "KS AS 5H"],
                    ["bid 0", "bid 1", "bid 0"], turned="7S")
    view = game.view(3)
    assert trick_bounds(view) == (2, 3)
    assert check(view, ud.Bid(1)).kind is Kind.MISSED_BID  # type: ignore[union-attr]
    for kind in BOTS:
        assert ud.Bid(1) not in _choices(view, kind), kind


# -- every trick needed: a card that cannot take this one ------------------------------------

def all_needed() -> ud.Game:
    """Modelled on https://github.com/TricksterCards/TricksterBots/issues/350 ("Oh Hell: Play high
    when you need all remaining tricks": three cards, bid three, the king, queen and four of
    trumps; the bot plays the four and loses the trick) and on issue #245 ("if you need all the
    remaining tricks, play your highest trump first"). The dealer bid 3 with KH QH 4H (hearts
    trump); clubs led, seat 2 ruffed with the five: the four cannot take the trick."""
    return position(OH3, ["9C AD 3S", "2C 8S JD", "5H 6D 10S", "KH QH 4H"],
                    ["bid 0", "bid 0", "bid 1", "bid 3", "9C", "2C", "5H"], turned="7H")


def test_all_needed_worked():
    view = all_needed().view(3)
    assert trick_bounds(view) == (0, 3)
    assert trick_bounds(view, ud.Play.parse("4H")) == (0, 2)  # this trick is lost
    assert trick_bounds(view, ud.Play.parse("KH")) == (1, 3)  # the last card of the trick takes it
    found = check(view, ud.Play.parse("4H"), random.Random(1))
    assert found is not None and found.kind is Kind.TRICK_GIVEN_AWAY
    assert [d.action for d in dominated_actions(view, random.Random(1))] == [ud.Play.parse("4H")]


@pytest.mark.parametrize("kind", BOTS)
def test_all_needed_never_gives_the_trick_away(kind):
    assert ud.Play.parse("4H") not in _choices(all_needed().view(3), kind)


def two_trumps() -> ud.Game:
    """Modelled on https://github.com/TricksterCards/TricksterBots/issues/217 ("Oh Hell: Improve
    bot play in 2-card round when holding 2 trump": bid two with two trumps, it throws the lower
    one first). Two cards, spades trump; the dealer bid 2 with AS 5S; the jack of spades holds
    the trick: the five cannot take it, the ace takes it."""
    return position(OH2, ["9S 4D", "3S 7C", "JS 8H", "AS 5S"],
                    ["bid 1", "bid 0", "bid 0", "bid 2", "9S", "3S", "JS"], turned="2S")


@pytest.mark.parametrize("kind", BOTS)
def test_two_trumps_play_the_ace(kind):
    view = two_trumps().view(3)
    assert check(view, ud.Play.parse("5S")).kind is Kind.TRICK_GIVEN_AWAY  # type: ignore[union-attr]
    assert check(view, ud.Play.parse("AS")) is None
    assert _choices(view, kind) == {ud.Play.parse("AS")}


# -- the bid made: a card that must take one more -------------------------------------------

def bid_made() -> ud.Game:
    """Modelled on https://github.com/TricksterCards/TricksterBots/issues/142 ("Oh Hell: Improve bot
    play with 2 cards left and holding boss trump": needing no more tricks, the bot trumps in
    where "a human would slough the non-trump card"). Three cards, hearts trump; the dealer bid
    0 and holds KH 7D, void in clubs, last to play to a club trick: the king of trumps would
    take it (one trick over the bid, certain); the seven of diamonds keeps the bid (the ace of
    hearts is out to beat the king later)."""
    return position(OH3, ["AS 9C QD", "3S JC AH", "4S 2C 8D", "KH 7D 5S"],
                    ["bid 1", "bid 1", "bid 0", "bid 0", "AS", "3S", "4S", "5S", "9C", "JC", "2C"],
                    turned="2H")


@pytest.mark.parametrize("kind", BOTS)
def test_bid_made_sloughs(kind):
    view = bid_made().view(3)
    assert check(view, ud.Play.parse("KH")).kind is Kind.TRICK_TAKEN  # type: ignore[union-attr]
    assert _choices(view, kind) == {ud.Play.parse("7D")}


# -- found only by playing every world out -------------------------------------------------

def last_club() -> ud.Game:
    """Twelve cards (queen to ace), all dealt, no trump. Seat 1 bid 1 and holds KD AC; spades led
    by seat 3 (KS, then AS), seat 0 threw KC. Every club but its ace is out, seat 3 will lead
    the last trick and holds no club: the ace cannot win, only the king of diamonds can (when
    seat 3 leads the queen). Throwing the king misses in every one of the 12 worlds; found by
    benchmarks/dominated.py, where the heuristic threw it."""
    return position(FULL, ["QS QD KC", "KD QC AC", "KH AH AD", "KS AS QH"],
                    ["bid 2", "bid 0", "bid 1", "bid 2", "KS", "QS", "QC", "KH", "AS", "KC"], dealer=2)


def test_last_club_exact():
    view = last_club().view(1)
    every = all_worlds(view)
    assert every is not None and len(every) == 12
    assert trick_bounds(view, ud.Play.parse("KD")) == (0, 1)  # the bounds allow the bid
    found = check(view, ud.Play.parse("KD"), random.Random(1))
    assert found is not None
    assert (found.better, found.kind, found.exact) == (ud.Play.parse("AC"), Kind.CERTAIN_MISS, True)
    assert check(view, ud.Play.parse("AC")) is None


@pytest.mark.parametrize("kind", BOTS)
def test_last_club_keeps_the_king(kind):
    assert _choices(last_club().view(1), kind) == {ud.Play.parse("AC")}


def test_out_of_reach_is_not_dominated():
    """When every action misses, none is dominated (nothing keeps a chance)."""
    game = position(OH3, ["KD QD 2C", "JD 9C 4H", "10C 8D 6C", "AS KS QS"],
                    ["bid 0", "bid 0", "bid 0"], turned="7S")
    view = game.view(3)
    assert trick_bounds(view) == (3, 3)
    assert view.legal == (ud.Bid(0), ud.Bid(1), ud.Bid(2))  # the hook forbids 3
    assert dominated_actions(view, random.Random(1)) == []
    assert keeping_chances(view, list(view.legal)) == list(view.legal)
