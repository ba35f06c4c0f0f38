"""`mypy --strict updown_dsl` finds nothing: the types are kept honest by a test.

The settings (optional libraries without types) are in ``[tool.mypy]`` of pyproject.toml; mypy
and types-PyYAML come with the ``test`` extra. Without mypy the test is skipped.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")


def test_mypy_strict_finds_no_error(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "updown_dsl"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, (
        f"mypy --strict updown_dsl: {len(errors)} errors\n" + "\n".join(errors or [done.stdout, done.stderr]))
