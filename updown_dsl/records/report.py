"""What a check of one game reports, and the game it starts from.

:func:`prepare_game` reads a record's header: it loads the variant the record names (with
its ``option`` lines), checks the table size and the rules hash, and returns the engine's
game ready to be fed the deals. :class:`CheckReport` is what a check returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..i18n import tr
from ..diagnostics import Diagnostic, Severity
from ..engine import Game
from ..engine.display import draw
from .model import Transcript

if TYPE_CHECKING:
    from ..lang.variant import Variant


#: The most diagnostics a report keeps for one game; the rest are counted in a ``T017`` note.
MAX_DIAGNOSTICS = 100


def capped(diags: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    """At most :data:`MAX_DIAGNOSTICS` of one game's diagnostics, the rest counted in a ``T017``."""
    return _capped(tuple(diags)) if len(diags) > MAX_DIAGNOSTICS else tuple(diags)


def _capped(diags: tuple[Diagnostic, ...]) -> tuple[Diagnostic, ...]:
    kept, rest = diags[:MAX_DIAGNOSTICS], diags[MAX_DIAGNOSTICS:]
    errors = sum(1 for d in rest if d.severity is Severity.ERROR)
    first = rest[0]
    note = Diagnostic("T017", tr("{count:,} more problems in this game ({errors:,} of them errors) are not shown: a report keeps the first {MAX_DIAGNOSTICS}",
                                 count=len(rest), errors=errors, MAX_DIAGNOSTICS=MAX_DIAGNOSTICS),
                      Severity.ERROR if errors else Severity.NOTE, first.path,
                      first.line, first.col, hint=tr("correct the first ones and check again"))
    return (*kept, note)


class CheckReport:
    """What a check found, and the game as the engine replayed it."""

    __slots__ = ("path", "diagnostics", "readable", "level", "finished", "game", "transcript")

    path: str | None
    diagnostics: tuple[Diagnostic, ...]
    readable: bool
    """False when the input could not be read at all (exit status 3)."""
    level: str
    finished: bool
    game: Game | None
    transcript: Transcript | None
    """The record as read (None when it could not be read)."""

    def __init__(self, path: str | None, diagnostics: tuple[Diagnostic, ...], readable: bool,
                 level: str = "full", finished: bool = False, game: Game | None = None,
                 transcript: Transcript | None = None) -> None:
        self.path = path
        if len(diagnostics) > MAX_DIAGNOSTICS:
            diagnostics = _capped(diagnostics)
        self.diagnostics = diagnostics
        self.readable = readable
        self.level = level
        self.finished = finished
        self.game = game
        self.transcript = transcript

    def _repr_html_(self) -> str | None:
        """The checked game for a notebook: how it stands, its problems and its score sheet."""
        return draw("report", "html", self)

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


_VARIANTS: dict[tuple[str, ...], tuple[Variant | None, list[Diagnostic]]] = {}


def record_folder(t: Transcript) -> Path | None:
    """The folder of the file a record was read from (None for standard input or a string)."""
    if not t.path or t.path.startswith("<"):
        return None
    return Path(t.path).parent


def _folders(t: Transcript, variant_path: Sequence[str | Path]) -> list[str | Path]:
    folder = record_folder(t)
    return [*variant_path, folder] if folder is not None else list(variant_path)


def transcript_variant(t: Transcript, variant_path: Sequence[str | Path] = ()
                       ) -> tuple[Variant | None, list[Diagnostic]]:
    """The variant a transcript names, with its ``option`` overrides applied.

    The record may name a bundled variant, or a ``.yaml`` file inside the record's folder or
    one of ``variant_path``; any other name is refused (``T014``) without opening the file,
    so a record cannot make the checker read, or quote, a file the user did not allow.

    Loaded variants are kept for the games that follow (an archive names the same
    variant over and over), a few at a time.
    """
    key = (t.variant or "", t.header("rules-text") or "", *map(str, _folders(t, variant_path)),
           *(f"{k}={v}" for k, v in t.options))
    hit = _VARIANTS.get(key)
    if hit is not None and hit[0] is not None:
        return hit[0], []
    result = _load_transcript_variant(t, variant_path)
    from ..lang.loader import looks_like_path

    # (a variant file may change or go: the loader's own memo checks its files every time)
    if result[0] is not None and not looks_like_path(t.variant or ""):
        if len(_VARIANTS) >= 16:
            del _VARIANTS[next(iter(_VARIANTS))]
        _VARIANTS[key] = result
    return result


def _find(t: Transcript, variant_path: Sequence[str | Path]) -> tuple[Path | None, Diagnostic | None]:
    """The file of the record's variant, or the diagnostic that says why there is none."""
    from ..lang.loader import allowed_folders, bundled_names, find_allowed, looks_like_path

    name = t.variant or ""
    found, refused = find_allowed(name, allowed_folders(_folders(t, variant_path)))
    if refused is not None:
        where = (tr("a .yaml file in its own folder") if record_folder(t) is not None
                 else tr("no file (it was not read from a file)"))
        return None, _at(t, "variant", "T014", tr("the record names the variant {name!r}, which may not be read: {refused}",
                                                  name=name, refused=refused),
                         tr("a record may name a bundled variant or {where}; allow another folder with --variant-path "
                            "DIR, or let the record carry its rules: `updown convert RECORD --embed-rules --to log -o COPY` where "
                            "the variant file can be read", where=where))
    if found is None:
        if looks_like_path(name):
            return None, _at(t, "variant", "T010", tr("cannot load the variant {name!r}: no such variant file: {name!r}",
                                                      name=name),
                             tr("put the variant file next to the record, or name its folder with --variant-path "
                                "DIR; a record that travels carries its rules: `updown play --embed-rules`, or "
                                "`updown convert RECORD --embed-rules --to log -o COPY` where the variant file is"))
        import difflib

        close = difflib.get_close_matches(name, bundled_names(), n=1)
        return None, _at(t, "variant", "T010", tr("cannot load the variant {name!r}: no bundled variant named {name!r}",
                                                  name=name), tr("did you mean {value!r}?", value=close[0]) if close else
                         tr("bundled variants: {names}", names=", ".join(bundled_names())))
    return found, None


def _load_transcript_variant(t: Transcript, variant_path: Sequence[str | Path]
                             ) -> tuple[Variant | None, list[Diagnostic]]:
    from ..lang.loader import load_with_options, try_load_variant

    if t.variant is None:
        return None, []
    if t.header("rules-text") is not None:
        return _embedded(t, with_options=True)
    found, problem = _find(t, variant_path)
    if found is None:
        return None, [problem] if problem is not None else []
    allowed = _folders(t, variant_path)
    variant, diags = try_load_variant(found, variant_path=allowed)
    if variant is None:
        return None, [_at(t, "variant", "T010", tr("cannot load the variant {variant!r}",
                                                   variant=t.variant))] + diags
    if not t.options:
        return variant, []
    variant, diags = load_with_options(found, list(t.options), f"{t.path or '<transcript>'} options",
                                       variant_path=allowed)
    if variant is None:
        msgs = "; ".join(d.message for d in diags)
        return None, [_at(t, "option", "T011", tr("the option lines cannot be applied: {msgs}", msgs=msgs))]
    return variant, []


def _embedded(t: Transcript, *, with_options: bool) -> tuple[Variant | None, list[Diagnostic]]:
    """The variant of a record's ``rules-text`` line (its resolved rules as JSON), with the
    record's ``option`` lines on top: no file is read (``extends`` reaches bundled variants only)."""
    import json

    from ..lang.loader import VariantError, apply_options, loads_variant
    from ..lang.yamltree import dump_yaml

    text = t.header("rules-text") or ""
    try:
        tree = json.loads(text)
    except (ValueError, RecursionError):
        tree = None
    if not isinstance(tree, dict):
        return None, [_at(t, "rules-text", "T010", tr("the rules written in the record ('rules-text') are not a JSON object"), tr("write them with --embed-rules, or leave the line out"))]
    if with_options:
        problem = apply_options(tree, t.options)
        if problem is not None:
            return None, [_at(t, "option", "T011", tr("the option lines cannot be applied: {message}",
                                                      message=problem.message))]
    try:
        return loads_variant(dump_yaml(tree), path=f"{t.path or '<record>'} rules-text"), []
    except VariantError as exc:
        first = exc.diagnostics[0].message if exc.diagnostics else "they are not a variant"
        code, key = ("T011", "option") if with_options and t.options else ("T010", "rules-text")
        return None, [_at(t, key, code, tr("the rules written in the record cannot be loaded: {first}",
                                           first=first))]


def _at(t: Transcript, key: str, code: str, message: str, hint: str | None = None) -> Diagnostic:
    line = next((h.line for h in t.headers if h.key == key), 1)
    return Diagnostic(code, message, path=t.path, line=line, col=1, hint=hint)


class Headers:
    """What a run of checks (one file, one archive) has worked out from records' headers.

    An archive names the same few variants over and over (an online room's export is
    thousands of one-deal records of one variant file): each distinct variant, with its
    ``option`` and ``rules-text`` lines and the folder it is looked for in, is found, loaded
    and hashed once per run, not once per record. The memo lives as long as the run, so a
    variant file changed between two runs is read again.
    """

    __slots__ = ("variant_path", "_variants", "_hashes")

    def __init__(self, variant_path: Sequence[str | Path] = ()) -> None:
        self.variant_path = tuple(variant_path)
        self._variants: dict[tuple[str, ...], Variant] = {}
        self._hashes: dict[tuple[tuple[str, ...], str], bool] = {}

    @staticmethod
    def _key(t: Transcript) -> tuple[str, ...]:
        # (by the record's file, not its folder: working the folder out costs more than a record)
        return (t.variant or "", t.header("rules-text") or "", t.path or "",
                *(f"{k}={v}" for k, v in t.options))

    def variant(self, t: Transcript) -> tuple[Variant | None, list[Diagnostic]]:
        """The variant ``t`` names (see :func:`transcript_variant`); a failure is not kept, as
        its diagnostics point into the record that failed."""
        key = self._key(t)
        hit = self._variants.get(key)
        if hit is not None:
            return hit, []
        variant, diags = transcript_variant(t, self.variant_path)
        if variant is not None:
            if len(self._variants) >= 64:
                del self._variants[next(iter(self._variants))]
            self._variants[key] = variant
        return variant, diags

    def rules_match(self, t: Transcript, variant: Variant, written: str) -> bool:
        """Whether the ``rules`` hash written in ``t`` is one its variant may carry."""
        key = (self._key(t), written)
        known = self._hashes.get(key)
        if known is None:
            known = written in _known_hashes(t, variant, self.variant_path)
            if len(self._hashes) >= 256:
                del self._hashes[next(iter(self._hashes))]
            self._hashes[key] = known
        return known

    def prepare(self, t: Transcript, diags: list[Diagnostic]) -> Game | None:
        """:func:`prepare_game` with this run's memo."""
        if any(d.code in ("T001", "T006") for d in diags):
            return None
        variant, vdiags = self.variant(t)
        diags.extend(vdiags)
        if variant is None:
            return None
        n = len(t.players)
        if not variant.min_players <= n <= variant.max_players:
            diags.append(_at(t, "players", "T012", tr("{name} is for {min_players} to {max_players} players, the record has {n}",
                                                      name=variant.name, min_players=variant.min_players, max_players=variant.max_players, n=n)))
            return None
        written_hash = t.header("rules")
        if written_hash is not None and not self.rules_match(t, variant, written_hash):
            d = _at(t, "rules", "T013", tr("the rules of {variant!r} differ from those the record was written with (rules: {written_hash})",
                                           variant=t.variant, written_hash=written_hash),
                    tr("the variant file changed since the game was written; the check uses the rules as they are now"))
            diags.append(Diagnostic(d.code, d.message, Severity.WARNING, d.path, d.line, d.col, hint=d.hint))
        first = t.first_dealer
        if first is None:  # no header: the first deal line may name the dealer
            first = next((e.actor for e in t.events if e.kind == "deal"), None)
        # (a fixed seed: a check draws nothing, and seeding from the system costs more than the deal)
        return Game(variant, n, first_dealer=first, auto_deal=False, seed=0)


def prepare_game(t: Transcript, diags: list[Diagnostic], variant_path: Sequence[str | Path] = ()
                 ) -> Game | None:
    """The game a record's header describes, ready to be fed its deals (or None when the
    record cannot be checked); header problems are added to ``diags``. ``variant_path``: the
    folders besides the record's own where its variant file may be (see
    :func:`transcript_variant`). A run over many records uses one :class:`Headers` instead."""
    return Headers(variant_path).prepare(t, diags)


def _known_hashes(t: Transcript, variant: Variant, variant_path: Sequence[str | Path]) -> tuple[str, ...]:
    """The rules hashes a record of ``variant`` may carry: of the rules as checked, and of
    the named variant before its option lines."""
    from ..lang.variant import rules_hash

    hashes = [rules_hash(variant)]
    if t.options and t.header("rules-text") is not None:
        base = _embedded(t, with_options=False)[0]
        return (*hashes, rules_hash(base)) if base is not None else tuple(hashes)
    if t.options:
        from ..lang.loader import try_load_variant

        found, _ = _find(t, variant_path)
        base = try_load_variant(found, variant_path=_folders(t, variant_path))[0] if found is not None else None
        if base is not None:
            hashes.append(rules_hash(base))
    return tuple(hashes)


__all__ = ["CheckReport", "Headers", "prepare_game", "record_folder", "transcript_variant"]
