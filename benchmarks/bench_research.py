"""Steps per CPU-second of the research interfaces (issue 32), random legal policy.

- ``env``: the PettingZoo environment, ``oh-hell`` 4 players, episodes of the 7-card deal
  (``start_deal=6``), an observation and a mask read at every step (``env.last()``).
- ``spiel``: the OpenSpiel game ``python_updown`` (same deal) with its information-state
  tensor at every decision, against OpenSpiel's own ``oh_hell`` (4 players, 7 tricks) with
  its ``information_state_tensor``.

Run: ``python benchmarks/bench_research.py [seconds]`` (needs pettingzoo and open_spiel).
"""

from __future__ import annotations

import random
import sys
import time


def bench_env(seconds: float) -> float:
    """Steps per CPU-second of the PettingZoo environment."""
    from updown_dsl.research.env import UpdownEnv

    env = UpdownEnv("oh-hell", 4, episode="deal", start_deal=6)
    rnd = random.Random(1)
    steps = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[int(rnd.random() * len(legal))]))
            steps += 1
    return steps / (time.process_time() - start)


def bench_spiel(game: object, seconds: float) -> float:
    """Steps (decisions and chance outcomes) per CPU-second, with the information-state
    tensor of the player to act at every decision."""
    rnd = random.Random(1)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rnd.random() * len(outcomes))][0])
            else:
                state.information_state_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rnd.random() * len(legal))])
            steps += 1
    return steps / (time.process_time() - start)


def main(seconds: float = 3.0) -> None:
    print(f"pettingzoo env, oh-hell 4p 7-card deals: {bench_env(seconds):,.0f} steps/CPU-s")
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        print("open_spiel not installed: no OpenSpiel comparison")
        return
    import updown_dsl.research.spiel  # noqa: F401  (registers python_updown)

    ours = pyspiel.load_game("python_updown", {"variant": "oh-hell", "players": 4, "start_deal": 6, "deals": 1})
    theirs = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 7})
    print(f"python_updown, info-state tensor: {bench_spiel(ours, seconds):,.0f} steps/CPU-s")
    print(f"OpenSpiel oh_hell, info-state tensor: {bench_spiel(theirs, seconds):,.0f} steps/CPU-s")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0)
