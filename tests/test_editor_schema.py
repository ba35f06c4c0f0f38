"""The JSON Schema editors read (lang/editor_schema.py): current, valid, and in agreement with the loader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from updown_dsl.cli import app
from updown_dsl.lang.editor_schema import SHIPPED, schema_text

from clikit import make_runner

jsonschema = pytest.importorskip("jsonschema", reason="the jsonschema package is not installed")

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads(SHIPPED.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
MODELINE = "# yaml-language-server: $schema=../updown_dsl/lang/updown-variant.schema.json"


def errors(data: object) -> list[str]:
    return [e.message for e in VALIDATOR.iter_errors(data)]


def test_the_shipped_schema_is_current_and_a_valid_schema() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == schema_text(), \
        "run `python -m updown_dsl.lang.editor_schema --write`"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", sorted((ROOT / "variants").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_variant_passes_and_names_the_schema(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0] == MODELINE
    assert errors(yaml.safe_load(text)) == []


# A key YAML reads as a boolean (`true:`) is not a string key at all: only the loader sees it.
CORPUS = [p for p in sorted((ROOT / "tests" / "bad_variants").glob("V00[345]_*.yaml"))
          if p.stem != "V004_kind_name_true"]


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_the_corpus_key_type_and_word_errors_are_rejected_by_the_schema_too(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert errors(data), f"{path.name} passes the JSON Schema, but the loader refuses it"


def test_what_the_schema_rejects() -> None:
    base = {"name": "x", "extends": "odessa"}
    assert errors(base) == []
    assert errors({"name": "x", "schedule": [{"cards": 1}]}) == ["'scoring' is a required property"]
    assert any("'rul'" in m for m in errors({**base, "trump": {"rul": "turned"}}))  # unknown key
    assert any("'flipped' is not one of" in m for m in errors({**base, "trump": {"rule": "flipped"}}))
    assert any("is not of type 'integer'" in m for m in errors({**base, "deck": {"pack": "many"}}))
    assert errors({**base, "deck": {"pack": 36, "designated_jokers": ["6S", "10♥"]}}) == []
    assert errors({**base, "deck": {"designated_jokers": ["1S"]}})  # not a card
    assert errors({**base, "schedule": [{"ramp": [1, "max_cards"]}, {"set": [{"cards": 9, "times": 4}]}]}) == []
    assert errors({**base, "schedule": [{"ramp": [1, 2, 3]}]})


def test_updown_variant_schema_prints_it() -> None:
    result = make_runner().invoke(app, ["variant", "schema"])
    assert result.exit_code == 0 and json.loads(result.stdout) == SCHEMA
