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
settlement (whole-game episodes only); ``"tricks"`` gives 1 to the winner of each trick as it
is taken. ``start_deal`` (0-based) starts each episode at that deal of the schedule (the
first dealer the last seat, totals zero). ``reset(seed=...)`` seeds the shuffles: the same
seed deals the same cards.

``opponents`` seats bots at some seats, ``{seat: "heuristic"}`` (any name
:func:`~updown_dsl.players.bots.make_bot` takes: ``random``, ``heuristic``, ``search:2``
...) or ``{seat: bot}`` (anything with ``act(view)``): those seats are no agents, they play
inside ``step`` on their seat's view, and the agents are the other seats. Bots named by a
string are seeded from ``reset(seed=...)``.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Protocol

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine import Game, Phase, Trick
from ..engine.worlds import game_at_deal
from ..lang.loader import load_variant
from ..lang.variant import Variant
from .space import ActionSpace, Observation

EPISODES = ("deal", "game")
REWARDS = ("points", "total", "settlement", "tricks")


class Policy(Protocol):
    """A seat's player inside the environment: an action for the seat's view."""

    def act(self, view: Any) -> Any: ...


class UpdownEnv(AECEnv):  # type: ignore[misc]
    """An updown game as a PettingZoo AEC environment (see the module)."""

    metadata = {"render_modes": ["ansi"], "name": "updown_v0", "is_parallelizable": False}

    def __init__(self, variant: str | Variant, players: int | None = None, *,
                 episode: str = "deal", reward: str = "points", start_deal: int = 0,
                 opponents: Mapping[int, str | Policy] | None = None,
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
        self.opponents = dict(opponents or {})
        if any(not 0 <= s < self.n for s in self.opponents) or len(self.opponents) >= self.n:
            raise ValueError(f"opponents must seat bots at some of seats 0..{self.n - 1}, leaving one for an agent")
        for kind in self.opponents.values():
            if isinstance(kind, str):
                from ..players.bots import bot_problem

                problem = bot_problem(kind)
                if problem is not None:
                    raise ValueError(problem)
        self._bots: dict[int, Policy] = {}
        self.possible_agents = [f"player_{i}" for i in range(self.n) if i not in self.opponents]
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
        self._bots = self._seat_bots(rng)
        self._deal_random()
        self._deal_index = game.deal_index
        self._scored = self._first = len(game.results)
        self._tricks = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._bots_play()
        self.agent_selection = self._agent(game.to_act)
        self._accumulate_rewards()

    def _seat_bots(self, rng: random.Random) -> dict[int, Policy]:
        from ..players.bots import make_bot

        return {s: make_bot(kind, random.Random(rng.getrandbits(64))) if isinstance(kind, str) else kind
                for s, kind in sorted(self.opponents.items())}

    def _agent(self, seat: int) -> str:
        return f"player_{seat}"

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
        self.rewards = {a: 0.0 for a in self.agents}
        game.apply(self.space.actions[int(action)])
        if not self._scored_now():
            self._bots_play()
        if not self.terminations[agent]:
            self.agent_selection = self._agent(game.to_act)
        self._accumulate_rewards()

    def _bots_play(self) -> None:
        """The seated bots play until an agent is to act or the episode ends."""
        game = self.game
        assert game is not None
        while not self.terminations.get(self.possible_agents[0], False) and game.to_act in self._bots:
            seat = game.to_act
            game.apply(self._bots[seat].act(game.view(seat)))
            if self._scored_now():
                return

    def _scored_now(self) -> bool:
        """Count the rewards of the action just taken; True when the episode is over."""
        game = self.game
        assert game is not None
        results = game.results
        done = game.is_over or (self.episode == "deal" and game.deal_index != self._deal_index)
        if self.reward_kind == "tricks":
            tricks = len(game.tricks) if not done and len(results) == self._scored else None
            if tricks is None:  # (the deal was scored: its last trick is in its result)
                for r in results[self._scored:]:
                    for t in r.tricks[self._tricks:]:
                        assert isinstance(t, Trick)
                        self._reward(t.winner, 1.0)
                self._tricks = 0
            else:
                for t in game.tricks[self._tricks:tricks]:
                    self._reward(t.winner, 1.0)
                self._tricks = tricks
        if len(results) > self._scored:
            if self.reward_kind == "points":
                for r in results[self._scored:]:
                    for s in range(self.n):
                        self._reward(s, r.total(s))
            self._scored = len(results)
        if done and self.reward_kind == "total":
            for r in results[self._first:]:
                for s in range(self.n):
                    self._reward(s, r.total(s))
        if game.is_over and self.reward_kind == "settlement":
            for s, v in enumerate(game.settlement()):
                self._reward(s, float(v))
        if done:
            self.terminations = {a: True for a in self.agents}
        else:
            self._deal_random()
        return done

    def _reward(self, seat: int, value: float) -> None:
        agent = self._agent(seat)
        if agent in self.rewards:
            self.rewards[agent] += value

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.game is not None:
            return str(self.game)
        return None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> UpdownEnv:
    """The environment (PettingZoo's naming: ``env(...)``)."""
    return UpdownEnv(**kwargs)
