"""The research interfaces: the action space and observation encoding (no optional package),
the PettingZoo environment and the OpenSpiel game (skipped without pettingzoo / open_spiel)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from types import ModuleType

import pytest

import updown_dsl as ud
from updown_dsl.research.space import ActionSpace, Observation

REQUIRED = os.environ.get("UPDOWN_RESEARCH_TESTS") == "required"  # set by .ci/run: fail, do not skip


def need(module: str) -> ModuleType:
    """``module``, or a skip (a failure where the research extra must be installed, as in CI)."""
    try:
        return __import__(module)
    except ImportError:
        pass
    if REQUIRED:
        pytest.fail(f'{module} is missing: pip install "updown-dsl[research]" '
                    "(UPDOWN_RESEARCH_TESTS=required)", pytrace=False)
    pytest.skip(f"{module} is not installed")


def nonzero(obs: Observation, vec: list[float]) -> dict[str, dict[int, float]]:
    """Each block's nonzero entries, by offset within the block."""
    return {b.name: {i - b.offset: vec[i] for i in range(b.offset, b.offset + b.size) if vec[i]}
            for b in obs.blocks}


def test_research_is_not_imported_by_the_package() -> None:
    code = "import sys, updown_dsl; print([m for m in sys.modules if m.startswith('updown_dsl.research')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_oh_hell_action_space_layout() -> None:
    space = ActionSpace(ud.load_variant("oh-hell"), 4)
    # bids 0..12 (the longest deal has 12 cards), 5 trump choices, 52 cards, no declarations
    assert (space.size, space.trump_base, space.card_base, space.decl_base) == (70, 13, 18, 70)
    assert space.actions[0] == ud.Bid(0) and space.actions[12] == ud.Bid(12)
    assert space.actions[17] == ud.ChooseTrump(None)
    assert str(space.actions[18]) == "2S" and str(space.actions[69]) == "AC"


def test_georgian_declarations_are_actions() -> None:
    space = ActionSpace(ud.load_variant("georgian"), 4)
    decls = [str(a) for a in space.actions[space.decl_base:]]
    assert space.size == 71 and len(decls) == 20
    assert decls[:4] == ["JK demand S", "JK demand H", "JK demand D", "JK demand C"]
    assert decls[8:10] == ["JK high", "JK low"]


@pytest.mark.parametrize("name", ud.bundled_names())
def test_every_legal_action_has_a_number(name: str) -> None:
    variant = ud.load_variant(name)
    n = variant.default_players
    space = ActionSpace(variant, n)
    obs = Observation(variant, n, space)
    rnd = random.Random(3)
    game = ud.Game(variant, n, seed=3)
    while not game.is_over:
        ids = space.legal_ids(game)
        assert sorted(ids) == sorted(space.index[a] for a in game.legal_actions())
        assert len(obs.vector(game, game.to_act)) == obs.size
        game.apply(space.actions[rnd.choice(ids)])


def test_golden_observation_oh_hell() -> None:
    """Oh Hell, 4 players, seed 7, deal 1 (one card each, trump spades, 5S turned): what
    seat 1 (holding JS) sees when seat 0 is to lead, and after seat 0 leads 9H."""
    variant = ud.load_variant("oh-hell")
    obs = Observation(variant, 4)
    game = ud.Game(variant, 4, seed=7)
    for bid in ("1", "0", "1", "0"):
        game.apply(bid)
    before = nonzero(obs, obs.vector(game, 1))
    assert obs.size == 511
    assert before == {
        "phase": {4: 1}, "hand": {9: 1}, "played": {}, "trick": {}, "leader": {3: 1}, "trump": {0: 1},
        "turned": {3: 1}, "bids": {0: 1, 15: 1, 28: 1, 43: 1}, "taken": {0: 1, 13: 1, 26: 1, 39: 1},
        "lead_mode": {8: 1}, "led": {4: 1}, "dealer": {2: 1}, "cards": {0: 1 / 12}, "kind": {0: 1},
        "totals": {},
    }
    game.apply("9H")
    after = nonzero(obs, obs.vector(game, 1))
    # 9H is card 20 (hearts follow the 13 spades); seat 0 is relative seat 3: trick row 3
    assert after["played"] == {20: 1} and after["trick"] == {3 * 52 + 20: 1} and after["led"] == {1: 1}


def test_spec_is_data() -> None:
    obs = Observation(ud.load_variant("georgian"), 4)
    spec = obs.spec()
    assert [b["name"] for b in spec][:4] == ["phase", "hand", "played", "trick"]
    assert sum(int(b["size"]) for b in spec) == obs.size  # type: ignore[call-overload]
    assert all(spec[i]["offset"] == int(spec[i - 1]["offset"]) + int(spec[i - 1]["size"])  # type: ignore[call-overload]
               for i in range(1, len(spec)))


# ---------------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize("kwargs", [
    {"variant": "oh-hell", "episode": "deal", "start_deal": 6},
    {"variant": "georgian", "episode": "game"},
    {"variant": "estimation"},
    {"variant": "odessa", "episode": "game", "reward": "settlement"},
])
def test_pettingzoo_api(kwargs: dict[str, object]) -> None:
    need("pettingzoo")
    from pettingzoo.test import api_test

    from updown_dsl.research.env import UpdownEnv

    api_test(UpdownEnv(**kwargs), num_cycles=300)  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs", [
    {"variant": "oh-hell", "reward": "tricks", "start_deal": 5},
    {"variant": "georgian", "episode": "game", "reward": "tricks"},
    {"variant": "odessa", "opponents": {1: "heuristic", 2: "random", 3: "random"}},
    {"variant": "oh-hell", "episode": "game", "opponents": {0: "random", 2: "heuristic"}, "reward": "tricks"},
])
def test_pettingzoo_api_with_tricks_rewards_and_bots(kwargs: dict[str, object]) -> None:
    need("pettingzoo")
    from pettingzoo.test import api_test

    from updown_dsl.research.env import UpdownEnv

    api_test(UpdownEnv(**kwargs), num_cycles=300)  # type: ignore[arg-type]


def test_trick_rewards_are_the_tricks_taken_and_bots_play_their_seats() -> None:
    need("pettingzoo")
    from updown_dsl.research.env import UpdownEnv

    env = UpdownEnv("oh-hell", 4, episode="deal", start_deal=4, reward="tricks",
                    opponents={1: "heuristic", 3: "random"})
    assert env.possible_agents == ["player_0", "player_2"]
    env.reset(seed=3)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert env.game is not None and agent == f"player_{env.game.to_act}"  # (the bots played the rest)
        env.step(int(obs["action_mask"].nonzero()[0][0]))
    assert env.game is not None
    seats = env.game.results[-1].seats
    assert [total[a] for a in env.possible_agents] == [seats[0].taken, seats[2].taken]
    assert sum(s.taken for s in seats) == env.game.results[-1].deal.cards


def test_opponents_are_checked() -> None:
    need("pettingzoo")
    from updown_dsl.research.env import UpdownEnv

    with pytest.raises(ValueError):
        UpdownEnv("oh-hell", 4, opponents={0: "random", 1: "random", 2: "random", 3: "random"})
    with pytest.raises(ValueError):
        UpdownEnv("oh-hell", 4, opponents={1: "nobody"})


@pytest.mark.parametrize("name", ud.bundled_names())
def test_pettingzoo_api_every_variant(name: str) -> None:
    # PettingZoo's own API test on one deal of every bundled variant (its first deal, with the
    # default players): observation and mask shapes, agent order, rewards, seeding.
    need("pettingzoo")
    from pettingzoo.test import api_test

    from updown_dsl.research.env import UpdownEnv

    api_test(UpdownEnv(name, episode="deal"), num_cycles=200)


def play_env_deal(seed: int) -> tuple[list[float], list[int]]:
    from updown_dsl.research.env import UpdownEnv

    env = UpdownEnv("oh-hell", 4, episode="deal", start_deal=2)
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.possible_agents}
    actions = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        action = int(obs["action_mask"].nonzero()[0][0])
        actions.append(action)
        env.step(action)
    assert env.game is not None
    assert [total[a] for a in env.possible_agents] == [env.game.results[-1].total(s) for s in range(4)]
    return [total[a] for a in env.possible_agents], actions


def test_pettingzoo_rewards_are_the_deal_points_and_seeds_repeat() -> None:
    need("pettingzoo")
    first = play_env_deal(11)
    assert first == play_env_deal(11)
    assert len(first[1]) == 4 + 4 * 3  # 4 bids, 12 cards: the deal of 3 cards


@pytest.mark.parametrize("reward", ["points", "total"])
def test_pettingzoo_whole_game_rewards_add_up_to_totals(reward: str) -> None:
    need("pettingzoo")
    from updown_dsl.research.env import UpdownEnv

    env = UpdownEnv("odessa", 4, episode="game", reward=reward)
    env.reset(seed=5)
    total = {a: 0.0 for a in env.possible_agents}
    rnd = random.Random(5)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if reward and env.reward_kind == "total":
            assert term
        if term or trunc:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(rnd.choice(list(legal))))
    assert env.game is not None and env.game.is_over
    assert tuple(total[a] for a in env.possible_agents) == env.game.totals


# ---------------------------------------------------------------------- OpenSpiel
@pytest.mark.parametrize("name", ud.bundled_names())
def test_openspiel_random_simulation(name: str) -> None:
    pyspiel = need("pyspiel")
    import updown_dsl.research.spiel  # noqa: F401

    game = pyspiel.load_game("python_updown", {"variant": name, "deals": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_returns_are_the_game_totals() -> None:
    pyspiel = need("pyspiel")
    import updown_dsl.research.spiel  # noqa: F401

    game = pyspiel.load_game("python_updown", {"variant": "odessa", "players": 3})
    state = game.new_initial_state()
    rnd = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    assert tuple(int(r) for r in state.returns()) == state.game.totals
    copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert copy.returns() == state.returns() and copy.history() == state.history()


def test_openspiel_ismcts_plays() -> None:
    need("pyspiel")
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import updown_dsl.research.spiel  # noqa: F401

    game = pyspiel.load_game("python_updown", {"variant": "georgian", "deals": 1, "start_deal": 2})
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 20,
                           random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rnd = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    assert len(state.returns()) == 4


def test_openspiel_resample_keeps_what_the_player_knows() -> None:
    pyspiel = need("pyspiel")
    import updown_dsl.research.spiel  # noqa: F401

    game = pyspiel.load_game("python_updown", {"variant": "oh-hell", "deals": 1, "start_deal": 4})
    state = game.new_initial_state()
    rnd = random.Random(4)
    while state.is_chance_node() or len(state.game.kernel.order) < 3:
        if state.is_chance_node():
            state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.game.hand(seat) == state.game.hand(seat)
    assert other.legal_actions() == state.legal_actions()


def resample_checks(name: str, seed: int, deals: int = 2) -> tuple[int, int]:
    """Play ``name`` at random; at every decision resample the acting seat's world 3 times and
    check it is a world the seat cannot tell from the true one. Returns (samples, samples whose
    other hands are the true ones)."""
    pyspiel = need("pyspiel")
    import updown_dsl.research.spiel  # noqa: F401

    game = pyspiel.load_game("python_updown", {"variant": name, "deals": deals})
    state = game.new_initial_state()
    rnd = random.Random(seed)
    samples = same = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rnd.choice(state.chance_outcomes())[0])
            continue
        p = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(p, rnd.random)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.legal_actions() == state.legal_actions()
            assert other.game.view(p).hand == state.game.view(p).hand  # the cards it sees
            samples += 1
            same += other.game.hands == state.game.hands
        state.apply_action(rnd.choice(state.legal_actions()))
    return samples, same


@pytest.mark.parametrize("name", ["oh-hell", "georgian", "odessa", "russian", "boerenbridge", "estimation"])
def test_openspiel_resample_is_consistent_and_not_the_truth(name: str) -> None:
    """Every resampled world keeps what the seat has seen (its information state, its legal
    actions, its hand; the voids and demands shown, or the replay would not take the plays),
    and the unseen hands are guessed: the true ones come back only when little is left unseen
    (late in a deal), never as a fallback."""
    samples, same = resample_checks(name, 5)
    assert samples > 30
    assert same < samples / 2


def test_openspiel_information_state_shows_only_the_cards_the_seat_sees() -> None:
    """Georgian's trump is named from the first three cards of the chooser's nine: its
    information state then lists those three, none of the six it has not seen (nor anyone
    else's); after the choice, all nine. Odessa's last deal is bid blind: no own card."""
    pyspiel = need("pyspiel")
    import updown_dsl.research.spiel  # noqa: F401

    variant = ud.load_variant("georgian")
    last = len(list(ud.Game(variant, 4, seed=0).deals)) - 1
    game = pyspiel.load_game("python_updown", {"variant": "georgian", "deals": 1, "start_deal": last})
    state = game.new_initial_state()
    rnd = random.Random(2)
    while state.is_chance_node():
        state.apply_action(rnd.choice(state.chance_outcomes())[0])
    chooser = state.current_player()
    assert state.game.phase is ud.Phase.TRUMP and len(state.game.hand(chooser)) == 9
    text = state.information_state_string(chooser)
    shown = [str(c) for c in state.game.view(chooser).hand]
    assert len(shown) == 3 and text.endswith("hand " + " ".join(shown))
    unseen = [str(c) for c in state.game.hand(chooser) if str(c) not in shown]
    assert not any(f" {c}" in text for c in unseen)
    state.apply_action(state.legal_actions()[0])
    while state.is_chance_node():
        state.apply_action(rnd.choice(state.chance_outcomes())[0])
    assert state.information_state_string(chooser).endswith(
        "hand " + " ".join(str(c) for c in state.game.hand(chooser)))

    variant = ud.load_variant("odessa")
    last = len(list(ud.Game(variant, 4, seed=0).deals)) - 1
    game = pyspiel.load_game("python_updown", {"variant": "odessa", "deals": 1, "start_deal": last})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rnd.choice(state.chance_outcomes())[0])
    bidder = state.current_player()
    assert state.game.phase is ud.Phase.BID and state.game.kind.bidding == "before_deal" and state.game.view(bidder).hand == ()
    assert state.information_state_string(bidder).endswith("| hand ")


@pytest.mark.parametrize("name", ud.bundled_names())
def test_openspiel_resample_last_deal_every_variant(name: str) -> None:
    """The last deal of every bundled variant (trump chosen from part of a hand in Georgian,
    bids before the deal in Odessa, hidden bids in Russian poker...): at every decision a
    resampled state keeps the seat's information state and legal actions."""
    pyspiel = need("pyspiel")
    import updown_dsl.research.spiel  # noqa: F401

    variant = ud.load_variant(name)
    last = len(list(ud.Game(variant, variant.default_players, seed=0).deals)) - 1
    game = pyspiel.load_game("python_updown", {"variant": name, "deals": 1, "start_deal": last})
    state = game.new_initial_state()
    rnd = random.Random(last)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rnd.choice(state.chance_outcomes())[0])
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, rnd.random)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(rnd.choice(state.legal_actions()))


def test_docs_research_examples_run() -> None:
    """The ``>>>`` examples of docs/research.md."""
    need("pettingzoo")
    need("pyspiel")
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "research.md"
    test = doctest.DocTestParser().get_doctest(path.read_text(encoding="utf-8"), {}, str(path), str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", ["oh-hell", "georgian", "odessa"])
def test_openspiel_played_by_block_matches_the_tricks(name: str) -> None:
    """The information-state tensor's ``played_by`` block (read from the kernel) says who
    played each card, as the game's tricks do."""
    pyspiel = need("pyspiel")
    import numpy as np

    import updown_dsl.research.spiel  # noqa: F401

    game = pyspiel.load_game("python_updown", {"variant": name, "deals": 3})
    n, pack, base = game.n, game.pack, game.encoding.size
    state = game.new_initial_state()
    rnd = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rnd.choice(state.chance_outcomes())[0])
            continue
        p = state.current_player()
        tensor = state.information_state_tensor(p)
        g = state.game
        expected = [0.0] * (n * pack)
        for tp in [tp for tr in g.tricks for tp in tr.plays] + list(g.trick):
            expected[((tp.seat - p) % n) * pack + g.table.index[tp.play.card]] = 1.0
        assert tensor[base:] == expected
        # the C++ observer path gives the same values, stored as float32
        cpp = pyspiel.State.information_state_tensor(state, p)
        assert np.array_equal(np.array(tensor, np.float32), np.array(cpp, np.float32))
        state.apply_action(rnd.choice(state.legal_actions()))


# ---------------------------------------------------------------------- the vectorised runner
def test_vector_env_batches_games_and_workers_change_nothing() -> None:
    need("gymnasium")
    import numpy as np

    from updown_dsl.research.vector import vector_env

    def run(workers: int) -> tuple[list[np.ndarray], np.ndarray]:
        vec = vector_env("oh-hell", 6, workers=workers, start_deal=5, reward="tricks")
        obs, _ = vec.reset(seed=4)
        assert obs["observation"].shape[0] == obs["action_mask"].shape[0] == obs["seat"].shape[0] == 6
        rng = np.random.default_rng(0)
        seen, rewards = [], np.zeros(6)
        for _ in range(60):
            mask = obs["action_mask"]
            obs, reward, term, trunc, info = vec.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
            seen.append(obs["observation"].copy())
            rewards += reward
        vec.close()
        return seen, rewards

    one, r1 = run(1)
    two, r2 = run(3)
    assert all((a == b).all() for a, b in zip(one, two)) and (r1 == r2).all()
    assert r1.sum() > 0  # (tricks were taken and rewarded to the seats that took them)


@pytest.mark.slow
def test_the_training_example_runs_and_writes_its_curve(tmp_path) -> None:
    need("pettingzoo")
    import csv
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "train_bidder.py"
    spec = importlib.util.spec_from_file_location("train_bidder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "curve.csv"
    assert module.main(["--minutes", "0.05", "--out", str(out)]) == 0
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert rows[0] == ["deals", "points_per_deal", "bids_made"] and len(rows) >= 2
