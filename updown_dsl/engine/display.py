"""How a notebook shows a game, a deal's result or a check report: a hook the pages fill.

The engine draws nothing. Jupyter asks an object for ``_repr_html_`` and ``_repr_svg_``; a
:class:`~updown_dsl.engine.Game`, a :class:`~updown_dsl.engine.scoring.DealResult` and a
:class:`~updown_dsl.records.report.CheckReport` answer with what the renderer registered here
for them draws, or None (the notebook then shows their plain text). The renderers are the
pages' (:mod:`updown_dsl.pages.notebook` registers them when imported, and ``import
updown_dsl`` imports it with the first name it gives), so a stage never imports a later one.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["draw", "register"]

_RENDERERS: dict[tuple[str, str], Callable[[Any], str]] = {}


def register(kind: str, mime: str, renderer: Callable[[Any], str]) -> None:
    """Draw values of ``kind`` (``game``, ``deal``, ``report``) as ``mime`` (``html``, ``svg``)."""
    _RENDERERS[(kind, mime)] = renderer


def draw(kind: str, mime: str, value: object) -> str | None:
    """``value`` drawn by its registered renderer, or None without one."""
    renderer = _RENDERERS.get((kind, mime))
    return None if renderer is None else renderer(value)
