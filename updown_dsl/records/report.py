"""What a check of one game reports, and the game it starts from.

:func:`prepare_game` reads a record's header: it loads the variant the record names (with
its ``option`` lines), checks the table size and the rules hash, and returns the engine's
game ready to be fed the deals. :class:`CheckReport` is what a check returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic, Severity
from ..engine import Game
from .archive import GameLines
from .model import Transcript
from .reader import read_game

if TYPE_CHECKING:
    from ..lang.variant import Variant


class CheckReport:
    """What a check found, and the game as the engine replayed it."""

    __slots__ = ("path", "diagnostics", "readable", "level", "finished", "game", "_transcript", "_source")

    path: str | None
    diagnostics: tuple[Diagnostic, ...]
    readable: bool
    """False when the input could not be read at all (exit status 3)."""
    level: str
    finished: bool
    game: Game | None

    def __init__(self, path: str | None, diagnostics: tuple[Diagnostic, ...], readable: bool,
                 level: str = "full", finished: bool = False, game: Game | None = None,
                 transcript: Transcript | None = None, *, source: GameLines | None = None) -> None:
        self.path = path
        self.diagnostics = diagnostics
        self.readable = readable
        self.level = level
        self.finished = finished
        self.game = game
        self._transcript = transcript
        self._source = source

    @property
    def transcript(self) -> Transcript | None:
        """The record as read (read again from its lines when the quick check did not need it)."""
        if self._transcript is None and self._source is not None:
            self._transcript = read_game(self._source.lines, self._source.first_line, self.path)[0]
        return self._transcript

    def __repr__(self) -> str:
        return (f"CheckReport(path={self.path!r}, diagnostics={len(self.diagnostics)}, "
                f"readable={self.readable}, level={self.level!r}, finished={self.finished})")

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity error."""
        return [d for d in self.diagnostics if d.severity == Severity.ERROR]

    @property
    def clean(self) -> bool:
        """Readable and no errors (warnings and notes allowed)."""
        return self.readable and not self.errors


_VARIANTS: dict[tuple[str, str, tuple[tuple[str, str], ...]], tuple[Variant | None, list[Diagnostic]]] = {}


def transcript_variant(t: Transcript) -> tuple[Variant | None, list[Diagnostic]]:
    """The variant a transcript names, with its ``option`` overrides applied.

    Loaded variants are kept for the games that follow (an archive names the same
    variant over and over), a few at a time.
    """
    key = (t.variant or "", str(Path(t.path).parent) if t.path else "", t.options)
    hit = _VARIANTS.get(key)
    if hit is not None and hit[0] is not None:
        return hit[0], []
    result = _load_transcript_variant(t)
    if result[0] is not None:
        if len(_VARIANTS) >= 16:
            del _VARIANTS[next(iter(_VARIANTS))]
        _VARIANTS[key] = result
    return result


def _load_transcript_variant(t: Transcript) -> tuple[Variant | None, list[Diagnostic]]:
    from ..lang.loader import load_with_options, resolve_variant_path, try_load_variant

    name = t.variant
    if name is None:
        return None, []
    base = Path(t.path).parent if t.path else None
    found = resolve_variant_path(name, base)
    target = found if found is not None else name
    variant, diags = try_load_variant(target)
    if variant is None:
        unknown = [d for d in diags if d.code == "V010" and d.path is None]
        if unknown:  # no such variant: one diagnostic, at the header line
            return None, [_at(t, "variant", "T010", f"cannot load the variant {name!r}: "
                              f"{unknown[0].message}", unknown[0].hint)]
        return None, [_at(t, "variant", "T010", f"cannot load the variant {name!r}")] + diags
    if not t.options:
        return variant, []
    variant, diags = load_with_options(target, list(t.options), f"{t.path or '<transcript>'} options")
    if variant is None:
        msgs = "; ".join(d.message for d in diags)
        return None, [_at(t, "option", "T011", f"the option lines cannot be applied: {msgs}")]
    return variant, []


def _at(t: Transcript, key: str, code: str, message: str, hint: str | None = None) -> Diagnostic:
    line = next((h.line for h in t.headers if h.key == key), 1)
    return Diagnostic(code, message, path=t.path, line=line, col=1, hint=hint)


def prepare_game(t: Transcript, diags: list[Diagnostic]) -> Game | None:
    """The game a record's header describes, ready to be fed its deals (or None when the
    record cannot be checked); header problems are added to ``diags``."""
    if any(d.code in ("T001", "T006") for d in diags):
        return None
    variant, vdiags = transcript_variant(t)
    diags.extend(vdiags)
    if variant is None:
        return None
    n = len(t.players)
    if not variant.min_players <= n <= variant.max_players:
        diags.append(_at(t, "players", "T012", f"{variant.name} is for {variant.min_players} to "
                         f"{variant.max_players} players, the record has {n}"))
        return None
    written_hash = t.header("rules")
    if written_hash is not None and written_hash not in _known_hashes(t, variant):
        d = _at(t, "rules", "T013", f"the rules of {t.variant!r} differ from those the record was "
                f"written with (rules: {written_hash})",
                "the variant file changed since the game was written; the check uses the rules as they are now")
        diags.append(Diagnostic(d.code, d.message, Severity.WARNING, d.path, d.line, d.col, hint=d.hint))
    first = t.first_dealer
    if first is None:  # no header: the first deal line may name the dealer
        first = next((e.actor for e in t.events if e.kind == "deal"), None)
    return Game(variant, n, first_dealer=first, auto_deal=False)


def _known_hashes(t: Transcript, variant: Variant) -> tuple[str, ...]:
    """The rules hashes a record of ``variant`` may carry: of the rules as checked, and of
    the named variant before its option lines."""
    from ..lang.variant import rules_hash

    hashes = [rules_hash(variant)]
    if t.options:
        from ..lang.loader import resolve_variant_path, try_load_variant

        found = resolve_variant_path(t.variant or "", Path(t.path).parent if t.path else None)
        base = try_load_variant(found if found is not None else (t.variant or ""))[0]
        if base is not None:
            hashes.append(rules_hash(base))
    return tuple(hashes)


__all__ = ["CheckReport", "prepare_game", "transcript_variant"]
