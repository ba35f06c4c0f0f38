"""Shared helper for the command-line tests."""

from __future__ import annotations

from typer.testing import CliRunner


def make_runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout (old Click needs ``mix_stderr=False``)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()
