"""Property tests: random legal play of every bundled variant keeps the books straight.

After every action: each card of the pack is in exactly one place, tricks taken
add up, every scored deal matches the variant's formula recomputed here, the
totals are the sum of the score sheet, and the legal actions are non-empty and
all pass ``check``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from updown_dsl import Bid, ChooseTrump, Game, IllegalAction, Phase, Play, load_variant
from updown_dsl.lang.loader import bundled_names
from updown_dsl.engine import EndKind
from updown_dsl.engine.plan import table_plan
from updown_dsl.engine.scoring import DealResult
from updown_dsl.lang.variant import Variant

VARIANTS: dict[str, Variant] = {name: load_variant(name) for name in bundled_names()}
CASES = [(name, n) for name, v in VARIANTS.items() for n in range(v.min_players, v.max_players + 1)]
IDS = [f"{name}-{n}p" for name, n in CASES]


def deal_env(game: Game, index: int) -> dict[str, int]:
    """The formula names of deal ``index``, computed here from the schedule."""
    d = game.deals[index]
    return {
        "cards": d.cards,
        "players": game.players,
        "deal": d.number,
        "deals": len(game.deals),
        "set": d.set,
        "set_deal": d.set_deal,
        "set_deals": sum(1 for x in game.deals if x.set == d.set),
        "deck": len(game.table.cards),
        **game.variant.scoring.params,
    }


class Books:
    """Follows a game and checks the invariants after each action."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.pack = Counter(game.table.cards)
        copies = game.variant.deck.packs
        assert all(n == copies for n in self.pack.values()), "a card is not in every pack once"
        self.totals_before_deal = list(game.totals)
        self.seen_results = 0
        self.check()

    # -- cards ----------------------------------------------------------------------------
    def check_cards(self) -> None:
        g = self.game
        if g.is_over:
            return
        hands = [c for s in range(g.players) for c in g.hand(s)]
        on_table = [tp.play.card for tp in g.trick]
        finished = [tp.play.card for t in g.tricks for tp in t.plays]
        placed = Counter(hands) + Counter(on_table) + Counter(finished)
        dup = [c for c, n in placed.items() if n > self.pack[c]]
        assert not dup, f"cards in more places than the packs hold them: {dup}"
        stray = [c for c in placed if c not in self.pack]
        assert not stray, f"cards not in the pack: {stray}"
        # blind deals are bid before the cards are dealt
        blind_bidding = g.phase is Phase.BID and g.kind.bidding == "before_deal"
        dealt = 0 if blind_bidding or g.phase is Phase.DEAL else g.deal.cards
        # everything dealt is in a hand, on the table or in a finished trick; the rest is undealt
        assert sum(placed.values()) == g.players * dealt
        undealt = self.pack - placed
        assert sum(undealt.values()) == sum(self.pack.values()) - g.players * dealt
        # each seat: cards held + cards played this deal = hand size
        played_by = Counter(tp.seat for tp in g.trick) + Counter(tp.seat for t in g.tricks for tp in t.plays)
        for s in range(g.players):
            assert len(g.hand(s)) + played_by[s] == dealt, f"seat {s}"
        # a card turned for trump (not the dealer's own last card) was not dealt
        if dealt and g.turned is not None and sum(self.pack.values()) > g.players * dealt:
            assert g.turned in undealt, f"turned card {g.turned} was dealt"
        # tricks: all complete, led by someone, won by someone who played in them
        for t in g.tricks:
            assert len(t.plays) == g.players
            assert t.plays[0].seat == t.leader
            assert t.winner in {tp.seat for tp in t.plays}
            assert sorted(tp.seat for tp in t.plays) == list(range(g.players))
        assert len(g.trick) < g.players

    # -- tricks and scores -----------------------------------------------------------------
    def check_taken(self) -> None:
        g = self.game
        if g.is_over:
            return
        assert sum(g.taken) == len(g.tricks)
        assert len(g.tricks) < g.deal.cards or g.is_over
        won = Counter(t.winner for t in g.tricks)
        assert list(g.taken) == [won[s] for s in range(g.players)]

    def expected_points(self, r: DealResult, index: int) -> list[int]:
        g, v = self.game, self.game.variant
        kind = v.kinds[r.deal.kind]
        formula = kind.score if kind.score is not None else v.scoring.deal
        env = deal_env(g, index)
        made_count = sum(1 for seat in r.seats if seat.bid is None or seat.bid == seat.taken)
        out = []
        for s, seat in enumerate(r.seats):
            b = 0 if seat.bid is None else seat.bid
            e = {**env, "bid": b, "taken": seat.taken, "made": int(seat.bid is None or b == seat.taken),
                 "total": self.totals_before_deal[s], "is_dealer": int(s == r.dealer), "made_count": made_count}
            out.append(formula(e) * kind.multiplier)
        return out

    def expected_bonus(self, index: int) -> list[int] | None:
        g, v = self.game, self.game.variant
        if v.scoring.set_bonus is None:
            return None
        d = g.deals[index]
        in_set = [r for r in g.results if r.deal.set == d.set and not r.annulled]
        env = deal_env(g, index)
        out = []
        for s in range(g.players):
            points = [r.seats[s].points for r in in_set]
            made = sum(1 for r in in_set if r.seats[s].bid is None or r.seats[s].bid == r.seats[s].taken)
            e = {**env, "set_best": max(points), "set_total": sum(points), "set_made": made,
                 "set_all_made": int(made == len(in_set)),
                 "total": self.totals_before_deal[s] + r_points(in_set[-1], s)}
            out.append(v.scoring.set_bonus(e))
        return out

    def check_new_results(self) -> None:
        g = self.game
        while self.seen_results < len(g.results):
            r = g.results[self.seen_results]
            if r.event == "cut":  # the cut rule zeroed a total before the deal
                assert r.reset and all(seat.points == 0 for seat in r.seats)
                for s in r.reset:
                    self.totals_before_deal[s] = 0
                self.seen_results += 1
                continue
            index = r.deal.number - 1
            assert g.deals[index] == r.deal
            assert not r.annulled
            assert len(r.seats) == g.players
            assert sum(seat.taken for seat in r.seats) == r.deal.cards, "tricks taken != hand size"
            assert len(r.tricks) == r.deal.cards
            assert [s.points for s in r.seats] == self.expected_points(r, index), f"deal {r.deal.number}"
            last_of_set = index + 1 == len(g.deals) or g.deals[index + 1].set != r.deal.set
            bonus = self.expected_bonus(index) if last_of_set else None
            assert [s.bonus for s in r.seats] == (bonus if bonus is not None else [0] * g.players)
            assert all(s.penalty == 0 for s in r.seats)
            kind = g.variant.kinds[r.deal.kind]
            for s, seat in enumerate(r.seats):
                if kind.bidding == "none":
                    assert seat.bid is None
                else:
                    assert seat.bid is not None and 0 <= seat.bid <= r.deal.cards
            self.seen_results += 1
            self.totals_before_deal = [t + r.total(s) for s, t in enumerate(self.totals_before_deal)]

    def check_totals(self) -> None:
        g = self.game
        sheet = [0] * g.players
        for r in g.results:
            r.apply_to(sheet)
        assert list(g.totals) == sheet, f"totals {g.totals} but the score sheet adds up to {sheet}"

    def check_actions(self) -> None:
        g = self.game
        if g.is_over:
            assert g.legal_actions() == ()
            return
        actions = g.legal_actions()
        assert actions, f"no legal action in phase {g.phase}"
        assert len(set(actions)) == len(actions), "duplicate legal actions"
        for a in actions:
            assert g.check(a) is None, f"legal action {a} fails check: {g.check(a)}"
        assert 0 <= g.to_act < g.players
        if g.phase is Phase.PLAY:
            assert all(isinstance(a, Play) for a in actions)
            hand = set(g.hand(g.to_act))
            assert all(a.card in hand for a in actions)  # type: ignore[union-attr]
        elif g.phase is Phase.BID:
            assert all(isinstance(a, Bid) for a in actions)
        elif g.phase is Phase.TRUMP:
            assert all(isinstance(a, ChooseTrump) for a in actions)

    def check(self) -> None:
        self.check_cards()
        self.check_taken()
        self.check_new_results()
        self.check_totals()
        self.check_actions()


def r_points(r: DealResult, seat: int) -> int:
    return r.seats[seat].points


def play_checked(name: str, players: int, seed: int) -> Game:
    game = Game(VARIANTS[name], players=players, seed=seed)
    books = Books(game)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(200_000):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        books.check()
    assert game.is_over, "the game did not end"
    if game.over_reason == "schedule complete":
        assert sum(r.event == "deal" for r in game.results) == len(game.deals)
    elif game.end is not None and game.end.kind is EndKind.TIE_BROKEN:
        # a tie at the end of the schedule, played off deal by deal until one player led
        schedule = len(table_plan(game.variant, players).schedule)
        assert game.variant.end.tie_break == "extra_deals" and len(game.winners()) == 1
        assert sum(r.event == "deal" for r in game.results) == len(game.deals) == schedule + game.end.value
    elif game.variant.end.target is not None:
        assert max(game.totals) >= game.variant.end.target
        assert sum(r.event == "deal" for r in game.results) == len(game.deals)
    else:
        assert game.variant.end.stop_loss is not None
        assert 1 <= sum(r.event == "deal" for r in game.results) <= len(game.deals)
    assert len(game.settlement()) == players
    assert game.winners()
    return game


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES, ids=IDS)
def test_random_game_keeps_the_books(name: str, players: int) -> None:
    play_checked(name, players, seed=len(name) * 31 + players)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32 - 1))
def test_random_games_keep_the_books(name: str, data: st.DataObject, seed: int) -> None:
    v = VARIANTS[name]
    players = data.draw(st.integers(v.min_players, v.max_players), label="players")
    play_checked(name, players, seed)


# ------------------------------------------------------------------ illegal cards
def advance(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


def snapshot(game: Game) -> tuple[object, ...]:
    return (game.phase, game.to_act, game.hands, game.trick, tuple(game.tricks), game.bids,
            game.taken, tuple(game.totals), len(game.results), game.deal.number)


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.integers(0, 2**32 - 1), st.integers(0, 400), st.data())
def test_non_legal_card_is_refused(case: tuple[str, int], seed: int, steps: int, data: st.DataObject) -> None:
    name, players = case
    game = Game(VARIANTS[name], players=players, seed=seed)
    rng = random.Random(seed)
    advance(game, rng, steps)
    # move on to a card play
    while not game.is_over and game.phase is not Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    if game.is_over:
        return
    legal = set(game.legal_actions())
    illegal = [Play(c) for c in game.table.cards if Play(c) not in legal]
    assert illegal, "every card of the pack is legal?"
    play = data.draw(st.sampled_from(illegal))
    before = snapshot(game)
    problem = game.check(play)
    assert problem is not None, f"{play} is not among the legal actions but check() accepts it"
    assert problem.code.startswith("R") and problem.code[1:].isdigit(), problem
    if play.card not in game.hand(game.to_act):
        assert problem.code == "R013"
    with pytest.raises(IllegalAction) as info:
        game.apply(play)
    assert info.value.diagnostics[0].code == problem.code
    assert snapshot(game) == before, "a refused action changed the game"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_wrong_phase_and_game_over_are_refused(name: str) -> None:
    v = VARIANTS[name]
    game = Game(v, players=v.default_players, seed=1)
    rng = random.Random(1)
    while game.phase is not Phase.PLAY:
        if game.phase is Phase.BID:
            assert game.check(Play(game.hand(game.to_act)[0])).code == "R002"  # type: ignore[union-attr]
        game.apply(rng.choice(game.legal_actions()))
    problem = game.check(Bid(0))
    assert problem is not None and problem.code == "R002"
    with pytest.raises(IllegalAction):
        game.apply(Bid(0))
    advance(game, rng, 10**6)
    assert game.is_over
    problem = game.check(Bid(0))
    assert problem is not None and problem.code == "R030"
    with pytest.raises(IllegalAction):
        game.apply(Bid(0))
