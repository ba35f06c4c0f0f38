"""What the whole run shares: the counts of the mutation properties written at its end."""

from __future__ import annotations

import sys
from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """``mutated games checked: R001 full: 19, ...`` when the mutation properties ran."""
    module = sys.modules.get("test_check_properties")
    counts = getattr(module, "COUNTS", None)
    if counts:
        summary = ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
        terminalreporter.write_line(f"mutated games checked: {summary}")


def pytest_configure(config: Any) -> None:
    """The run's own cache of read variant files (lang/treecache.py), not the user's: set for
    the commands run in child processes too."""
    import os
    import tempfile

    if "UPDOWN_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="updown-test-cache-")
        os.environ["UPDOWN_CACHE_DIR"] = folder
        config._updown_cache_dir = folder


def pytest_unconfigure(config: Any) -> None:
    import shutil

    folder = getattr(config, "_updown_cache_dir", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
