"""Run a function over a stream of tasks: serially, in a process pool, or on a Dask cluster.

Results come back in the order of the tasks, and at most a few tasks per worker are in flight
at a time, so a stream of any length runs in constant memory. The function must be defined at
the top of a module (the pool and the cluster send it by name) and its arguments and results
must pickle: variants travel as their YAML text (:func:`variant_spec`), not as objects.
"""

from __future__ import annotations

import os
from collections import deque
from typing import Any, Callable, Iterable, Iterator, Sequence

#: Tasks in flight per worker: enough to keep every worker busy while results are read.
IN_FLIGHT = 3


def cpu_jobs(jobs: int) -> int:
    """``jobs`` as a number of processes: ``0`` means one per core."""
    if jobs < 0:
        raise ValueError(f"--jobs must be 0 (all cores) or more, not {jobs}")
    return jobs or (os.cpu_count() or 1)


class Runner:
    """Where tasks run: ``Runner()`` here, ``Runner(jobs=4)`` in four processes, or
    ``Runner(scheduler="tcp://host:8786")`` on a Dask cluster (``pip install "updown-dsl[dist]"``).

    Use it as a context manager; :meth:`map` may be called several times in between.
    """

    def __init__(self, jobs: int = 1, scheduler: str | Any | None = None) -> None:
        self.jobs = cpu_jobs(jobs)
        self.scheduler = scheduler
        self._pool: Any = None
        self._client: Any = None

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        if self._client is not None:
            threads: int = sum(w.get("nthreads", 1) for w in self._client.scheduler_info()["workers"].values())
            return max(1, threads)
        return self.jobs

    def __enter__(self) -> Runner:
        if self.scheduler is not None:
            try:
                from distributed import Client
            except ImportError:
                raise RuntimeError('a Dask scheduler needs the "dist" extra: pip install "updown-dsl[dist]"') from None
            # (distributed's Client is not annotated; without distributed, mypy sees Any)
            if isinstance(self.scheduler, str):
                self._client = Client(self.scheduler, timeout="20s")  # type: ignore[no-untyped-call, unused-ignore]
            else:  # a cluster object (LocalCluster, ...) or a Client
                self._client = (self.scheduler if hasattr(self.scheduler, "submit")
                                else Client(self.scheduler))  # type: ignore[no-untyped-call, unused-ignore]
        elif self.jobs > 1:
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(max_workers=self.jobs)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        if self._client is not None and self._client is not self.scheduler:
            self._client.close()
        self._client = None

    def map(self, fn: Callable[..., Any], tasks: Iterable[Sequence[Any]]) -> Iterator[Any]:
        """``fn(*task)`` for each task, in the order of the tasks."""
        if self._pool is None and self._client is None:
            for task in tasks:
                yield fn(*task)
            return
        submit: Callable[[Sequence[Any]], Any]
        if self._client is not None:
            submit = lambda task: self._client.submit(fn, *task, pure=False)  # noqa: E731
        else:
            submit = lambda task: self._pool.submit(fn, *task)  # noqa: E731
        window = self.workers * IN_FLIGHT
        pending: deque[Any] = deque()
        for task in tasks:
            pending.append(submit(task))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


_VARIANTS: dict[str, Any] = {}


def variant_spec(variant: Any) -> str:
    """A variant as text that a worker anywhere can load (its resolved option tree as YAML:
    ``extends`` already merged, so no file is needed)."""
    from ..lang.yamltree import dump_yaml

    return dump_yaml(dict(variant.options))


def load_spec(spec: str) -> Any:
    """The variant of :func:`variant_spec` (loaded once per worker process)."""
    variant = _VARIANTS.get(spec)
    if variant is None:
        from ..lang.loader import loads_variant

        if len(_VARIANTS) > 8:
            _VARIANTS.clear()
        variant = _VARIANTS[spec] = loads_variant(spec, path="<variant>")
    return variant
