"""Many games in lock-step, over processes (needs ``gymnasium``).

:class:`TurnEnv` is one updown game as a `gymnasium.Env` whose agent is whoever is to act:
its observation is the acting seat's (``observation``, ``action_mask``, and ``seat``), an
action is one of :class:`~updown_dsl.research.space.ActionSpace`'s, the reward is what the
action brought the seat that acted, and ``info["rewards"]`` holds every seat's. An episode is
a deal or a game, as :class:`~updown_dsl.research.env.UpdownEnv`'s (whose rules it runs).

:func:`vector_env` runs ``num_envs`` of them with gymnasium's vector environments: batched
observations and masks (numpy arrays with ``num_envs`` rows), each game started again when
it ends. ``workers=W`` spreads them over W processes, each running its share of the games in
lock-step (`gymnasium.vector.SyncVectorEnv` in each, one message a step each way), which is
what pays on a few cores: a process per game (``asynchronous=True``, gymnasium's
`AsyncVectorEnv`) spends more on the messages than on the game.

>>> from updown_dsl.research.vector import vector_env
>>> envs = vector_env("oh-hell", 4, asynchronous=False, start_deal=6)
>>> obs, info = envs.reset(seed=1)
>>> obs["action_mask"].shape, obs["seat"].shape
((4, 70), (4,))
>>> envs.close()
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces

from .env import UpdownEnv


class TurnEnv(gymnasium.Env):  # type: ignore[misc,unused-ignore]
    """One game whose agent is the seat to act (see the module)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, variant: str, players: int | None = None, **kwargs: Any) -> None:
        self.aec = UpdownEnv(variant, players, **kwargs)
        n = self.aec.n
        inner = cast(spaces.Dict, self.aec.observation_space(self.aec.possible_agents[0]))
        self.observation_space = spaces.Dict({**inner.spaces, "seat": spaces.Discrete(n)})
        self.action_space = self.aec.action_space(self.aec.possible_agents[0])

    def _observe(self) -> dict[str, Any]:
        agent = self.aec.agent_selection
        obs = self.aec.observe(agent)
        return {**obs, "seat": int(agent[7:])}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        return self._observe(), {"rewards": np.zeros(self.aec.n, dtype=np.float64)}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        seat = int(aec.agent_selection[7:])
        aec.step(int(action))
        rewards = np.array([aec.rewards.get(a, 0.0) for a in (f"player_{s}" for s in range(aec.n))])
        done = all(aec.terminations.values())
        return self._observe(), float(rewards[seat]), done, False, {"rewards": rewards}


def vector_env(variant: str, num_envs: int, *, asynchronous: bool = False, workers: int = 1,
               players: int | None = None, **kwargs: Any) -> Any:
    """``num_envs`` games of ``variant`` in lock-step (see the module); ``kwargs`` go to each
    :class:`TurnEnv` (``episode``, ``reward``, ``start_deal``, ``opponents``)."""
    if workers > 1:
        return ProcessVectorEnv(variant, num_envs, workers, players, **kwargs)
    makers = [lambda: TurnEnv(variant, players, **kwargs) for _ in range(num_envs)]
    if asynchronous:
        return gymnasium.vector.AsyncVectorEnv(makers)
    return gymnasium.vector.SyncVectorEnv(makers)


def _worker(conn: Connection, variant: str, players: int | None, count: int, kwargs: dict[str, Any],
            shared: dict[str, tuple[str, tuple[int, ...], str]]) -> None:
    envs = gymnasium.vector.SyncVectorEnv([lambda: TurnEnv(variant, players, **kwargs) for _ in range(count)])
    blocks = {k: SharedMemory(name=name) for k, (name, _, _) in shared.items()}
    views = {k: np.ndarray(shape, dtype=dtype, buffer=blocks[k].buf) for k, (_, shape, dtype) in shared.items()}
    try:
        while True:
            command, data = conn.recv()
            if command == "step":
                obs, *rest = envs.step(data)
            elif command == "reset":
                obs, *rest = envs.reset(seed=data)
            else:
                break
            for k, array in views.items():  # (the observations through shared memory, the rest by pipe)
                array[...] = obs[k]
            conn.send(rest)
    except (EOFError, KeyboardInterrupt):  # pragma: no cover - the parent went away
        pass
    finally:
        envs.close()
        conn.close()
        for block in blocks.values():
            block.close()


def _join(parts: list[Any]) -> Any:
    """The batches of the workers as one (rows in worker order)."""
    first = parts[0]
    if isinstance(first, dict):
        return {k: _join([p[k] for p in parts]) for k in first}
    return np.concatenate(parts)


class ProcessVectorEnv:
    """``num_envs`` games over ``workers`` processes (this one and ``workers - 1`` more), each
    stepping its share in lock-step (see the module); the same calls as a gymnasium vector
    environment: ``reset``, ``step``, ``close``."""

    def __init__(self, variant: str, num_envs: int, workers: int, players: int | None = None,
                 **kwargs: Any) -> None:
        if not 1 <= workers <= num_envs:
            raise ValueError(f"workers must be 1..{num_envs}, not {workers}")
        self.num_envs = num_envs
        self.sizes = [num_envs // workers + (w < num_envs % workers) for w in range(workers)]
        ctx: Any = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
        probe = TurnEnv(variant, players, **kwargs)
        space = cast(spaces.Dict, probe.observation_space)
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        self.blocks: list[SharedMemory] = []
        self.views: list[dict[str, np.ndarray]] = []
        # This process steps the first share itself while the others step theirs: it would
        # otherwise sit idle on a core, waiting, between drawing the actions and the batches.
        self.local = gymnasium.vector.SyncVectorEnv(
            [lambda: TurnEnv(variant, players, **kwargs) for _ in range(self.sizes[0])])
        self.local_obs: dict[str, np.ndarray] = {}
        for size in self.sizes[1:]:
            shared, views = {}, {}
            for k, sub in space.spaces.items():
                shape = (size, *(sub.shape or ()))
                dtype = np.dtype(sub.dtype)
                block = SharedMemory(create=True, size=max(1, int(np.prod(shape)) * dtype.itemsize))
                self.blocks.append(block)
                shared[k] = (block.name, shape, dtype.str)
                views[k] = np.ndarray(shape, dtype=dtype, buffer=block.buf)
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(child, variant, players, size, kwargs, shared), daemon=True)
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
            self.views.append(views)

    def reset(self, *, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        offset = self.sizes[0]
        for conn, size in zip(self.conns, self.sizes[1:]):
            conn.send(("reset", None if seed is None else seed + offset))
            offset += size
        self.local_obs, info = self.local.reset(seed=seed)
        got = [conn.recv() for conn in self.conns]
        return self._observations(), _join([info, *(g[0] for g in got)])

    def _observations(self) -> dict[str, np.ndarray]:
        return {k: np.concatenate([self.local_obs[k], *(v[k] for v in self.views)]) for k in self.local_obs}

    def step(self, actions: np.ndarray) -> tuple[Any, ...]:
        start = self.sizes[0]
        for conn, size in zip(self.conns, self.sizes[1:]):
            conn.send(("step", actions[start:start + size]))
            start += size
        self.local_obs, *mine = self.local.step(actions[:self.sizes[0]])
        got = [conn.recv() for conn in self.conns]
        return (self._observations(), *(_join([mine[k], *(g[k] for g in got)]) for k in range(4)))

    def close(self) -> None:
        for conn in self.conns:
            try:
                conn.send(("close", None))
            except (BrokenPipeError, OSError):  # pragma: no cover - a worker already gone
                pass
        for proc in self.procs:
            proc.join(timeout=5)
        for block in self.blocks:
            block.close()
            block.unlink()
        self.blocks = []
        self.local.close()
