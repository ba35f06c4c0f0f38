"""Load a script of ``benchmarks/`` as a module, for the smoke tests of the benchmarks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Iterator

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmark_module(name: str) -> Iterator[ModuleType]:
    """``benchmarks/<name>.py`` imported as the module ``name`` while the caller uses it (a
    pytest fixture's generator); skipped where the tree has no ``benchmarks/``."""
    path = BENCHMARKS / f"{name}.py"
    if not path.is_file():
        pytest.skip("benchmarks/ is not in this tree")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(name, None)
