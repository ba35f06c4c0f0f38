"""Many games at once (updown_dsl.batch): a process pool and a Dask cluster give the serial results.

The Dask tests start a ``LocalCluster`` of two worker processes on this machine, the same
scheduler a real cluster runs (``pip install "updown-dsl[dist]"``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from updown_dsl import load_variant
from updown_dsl.batch import Runner, check_games_jobs, cpu_jobs, simulate_games
from updown_dsl.batch.pool import load_spec, variant_spec
from updown_dsl.cli import app
from updown_dsl.lang.variant import rules_hash
from updown_dsl.players.simulate import simulate
from updown_dsl.records.checker import check_lines

runner = CliRunner()


def _archive(tmp_path: Path, games: int = 40) -> Path:
    """An archive of random-bot games of Odessa, a few of them broken in one line."""
    r = runner.invoke(app, ["simulate", "--variant", "odessa", "--games", str(games), "--seed", "4",
                            "--bots", "random", "--out", str(tmp_path / "games"), "--json"])
    assert r.exit_code == 0, r.stdout
    lines: list[str] = []
    for f in sorted((tmp_path / "games").glob("*.log")):
        lines += f.read_text(encoding="utf-8").splitlines() + [""]
    for i in range(40, len(lines), 613):  # a card that is not one, now and then
        if " play " in lines[i]:
            lines[i] = lines[i].replace(" play ", " play 2C ", 1)
    path = tmp_path / "archive.log"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _same_reports(a: list, b: list) -> None:  # type: ignore[type-arg]
    assert [(r.path, r.diagnostics, r.readable, r.level, r.finished) for r in a] == \
        [(r.path, r.diagnostics, r.readable, r.level, r.finished) for r in b]


def test_cpu_jobs() -> None:
    assert cpu_jobs(3) == 3 and cpu_jobs(0) >= 1
    with pytest.raises(ValueError):
        cpu_jobs(-1)


def test_a_variant_travels_as_text_and_keeps_its_rules() -> None:
    for name in ("odessa", "georgian", "up-and-down-online"):
        v = load_variant(name)
        w = load_spec(variant_spec(v))
        assert rules_hash(w) == rules_hash(v) and w.name == v.name


def test_the_runner_keeps_the_order() -> None:
    with Runner(jobs=2) as r:
        assert list(r.map(pow, [(2, k) for k in range(50)])) == [2 ** k for k in range(50)]
    with Runner() as r:
        assert list(r.map(pow, [(3, 2)])) == [9]


@pytest.mark.slow
@pytest.mark.parametrize("rotate", [False, True])
def test_simulate_in_a_pool_is_the_serial_simulation(rotate: bool) -> None:
    v = load_variant("oh-hell")
    bots = ["heuristic", "random", "random", "random"]
    serial = simulate(v, 4, 30, seed=9, bots=bots, rotate=rotate)
    texts: dict[int, str | None] = {}
    pooled = simulate_games(v, 4, 30, seed=9, bots=bots, rotate=rotate, jobs=2, record_label="oh-hell",
                            on_game=texts.__setitem__)
    assert pooled.to_dict() == serial.to_dict()
    assert sorted(texts) == list(range(30)) and all(t and t.startswith("variant: oh-hell\n") for t in texts.values())


@pytest.mark.slow
def test_check_in_a_pool_is_the_serial_check(tmp_path: Path) -> None:
    path = _archive(tmp_path)
    with open(path, "rb") as f:
        serial = list(check_lines(f, str(path)))
    with open(path, "rb") as f:
        pooled = list(check_games_jobs(f, str(path), jobs=2))
    assert len(serial) == 40 and any(r.errors for r in serial) and any(r.clean for r in serial)
    _same_reports(pooled, serial)


@pytest.mark.slow
def test_the_command_line_gives_the_same_output_with_jobs(tmp_path: Path) -> None:
    path = _archive(tmp_path)
    one = runner.invoke(app, ["check", str(path)])
    two = runner.invoke(app, ["check", "--jobs", "2", str(path)])
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout and "40 games" in one.stdout
    one = runner.invoke(app, ["check", "--json", str(path)])
    two = runner.invoke(app, ["check", "--json", "--jobs", "0", str(path)])
    assert json.loads(one.stdout) == json.loads(two.stdout)
    sim = ["simulate", "--variant", "georgian", "--games", "12", "--seed", "1", "--json"]
    assert runner.invoke(app, sim).stdout == runner.invoke(app, [*sim, "--jobs", "2"]).stdout
    bad = runner.invoke(app, ["check", "--jobs", "-1", str(path)])
    assert bad.exit_code == 2


# --------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=40) as c:  # any free port: no warning
        yield c


@pytest.mark.slow
def test_simulate_on_a_dask_cluster_is_the_serial_simulation(cluster) -> None:  # type: ignore[no-untyped-def]
    v = load_variant("georgian")
    bots = ["heuristic"] * 4
    serial = simulate(v, 4, 20, seed=3, bots=bots)
    on_dask = simulate_games(v, 4, 20, seed=3, bots=bots, scheduler=cluster.scheduler_address)
    assert on_dask.to_dict() == serial.to_dict()


@pytest.mark.slow
def test_check_on_a_dask_cluster_is_the_serial_check(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _archive(tmp_path, games=24)
    with open(path, "rb") as f:
        serial = list(check_lines(f, str(path)))
    with open(path, "rb") as f:
        on_dask = list(check_games_jobs(f, str(path), scheduler=cluster.scheduler_address))
    _same_reports(on_dask, serial)


@pytest.mark.slow
def test_the_command_line_runs_on_a_dask_cluster(cluster, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = _archive(tmp_path, games=16)
    here = runner.invoke(app, ["check", str(path)])
    there = runner.invoke(app, ["check", "--scheduler", cluster.scheduler_address, str(path)])
    assert here.exit_code == there.exit_code and here.stdout == there.stdout


@pytest.mark.slow
def test_no_dask_is_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_distributed(name: str, *args: object, **kwargs: object) -> object:
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_distributed)
    with pytest.raises(RuntimeError, match=r'pip install "updown-dsl\[dist\]"'):
        with Runner(scheduler="tcp://127.0.0.1:1"):
            pass
