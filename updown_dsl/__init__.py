"""updown: rules engine, rules DSL and audit tool for the Up and Down family.

Load a variant with :func:`load_variant` (a bundled name or a file), start a
:class:`Game`, list :meth:`Game.legal_actions` and :meth:`Game.apply` (or :meth:`Game.push`)
them; write a game as a record with :func:`game_transcript` and :func:`format_transcript`, and
audit a record with :func:`check_text` or :func:`check_file`. ``docs/api.md`` walks through it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> defining module. Imported on first use (PEP 562) so that the
# command line starts quickly: `updown --help` needs neither lark nor yaml.
_EXPORTS: dict[str, str] = {
    "Action": "actions",
    "Bid": "actions",
    "Call": "actions",
    "ChooseTrump": "actions",
    "Play": "actions",
    "Card": "cards",
    "CardError": "cards",
    "Rank": "cards",
    "Suit": "cards",
    "build_deck": "cards",
    "format_cards": "cards",
    "parse_cards": "cards",
    "CATALOGUE": "diagnostics",
    "Diagnostic": "diagnostics",
    "Severity": "diagnostics",
    "UpdownError": "diagnostics",
    "CardFault": "engine",
    "EndKind": "engine",
    "Game": "engine",
    "GameEnd": "engine",
    "IllegalAction": "engine",
    "PlayKernel": "engine",
    "SeatView": "engine.view",
    "Phase": "engine",
    "Trick": "engine",
    "TrickPlay": "engine",
    "Formula": "lang.formula",
    "FormulaError": "lang.formula",
    "FormulaEvalError": "lang.formula",
    "compile_formula": "lang.formula",
    "VariantError": "lang.loader",
    "bundled_names": "lang.loader",
    "load_variant": "lang.loader",
    "loads_variant": "lang.loader",
    "try_load_variant": "lang.loader",
    "resolve_schedule": "lang.schedule",
    "DealResult": "engine.scoring",
    "SeatResult": "engine.scoring",
    "seat_score": "engine.scoring",
    "settle": "engine.scoring",
    "Deal": "lang.variant",
    "Variant": "lang.variant",
    "CheckReport": "records.report",
    "Transcript": "records.model",
    "check_file": "records.checker",
    "check_games": "records.checker",
    "check_text": "records.checker",
    "format_transcript": "records.writer",
    "game_transcript": "records.record",
    "parse_transcript": "records.reader",
    "picture": "pages.notebook",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'updown_dsl' has no attribute {name!r}")
    # A game, a deal and a check report draw themselves in a notebook with the pages'
    # renderers, which register themselves on import (light: they import the rest when drawing).
    import_module(".pages.notebook", __name__)
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    from .actions import Action, Bid, Call, ChooseTrump, Play
    from .cards import Card, CardError, Rank, Suit, build_deck, format_cards, parse_cards
    from .diagnostics import CATALOGUE, Diagnostic, Severity, UpdownError
    from .engine import CardFault, EndKind, Game, GameEnd, IllegalAction, Phase, PlayKernel, Trick, TrickPlay
    from .engine.view import SeatView
    from .lang.formula import Formula, FormulaError, FormulaEvalError, compile_formula
    from .lang.loader import VariantError, bundled_names, load_variant, loads_variant, try_load_variant
    from .lang.schedule import resolve_schedule
    from .engine.scoring import DealResult, SeatResult, seat_score, settle
    from .lang.variant import Deal, Variant
    from .records.checker import check_file, check_games, check_text
    from .records.model import Transcript
    from .records.reader import parse_transcript
    from .records.record import game_transcript
    from .records.report import CheckReport
    from .records.writer import format_transcript
