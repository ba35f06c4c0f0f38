#!/usr/bin/env python3
"""Rewrite every ``tests/golden/**/<name>.expected`` from what the current checker says.

    python tests/golden/regenerate.py            # rewrite, and print what changed
    python tests/golden/regenerate.py --dry-run  # print what would change, write nothing
    python tests/golden/regenerate.py odessa/revoke-penalty-full.log   # only these

Each ``.expected`` holds one line per diagnostic, in the checker's order, in the form
``line:col: severity[CODE]`` (the position is left out for a diagnostic about the whole
record, such as the T020 note). The message text is left out on purpose: it may be
reworded freely, the code and position may not.

Run it after a deliberate change to the checker and read the printed diff before
committing: a changed ``.expected`` is a changed behaviour. A golden file that records
a known checker bug holds the *correct* expectation; this script would overwrite it with
the wrong one, so check the diff.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: A record may read a variant file only in its own folder and in the folders the user allows
#: (``--variant-path``); ``odessa/house-rules-file.log`` names the house rules of ``docs/``.
VARIANT_PATH = [ROOT / "docs" / "house-rules"]


def render(d: object) -> str:
    """One diagnostic as ``line:col: severity[CODE]``."""
    line, col = getattr(d, "line"), getattr(d, "col")
    where = ""
    if line is not None:
        where = f"{line}:{col}: " if col is not None else f"{line}: "
    return f"{where}{getattr(d, 'severity')}[{getattr(d, 'code')}]"


def checker_lines(path: Path) -> list[str]:
    """The checker's diagnostics for every game in ``path``, rendered, in order."""
    from updown_dsl.records.checker import check_games

    out: list[str] = []
    for report in check_games(path, variant_path=VARIANT_PATH):
        out.extend(render(d) for d in report.diagnostics)
    return out


def golden_logs(selected: list[str] | None = None) -> list[Path]:
    logs = sorted(HERE.glob("**/*.log"))
    if selected:
        wanted = {(Path.cwd() / s).resolve() for s in selected} | {(HERE / s).resolve() for s in selected}
        logs = [p for p in logs if p.resolve() in wanted]
    return logs


def main(argv: list[str]) -> int:
    dry = "--dry-run" in argv
    selected = [a for a in argv if not a.startswith("-")]
    changed = 0
    for log in golden_logs(selected):
        expected = log.with_suffix(".expected")
        new = "".join(x + "\n" for x in checker_lines(log))
        old = expected.read_text(encoding="utf-8") if expected.exists() else None
        if new == old:
            continue
        changed += 1
        name = str(expected.relative_to(HERE))
        if old is None:
            print(f"new {name}")
            sys.stdout.write(new)
        else:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       f"a/{name}", f"b/{name}"))
        if not dry:
            expected.write_text(new, encoding="utf-8")
    verb = "would change" if dry else "changed"
    print(f"{changed} .expected file(s) {verb}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
