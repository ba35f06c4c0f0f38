"""docs/notebook.ipynb: a game, a deal and a checked record drawn in a notebook (pages/notebook.py).

The notebook's code cells are run here in-process, as Jupyter would run them (no Jupyter
needed): each cell's last expression is shown by its ``_repr_html_`` / ``_repr_svg_``, and the
outputs kept in the notebook must be what the code draws now. After a change of the drawings,
write the notebook again with ``python tests/test_notebook.py --write``.
"""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "notebook.ipynb"

#: The notebook's cells: ("markdown" | "code", source).
CELLS: list[tuple[str, str]] = [
    ("markdown", """# updown in a notebook

A game, a deal and a checked record draw themselves in Jupyter, as python-chess draws a board:
evaluate one in a cell. Nothing beyond updown is needed (no chart library): the drawings are
the HTML of updown's own pages (`updown view`) and a small SVG picture of the hands.
See [api.md](api.md) for the Python API."""),
    ("code", """import random
import updown_dsl as ud

game = ud.Game(ud.load_variant("georgian"), players=4, seed=1)
game"""),
    ("markdown", """The table: each seat's hand, bid, tricks taken and total, with ▶ at the seat to act.
Play on with random legal actions, and the score sheet of the finished deals appears under it:"""),
    ("code", """rng = random.Random(1)
for _ in range(30):
    game.apply(rng.choice(game.legal_actions()))
game"""),
    ("markdown", """A picture of the deal in progress: each seat's cards, trumps framed, the trick on the table at the right."""),
    ("code", """ud.picture(game)"""),
    ("markdown", """A deal, once scored, is one of `game.results`: the hands as dealt, the bids, the tricks card by card, the points."""),
    ("code", """game.results[1]"""),
    ("markdown", """A whole game between bots ends with the settlement at the foot of the sheet:"""),
    ("code", """from updown_dsl.players.bots import make_bot

game = ud.Game(ud.load_variant("odessa"), players=4, seed=7)
bots = [make_bot("heuristic", random.Random(seat)) for seat in range(4)]
while not game.is_over:
    game.apply(bots[game.to_act].act(game.view(game.to_act)))
game"""),
    ("markdown", """A checked record shows how the game stands, every problem the checker found and the score sheet
(the record is one of [the examples](examples/), with a revoke in deal 3):"""),
    ("code", """ud.check_file("examples/invalid-revoke.log")"""),
]


def _run_cells() -> list[dict[str, Any] | None]:
    """Each code cell's display data (None for a cell without a value), run in order in one
    namespace, from docs/ as Jupyter would (the record's path is relative to the notebook)."""
    namespace: dict[str, Any] = {"__name__": "__notebook__"}
    shown: list[dict[str, Any] | None] = []
    here = os.getcwd()
    os.chdir(NOTEBOOK.parent)
    try:
        for kind, source in CELLS:
            if kind != "code":
                continue
            tree = ast.parse(source)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, "<cell>", "exec"), namespace)  # (the notebook's own code, as Jupyter runs it)
            if last is None:
                shown.append(None)
                continue
            value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
            data: dict[str, Any] = {"text/plain": repr(value)}
            for mime, method in (("text/html", "_repr_html_"), ("image/svg+xml", "_repr_svg_")):
                drawn = getattr(value, method, lambda: None)()
                if drawn is not None:
                    data[mime] = drawn
            shown.append(data)
    finally:
        os.chdir(here)
    return shown


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def build_notebook() -> dict[str, Any]:
    """The notebook's JSON (nbformat 4), with the outputs the code draws now."""
    outputs = iter(_run_cells())
    cells: list[dict[str, Any]] = []
    count = 0
    for kind, source in CELLS:
        if kind == "markdown":
            cells.append({"cell_type": "markdown", "metadata": {}, "source": _lines(source)})
            continue
        count += 1
        data = next(outputs)
        out = [] if data is None else [{"output_type": "execute_result", "execution_count": count, "metadata": {},
                                         "data": {k: _lines(v) for k, v in data.items()}}]
        cells.append({"cell_type": "code", "execution_count": count, "metadata": {}, "outputs": out,
                      "source": _lines(source)})
    return {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                        "name": "python3"},
                                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 4}


def _text(notebook: dict[str, Any]) -> str:
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def test_the_notebook_runs_and_draws_a_game_a_deal_and_a_record() -> None:
    shown = _run_cells()
    start, played, pic, deal, finished, report = shown
    assert start is not None and 'class="updown-nb updown-game"' in start["text/html"]
    assert "▶" in start["text/html"] and start["image/svg+xml"].startswith("<svg")
    assert played is not None and '<table class="sheet">' in played["text/html"]  # the finished deals' sheet
    assert pic is not None and set(pic) == {"text/plain", "image/svg+xml"} and "<rect" in pic["image/svg+xml"]
    assert deal is not None and "updown-deal" in deal["text/html"] and deal["image/svg+xml"].startswith("<svg")
    assert finished is not None and 'class="settlement"' in finished["text/html"]
    assert report is not None and "R010" in report["text/html"] and "Anna" in report["text/html"]
    for data in shown:  # nothing a page script or an outside file would be needed for
        assert data is not None and "<script" not in json.dumps(data) and "src=" not in json.dumps(data)


def test_the_notebook_in_docs_is_valid_and_current() -> None:
    kept = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert kept["nbformat"] == 4 and [c["cell_type"] for c in kept["cells"]] == [k for k, _ in CELLS]
    assert [("".join(c["source"])) for c in kept["cells"]] == [s for _, s in CELLS]
    assert NOTEBOOK.read_text(encoding="utf-8") == _text(build_notebook()), \
        "docs/notebook.ipynb is stale: run `python tests/test_notebook.py --write`"


def test_without_the_pages_a_game_shows_its_text() -> None:
    from updown_dsl.engine import display

    import updown_dsl as ud

    game = ud.Game(ud.load_variant("oh-hell"), 3, seed=1)
    saved = dict(display._RENDERERS)
    display._RENDERERS.clear()
    try:
        assert game._repr_html_() is None and game._repr_svg_() is None  # Jupyter then shows repr()
    finally:
        display._RENDERERS.update(saved)
    assert game._repr_html_() is not None


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--write"]:
        NOTEBOOK.write_text(_text(build_notebook()), encoding="utf-8")
        print(f"wrote {NOTEBOOK}")
    else:
        pytest.main([__file__, "-q"])


def test_the_drawings_speak_the_readers_language() -> None:
    from updown_dsl import i18n

    import updown_dsl as ud

    game = ud.Game(ud.load_variant("odessa"), 4, seed=2)
    while not game.results:
        game.apply(game.legal_actions()[0])
    i18n.set_language("ru")
    try:
        html, deal = game._repr_html_(), game.results[0]._repr_html_()
    finally:
        i18n.set_language("en")
    assert html is not None and "Сдача 2 из 15" in html and "сдаёт p1" in html and "на руке" in html
    assert deal is not None and "Сдача 1:" in deal and "берёт" in deal
