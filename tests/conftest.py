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
