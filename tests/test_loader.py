"""Loading variant files: bundled variants, ``extends``, one-pass reporting, safety."""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from updown_dsl import Game, Phase, load_variant, loads_variant, try_load_variant
from updown_dsl.diagnostics import CATALOGUE, UpdownError
from updown_dsl.lang.loader import VariantError, bundled_names, variants_dir
from updown_dsl.lang.schedule import resolve_schedule, schedule_problems
from updown_dsl.lang.schema import SCHEMA

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "updown_dsl"
BUNDLED = bundled_names()


def play_to_end(game: Game, rng: random.Random, limit: int = 100_000) -> None:
    for _ in range(limit):
        if game.is_over:
            return
        actions = game.legal_actions()
        assert actions, f"no legal action in phase {game.phase}"
        game.apply(rng.choice(actions))
    raise AssertionError("game did not end")


def codes(exc: VariantError) -> list[str]:
    return sorted(d.code for d in exc.diagnostics)


# ------------------------------------------------------------------ bundled variants
def test_bundled_names_are_the_variant_files() -> None:
    files = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml"))
    assert BUNDLED == files
    assert len(BUNDLED) >= 10


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_variant_loads_cleanly(name: str) -> None:
    variant, diags = try_load_variant(name)
    assert diags == [], "\n".join(d.format() for d in diags)
    assert variant is not None
    assert variant.name == name, "a bundled variant's `name` is its file name"
    assert variant.description
    assert 2 <= variant.min_players <= variant.default_players <= variant.max_players <= 12


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_variant_validates_for_every_player_count(name: str) -> None:
    variant = load_variant(name)
    for n in range(variant.min_players, variant.max_players + 1):
        assert schedule_problems(variant, n) == [], f"{name} with {n} players"
        deals = resolve_schedule(variant, n)
        assert deals and all(d.cards >= 1 for d in deals)
        assert [d.number for d in deals] == list(range(1, len(deals) + 1))
        game = Game(variant, players=n, seed=n)
        assert game.legal_actions()
    for n in (variant.min_players - 1, variant.max_players + 1):
        with pytest.raises(ValueError):
            Game(variant, players=n)


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_variant_by_path_is_the_same(name: str) -> None:
    by_name = load_variant(name)
    by_path = load_variant(variants_dir() / f"{name}.yaml")
    assert by_path.options == by_name.options
    assert by_path.schedule == by_name.schedule
    assert by_path.deck == by_name.deck


def test_unknown_bundled_name_is_v010_with_hint() -> None:
    with pytest.raises(VariantError) as info:
        load_variant("odesa")
    (d,) = info.value.diagnostics
    assert d.code == "V010"
    assert d.hint is not None and "odessa" in d.hint


def test_missing_file_is_v001_naming_it() -> None:
    variant, diags = try_load_variant("no/such/variant.yaml")
    assert variant is None
    assert [d.code for d in diags] == ["V001"]
    assert diags[0].path == "no/such/variant.yaml"


# ------------------------------------------------------------------ extends
TWEAKED = """\
name: odessa-tweaked
extends: odessa
trump:
  when_exhausted: no_trump
scoring:
  params:
    pass: 0
"""


def test_extends_deep_merges_two_changed_keys() -> None:
    base = load_variant("odessa")
    v = loads_variant(TWEAKED)
    assert v.name == "odessa-tweaked"
    # the two changed keys
    assert v.trump.when_exhausted == "no_trump"
    assert dict(v.scoring.params) == {"pass": 0}
    # their siblings, one level down, come from the base (a deep merge, not a replace)
    assert v.trump.rule == base.trump.rule == "turned"
    assert v.scoring.deal.source == base.scoring.deal.source
    # everything else is the base's
    assert v.deck == base.deck
    assert v.schedule == base.schedule
    assert v.kinds == base.kinds
    assert v.wild == base.wild
    assert v.revoke == base.revoke
    assert v.bidding.hook == base.bidding.hook
    assert (v.min_players, v.max_players, v.default_players) == (
        base.min_players, base.max_players, base.default_players)
    assert "extends" not in v.options
    # the changed pass value is used: a made pass now scores 0
    env = {"bid": 0, "taken": 0, "cards": 1, "players": 4, "deal": 1, "deals": 1, "set": 1,
           "set_deal": 1, "set_deals": 1, "deck": 36, "made": 1, "total": 0, "is_dealer": 0}
    assert v.scoring.deal({**env, **v.scoring.params}) == 0
    assert base.scoring.deal({**env, **base.scoring.params}) == 5


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_extended_variant_plays_to_the_end(players: int) -> None:
    v = loads_variant(TWEAKED)
    game = Game(v, players=players, seed=100 + players)
    play_to_end(game, random.Random(players))
    assert game.is_over and game.phase is Phase.OVER
    assert len(game.results) == len(game.deals)
    assert sum(game.totals) == sum(r.total(s) for r in game.results for s in range(players))


def test_extends_file_on_disk_with_two_changes(tmp_path: Path) -> None:
    f = tmp_path / "tweaked.yaml"
    f.write_text(TWEAKED, encoding="utf-8")
    v = load_variant(f)
    assert v.trump.when_exhausted == "no_trump" and dict(v.scoring.params) == {"pass": 0}
    play_to_end(Game(v, players=4, seed=3), random.Random(3))


def test_extends_chain_of_bundled_variants() -> None:
    # up-and-down-online-partial -> up-and-down-online -> up-and-down
    v = load_variant("up-and-down-online-partial")
    online = load_variant("up-and-down-online")
    assert v.trump.rule == "random" == online.trump.rule
    assert v.settlement == online.settlement
    assert v.scoring.deal.source != online.scoring.deal.source
    assert v.deck.pack == 52


def test_extends_by_relative_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    odessa = (variants_dir() / "odessa.yaml").read_text(encoding="utf-8")
    (tmp_path / "base").mkdir()
    (tmp_path / "child").mkdir()
    (tmp_path / "grandchild").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "base" / "base.yaml").write_text(odessa.replace("name: odessa", "name: base"))
    (tmp_path / "child" / "child.yaml").write_text(
        "name: child\nextends: ../base/base.yaml\nbidding: {hook: false}\n")
    (tmp_path / "grandchild" / "grandchild.yaml").write_text(
        "name: grandchild\nextends: ../child/child.yaml\nkinds: {blind: {multiplier: 3}}\n")
    # relative to the extending file, not to the working directory; the chain leaves the
    # grandchild's folder, so the folder above must be allowed
    monkeypatch.chdir(tmp_path / "elsewhere")
    v = load_variant(tmp_path / "grandchild" / "grandchild.yaml", variant_path=[tmp_path])
    assert v.name == "grandchild"
    assert v.bidding.hook is False
    assert v.kinds["blind"].multiplier == 3
    assert v.kinds["blind"].bidding == "before_deal"
    assert v.deck == load_variant("odessa").deck
    play_to_end(Game(v, players=3, seed=1), random.Random(1))


def test_extends_cycle_is_v010(tmp_path: Path) -> None:
    odessa = (variants_dir() / "odessa.yaml").read_text(encoding="utf-8")
    body = "\n".join(line for line in odessa.splitlines() if not line.startswith(("name:", "#")))
    (tmp_path / "a.yaml").write_text("name: a\nextends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\n" + body + "\n")
    variant, diags = try_load_variant(tmp_path / "a.yaml")
    assert variant is None
    assert [(d.code, d.line, d.col) for d in diags] == [("V010", 1, 10)], "\n".join(map(str, diags))
    assert Path(diags[0].path or "").resolve() == (tmp_path / "b.yaml").resolve()


def test_extends_itself_is_v010(tmp_path: Path) -> None:
    odessa = (variants_dir() / "odessa.yaml").read_text(encoding="utf-8")
    f = tmp_path / "self.yaml"
    f.write_text("extends: self.yaml\n" + odessa)
    variant, diags = try_load_variant(f)
    assert variant is None
    assert [(d.code, d.line, d.col) for d in diags] == [("V010", 1, 10)], "\n".join(map(str, diags))
    assert Path(diags[0].path or "").resolve() == f.resolve()


def test_problem_in_base_file_names_the_base(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("name: base\nextends: odessa\ntrump: {rule: turnd}\n")
    (tmp_path / "child.yaml").write_text("name: child\nextends: base.yaml\n")
    variant, diags = try_load_variant(tmp_path / "child.yaml")
    assert variant is None
    assert [(d.code, d.line, d.col) for d in diags] == [("V005", 3, 15)]
    assert Path(diags[0].path or "").resolve() == (tmp_path / "base.yaml").resolve()


# ------------------------------------------------------------------ one pass
THREE_PROBLEMS = """\
name: three-problems
extends: odessa
trump: {rule: turnd}
deck: {jokers: 3}
scoring: {deal: "taken == bids ? 1 : 0"}
"""


def test_all_problems_reported_in_one_pass() -> None:
    with pytest.raises(VariantError) as info:
        loads_variant(THREE_PROBLEMS, path="three.yaml")
    got = sorted((d.code, d.line, d.col) for d in info.value.diagnostics)
    assert got == [("F002", 5, 27), ("V005", 3, 15), ("V008", 4, 16)], str(info.value)
    assert all(d.path == "three.yaml" for d in info.value.diagnostics)
    text = str(info.value)
    assert text.count("\n") == 2 and "three.yaml:3:15: error[V005]" in text


def test_one_pass_across_sections_without_extends() -> None:
    text = """\
name: standalone
players: {min: 3, max: 13}
schedule:
  - {cards: 1, tims: 2}
scoring:
  deal: sqr(taken)
trump: [turned]
"""
    with pytest.raises(VariantError) as info:
        loads_variant(text)
    assert codes(info.value) == ["F004", "V003", "V004", "V008"], str(info.value)


# ------------------------------------------------------------------ loads_variant
def test_loads_variant_full_text_equals_bundled() -> None:
    text = (variants_dir() / "odessa.yaml").read_text(encoding="utf-8")
    v = loads_variant(text)
    assert v.path == "<string>"
    assert v.options == load_variant("odessa").options


def test_loads_variant_extends_bundled_name() -> None:
    v = loads_variant("name: x\nextends: georgian\nbidding: {hook: false}\n", path="x.yaml")
    assert v.path == "x.yaml"
    assert v.name == "x" and v.bidding.hook is False and v.deck.jokers == 2


@pytest.mark.parametrize("text", ["", "   \n", "# only a comment\n", "\n\n"])
def test_loads_variant_empty_text_is_v001(text: str) -> None:
    with pytest.raises(VariantError) as info:
        loads_variant(text)
    assert [(d.code, d.line, d.col) for d in info.value.diagnostics] == [("V001", 1, 1)]


@pytest.mark.parametrize("text", ["- a\n- b\n", "just words\n", "42\n"])
def test_loads_variant_non_mapping_is_v004(text: str) -> None:
    with pytest.raises(VariantError) as info:
        loads_variant(text)
    assert [(d.code, d.line, d.col) for d in info.value.diagnostics] == [("V004", 1, 1)]


def test_variant_error_is_an_updown_error() -> None:
    assert issubclass(VariantError, UpdownError)
    with pytest.raises(VariantError) as info:
        loads_variant("name: [")
    assert all(d.code in CATALOGUE for d in info.value.diagnostics)


def test_fixed_trump_without_suit_is_rejected() -> None:
    """``rule: fixed`` needs ``suit``; without it the variant would silently play no trump."""
    with pytest.raises(VariantError) as info:
        loads_variant("name: x\nextends: odessa\ntrump: {rule: fixed}\n")
    assert codes(info.value) in (["V006"], ["V012"]), str(info.value)


def test_params_error_reported_once() -> None:
    with pytest.raises(VariantError) as info:
        loads_variant("name: x\nextends: odessa\nscoring:\n  params:\n    bonus: five\n")
    got = [(d.code, d.line, d.col) for d in info.value.diagnostics]
    assert got == [("V004", 5, 12)], str(info.value)


# ------------------------------------------------------------------ names, schedules, divisions
def problems_of(text: str) -> list[str]:
    """The diagnostics of a variant text, in file order, as ``updown variant validate`` prints them."""
    try:
        loads_variant(text, path="h.yaml")
    except VariantError as err:
        return [str(d) for d in sorted(err.diagnostics, key=lambda d: (d.line or 0, d.col or 0))]
    return []


def test_boolean_kind_names_are_v007_where_they_are_written() -> None:
    text = ("name: h\nextends: odessa\nkinds:\n  off: {multiplier: 3}\n"
            "schedule:\n  - {cards: 1, kind: off}\n  - {cards: 2, kind: no}\n")
    assert problems_of(text) == [
        "h.yaml:4:3: error[V007] deal kind name 'off' is read by YAML as a boolean (hint: quote it: 'off')",
        "h.yaml:6:22: error[V007] deal kind 'off' is read by YAML as a boolean (hint: quote it: 'off')",
        "h.yaml:7:22: error[V007] deal kind 'no' is read by YAML as a boolean (hint: quote it: 'no')",
    ]


def test_unquoted_on_is_not_the_quoted_kind_on() -> None:
    text = 'name: h\nextends: odessa\nkinds:\n  "on": {multiplier: 3}\nschedule:\n  - {cards: 1, kind: on}\n'
    assert problems_of(text) == [
        "h.yaml:6:22: error[V007] deal kind 'on' is read by YAML as a boolean (hint: quote it: 'on')"]


def test_quoted_boolean_words_are_kind_and_parameter_names() -> None:
    v = loads_variant('name: h\nextends: odessa\nkinds:\n  "on": {multiplier: 3}\n  \'off\': {multiplier: 2}\n'
                      'schedule:\n  - {cards: 1, kind: "on"}\n  - {cards: 2, kind: \'off\'}\n'
                      'scoring:\n  params: {"yes": 7}\n  deal: "taken == bid ? yes : 0"\n', path="h.yaml")
    assert sorted(v.kinds) == ["blind", "normal", "off", "on"]
    assert [(d.kind, v.kinds[d.kind].multiplier) for d in resolve_schedule(v, 4)] == [("on", 3), ("off", 2)]
    assert sorted(v.options["kinds"]) == ["blind", "off", "on"]  # what `updown variant show` prints
    assert v.scoring.params == {"pass": 5, "yes": 7}


def test_boolean_keys_are_named_as_written() -> None:
    (got,) = problems_of("name: h\nextends: odessa\ntrump:\n  on: turned\n")
    assert got.startswith("h.yaml:4:3: error[V003] unknown key 'on' in `trump` (hint: allowed: rule, ")
    assert problems_of("name: h\nextends: odessa\nscoring:\n  params: {true: 1}\n") == [
        "h.yaml:4:12: error[V004] `scoring.params`: the name must be a word, not the boolean 'true' "
        "(hint: quote it: 'true')"]


DEAL_KEYS = "it can be used in `scoring.deal` and `kinds.<name>.score`"
DEAL_NAMES = "cards, players, deal, deals, set, set_deal, set_deals, deck"


@pytest.mark.parametrize(("lines", "expected"), [
    ("bidding:\n  min: is_dealer\n",  # (the bid range may also read the bidder's zeros_in_row)
     f"h.yaml:4:8: error[F002] `is_dealer` is not known in `bidding.min`: {DEAL_KEYS} "
     f"(hint: here the names are: {DEAL_NAMES}, zeros_in_row, pass)"),
    ("bidding:\n  hook_exempt: taken > 0\n",
     f"h.yaml:4:16: error[F002] `taken` is not known in `bidding.hook_exempt`: {DEAL_KEYS} "
     f"(hint: here the names are: {DEAL_NAMES}, pass)"),
    ("scoring:\n  set_bonus: bid * 10\n",
     f"h.yaml:4:14: error[F002] `bid` is not known in `scoring.set_bonus`: {DEAL_KEYS} (hint: here the "
     f"names are: {DEAL_NAMES}, set_best, set_total, set_made, set_all_made, total, pass)"),
    ("kinds:\n  blind:\n    score: set_best\n",
     "h.yaml:5:12: error[F002] `set_best` is not known in `kinds.blind.score`: it can be used in "
     f"`scoring.set_bonus` (hint: here the names are: {DEAL_NAMES}, bid, taken, made, total, is_dealer, made_count, pass)"),
    ("scoring:\n  deal: taken + max_cards\n",
     "h.yaml:4:17: error[F002] `max_cards` is not known in `scoring.deal`: it can be used in "
     "`schedule[].cards`, `schedule[].times` and `schedule[].ramp` (hint: here the names are: "
     f"{DEAL_NAMES}, bid, taken, made, total, is_dealer, made_count, pass)"),
    ("schedule:\n  - {cards: 6, times: bid}\n",
     f"h.yaml:4:23: error[F002] `bid` is not known in `schedule[].times`: {DEAL_KEYS} "
     "(hint: here the names are: players, deck, max_cards)"),
    ("scoring:\n  deal: bidd * 10\n",  # a misspelling keeps its hint
     "h.yaml:4:9: error[F002] unknown name 'bidd' in formula (hint: did you mean 'bid'?)"),
])
def test_a_name_of_another_key_says_where_it_can_be_used(lines: str, expected: str) -> None:
    assert problems_of("name: h\nextends: odessa\n" + lines) == [expected]


def test_v009_names_every_player_count_that_fails() -> None:
    text = "name: h\nextends: oh-hell\nplayers: {min: 3, max: 7}\nschedule:\n  - {cards: 10}\n"
    assert problems_of(text) == [
        "h.yaml:5:3: error[V009] with 6 or 7 players: deal 1 needs 60 or 70 cards but the pack has 52 "
        "(hint: write `cards: 10` as `cards: \"min(10, max_cards)\"`: `max_cards` is the largest hand the "
        "pack allows (8 cards each with 6 players, 7 with 7); or allow at most 5 players (`players.max`))"]
    text = 'name: h\nextends: up-and-down\nplayers: {min: 2, max: 6}\nschedule:\n  - {cards: "abs(players - 4) * 6"}\n'
    assert problems_of(text) == [
        "h.yaml:5:3: error[V009] with 4 players: deal 1 would give 0 cards; with 6 players: deal 1 needs 72 "
        "cards but the pack has 52"]


V009_FILES = sorted((ROOT / "tests" / "bad_variants").glob("V009_*.yaml"))


@pytest.mark.parametrize("path", V009_FILES, ids=[p.stem for p in V009_FILES])
def test_v009_hint_when_followed_makes_the_file_load(path: Path) -> None:
    """The sizes the hint writes fit the pack with every player count (and leave a card to turn)."""
    text = path.read_text(encoding="utf-8")
    variant, diags = try_load_variant(path)
    (d,) = diags
    if d.hint is None:
        pytest.skip("no sizes to write: the deals are too small")
    pairs = re.findall(r"`([^`]+)` as `([^`]+)`", d.hint)
    assert pairs, d.hint
    for was, fixed in pairs:
        assert was in text, (was, d.hint)
        text = text.replace(was, fixed)
    fixed_variant = loads_variant(text, path=path.name)
    for n in range(fixed_variant.min_players, fixed_variant.max_players + 1):
        assert schedule_problems(fixed_variant, n) == []


@pytest.mark.parametrize(("lines", "expected"), [
    # the tricks run to the hand size even when the bids stop at 2
    ('bidding: {max: 2}\nscoring:\n  deal: "taken == bid ? 10 : 100 // (taken - 4)"\n',
     "h.yaml:5: error[F005] formula 'taken == bid ? 10 : 100 // (taken - 4)' divides by zero when bid = 0, "
     "taken = 4, in deal 4 with 2 players (4 cards)"),
    # the set's results are the ones its deals can give (a made bid of 3 scores 20)
    ('scoring:\n  set_bonus: "set_all_made ? 1000 // (set_best - 20) : 0"\n',
     "h.yaml:4: error[F005] formula 'set_all_made ? 1000 // (set_best - 20) : 0' divides by zero when "
     "set_all_made = 1, set_best = 20, in the set ending with deal 13 with 2 players (6 cards)"),
    ('scoring:\n  set_bonus: "100 // (set_total - 25)"\n',
     "h.yaml:4: error[F005] formula '100 // (set_total - 25)' divides by zero when set_total = 25, in the set "
     "ending with deal 13 with 2 players (6 cards)"),
    ('scoring:\n  set_bonus: "100 // (set_made - set_deals)"\n',
     "h.yaml:4: error[F005] formula '100 // (set_made - set_deals)' divides by zero when set_deals = 13, "
     "set_made = 13, in the set ending with deal 13 with 2 players (6 cards)"),
    # the schedule's formulas, each player count (not hidden behind another count's V009)
    ("players: {min: 4, max: 4}\nschedule:\n  - {cards: 36 // (players - 4)}\n",
     "h.yaml:5: error[F005] formula '36 // (players - 4)' divides by zero when players = 4, in the schedule"),
    ('players: {min: 3, max: 5}\nschedule:\n  - ramp: [1, "min(6, 1 + 12 // (players - 3))"]\n',
     "h.yaml:5: error[F005] formula 'min(6, 1 + 12 // (players - 3))' divides by zero when players = 3, "
     "in the schedule"),
    # the bid range, in the same words
    ("bidding: {min: 1 // (cards - 1)}\n",
     "h.yaml:3: error[F005] formula '1 // (cards - 1)' divides by zero when cards = 1, in deal 1 with 2 "
     "players (1 card)"),
])
def test_f005_at_load_for_what_a_game_reaches(lines: str, expected: str) -> None:
    hint = " (hint: guard the division (`x == 0 ? 0 : y // x`) or divide by a value that cannot be zero)"
    assert problems_of("name: h\nextends: odessa\n" + lines) == [expected + hint]


@pytest.mark.parametrize("lines", [
    'scoring:\n  deal: "bid > 0 ? taken // bid : 0"\n',
    'scoring:\n  deal: "taken == bid ? 0 : 100 // (taken - bid)"\n',
    'scoring:\n  deal: "10 * taken // (cards + 1) + set % 2"\n',
    # every made deal of Odessa scores 5 or more, so the best of a set all made is never 0
    'scoring:\n  set_bonus: "set_all_made ? 1000 // set_best : 0"\n',
    # no set of Odessa's reaches a best deal of 1000 points
    'scoring:\n  set_bonus: "100 // (set_best - 1000)"\n',
    'bidding: {min: "cards > 3 ? 6 // cards : 0"}\n',
    'schedule:\n  - {cards: "players > 4 ? 30 // players : 6"}\n',
])
def test_guarded_or_unreachable_divisions_load(lines: str) -> None:
    assert problems_of("name: h\nextends: odessa\n" + lines) == []


# ------------------------------------------------------------------ safety
def code_lines(path: Path) -> list[tuple[int, str]]:
    """Lines of a module that are not comments (docstrings are dropped via the AST below)."""
    return [(i, line) for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


PY_FILES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", PY_FILES, ids=[p.relative_to(PACKAGE).as_posix() for p in PY_FILES])
def test_no_unsafe_yaml_or_eval_in_source(path: Path) -> None:
    bad = []
    for i, line in code_lines(path):
        code = line.split(" #")[0]
        if re.search(r"\byaml\.load(_all)?\s*\(", code) and "SafeLoader" not in code:
            bad.append((i, line))
        if re.search(r"\b(unsafe_load|full_load|FullLoader|UnsafeLoader)\b|Loader\s*=\s*yaml\.Loader\b", code):
            bad.append((i, line))
        if re.search(r"(?<![\w.])(eval|exec)\s*\(", code):
            bad.append((i, line))
    assert not bad, f"{path.name}: " + "; ".join(f"{i}: {line.strip()}" for i, line in bad)


@pytest.mark.parametrize("path", PY_FILES, ids=[p.relative_to(PACKAGE).as_posix() for p in PY_FILES])
def test_no_unsafe_calls_in_ast(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name):
            assert f.id not in {"eval", "exec", "__import__"}, f"{path.name}:{node.lineno}: {f.id}()"
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "yaml":
            assert f.attr not in {"unsafe_load", "full_load", "unsafe_load_all", "full_load_all"}
            if f.attr in {"load", "load_all", "compose", "compose_all", "parse", "scan"}:
                loaders = [k.value for k in node.keywords if k.arg == "Loader"] + node.args[1:2]
                assert loaders, f"{path.name}:{node.lineno}: yaml.{f.attr} without Loader"
                assert all(ast.unparse(x) in {"yaml.SafeLoader", "yaml.CSafeLoader", "SafeLoader"}
                           for x in loaders), f"{path.name}:{node.lineno}: yaml.{f.attr} not safe"


def test_yaml_is_read_only_in_yamltree() -> None:
    users = [p.name for p in PY_FILES if re.search(r"^\s*(import yaml|from yaml)", p.read_text(), re.M)]
    assert users == ["yamltree.py"]


def test_python_tags_are_not_constructed(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    text = f"name: !!python/object/apply:os.mkdir [{str(target)!r}]\nextends: odessa\n"
    try:
        loads_variant(text)
    except VariantError:
        pass
    assert not target.exists()


# ------------------------------------------------------------------ junk input never crashes
def assert_only_variant_error(text: str) -> None:
    try:
        loads_variant(text)
    except VariantError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.code in CATALOGUE, d
            assert d.code[0] in "VF", d


# Junk that breaks the YAML layer itself (recursive aliases, deep nesting, bad
# tagged scalars) is pinned in test_yamltree.py; these break the loader above it.
CRASHERS = {
    "schedule division by zero": "name: x\nextends: odessa\nschedule:\n  - {cards: 1 // 0}\n",
    "schedule division by players - players":
        "name: x\nextends: odessa\nschedule:\n  - {cards: 6 // (players - players)}\n",
    "huge times": "name: x\nextends: odessa\nschedule:\n  - {cards: 1, times: 10000000000000000000}\n",
    "huge ramp": "name: x\nextends: odessa\nschedule:\n  - ramp: [1, 10000000000000000000]\n",
}


@pytest.mark.parametrize("text", list(CRASHERS.values()), ids=list(CRASHERS))
def test_known_junk_gives_variant_error(text: str) -> None:
    assert_only_variant_error(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
@example("name: [")
@example("\t")
@example("? [a]\n: b\n")
@example("extends: 5\n")
@example("extends: odessa\nplayers: {min: , max: 4}\n")
def test_random_text_only_raises_variant_error(text: str) -> None:
    assert_only_variant_error(text)


YAML_WORDS = st.sampled_from(
    sorted(SCHEMA) + ["min", "max", "default", "pack", "jokers", "remove", "designated_jokers",
                      "rule", "suit", "cards", "times", "ramp", "kind", "set", "deal", "params",
                      "lead", "follow", "card", "hook", "blind", "odessa", "georgian", "6S", "JK",
                      "turned", "fixed", "no", "yes", "players", "max_cards", "1 // 0", "-1", "0",
                      "7", "99", "taken == bid ? 10 : 0", "abs(1, 2)"])
SCALARS = st.one_of(YAML_WORDS, st.integers(-3, 60), st.booleans(), st.none())
TREES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(YAML_WORDS, inner, max_size=5)),
    max_leaves=25,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(YAML_WORDS, TREES, max_size=8), st.booleans())
def test_random_yaml_structures_only_raise_variant_error(data: dict, extend: bool) -> None:
    import yaml

    if extend:
        data = {"extends": "odessa", **data}
    text = yaml.safe_dump(data, allow_unicode=True)
    assert_only_variant_error(text)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BUNDLED), st.data())
def test_mutated_bundled_files_only_raise_variant_error(name: str, data: st.DataObject) -> None:
    text = (variants_dir() / f"{name}.yaml").read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + data.draw(st.text(max_size=6)) + text[j:]
    assert_only_variant_error(text)


def test_alias_expansion_is_not_exponential() -> None:
    """A "billion laughs" file must not make the loader build every expanded copy."""
    lines = ["l0: &l0 [a, a, a, a, a, a, a, a, a, a]"]
    for i in range(1, 7):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]")
    script = textwrap.dedent(f"""
        from updown_dsl.lang.loader import loads_variant, VariantError
        try:
            loads_variant({chr(10).join(lines) + chr(10)!r})
        except VariantError:
            pass
    """)
    try:
        subprocess.run([sys.executable, "-c", script], cwd=ROOT, timeout=8, check=True,
                       capture_output=True)
    except subprocess.TimeoutExpired:
        pytest.fail("loading a 7-level YAML alias bomb (10**7 expanded nodes) took over 8 s")


def test_a_key_at_the_wrong_level_says_where_it_belongs() -> None:
    with pytest.raises(VariantError) as info:
        loads_variant("name: h\nextends: oh-hell\nmust_trump: true\n", path="h.yaml")
    (d,) = info.value.diagnostics
    assert d.code == "V003" and d.hint == "this key belongs under `play:` (indent it there)"
