"""The package is laid out as the pipeline it is, and stays so.

* Imports run one way: the base values (cards, actions, diagnostics), then the variant
  language (``lang``), the engine, the records, the players, many games at once (``batch``),
  the web pages and charts (``pages``) and the command line (``cli``).
  No module imports one of a later stage, not even inside a function.
* No import cycles between modules (imports only for type checkers do not count).
* No underscore name is imported from another subpackage, and outside the engine no code
  reads another object's underscore attribute: later stages use earlier stages' public names.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "updown_dsl"
STAGES = {"cards": 0, "actions": 0, "diagnostics": 0, "i18n": 0, "safetext": 0, "outfiles": 0, "lang": 1, "engine": 2, "records": 3, "players": 4, "research": 5,
          "batch": 5, "pages": 6, "cli": 7}
MODULES = sorted(p for p in PACKAGE.rglob("*.py"))
#: The named tuple's own API, whose names start with an underscore but are public.
NAMEDTUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_make"})


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def stage(name: str) -> int | None:
    parts = name.split(".")
    return STAGES.get(parts[1]) if len(parts) > 1 else None


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(path: Path) -> set[str]:
    """The updown_dsl modules ``path`` imports when it runs (not for type checkers only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path)
    package = here if is_package(path) else here.rsplit(".", 1)[0]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _type_checking_block(node):
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("updown_dsl"):
                for alias in node.names:  # `from . import x` may name a module
                    sub = f"{target}.{alias.name}"
                    out.add(sub if (PACKAGE.parent / (sub.replace(".", "/") + ".py")).exists()
                            or (PACKAGE.parent / sub.replace(".", "/")).is_dir() else target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("updown_dsl"))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    out.discard(here)
    return out


GRAPH = {module_name(p): imports(p) for p in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_imports_run_one_way(path: Path) -> None:
    name = module_name(path)
    mine = stage(name)
    if mine is None:  # updown_dsl itself and __main__ give the public names and the command
        return
    later = sorted(m for m in GRAPH[name] if (stage(m) or 0) > mine)
    assert not later, f"{name} (stage {mine}) imports a later stage: {later}"


def test_no_import_cycles() -> None:
    # Tarjan's strongly connected components over the modules (a package counts as its __init__).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def edges(v: str) -> list[str]:
        return [w for w in GRAPH.get(v, ()) if w in GRAPH and not v.startswith(w + ".")]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges(v):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in GRAPH:
        if v not in index:
            strong(v)
    assert not cycles, f"import cycles: {cycles}"


@pytest.mark.slow
@pytest.mark.parametrize("path", MODULES, ids=[module_name(p) for p in MODULES])
def test_no_private_name_crosses_a_subpackage(path: Path) -> None:
    """An underscore name is imported only from the module's own subpackage, and only the
    engine (which owns the objects it works on) reads another object's underscore attribute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = path.parent
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            same = node.level == 1 and own != PACKAGE
            assert not private or same, f"{module_name(path)}:{node.lineno} imports {private} from {node.module}"
    if own.name in ("engine", "lang") or own == PACKAGE:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                and node.attr not in NAMEDTUPLE_API:
            value = node.value
            assert isinstance(value, ast.Name) and value.id in ("self", "cls"), \
                f"{module_name(path)}:{node.lineno} reads {ast.unparse(node)}"


PACKAGES = sorted(p for p in MODULES if is_package(p) and p.parent != PACKAGE)


@pytest.mark.parametrize("path", PACKAGES, ids=[module_name(p) for p in PACKAGES])
def test_package_docstring_names_its_modules(path: Path) -> None:
    """Each stage says what it holds: its docstring names every module in it."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    assert "May import" in doc or "may import" in doc, f"{module_name(path)} does not say what it may import"
    missing = [m.stem for m in path.parent.glob("*.py") if m.stem != "__init__" and f"``{m.stem}``" not in doc]
    assert not missing, f"{module_name(path)}'s docstring does not name {missing}"


# --------------------------------------------------------------------------- docs/architecture.md

ARCHITECTURE = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_architecture_names_every_module_and_only_real_ones() -> None:
    import re

    diagram = ARCHITECTURE.split("```")[1]
    named: set[str] = set()
    package = None
    for line in diagram.splitlines():
        m = re.search(r"│ (\w+)/", line)
        if m:
            package = m.group(1)
        if line.count("│") < 2 and "┘" not in line:  # the arrows between the boxes
            continue
        tail = re.split(r"[│┘]", line)[-1]
        if package:
            named.update(f"{package}.{w}" for w in re.findall(r"[a-z_]+", tail))
    actual = {f"{p.parent.name}.{p.stem}" for p in MODULES
              if p.parent != PACKAGE and p.stem not in ("__init__", "formula_trees", "files")}
    assert named - actual == set(), f"the diagram names modules that do not exist: {named - actual}"
    assert actual - named == set(), f"the diagram leaves out: {actual - named}"


def test_architecture_paths_and_code_are_real() -> None:
    import re

    root = PACKAGE.parent
    for path in set(re.findall(r"`((?:lang|engine|records|players|cli)/\w+\.py)", ARCHITECTURE)):
        assert (PACKAGE / path).exists(), path
    for path in set(re.findall(r"`((?:tests|benchmarks)/[\w/.-]+\.py)`", ARCHITECTURE)):
        assert (root / path).exists(), path
    # The worked path quotes the code: each quoted line must be in the module it names.
    schema = (PACKAGE / "lang" / "schema.py").read_text(encoding="utf-8")
    block = ARCHITECTURE.split("```python")[1].split("```")[0]
    squeeze = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    assert squeeze(block) in squeeze(schema)
    for quoted, module in [
        ("BiddingRules.hook_exempt: Formula | None = None", "lang/variant.py"),
        ('hook_exempt=b["hook_exempt"]', "lang/build.py"),
        ('self.hook = bool(hook) and kind.bidding != "sealed" and not (', "engine/plan.py"),
        ("b.hook_exempt(self.env))", "engine/plan.py"),
        ("self.hook = plan.hook", "engine/bidding.py"),
        ('"R021"', "engine/bidding.py"),
        ("g.apply(action)", "records/audit.py"),
    ]:
        text = (PACKAGE / module).read_text(encoding="utf-8")
        probe = quoted.split(".", 1)[1] if quoted.startswith("BiddingRules.") else quoted
        assert probe in text, f"{quoted!r} is not in {module}"
    for qualified in ["Values.formula", "Builder.build", "Bidding.forbidden", "Bidding.allows", "Bidding.refusal",
                      "DealAudit.act", "DealPlan"]:
        cls, _, meth = qualified.partition(".")
        found = any(f"class {cls}" in p.read_text(encoding="utf-8") and (not meth or f"def {meth}(" in p.read_text(encoding="utf-8"))
                    for p in MODULES)
        assert found, qualified
