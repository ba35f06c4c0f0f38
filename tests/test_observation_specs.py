"""The observation spec of every bundled variant, as data (docs/observations/VARIANT.json).

Each file holds the variant's observation layout (:meth:`Observation.spec`: a block's name,
offset, size and meaning) and golden vectors: what one seat sees at three positions of a
seeded game (the first decision, the first card of the first trick to reach play with a card
on the table, and the first decision of the second deal), written as the non-zero entries of
each block. The test holds the code to the files; after a deliberate change of the encoding,
``python tests/test_observation_specs.py --write`` writes them again (read the diff).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import updown_dsl as ud
from updown_dsl.research.space import ActionSpace, Observation

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "observations"


def _nonzero(obs: Observation, vec: list[float]) -> dict[str, dict[str, float]]:
    return {b.name: {str(i): round(vec[b.offset + i], 6) for i in range(b.size) if vec[b.offset + i]}
            for b in obs.blocks}


def _position(game: ud.Game, obs: Observation, label: str) -> dict[str, Any]:
    seat = game.to_act
    return {"position": label, "deal": game.deal.number, "phase": game.phase.value, "seat": seat,
            "legal": sorted(ActionSpace(game.variant, game.players).legal_ids(game)),
            "nonzero": _nonzero(obs, obs.vector(game, seat))}


def build(name: str) -> dict[str, Any]:
    """The spec file of bundled variant ``name``."""
    variant = ud.load_variant(name)
    players = variant.default_players
    obs = Observation(variant, players)
    game = ud.Game(variant, players, seed=7)
    rng = random.Random(7)
    vectors = [_position(game, obs, "first decision")]
    card_seen = False
    while not game.is_over and game.deal_index == 0:
        if not card_seen and game.phase is ud.Phase.PLAY and game.trick:
            vectors.append(_position(game, obs, "first trick, a card on the table"))
            card_seen = True
        game.apply(rng.choice(game.legal_actions()))
    if not game.is_over:
        vectors.append(_position(game, obs, "first decision of deal 2"))
    return {"variant": name, "players": players, "size": obs.size,
            "actions": ActionSpace(variant, players).size, "blocks": obs.spec(),
            "golden": {"seed": 7, "policy": "uniformly random legal actions from random.Random(7)",
                       "vectors": vectors}}


def text(name: str) -> str:
    return json.dumps(build(name), indent=1, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("name", ud.bundled_names())
def test_spec_file_matches_the_encoding(name: str) -> None:
    path = FOLDER / f"{name}.json"
    assert path.exists(), f"no {path.name}: python tests/test_observation_specs.py --write"
    assert json.loads(path.read_text()) == json.loads(text(name)), \
        f"{path.name} differs from the encoding: python tests/test_observation_specs.py --write, and read the diff"


def test_every_spec_file_is_a_bundled_variant() -> None:
    assert sorted(p.stem for p in FOLDER.glob("*.json")) == sorted(ud.bundled_names())


def test_golden_vectors_are_what_the_seat_may_know() -> None:
    """A vector's `hand` block is the seat's own cards only: in the oh-hell file, the first
    decision's hand entries are exactly the acting seat's cards."""
    data = json.loads((FOLDER / "oh-hell.json").read_text())
    first = data["golden"]["vectors"][0]
    game = ud.Game(ud.load_variant("oh-hell"), data["players"], seed=7)
    table = game.table
    assert sorted(int(i) for i in first["nonzero"]["hand"]) == sorted(table.index[c] for c in game.hand(first["seat"]))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        FOLDER.mkdir(exist_ok=True)
        for n in ud.bundled_names():
            (FOLDER / f"{n}.json").write_text(text(n))
        print(f"wrote {len(ud.bundled_names())} files in {FOLDER}")
    else:
        print(__doc__)
