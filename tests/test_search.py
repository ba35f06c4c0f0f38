"""The search bot: worlds rebuilt from a view, guesses consistent with it, roll-outs, and play
that depends on the seat's view only."""

from __future__ import annotations

import math
import random

import pytest

import updown_dsl as ud
from updown_dsl.engine import Phase
from updown_dsl.engine.worlds import Worlds, game_at_deal
from updown_dsl.players.bots import HeuristicBot, make_bot
from updown_dsl.players.knowledge import Knowledge
from updown_dsl.players.rollout import Rollout
from updown_dsl.players.sampling import Sampler
from updown_dsl.players.search import SearchBot

VARIANTS = ["oh-hell", "georgian", "odessa", "russian", "up-and-down", "blackout", "nomination-whist", "estimation"]


def _positions(name: str, seed: int, every: int = 3):
    """Positions of a game played by random bots (the game, its seat to act), every few decisions."""
    rng = random.Random(seed)
    game = ud.Game(ud.load_variant(name), 4, seed=seed)
    k = 0
    while not game.is_over and k < 150:
        if game.phase in (Phase.PLAY, Phase.BID, Phase.TRUMP, Phase.AUCTION) and k % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))
        k += 1


@pytest.mark.parametrize("name", VARIANTS)
def test_a_world_with_the_true_hands_is_the_game(name: str) -> None:
    for game in _positions(name, 5):
        view = game.view(game.to_act)
        world = Worlds(view).world(list(game.kernel.hands), list(game.bids))
        assert (world.phase, world.to_act, world.deal, world.trump) == (game.phase, game.to_act, game.deal, game.trump)
        assert world.legal_actions() == game.legal_actions()
        assert world.taken == game.taken and world.bids == game.bids
        assert world.view(game.to_act).hand == view.hand


@pytest.mark.parametrize("name", VARIANTS)
def test_guesses_keep_hand_sizes_voids_and_seen_cards(name: str) -> None:
    rng = random.Random(1)
    for game in _positions(name, 6):
        if game.phase is not Phase.PLAY:
            continue
        seat = game.to_act
        view = game.view(seat)
        know = Knowledge(view)
        t = game.table
        seen = t.mask(view.played)
        for _ in range(3):
            hands = Sampler(view, know).sample(rng)
            assert hands[seat] == game.kernel.hands[seat]
            assert [bin(h).count("1") for h in hands] == [bin(h).count("1") for h in game.kernel.hands]
            assert sum(bin(h).count("1") for h in hands) == bin(sum(hands)).count("1")  # disjoint
            assert not any(h & seen for h in hands)
            for s in range(4):
                for suit in know.voids[s]:
                    assert not hands[s] & t.suit_mask[suit]


def test_a_rollout_plays_to_the_end_of_the_deal_and_scores_it() -> None:
    game = game_at_deal(ud.load_variant("oh-hell"), 4, 6, 3, rng=random.Random(2))
    game.deal_random()
    rollout = Rollout(game)
    copy = game.clone()
    points = rollout.run(copy, 1)
    result = copy.results[-1]
    assert copy.deal_index == 7 and copy.phase is Phase.DEAL  # the next deal waits for its cards
    assert sum(s.taken for s in result.seats) == 7
    assert points == result.seats[1].points == result.seats[1].taken + 10 * (result.seats[1].bid == result.seats[1].taken)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_policy_playout_ends_the_deal_it_starts_in(name: str) -> None:
    """The tree's play-out by the roll-out policy, from positions of every phase (bids,
    trump naming, cards; jokers and auctions included): the deal is scored and nothing of
    the next one is played."""
    for game in _positions(name, 8, every=7):
        index, start, deal = game.deal_index, len(game.results), game.deal
        copy = game.clone(rng=random.Random(3))
        Rollout(copy, random.Random(4)).playout(copy)
        scored = [r for r in copy.results[start:] if r.event == "deal"]
        assert len(scored) == 1 and scored[0].deal == deal
        assert sum(s.taken for s in scored[0].seats) == deal.cards
        # (a game with a seed deals the next deal's cards itself; nothing is bid or played)
        assert copy.is_over or (copy.deal_index == index + 1 and all(b is None for b in copy.bids)
                                and not any(copy.taken) and copy.phase is not Phase.PLAY)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_kernels_play_out_by_a_policy_is_its_cards_one_by_one(name: str) -> None:
    """``Game.play_out_by`` plays a plain deal out as applying each card the policy picks
    would, asking only where two or more cards are legal and offering exactly the legal
    cards; with wild cards in the pack, or outside the play, it plays nothing."""
    plain = ud.Game(ud.load_variant(name), 4, seed=1).kernel.rules.plain
    for game in _positions(name, 5, every=4):
        a, b = game.clone(rng=random.Random(2)), game.clone(rng=random.Random(2))
        asked: list[int] = []

        def highest(g, seat: int, legal: int) -> int:
            assert seat == g.to_act and legal == g.kernel.legal() and legal & (legal - 1)
            asked.append(seat)
            return legal.bit_length() - 1  # the last card of the pack's order

        played = a.play_out_by(highest)
        assert played == (plain and game.phase is Phase.PLAY)
        if not played:
            assert a.kernel.log.order == game.kernel.log.order and a.results == game.results
            continue
        index = b.deal_index
        while b.deal_index == index and not b.is_over:
            b.apply(b.legal_actions()[-1])  # (plain plays come in pack order)
        assert a.results == b.results and a.kernel.log.order == b.kernel.log.order and a.kernel.log.winners == b.kernel.log.winners
        assert a.totals == b.totals and a.deal_index == b.deal_index and a.to_act == b.to_act
        # and the roll-out plays a deal out the same through the kernel as card by card
        c, d = game.clone(rng=random.Random(2)), game.clone(rng=random.Random(2))
        policy = Rollout(game, random.Random(0))
        policy.playout(c)
        while d.deal_index == index and not d.is_over:
            d.apply(policy.choose(d))
        assert c.results == d.results and c.kernel.log.order == d.kernel.log.order
    assert plain == (name in ("oh-hell", "up-and-down", "blackout", "nomination-whist", "estimation"))


def _search(seed: int, method: str = "tree") -> SearchBot:
    """A level-1 search; ``method`` "tree", "flat" or "random" (the tree with random play-outs)."""
    rng = random.Random(seed)
    if method == "random":
        return SearchBot(rng, 1, bidder=HeuristicBot(rng), playout="random")
    return SearchBot(rng, 1, bidder=HeuristicBot(rng), method=method)


@pytest.mark.parametrize("method", ["tree", "random", "flat"])
def test_search_depends_only_on_the_view(method: str) -> None:
    """Two deals that look the same from seat 0 (the other hands shuffled among the others,
    the same bids): the same seed makes the same bid and the same lead."""
    variant = ud.load_variant("oh-hell")
    base = game_at_deal(variant, 4, 6, 3, rng=random.Random(9))
    base.deal_random()
    hands = [list(h) for h in base.dealt_hands]
    others = hands[1] + hands[2] + hands[3]
    random.Random(4).shuffle(others)
    swapped = [hands[0], others[0:7], others[7:14], others[14:21]]
    games = []
    for hs in (hands, swapped):
        g = game_at_deal(variant, 4, 6, 3)
        g.deal_cards(hs, turned=base.turned)
        games.append(g)
    moves: list[list[object]] = [[], []]
    for k, g in enumerate(games):
        bot = _search(3, method)
        while g.deal_index == 6 and g.phase is not Phase.DEAL:
            seat = g.to_act
            view = g.view(seat)
            if seat == 0:
                action = bot.act(view)
                moves[k].append(action)
            else:  # the same bids in both deals (the legal bids depend on the bids so far)
                action = view.legal[0]
            g.apply(action)
            if len(moves[k]) == 2:  # the bid and the first card: the others' cards differ later
                break
    assert moves[0] == moves[1]
    assert len(moves[0]) == 2


@pytest.mark.parametrize("method", ["tree", "random", "flat"])
def test_search_is_reproducible_from_its_seed(method: str) -> None:
    game = game_at_deal(ud.load_variant("georgian"), 4, 8, 0, rng=random.Random(5))
    game.deal_random()
    while game.phase is Phase.BID or game.phase is Phase.TRUMP:
        game.apply(HeuristicBot(random.Random(0)).act(game.view(game.to_act)))
    for _ in range(6):
        view = game.view(game.to_act)
        a, b = _search(11, method).act(view), _search(11, method).act(view)
        assert a == b and a in view.legal
        game.apply(a)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["georgian", "odessa", "russian", "up-and-down-online", "boerenbridge"])
def test_search_plays_deals_of_every_kind_legally(name: str) -> None:
    variant = ud.load_variant(name)
    deals = len(game_at_deal(variant, 4, 0, 3).deals)
    for index in {0, deals // 2, deals - 1}:
        game = game_at_deal(variant, 4, index, index % 4, rng=random.Random(index))
        bots = [_search(s, "tree" if s == 0 else "flat") if s % 2 == 0 else HeuristicBot(random.Random(s))
                for s in range(4)]
        while game.deal_index == index and not game.is_over:
            if game.phase is Phase.DEAL:
                game.deal_random()
                continue
            seat = game.to_act
            game.apply(bots[seat].act(game.view(seat)))
        assert any(r.event == "deal" for r in game.results)


def test_search_levels() -> None:
    with pytest.raises(ValueError, match="level"):
        SearchBot(random.Random(0), 9, bidder=HeuristicBot())
    with pytest.raises(ValueError, match="bidder"):
        SearchBot(random.Random(0), 2)
    with pytest.raises(ValueError, match="method"):
        SearchBot(random.Random(0), 2, bidder=HeuristicBot(), method="deep")
    with pytest.raises(ValueError, match="play-outs"):
        SearchBot(random.Random(0), 2, bidder=HeuristicBot(), playout="greedy")
    assert isinstance(make_bot("search"), SearchBot)


@pytest.mark.slow
def test_simulate_with_the_search_bot_on_the_command_line(tmp_path) -> None:
    from typer.testing import CliRunner

    from updown_dsl.cli import app
    from updown_dsl.records.checker import check_games

    rules = tmp_path / "short.yaml"
    rules.write_text("extends: georgian\nname: short\nplayers: {min: 4, max: 4, default: 4}\n"
                     "schedule:\n  - {cards: 3}\n  - {cards: 9}\n")
    result = CliRunner().invoke(app, ["simulate", "--variant", str(rules), "--games", "2", "--seed", "4",
                                      "--bots", "search,heuristic,heuristic,heuristic", "--json",
                                      "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.stdout)
    assert {k["bot"] for k in data["kinds"]} == {"search", "heuristic"}
    for f in sorted((tmp_path / "d").iterdir()):
        (report,) = list(check_games(f, variant_path=[tmp_path]))
        assert report.clean and report.finished, [str(d) for d in report.diagnostics]


def test_search_bots_by_name_with_a_level_and_a_budget() -> None:
    from updown_dsl.players.bots import bot_problem

    bot = make_bot("search:4")
    assert isinstance(bot, SearchBot) and (bot.level, bot.budget) == (4, None)
    bot = make_bot("search:1:0.25")
    assert isinstance(bot, SearchBot) and (bot.level, bot.budget) == (1, 0.25)
    assert make_bot("search").level == 3  # type: ignore[attr-defined]
    assert bot_problem("search:5:2") is None and bot_problem("heuristic") is None
    assert bot_problem("search:9") == "search levels are 1, 2, 3, 4, 5, not '9'"
    assert bot_problem("search:2:fast") == "a search budget is CPU seconds per move (such as 0.5), not 'fast'"
    assert bot_problem("heuristic:2") == "only the search bot takes a level: 'heuristic:2'"
    assert bot_problem("genius").startswith("no bot named 'genius' (bots: random, heuristic, search, search:LEVEL")
    with pytest.raises(ValueError, match="search levels"):
        make_bot("search:0")


def test_a_search_level_on_the_command_line(tmp_path) -> None:
    from typer.testing import CliRunner

    from updown_dsl.cli import app

    bad = CliRunner().invoke(app, ["simulate", "--variant", "oh-hell", "--bots", "search:8,heuristic,heuristic"])
    assert bad.exit_code == 2 and "search levels are 1, 2, 3, 4, 5, not '8'" in bad.output
    bad = CliRunner().invoke(app, ["play", "--variant", "oh-hell", "--bot", "search:2:-1"])
    assert bad.exit_code == 2 and "a search budget is CPU seconds per move" in bad.output


def test_guesses_spread_every_unseen_card_evenly() -> None:
    """With no void shown, each unseen card is as likely in each other hand (chi-square on
    3,000 guesses of a first lead in a 10-card deal: 41 unseen cards, 30 in the other hands, 123
    cells, so a fair sampler stays well under 175)."""
    game = game_at_deal(ud.load_variant("oh-hell"), 4, 9, 3, rng=random.Random(8))
    game.deal_random()
    while game.phase is Phase.BID:
        game.apply(game.legal_actions()[0])
    view = game.view(game.to_act)
    sampler = Sampler(view)
    rng = random.Random(2)
    counts: dict[tuple[int, int], int] = {}
    guesses = 3000
    for _ in range(guesses):
        hands = sampler.sample(rng)
        for s in range(1, 4):
            m = hands[(view.seat + s) % 4]
            while m:
                low = m & -m
                counts[(low.bit_length(), s)] = counts.get((low.bit_length(), s), 0) + 1
                m ^= low
    cards = {c for c, _ in counts}
    dealt_share = 30 / len(cards)  # the three other hands hold 30 of the unseen cards, 11 stay in the pack
    expected = guesses * dealt_share / 3
    chi2 = sum((counts.get((c, s), 0) - expected) ** 2 / expected for c in cards for s in range(1, 4))
    assert len(cards) == 41 and chi2 < 175


def _position_with_a_void(seed: int):  # type: ignore[no-untyped-def]
    """A position of a 10-card Oh Hell deal, heuristic play, once another seat has shown a void."""
    game = game_at_deal(ud.load_variant("oh-hell"), 4, 9, 0, rng=random.Random(seed))
    game.deal_random()
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    while game.phase is not Phase.OVER:
        view = game.view(game.to_act)
        know = Knowledge(view)
        if view.phase is Phase.PLAY and any(know.voids[s] for s in range(4) if s != view.seat):
            return view
        game.apply(bots[game.to_act].act(view))
    raise AssertionError("no void shown")  # pragma: no cover


def test_guesses_keep_voids_and_deal_the_first_seat_evenly() -> None:
    """Where a seat has shown a void, no guess gives it that suit, and the most constrained seat
    (dealt first) holds each card it may hold equally often (chi-square over 3,000 guesses)."""
    view = _position_with_a_void(4)
    sampler = Sampler(view)
    assert not sampler.free
    first = sampler.order[0]
    allowed = sampler.pool & sampler.allowed[first]
    rng = random.Random(3)
    counts: dict[int, int] = {}
    guesses = 3000
    know = Knowledge(view)
    voids = know.voids
    for _ in range(guesses):
        hands = sampler.sample(rng)
        for s in range(4):
            for suit in voids[s]:
                assert not hands[s] & know.t.suit_mask[suit]
        m = hands[first] & ~sampler.known[first]
        assert m & ~allowed == 0
        while m:
            low = m & -m
            counts[low] = counts.get(low, 0) + 1
            m ^= low
    cells = bin(allowed).count("1")
    expected = guesses * sampler.need[first] / cells
    chi2 = sum((counts.get(b, 0) - expected) ** 2 / expected for b in _bit_list(allowed))
    # cells - 1 degrees of freedom: the 0.1 % point is under 2 * cells + 10 for these sizes.
    assert cells > 5 and chi2 < 2 * cells + 10


def _bit_list(mask: int) -> list[int]:
    out = []
    while mask:
        out.append(mask & -mask)
        mask &= mask - 1
    return out


def _position_with_two_voids(seed: int):  # type: ignore[no-untyped-def]
    """A position of a 7-card Oh Hell deal (24 cards stay in the pack), random play, once two
    other seats still holding cards have shown voids in different suits."""
    variant = ud.loads_variant("extends: oh-hell\nname: oh-hell-7\nschedule:\n  - {cards: 7}\n")
    rng = random.Random(seed)
    while True:
        game = ud.Game(variant, 4, rng=rng)
        while game.phase is not Phase.OVER:
            view = game.view(game.to_act)
            if view.phase is Phase.PLAY and len(view.hand) >= 4:
                know = Knowledge(view)
                void = [s for s in range(4) if s != view.seat and know.voids[s]]
                if len(void) == 2 and know.voids[void[0]] != know.voids[void[1]]:
                    return view
            game.apply(rng.choice(game.legal_actions()))


def _suit_means(view, hands_stream, n: int) -> dict[tuple[int, int], float]:  # type: ignore[no-untyped-def]
    t = Knowledge(view).t
    sums: dict[tuple[int, int], float] = {}
    for _ in range(n):
        hands = next(hands_stream)
        for s in range(4):
            if s != view.seat:
                for suit in range(4):
                    sums[(s, suit)] = sums.get((s, suit), 0) + bin(hands[s] & t.suit_mask[suit]).count("1")
    return {k: v / n for k, v in sums.items()}


@pytest.mark.slow
def test_guesses_follow_the_deals_that_fit_when_two_seats_are_void() -> None:
    """With two seats void in different suits, the search's guesses hold each suit in each hand
    as often as a deal drawn at random and kept only if it fits the voids (within 0.12 a hand;
    a sampler that hands the cards one seat passed over to the next seat is 0.3 to 1.3 out)."""
    from updown_dsl.players.search import _Setting

    view = _position_with_two_voids(11)
    sampler = Sampler(view)
    bot = SearchBot(random.Random(5), bidder=HeuristicBot(random.Random(5)))
    stream = (h for h, _ in bot._guesses(view, _Setting(view, bot._rollout_for), reject=False))
    guesses = _suit_means(view, stream, 4000)

    rng = random.Random(6)
    pool = _bit_list(sampler.pool)

    def fitting():  # type: ignore[no-untyped-def]
        while True:
            rng.shuffle(pool)
            hands, j = list(sampler.known), 0
            for s in range(4):
                took = sum(pool[j:j + sampler.need[s]])
                j += sampler.need[s]
                if took & ~sampler.allowed[s]:
                    break
                hands[s] |= took
            else:
                yield hands

    exact = _suit_means(view, fitting(), 4000)
    assert max(abs(guesses[k] - exact[k]) for k in exact) < 0.12


def _first_play_after_bids(name: str, seed: int, cards: int):  # type: ignore[no-untyped-def]
    """The view of the first card of the first deal of ``cards`` cards, every seat bidding as the
    heuristic bot bids."""
    game = ud.Game(ud.load_variant(name), 4, seed=seed)
    bots = [HeuristicBot(random.Random(seed + i)) for i in range(4)]
    while not (game.phase is Phase.PLAY and game.deal.cards == cards):
        game.apply(bots[game.to_act].act(game.view(game.to_act)))
    return game.view(game.to_act)


def test_a_narrower_spread_keeps_guesses_closer_to_the_bids() -> None:
    """Guesses are kept with the chance that each bidder's counted hand fits its bid: the
    narrower the bids' spread, the closer the kept guesses' counts come to the bids."""
    from updown_dsl.players.search import _Setting

    view = _first_play_after_bids("oh-hell", 3, 7)
    misses = []
    for spread, reject in ((0.9, False), (1.5, True), (0.9, True), (0.5, True)):
        bot = SearchBot(random.Random(2), bidder=HeuristicBot(random.Random(2)), bid_spread=spread)
        setting = _Setting(view, bot._rollout_for, spread)
        assert len(setting.shown) == 3
        stream = bot._guesses(view, setting, reject=reject)
        fits = [setting.fit(next(stream)[0]) for _ in range(600)]  # type: ignore[index]
        # fit = exp(-miss / (2 spread^2)): the mean squared miss of the guesses kept
        misses.append(sum(-2 * spread * spread * math.log(f) for f in fits) / len(fits))
    unweighed, wide, calibrated, narrow = misses
    assert unweighed > wide > calibrated > narrow
    assert narrow < unweighed / 2


def test_the_bids_spread_must_be_above_zero() -> None:
    with pytest.raises(ValueError, match="spread"):
        SearchBot(random.Random(1), bidder=HeuristicBot(random.Random(1)), bid_spread=0)
