"""updown: rules engine, rules DSL and audit tool for the Up and Down family.

>>> import updown_dsl as ud
>>> game = ud.Game(ud.load_variant("georgian"), players=4, seed=1)
>>> len(game.deals)
24
"""

from __future__ import annotations

from .actions import Action, Bid, ChooseTrump, Play
from .cards import Card, CardError, Rank, Suit, build_deck, format_cards, parse_cards
from .diagnostics import CATALOGUE, Diagnostic, Severity, UpdownError
from .engine import Game, IllegalAction, Phase, Trick, TrickPlay
from .formula import Formula, FormulaError, compile_formula
from .loader import VariantError, bundled_names, load_variant, loads_variant, try_load_variant
from .schedule import resolve_schedule
from .scoring import DealResult, SeatResult, seat_score, settle
from .variant import Deal, Variant

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Bid",
    "CATALOGUE",
    "Card",
    "CardError",
    "ChooseTrump",
    "Deal",
    "DealResult",
    "Diagnostic",
    "Formula",
    "FormulaError",
    "Game",
    "IllegalAction",
    "Phase",
    "Play",
    "Rank",
    "SeatResult",
    "Severity",
    "Suit",
    "Trick",
    "TrickPlay",
    "UpdownError",
    "Variant",
    "VariantError",
    "build_deck",
    "bundled_names",
    "compile_formula",
    "format_cards",
    "load_variant",
    "loads_variant",
    "parse_cards",
    "resolve_schedule",
    "seat_score",
    "settle",
    "try_load_variant",
    "__version__",
]
