"""A PettingZoo AEC environment for any variant (needs ``pettingzoo`` and ``gymnasium``).

>>> from updown_dsl.research.env import UpdownEnv
>>> env = UpdownEnv("oh-hell", players=4, episode="deal", start_deal=6)

Agents are ``player_0 .. player_{n-1}`` (seat numbers). Each observation is a dict:
``observation``, the seat's vector of :class:`~updown_dsl.research.space.Observation` (its
blocks are listed by ``env.observation_spec()``), and ``action_mask``, 1 for each legal action
of :class:`~updown_dsl.research.space.ActionSpace` (all zeros for a seat not to act).

``episode="deal"`` ends the episode when a deal is scored, ``"game"`` when the game ends.
``reward="points"`` gives every seat the points of each deal as it is scored (so a whole game's
rewards add up to the totals); ``"total"`` gives the same sum once, at the end of the
episode (the deal's points, or the game's totals); ``"settlement"`` gives, at the end of the game, the variant's
settlement (whole-game episodes only). ``start_deal`` (0-based) starts each episode at that
deal of the schedule (the first dealer the last seat, totals zero). ``reset(seed=...)``
seeds the shuffles: the same seed deals the same cards.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine import Game, Phase
from ..engine.worlds import game_at_deal
from ..lang.loader import load_variant
from ..lang.variant import Variant
from .space import ActionSpace, Observation

EPISODES = ("deal", "game")
REWARDS = ("points", "total", "settlement")


class UpdownEnv(AECEnv):  # type: ignore[misc]
    """An updown game as a PettingZoo AEC environment (see the module)."""

    metadata = {"render_modes": ["ansi"], "name": "updown_v0", "is_parallelizable": False}

    def __init__(self, variant: str | Variant, players: int | None = None, *,
                 episode: str = "deal", reward: str = "points", start_deal: int = 0,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, not {episode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
        if reward == "settlement" and episode != "game":
            raise ValueError("reward='settlement' needs episode='game'")
        self.variant = load_variant(variant) if isinstance(variant, str) else variant
        self.n = players if players is not None else self.variant.default_players
        self.episode = episode
        self.reward_kind = reward
        self.start_deal = start_deal
        self.render_mode = render_mode
        self.space = ActionSpace(self.variant, self.n)
        self.encoding = Observation(self.variant, self.n, self.space)
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        obs_box = spaces.Box(low=-np.inf, high=np.inf, shape=(self.encoding.size,), dtype=np.float32)
        mask_box = spaces.Box(low=0, high=1, shape=(self.space.size,), dtype=np.int8)
        self._obs_space = spaces.Dict({"observation": obs_box, "action_mask": mask_box})
        self._act_space = spaces.Discrete(self.space.size)
        self._rng = random.Random()
        self.game: Game | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def observation_spec(self) -> list[dict[str, object]]:
        """The blocks of the observation vector (name, offset, size, meaning)."""
        return self.encoding.spec()

    # ------------------------------------------------------------------ the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        rng = random.Random(self._rng.getrandbits(64))
        if self.start_deal:
            game = game_at_deal(self.variant, self.n, self.start_deal, self.n - 1 + self.start_deal, rng=rng)
        else:
            game = Game(self.variant, self.n, rng=rng, auto_deal=False)
        self.game = game
        self._deal_random()
        self._deal_index = game.deal_index
        self._scored = self._first = len(game.results)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[game.to_act]

    def _deal_random(self) -> None:
        game = self.game
        assert game is not None
        while game.phase is Phase.DEAL:
            game.deal_random()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self.game
        assert game is not None
        seat = int(agent[7:])
        obs = np.zeros(self.encoding.size, dtype=np.float32)
        self.encoding.encode(game, seat, obs)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if seat == game.to_act and not self.terminations[agent]:
            mask[self.space.legal_ids(game)] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        game.apply(self.space.actions[int(action)])
        self.rewards = {a: 0.0 for a in self.agents}
        results = game.results
        done = game.is_over or (self.episode == "deal" and game.deal_index != self._deal_index)
        if len(results) > self._scored:
            if self.reward_kind == "points":
                for r in results[self._scored:]:
                    for s in range(self.n):
                        self.rewards[self.possible_agents[s]] += r.total(s)
            self._scored = len(results)
        if done and self.reward_kind == "total":
            for r in results[self._first:]:
                for s in range(self.n):
                    self.rewards[self.possible_agents[s]] += r.total(s)
        if game.is_over and self.reward_kind == "settlement":
            for s, v in enumerate(game.settlement()):
                self.rewards[self.possible_agents[s]] = float(v)
        if done:
            self.terminations = {a: True for a in self.agents}
        else:
            self._deal_random()
            self.agent_selection = self.agents[game.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.game is not None:
            return str(self.game)
        return None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> UpdownEnv:
    """The environment (PettingZoo's naming: ``env(...)``)."""
    return UpdownEnv(**kwargs)
