"""The information-set tree search: random play-outs to the end of the deal, the tree's counts,
and decisions with a clear best action."""

from __future__ import annotations

import random

import updown_dsl as ud
from updown_dsl import Card
from updown_dsl.actions import Bid
from updown_dsl.engine import Phase
from updown_dsl.engine.worlds import Worlds, game_at_deal
from updown_dsl.players.bots import HeuristicBot
from updown_dsl.players.search import SearchBot
from updown_dsl.players.tree import Tree, deal_points, random_playout


def _seven_card_deal(hand0: str, seed: int = 9):
    """Deal 7 of oh-hell (seven cards, dealer 3, so seat 0 bids first), spades trump, seat 0
    holding ``hand0`` and the other seats the rest of a shuffled pack."""
    variant = ud.load_variant("oh-hell")
    mine = [Card.parse(c) for c in hand0.split()]
    turned = Card.parse("2S")
    rest = [c for c in _pack() if c not in mine and c != turned]
    random.Random(seed).shuffle(rest)
    game = game_at_deal(variant, 4, 6, 3)
    game.deal_cards([mine, rest[0:7], rest[7:14], rest[14:21]], turned=turned)
    return game


def _pack() -> list[Card]:
    return [Card.parse(r + s) for s in "SHDC" for r in "23456789TJQKA"]


def test_a_random_playout_plays_to_the_end_of_the_deal_and_scores_it() -> None:
    game = game_at_deal(ud.load_variant("oh-hell"), 4, 6, 3, rng=random.Random(2))
    game.deal_random()
    start = len(game.results)
    random_playout(game, random.Random(1))
    assert game.deal_index == 7 and game.phase is Phase.DEAL
    result = game.results[-1]
    assert sum(s.taken for s in result.seats) == 7
    assert deal_points(game, start) == [s.points for s in result.seats]
    assert deal_points(game, len(game.results)) is None


def _walked(game, view, walks: int, seed: int) -> Tree:
    """A tree after ``walks`` walks from ``view``, every walk in the true deal (the real hands)."""
    worlds = Worlds(view)
    tree = Tree()
    rng = random.Random(seed)
    hands = list(game.kernel.hands)
    for _ in range(walks):
        tree.iterate(worlds.world(hands, list(game.bids), rng), rng)
    return tree


def test_the_root_counts_one_visit_per_walk() -> None:
    game = _seven_card_deal("AH KH 3D 4D 5C 9C QS")
    view = game.view(0)
    tree = _walked(game, view, 60, seed=3)
    assert tree.iterations == 60
    assert sum(e[0] for e in tree.root.values()) == 60
    assert set(tree.root) == set(view.legal)  # eight bids, each tried
    assert all(e[2] >= e[0] >= 1 for e in tree.root.values())  # available at least when visited
    assert tree.best(view.legal) in view.legal
    assert tree.lo <= tree.hi


def test_a_wild_card_is_one_choice_at_a_node_then_its_declaration() -> None:
    """Leading with a joker in Georgian, the root has one edge for the joker (keyed by the card)
    whose declarations share its visits, so ten declarations do not get ten shares of the walks."""
    game = game_at_deal(ud.load_variant("georgian"), 4, 8, 3, rng=random.Random(2))
    joker, *jokers = [c for c in game.table.cards if c.is_joker]
    others = [c for c in game.table.cards if not c.is_joker]
    random.Random(5).shuffle(others)
    others = others[:8] + jokers + others[8:]  # the other jokers to seat 1
    game.deal_cards([[joker, *others[:8]], others[8:17], others[17:26], others[26:35]])
    while game.phase is not Phase.PLAY:
        game.apply(game.legal_actions()[0])
    assert game.to_act == 0
    view = game.view(0)
    declared = [a for a in view.legal if getattr(a, "declare", None) is not None]
    assert len(declared) >= 5 and all(a.card == joker for a in declared)
    tree = _walked(game, view, 200, seed=4)
    assert sum(e[0] for e in tree.root.values()) == 200
    assert len(tree.root) == len(view.legal) - len(declared) + 1  # each plain card, and the joker once
    group = tree.root[joker]
    assert set(group[3]) == set(declared) and sum(e[0] for e in group[3].values()) == group[0]
    assert tree.best(view.legal) in view.legal


def _bid(hand0: str, seed: int = 1) -> Bid:
    game = _seven_card_deal(hand0)
    rng = random.Random(seed)
    action = SearchBot(rng, 2, bidder=HeuristicBot(rng)).act(game.view(0))
    assert isinstance(action, Bid)
    return action


def test_seven_top_trumps_bid_seven_and_seven_small_cards_bid_nothing() -> None:
    # Oh Hell scores 10 + the bid for a made bid: seven sure tricks are worth 17 at bid 7.
    assert _bid("AS KS QS JS TS 9S 8S") == Bid(7)
    # No trump and the lowest cards of three suits: no trick can be expected.
    assert _bid("2H 3H 4H 2D 3D 2C 3C") == Bid(0)


def _lead(bid: int) -> Card:
    """Deal 2 of oh-hell: seat 0 holds the ace and the two of hearts and leads (dealer 3); the
    others hold one heart and one club each. Led first, the ace wins and then the two is led
    into hands void of hearts and wins too; led first, the two loses and so does the ace, thrown
    on a club. Each seat bids ``bid``; seat 0's bid is its own (the hook may bar the last one)."""
    variant = ud.load_variant("oh-hell")
    game = game_at_deal(variant, 4, 1, 3)
    deal = ["AH 2H", "KH 3C", "QH 4C", "JH 5C"]
    game.deal_cards([[Card.parse(c) for c in h.split()] for h in deal], turned=Card.parse("2S"))
    game.apply(Bid(bid))
    while game.phase is Phase.BID:
        game.apply(game.legal_actions()[0])
    rng = random.Random(5)
    play = SearchBot(rng, 2, bidder=HeuristicBot(rng)).act(game.view(0))
    return play.card  # type: ignore[union-attr]


def test_with_nothing_bid_it_ducks_and_bidding_both_it_takes_both() -> None:
    assert _lead(0) == Card.parse("2H")
    assert _lead(2) == Card.parse("AH")


def _random_actions(game, rng: random.Random) -> None:
    """The play-out written action by action: what the kernel's random play must equal. In the
    play a card is drawn among the legal ones and the wild cards in hand (in pack order), then
    a wild card's play among its legal ones (none: it is set aside and a card drawn again)."""
    index = game.deal_index
    t = game.table
    while game.deal_index == index and game.phase not in (Phase.OVER, Phase.DEAL):
        legal = game.legal_actions()
        if game.phase is not Phase.PLAY:
            game.apply(legal[int(rng.random() * len(legal))])
            continue
        wild = {c for c in game.hand(game.to_act) if t.wild_of[t.index[c]] is not None}
        cards = sorted({a.card for a in legal} | wild, key=t.index.__getitem__)
        while True:
            card = cards[int(rng.random() * len(cards))]
            options = [a for a in legal if a.card == card]
            if card not in wild:
                assert len(options) == 1
                game.apply(options[0])
                break
            if options:
                game.apply(options[int(rng.random() * len(options))])
                break
            cards.remove(card)


def test_the_kernels_random_play_is_random_legal_cards_one_by_one() -> None:
    for name in ("oh-hell", "russian", "georgian", "nomination-whist"):
        variant = ud.load_variant(name)
        for seed in range(30):
            game = game_at_deal(variant, 4, seed % 5 + 3, seed % 4, rng=random.Random(seed))
            game.deal_random()
            for _ in range(seed % 9):  # from the bidding or part way into the play
                legal = game.legal_actions()
                game.apply(legal[seed % len(legal)])
            a, b = game.clone(), game.clone()
            random_playout(a, random.Random(seed))
            _random_actions(b, random.Random(seed))
            assert a.results[-1] == b.results[-1]
            assert a.kernel.log.order == b.kernel.log.order and a.kernel.log.winners == b.kernel.log.winners
