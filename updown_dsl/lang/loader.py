"""Load variant files: YAML -> validated, compiled :class:`Variant`.

The entry points for reading variant YAML. One :class:`Load` is three collaborators that add
to one :class:`~.values.Problems`: the :class:`Reader` finds the file, keeps every value's
position and merges the ``extends`` chain; :class:`~.values.Values` checks each value against
:mod:`updown_dsl.lang.schema` and compiles formulas once; :class:`~.build.Builder` makes the
model from the checked values. Loads are remembered per process. Every problem is reported in
one pass as ``file:line:col: error[CODE] message``.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..i18n import language, tr
from ..diagnostics import Diagnostic, UpdownError
from .build import Builder
from .files import package_file
from .values import Problems, Values
from .variant import Variant
from .yamltree import Node, parse_yaml


class VariantError(UpdownError):
    """A variant file could not be loaded; ``diagnostics`` says why."""


def variants_dir() -> Path:
    """Where the bundled variant files are (installed package or source checkout)."""
    return package_file("variants")


def bundled_names() -> list[str]:
    """Names of the bundled variants, sorted."""
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def resolve_variant_path(name_or_path: str, relative_to: Path | None = None) -> Path | None:
    """A bundled name or a file path -> the file, or None if there is none.

    A bare name (no ``/``, no ``.yaml``) is the bundled variant of that name when there is one,
    whatever files the current folder holds.
    """
    if not looks_like_path(name_or_path):
        bundled = _bundled(name_or_path)
        if bundled is not None:
            return bundled
    try:
        candidate = Path(name_or_path)
        if relative_to is not None and not candidate.is_absolute():
            rel = relative_to / candidate
            if rel.is_file():
                return rel
        return candidate if candidate.is_file() else None
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return None


def _bundled(name: str) -> Path | None:
    """The bundled file of a bare name, if there is one."""
    bundled = variants_dir() / f"{name}.yaml"
    try:
        return bundled if bundled.is_file() else None
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return None


def looks_like_path(text: str) -> bool:
    """Whether ``text`` names a file (a folder in it, or a ``.yaml`` end) rather than a bundled variant."""
    return "/" in text or "\\" in text or text.lower().endswith((".yaml", ".yml"))


def _inside(path: Path, folders: Sequence[Path]) -> bool:
    return any(path == f or path.is_relative_to(f) for f in folders)


def allowed_folders(paths: Iterable[str | Path]) -> tuple[Path, ...]:
    """The folders ``extends`` and records may read from, resolved (an unusable one dropped)."""
    out: list[Path] = []
    for p in paths:
        try:
            out.append(Path(p).resolve())
        except (OSError, RuntimeError, ValueError):  # an unusable folder allows nothing
            continue
    return tuple(out)


def find_allowed(name: str, folders: Sequence[Path]) -> tuple[Path | None, str | None]:
    """A variant file named in a record or an ``extends`` line, looked for only in ``folders``.

    ``name`` is a bundled variant's name or a ``.yaml`` path relative to one of the folders
    (or absolute, inside one). Returns ``(file, None)``, or ``(None, why)`` when the name leaves
    the folders or is not a variant file's name: the file is then never opened, nor is it told
    whether it exists. ``(None, None)`` when an allowed name names no file.
    """
    if not looks_like_path(name):
        return _bundled(name), None
    if not name.lower().endswith((".yaml", ".yml")):
        return None, "a variant file's name ends in .yaml or .yml"
    try:
        candidate = Path(name)
        tries = [candidate] if candidate.is_absolute() else [f / candidate for f in folders]
        inside_any = False
        for c in tries:
            resolved = c.resolve()  # symbolic links followed: a link out of the folder is out
            if not _inside(resolved, folders):
                continue
            inside_any = True
            if resolved.is_file():
                return resolved, None
    except (OSError, RuntimeError, ValueError):  # too long a name, a loop of links, a NUL byte
        return None, "it is not a usable file name"
    if not inside_any:
        return None, "it is outside the folders a variant may be read from"
    return None, None


def load_variant(name_or_path: str | Path, *, variant_path: Sequence[str | Path] = ()) -> Variant:
    """Load a bundled variant by name (the file stem in ``variants/``) or a variant file by path.

    ``extends`` in the file reaches bundled variants and files inside the file's own folder
    or one of ``variant_path``; nothing else.

    :raises VariantError: with every problem found.
    """
    variant, diags = try_load_variant(name_or_path, variant_path=variant_path)
    if variant is None:
        raise VariantError(diags)
    return variant


def try_load_variant(name_or_path: str | Path, *, variant_path: Sequence[str | Path] = ()
                     ) -> tuple[Variant | None, list[Diagnostic]]:
    """Like :func:`load_variant` but returns ``(variant or None, diagnostics)``.

    Loads are remembered for the process: loading the same file again, while neither it
    nor a file it extends has changed, returns the same :class:`Variant` at once.
    """
    text = str(name_or_path)
    path = resolve_variant_path(text)
    if path is None:
        if looks_like_path(text):
            return None, [Diagnostic("V001", tr("no such variant file: {text!r}", text=text), path=text)]
        close = difflib.get_close_matches(text, bundled_names(), n=1)
        hint = tr("did you mean {value!r}?", value=close[0]) if close else tr("bundled variants: {names}",
                                                                              names=", ".join(bundled_names()))
        return None, [Diagnostic("V010", tr("no bundled variant named {text!r}", text=text), hint=hint)]
    folders = allowed_folders([path.resolve().parent, *variant_path])
    key = ("file", str(path.resolve()), os.getcwd(), language(), *map(str, folders))  # (messages differ by language)
    hit = LOADS.get(key)
    if hit is not None:
        return hit
    load = Load(folders)
    variant, diags = load.load_file(path)
    return LOADS.put(key, load, variant, sort_diagnostics(diags))


def _file_state(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return path, -1, -1
    return path, st.st_mtime_ns, st.st_size


class Memo:
    """Loads remembered by what was asked (with the working directory, which diagnostics' paths
    are relative to, and the language of the messages), each with the files read and their
    state then: a load is remembered while none of its files has changed. A few dozen at most."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._loads: dict[tuple[str, ...], tuple[Variant | None, list[Diagnostic],
                                                 tuple[tuple[str, int, int], ...]]] = {}

    def get(self, key: tuple[str, ...]) -> tuple[Variant | None, list[Diagnostic]] | None:
        """The load remembered for ``key`` (a copy of its diagnostics), or None."""
        hit = self._loads.get(key)
        if hit is None:
            return None
        variant, diags, files = hit
        if any(_file_state(state[0]) != state for state in files):
            del self._loads[key]
            return None
        return variant, list(diags)

    def put(self, key: tuple[str, ...], load: Load, variant: Variant | None,
            diags: list[Diagnostic]) -> tuple[Variant | None, list[Diagnostic]]:
        """Remember ``load``'s result under ``key``; returns it."""
        if len(self._loads) >= self.size:
            del self._loads[next(iter(self._loads))]
        self._loads[key] = (variant, list(diags), tuple(load.files))
        return variant, diags


#: The loads of this process.
LOADS = Memo()


def sort_diagnostics(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file order (stable for equal positions)."""
    return sorted(diags, key=lambda d: (d.path or "", d.line or 0, d.col or 0))


def loads_variant(text: str, path: str = "<string>", *, variant_path: Sequence[str | Path] = ()) -> Variant:
    """Load a variant from YAML text. ``extends`` reaches bundled names, and files inside
    ``variant_path`` (relative paths are taken from the current folder).

    :raises VariantError: with every problem found.
    """
    folders = allowed_folders(variant_path)
    key = ("text", text, path, os.getcwd(), language(), *map(str, folders))
    hit = LOADS.get(key)
    if hit is None:
        load = Load(folders)
        root, diags = parse_yaml(text, path)
        variant, more = load.finish(root, diags, path, Path.cwd())
        hit = LOADS.put(key, load, variant, sort_diagnostics(more) if variant is None else [])
    variant, diags = hit
    if variant is None:
        raise VariantError(diags)
    return variant


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)



def _merge(base: Node, over: Node) -> Node:
    """Deep-merge two mapping nodes: keys of ``over`` win, mappings merge recursively."""
    if base.kind != "map" or over.kind != "map":
        return over
    items = list(base.items)
    index = {k.value: i for i, (k, _) in enumerate(items)}
    for k, v in over.items:
        if k.value in index:
            i = index[k.value]
            old = items[i][1]
            items[i] = (k, _merge(old, v) if old.kind == "map" and v.kind == "map" else v)
        else:
            items.append((k, v))
    return Node("map", over.line, over.col, over.path, items=items)


class Reader:
    """The files of one load: the file asked for and the ``extends`` chain under it, merged
    into one tree, with every problem added to ``problems``.

    ``folders``: where ``extends`` may reach besides the bundled variants (the folder of the
    file asked for, and the folders the user allowed).
    """

    def __init__(self, problems: Problems, folders: Sequence[Path] = ()) -> None:
        self.problems = problems
        self.folders = (*folders, variants_dir().resolve())
        self.chain: list[Path] = []
        """The files being read, outermost first (an ``extends`` back into one is a cycle)."""
        self.extends_failed = False
        """A base could not be read: keys it would supply are not reported missing."""
        self.files: list[tuple[str, int, int]] = []
        """Every file read, with its modification time and size then (for the memo)."""

    def read(self, path: Path) -> Node | None:
        """The merged tree of the file at ``path``, or None when it cannot be read."""
        self.chain.append(path.resolve())
        return self._read_tree(path)

    def _read_tree(self, path: Path) -> Node | None:
        shown = _display(path)
        self.files.append(_file_state(str(path.resolve())))
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.problems.add(Diagnostic("V001", tr("cannot read variant file: {exc}", exc=exc), path=shown))
            return None
        root, diags = parse_yaml(text, shown, cached=True)
        self.problems.extend(diags)
        if root is None:
            if not diags:
                self.problems.add(Diagnostic("V001", tr("the variant file is empty"), path=shown, line=1, col=1))
            return None
        return self.expand(root, path.parent, path)

    def expand(self, root: Node, folder: Path, path: Path | None) -> Node | None:
        """``root`` merged over the file its ``extends`` names (read from ``folder``, the
        folder of the file at ``path``, None for a text), or None when it is no mapping."""
        if root.kind != "map":
            self.problems.at(root, "V004", tr("a variant file must be a mapping of keys to values"))
            return None
        ext = root.get("extends")
        if ext is None or ext.value is None:
            return root
        if not isinstance(ext.value, str):
            self.problems.at(ext, "V004", tr("`extends` must be a variant name or path"))
            self.extends_failed = True
            return root
        if looks_like_path(ext.value) and not Path(ext.value).is_absolute():
            ext_name = str((folder / ext.value).absolute())  # relative to the file that says it
        else:
            ext_name = ext.value
        base_path, refused = find_allowed(ext_name, self.folders)
        if refused is not None:
            self.problems.at(ext, "V013", tr("`extends` may not read {value!r}: {refused}",
                                             value=ext.value, refused=refused),
                             hint=tr("extend a bundled variant or a file in this file's folder; allow another folder with --variant-path"))
            self.extends_failed = True
            return root
        if base_path is None:
            close = difflib.get_close_matches(ext.value, bundled_names(), n=1)
            self.problems.at(ext, "V010", tr("`extends` names no bundled variant or file: {value!r}",
                                             value=ext.value),
                             hint=tr("did you mean {value!r}?",
                                     value=close[0]) if close else tr("bundled: ") + ", ".join(bundled_names()))
            self.extends_failed = True
            return root
        resolved = base_path.resolve()
        if resolved in self.chain or (path is not None and resolved == path.resolve()):
            self.problems.at(ext, "V010", tr("`extends` forms a cycle through {value!r}", value=ext.value))
            self.extends_failed = True
            return root
        self.chain.append(resolved)
        base = self._read_tree(base_path)
        self.chain.pop()
        if base is None:
            self.extends_failed = True
            return root
        merged = _merge(base, root)
        merged.items = [(k, v) for k, v in merged.items if k.value != "extends"]
        return merged


class Load:
    """One load of a variant: the :class:`Reader` merges the files, then a :class:`Builder`
    over the checked :class:`Values` makes the model; all three add to one :class:`Problems`."""

    def __init__(self, folders: Sequence[Path] = ()) -> None:
        self.problems = Problems()
        self.reader = Reader(self.problems, folders)

    @property
    def files(self) -> list[tuple[str, int, int]]:
        """Every file read, with its state then."""
        return self.reader.files

    def load_file(self, path: Path) -> tuple[Variant | None, list[Diagnostic]]:
        """The variant of the file at ``path`` and every problem found."""
        tree = self.reader.read(path)
        if tree is None:
            return None, self.problems.found
        return self._build(tree, _display(path))

    def finish(self, root: Node | None, diags: list[Diagnostic], path: str,
               folder: Path) -> tuple[Variant | None, list[Diagnostic]]:
        """The variant of a text already parsed (``root`` and its ``diags``), named ``path``,
        whose ``extends`` is read from ``folder``."""
        self.problems.extend(diags)
        if root is None:
            if not diags:
                self.problems.add(Diagnostic("V001", tr("the variant text is empty"), path=path, line=1, col=1))
            return None, self.problems.found
        tree = self.reader.expand(root, folder, None)
        if tree is None:
            return None, self.problems.found
        return self._build(tree, path)

    def _build(self, tree: Node, path: str) -> tuple[Variant | None, list[Diagnostic]]:
        values = Values(self.problems, extends_failed=self.reader.extends_failed)
        return Builder(values).build(tree, path)


#: The most parts an option's key path may have (``scoring.params.pass`` has three).
MAX_OPTION_PARTS = 8


def apply_options(tree: dict[str, Any], options: Sequence[tuple[str, str]]) -> Diagnostic | None:
    """Set each ``key.path=value`` option in ``tree`` (the value read as YAML), or say why one
    cannot be set: too many parts, or a part that is not a mapping."""
    from .yamltree import value_from_text

    for key, value in options:
        node = tree
        parts = key.split(".")
        if len(parts) > MAX_OPTION_PARTS:  # a variant file's keys are at most four deep
            return Diagnostic("V012", tr("option {value!r}... has {count} parts, more than {MAX_OPTION_PARTS}",
                                         value=key[:60], count=len(parts), MAX_OPTION_PARTS=MAX_OPTION_PARTS))
        for part in parts[:-1]:
            nxt = node.setdefault(part, {})
            if not isinstance(nxt, dict):
                return Diagnostic("V012", tr("option {value!r} clashes with another option or the rules",
                                             value=key[:60]))
            node = nxt
        node[parts[-1]] = value_from_text(value)
    return None


def load_with_options(
    name_or_path: str | Path, options: list[tuple[str, str]], label: str = "<options>", *,
    variant_path: Sequence[str | Path] = (),
) -> tuple[Variant | None, list[Diagnostic]]:
    """A variant with ``key.path=value`` overrides applied (as a one-file ``extends`` overlay)."""
    from .yamltree import dump_yaml

    base, diags = try_load_variant(name_or_path, variant_path=variant_path)
    if base is None or not options:
        return base, diags
    overlay: dict[str, Any] = {}
    problem = apply_options(overlay, options)
    if problem is not None:
        return None, [problem]
    found = resolve_variant_path(str(name_or_path))
    extends = str(found.resolve()) if found is not None else str(name_or_path)
    text = dump_yaml({"extends": extends, "name": f"{base.name} (with options)", **overlay})
    allowed = [*variant_path, found.resolve().parent] if found is not None else list(variant_path)
    try:
        return loads_variant(text, path=label, variant_path=allowed), []
    except VariantError as exc:
        return None, exc.diagnostics
